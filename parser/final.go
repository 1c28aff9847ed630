package parser

import (
	"cmp"
	"slices"
	"strings"

	"github.com/toolgen/toolgen/model"
)

// finishTypes gives every named type its ID (the type name, qualified by its package
// name when names clash), points every reference at it, marks recursive types and
// returns the types sorted by ID.
func (b *pkgBuilder) finishTypes() []*model.NamedType {
	byName := map[string][]*namedEntry{}
	for _, e := range b.list {
		byName[e.nt.Name] = append(byName[e.nt.Name], e)
	}
	for name, es := range byName {
		if len(es) == 1 {
			es[0].nt.ID = name
			continue
		}
		ids := map[string]int{}
		for _, e := range es {
			ids[e.obj.Pkg().Name()+"."+name]++
		}
		for _, e := range es {
			id := e.obj.Pkg().Name() + "." + name
			if ids[id] > 1 { // same package name too: spell out the path
				id = strings.NewReplacer("/", ".", "~", ".").Replace(e.obj.Pkg().Path()) + "." + name
			}
			e.nt.ID = id
		}
	}
	for ref, e := range b.refs {
		ref.Ref = e.nt.ID
	}
	b.markRecursive()

	var out []*model.NamedType
	for _, e := range b.list {
		if e.err == nil {
			out = append(out, e.nt)
		}
	}
	slices.SortFunc(out, func(x, y *model.NamedType) int { return cmp.Compare(x.ID, y.ID) })
	return out
}

// markRecursive marks the named types that refer to themselves, directly or through
// others: those in a strongly connected component of the reference graph with more
// than one type, or with an edge to itself (Tarjan's algorithm).
func (b *pkgBuilder) markRecursive() {
	index := map[*namedEntry]int{}
	low := map[*namedEntry]int{}
	onStack := map[*namedEntry]bool{}
	var stack []*namedEntry
	next := 0
	var visit func(e *namedEntry)
	visit = func(e *namedEntry) {
		index[e], low[e] = next, next
		next++
		stack = append(stack, e)
		onStack[e] = true
		for _, w := range e.edges {
			if _, seen := index[w]; !seen {
				visit(w)
				low[e] = min(low[e], low[w])
			} else if onStack[w] {
				low[e] = min(low[e], index[w])
			}
		}
		if low[e] != index[e] {
			return
		}
		var scc []*namedEntry
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			scc = append(scc, w)
			if w == e {
				break
			}
		}
		if len(scc) > 1 || slices.Contains(e.edges, e) {
			for _, w := range scc {
				w.nt.Recursive = true
			}
		}
	}
	for _, e := range b.list {
		if _, seen := index[e]; !seen {
			visit(e)
		}
	}
}
