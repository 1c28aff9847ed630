package engine

import "github.com/toolgen/toolgen/runtime/jsonread"

// The sensitive paths of a dynamic tool's schema, where they cross references: what
// marks the properties a path with "**" names, and which nodes lie on a cycle (whose
// paths go on with "**", see sensitivePaths).

// markSensitivePath marks the properties a Tool.Sensitive path names (segments after
// the leading "/"), reporting whether it names any.
func markSensitivePath(root *node, segs []string) bool {
	for _, s := range segs {
		if s == "**" {
			return markSensitiveDeep(root, segs)
		}
	}
	return markSensitive(root, segs)
}

// markSensitiveDeep marks the properties a path with "**" (any number of keys and
// indexes, also none) names, in one visit of each node for each segment: the schema's
// references may make it a graph with cycles.
func markSensitiveDeep(root *node, segs []string) bool {
	type at struct {
		n   *node
		seg int
	}
	seen := map[at]bool{}
	found := false
	var walk func(n *node, i int)
	walk = func(n *node, i int) {
		if n == nil || i == len(segs) {
			return
		}
		n = resolve(n)
		if seen[at{n, i}] {
			return
		}
		seen[at{n, i}] = true
		switch seg := segs[i]; {
		case seg == "**":
			walk(n, i+1)
			for _, p := range n.props {
				walk(p.node, i)
			}
			walk(n.items, i)
			walk(n.additional, i)
			for _, v := range n.variants {
				walk(v, i)
			}
		case n.kind == kindUnion:
			for _, v := range n.variants {
				walk(v, i)
			}
		case n.kind == kindArray:
			if seg == "*" {
				walk(n.items, i+1)
			}
		case n.kind == kindObject:
			if k, ok := n.index[jsonread.UnescapeToken(seg)]; ok && seg != "*" {
				if i == len(segs)-1 {
					n.props[k].sensitive, found = true, true
				}
				walk(n.props[k].node, i+1)
			}
			if seg == "*" {
				walk(n.additional, i+1)
			}
		}
	}
	walk(root, 0)
	return found
}

// cyclicNodes returns the nodes reachable from root that lie on a cycle of the
// schema's references: those of a strongly connected component of more than one node,
// or with an edge to themselves (Tarjan's algorithm).
func cyclicNodes(root *node) map[*node]bool {
	index := map[*node]int{}
	low := map[*node]int{}
	onStack := map[*node]bool{}
	var stack []*node
	cyclic := map[*node]bool{}
	edges := func(n *node) []*node {
		out := append([]*node{n.ref, n.items, n.additional}, n.variants...)
		for _, p := range n.props {
			out = append(out, p.node)
		}
		return out
	}
	var visit func(n *node)
	visit = func(n *node) {
		index[n], low[n] = len(index), len(index)
		stack = append(stack, n)
		onStack[n] = true
		self := false
		for _, w := range edges(n) {
			if w == nil {
				continue
			}
			self = self || w == n
			if _, seen := index[w]; !seen {
				visit(w)
				low[n] = min(low[n], low[w])
			} else if onStack[w] {
				low[n] = min(low[n], index[w])
			}
		}
		if low[n] != index[n] {
			return
		}
		var scc []*node
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			scc = append(scc, w)
			if w == n {
				break
			}
		}
		if len(scc) > 1 || self {
			for _, w := range scc {
				cyclic[w] = true
			}
		}
	}
	visit(root)
	return cyclic
}
