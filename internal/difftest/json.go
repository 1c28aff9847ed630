package difftest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/toolgen/toolgen/runtime/jsonread"
)

// Node is a JSON value that keeps what encoding/json's maps lose: the order of an
// object's members and keys given more than once.
type Node struct {
	Kind  Kind
	Str   string      // KindString
	Num   json.Number // KindNumber
	Bool  bool        // KindBool
	Keys  []string    // KindObject: member names, in order, duplicates kept
	Vals  []*Node     // KindObject: member values, parallel to Keys
	Items []*Node     // KindArray
}

// Kind is the JSON type of a Node.
type Kind uint8

// The kinds of JSON values.
const (
	KindNull Kind = iota
	KindBool
	KindNumber
	KindString
	KindArray
	KindObject
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// Parse reads exactly one JSON value (surrounding white space allowed), keeping member
// order and duplicate keys. Strings are unescaped as encoding/json does (invalid UTF-8
// and lone surrogates become U+FFFD).
func Parse(data []byte) (*Node, error) {
	if !json.Valid(data) {
		return nil, errors.New("not well-formed JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the value")
	}
	return n, nil
}

func parseValue(dec *json.Decoder) (*Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	return parseFrom(dec, tok)
}

func parseFrom(dec *json.Decoder, tok json.Token) (*Node, error) {
	switch t := tok.(type) {
	case nil:
		return &Node{Kind: KindNull}, nil
	case bool:
		return &Node{Kind: KindBool, Bool: t}, nil
	case json.Number:
		return &Node{Kind: KindNumber, Num: t}, nil
	case string:
		return &Node{Kind: KindString, Str: t}, nil
	case json.Delim:
		switch t {
		case '{':
			n := &Node{Kind: KindObject}
			for {
				tok, err := dec.Token()
				if err != nil {
					return nil, err
				}
				if tok == json.Delim('}') {
					return n, nil
				}
				key, ok := tok.(string)
				if !ok {
					return nil, fmt.Errorf("object key is %T", tok)
				}
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				n.Keys = append(n.Keys, key)
				n.Vals = append(n.Vals, v)
			}
		case '[':
			n := &Node{Kind: KindArray, Items: []*Node{}}
			for {
				tok, err := dec.Token()
				if err != nil {
					return nil, err
				}
				if tok == json.Delim(']') {
					return n, nil
				}
				v, err := parseFrom(dec, tok)
				if err != nil {
					return nil, err
				}
				n.Items = append(n.Items, v)
			}
		}
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// Depth returns how deeply n nests objects and arrays: 0 for a scalar, 1 for {} or [].
func (n *Node) Depth() int {
	d := 0
	for _, c := range n.children() {
		d = max(d, c.Depth())
	}
	if n.Kind == KindObject || n.Kind == KindArray {
		d++
	}
	return d
}

func (n *Node) children() []*Node {
	switch n.Kind {
	case KindObject:
		return n.Vals
	case KindArray:
		return n.Items
	}
	return nil
}

// Duplicate returns the JSON Pointer of the first key given twice in one object of n,
// or "" and false when there is none.
func (n *Node) Duplicate() (string, bool) {
	return n.duplicate("")
}

func (n *Node) duplicate(at string) (string, bool) {
	switch n.Kind {
	case KindObject:
		seen := make(map[string]bool, len(n.Keys))
		for i, k := range n.Keys {
			if seen[k] {
				return at + "/" + jsonread.EscapeToken(k), true
			}
			seen[k] = true
			if p, ok := n.Vals[i].duplicate(at + "/" + jsonread.EscapeToken(k)); ok {
				return p, true
			}
		}
	case KindArray:
		for i, c := range n.Items {
			if p, ok := c.duplicate(at + "/" + strconv.Itoa(i)); ok {
				return p, true
			}
		}
	}
	return "", false
}

// Get returns the value of the last member named key, as encoding/json would keep.
func (n *Node) Get(key string) (*Node, bool) {
	for i := len(n.Keys) - 1; i >= 0; i-- {
		if n.Keys[i] == key {
			return n.Vals[i], true
		}
	}
	return nil, false
}

// Has reports whether the object n has a member named key.
func (n *Node) Has(key string) bool {
	_, ok := n.Get(key)
	return ok
}

// Value converts n into what jsonschema validates: map[string]any, []any,
// json.Number, string, bool and nil. Later duplicate keys win.
func (n *Node) Value() any {
	switch n.Kind {
	case KindBool:
		return n.Bool
	case KindNumber:
		return n.Num
	case KindString:
		return n.Str
	case KindArray:
		out := make([]any, len(n.Items))
		for i, c := range n.Items {
			out[i] = c.Value()
		}
		return out
	case KindObject:
		out := make(map[string]any, len(n.Keys))
		for i, k := range n.Keys {
			out[k] = n.Vals[i].Value()
		}
		return out
	}
	return nil
}

// JSON renders n as compact JSON, members in order.
func (n *Node) JSON() []byte { return n.appendJSON(nil) }

func (n *Node) appendJSON(b []byte) []byte {
	switch n.Kind {
	case KindNull:
		return append(b, "null"...)
	case KindBool:
		return strconv.AppendBool(b, n.Bool)
	case KindNumber:
		return append(b, n.Num...)
	case KindString:
		return appendString(b, n.Str)
	case KindArray:
		b = append(b, '[')
		for i, c := range n.Items {
			if i > 0 {
				b = append(b, ',')
			}
			b = c.appendJSON(b)
		}
		return append(b, ']')
	case KindObject:
		b = append(b, '{')
		for i, k := range n.Keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = n.Vals[i].appendJSON(b)
		}
		return append(b, '}')
	}
	panic("difftest: bad node kind")
}

func appendString(b []byte, s string) []byte {
	q, err := json.Marshal(s)
	if err != nil {
		panic(err) // strings always marshal
	}
	return append(b, q...)
}

// clone returns a deep copy of n.
func (n *Node) clone() *Node {
	c := *n
	c.Keys = append([]string(nil), n.Keys...)
	if n.Vals != nil {
		c.Vals = make([]*Node, len(n.Vals))
		for i, v := range n.Vals {
			c.Vals[i] = v.clone()
		}
	}
	if n.Items != nil {
		c.Items = make([]*Node, len(n.Items))
		for i, v := range n.Items {
			c.Items[i] = v.clone()
		}
	}
	return &c
}

// SplitPointer splits a JSON Pointer into its unescaped reference tokens; "" is the
// root, with none.
func SplitPointer(p string) ([]string, error) {
	toks, ok := jsonread.SplitPointer(p)
	if !ok {
		return nil, fmt.Errorf("%q is not a JSON Pointer", p)
	}
	return toks, nil
}
