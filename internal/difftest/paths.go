package difftest

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// PathExists reports whether the JSON Pointer ptr, taken from a violation, names
// something real: the root, a place the input schema describes (a declared property,
// an array item), or a value present in the arguments. For arguments that are not
// well-formed JSON it asks only that every property name on the path occurs as a key
// (or inside a string holding JSON) before the syntax error.
func (o *Oracle) PathExists(ptr string, v Verdict, args []byte) bool {
	toks, err := SplitPointer(ptr)
	if err != nil {
		return false
	}
	if len(toks) == 0 {
		return true
	}
	if o.inSchema(toks) {
		return true
	}
	if v.Input != nil {
		return inNode(v.Input, toks)
	}
	keys := map[string]bool{}
	partialKeys(args, keys, 4)
	for _, t := range toks {
		if _, err := strconv.Atoi(t); err == nil {
			continue
		}
		found := false
		for k := range keys {
			if names(t, k) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// names reports whether tok, a step of a violation's path, names the key: the key
// itself, or, as the decoder writes long names, its first bytes followed by "…", or
// "*" (a name hidden below a sensitive property).
func names(tok, key string) bool {
	if tok == key || tok == "*" {
		return true
	}
	prefix, cut := strings.CutSuffix(tok, "…")
	return cut && len(key) > len(prefix) && strings.HasPrefix(key, prefix)
}

// member returns the value of the first member of an object that tok names.
func member(n *Node, tok string) (*Node, bool) {
	if v, ok := n.Get(tok); ok {
		return v, true
	}
	for i, k := range n.Keys {
		if names(tok, k) {
			return n.Vals[i], true
		}
	}
	return nil, false
}

func (o *Oracle) inSchema(toks []string) bool {
	s := o.resolve(o.doc)
	for _, t := range toks {
		if props, ok := s["properties"].(map[string]any); ok {
			if p, ok := props[t].(map[string]any); ok {
				s = o.resolve(p)
				continue
			}
		}
		if i, err := strconv.Atoi(t); err == nil && i >= 0 {
			if it := o.item(s, i); it != nil {
				s = it
				continue
			}
		}
		return false
	}
	return true
}

func inNode(n *Node, toks []string) bool {
	for _, t := range toks {
		switch n.Kind {
		case KindObject:
			v, ok := member(n, t)
			if !ok {
				return false
			}
			n = v
		case KindArray:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(n.Items) {
				return false
			}
			n = n.Items[i]
		case KindString:
			// A string holding JSON the decoder may have read (double encoding).
			m, err := Parse([]byte(n.Str))
			if err != nil || !inNode(m, []string{t}) {
				return false
			}
			v, _ := pick(m, t)
			n = v
		default:
			return false
		}
	}
	return true
}

func pick(n *Node, t string) (*Node, bool) {
	if n.Kind == KindObject {
		return member(n, t)
	}
	i, _ := strconv.Atoi(t)
	return n.Items[i], true
}

// partialKeys collects the keys of args up to its first syntax error, and the keys of
// the strings in it that hold JSON, to depth levels of strings in strings.
func partialKeys(args []byte, keys map[string]bool, depth int) {
	if depth == 0 {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	for {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		if s, ok := tok.(string); ok {
			keys[s] = true
			partialKeys([]byte(s), keys, depth-1)
		}
	}
}
