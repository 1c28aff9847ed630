package engine

import (
	"errors"

	"github.com/toolgen/toolgen/runtime/invalid"
)

// This file is the read-only view of a compiled program that the generator walks to
// emit a generated decoder's checks (toolimpl.CompileSchema): the same nodes the
// interpreter walks, so that the rules a generated tool and its dynamic twin enforce
// are read from the schema once, by one compiler.

// Bounds are the number keywords of a schema as it writes them (JSON text), "" for
// one that is absent.
type Bounds struct {
	Minimum, Maximum, ExclusiveMinimum, ExclusiveMaximum, MultipleOf string
}

// Node is a read-only view of one node of a compiled program. A reference is looked
// through: every method but Nullable reads the node the reference names. The zero
// Node stands for no schema (the items of a non-array, a closed object's other
// properties); its methods return zero values.
type Node struct{ n *node }

// Prop is a read-only view of one property of an object node.
type Prop struct{ p *prop }

// View returns the view of p's root node, or an error when p is the general engine's
// program (a schema beyond the keywords toolgen writes), which has no such nodes.
func (p *Program) View() (Node, error) {
	if p.root == nil {
		return Node{}, errors.New("the schema is beyond the keywords toolgen writes (the general engine compiled it)")
	}
	return Node{p.root}, nil
}

// r returns the node v reads, references looked through, or nil.
func (v Node) r() *node {
	if v.n == nil {
		return nil
	}
	return resolve(v.n)
}

// IsZero reports that v stands for no schema.
func (v Node) IsZero() bool { return v.n == nil }

// Same reports whether v and o read the same node, references looked through.
func (v Node) Same(o Node) bool { return v.r() == o.r() }

// Nullable reports that the schema allows null besides its type (type [T, "null"], or
// the anyOf of an optional value), on the node or a reference on the way to it.
func (v Node) Nullable() bool {
	for n := v.n; n != nil; n = n.ref {
		if n.nullable {
			return true
		}
	}
	return false
}

// Kind names the kind of value the node reads: "any", "string", "date-time",
// "duration", "bytes", "integer", "unsigned", "number", "boolean", "object", "array"
// or "union"; "" for the zero Node.
func (v Node) Kind() string {
	n := v.r()
	if n == nil {
		return ""
	}
	return [...]string{
		kindAny: "any", kindString: "string", kindDateTime: "date-time", kindDuration: "duration",
		kindBytes: "bytes", kindInteger: "integer", kindUnsigned: "unsigned", kindNumber: "number",
		kindBool: "boolean", kindObject: "object", kindArray: "array", kindUnion: "union",
	}[n.kind]
}

// Sensitive reports that the schema says x-toolgen-sensitive.
func (v Node) Sensitive() bool {
	n := v.r()
	return n != nil && (n.sensitive || v.n.sensitive)
}

// count returns a count keyword that is -1 when absent: 0 and false then.
func count(c int) (int, bool) {
	if c < 0 {
		return 0, false
	}
	return c, true
}

// MinLength returns minLength, and whether the schema has it.
func (v Node) MinLength() (int, bool) {
	if n := v.r(); n != nil && isString(n) {
		return count(n.minLen)
	}
	return 0, false
}

// MaxLength returns maxLength, and whether the schema has it.
func (v Node) MaxLength() (int, bool) {
	if n := v.r(); n != nil && isString(n) {
		return count(n.maxLen)
	}
	return 0, false
}

// isString reports a node of type string, whose length keywords are set.
func isString(n *node) bool {
	switch n.kind {
	case kindString, kindDateTime, kindDuration, kindBytes:
		return true
	}
	return false
}

// Pattern returns the pattern's source, "" when absent.
func (v Node) Pattern() string {
	if n := v.r(); n != nil {
		return n.patternSrc
	}
	return ""
}

// Format returns the format, "" when absent.
func (v Node) Format() string {
	if n := v.r(); n != nil {
		return string(n.format)
	}
	return ""
}

// Enum returns the values of the enum or the const (compact JSON, in schema order)
// and the keyword ("enum" or "const"), or nil and "".
func (v Node) Enum() (texts []string, keyword string) {
	n := v.r()
	if n == nil || !n.hasEnum {
		return nil, ""
	}
	if n.enumCode == invalid.Const {
		return n.enumTexts, "const"
	}
	return n.enumTexts, "enum"
}

// Bounds returns the number keywords of a number or integer.
func (v Node) Bounds() Bounds {
	if n := v.r(); n != nil {
		return n.bounds
	}
	return Bounds{}
}

// MinItems returns minItems of an array, and whether the schema has it.
func (v Node) MinItems() (int, bool) {
	if n := v.r(); n != nil && n.kind == kindArray {
		return count(n.minItems)
	}
	return 0, false
}

// MaxItems returns maxItems of an array, and whether the schema has it.
func (v Node) MaxItems() (int, bool) {
	if n := v.r(); n != nil && n.kind == kindArray {
		return count(n.maxItems)
	}
	return 0, false
}

// UniqueItems reports uniqueItems of an array.
func (v Node) UniqueItems() bool {
	n := v.r()
	return n != nil && n.kind == kindArray && n.unique
}

// MinProperties returns minProperties of an object, and whether the schema has it.
func (v Node) MinProperties() (int, bool) {
	if n := v.r(); n != nil && n.kind == kindObject {
		return count(n.minProps)
	}
	return 0, false
}

// MaxProperties returns maxProperties of an object, and whether the schema has it.
func (v Node) MaxProperties() (int, bool) {
	if n := v.r(); n != nil && n.kind == kindObject {
		return count(n.maxProps)
	}
	return 0, false
}

// PropertyNames returns the names propertyNames allows, in schema order, or nil.
func (v Node) PropertyNames() []string {
	if n := v.r(); n != nil {
		return n.keyNames
	}
	return nil
}

// Items returns the schema of an array's items.
func (v Node) Items() Node {
	if n := v.r(); n != nil && n.kind == kindArray {
		return Node{n.items}
	}
	return Node{}
}

// Additional returns the schema of an object's other properties (a map's values);
// the zero Node when no other property is allowed.
func (v Node) Additional() Node {
	if n := v.r(); n != nil && n.kind == kindObject && n.additional != nil {
		return Node{n.additional}
	}
	return Node{}
}

// Properties returns the declared properties of an object, in schema order.
func (v Node) Properties() []Prop {
	n := v.r()
	if n == nil || n.kind != kindObject {
		return nil
	}
	out := make([]Prop, len(n.props))
	for i, p := range n.props {
		out[i] = Prop{p}
	}
	return out
}

// Property returns the declared property name of an object, and whether there is one.
func (v Node) Property(name string) (Prop, bool) {
	n := v.r()
	if n == nil || n.kind != kindObject {
		return Prop{}, false
	}
	i, ok := n.index[name]
	if !ok {
		return Prop{}, false
	}
	return Prop{n.props[i]}, true
}

// Tag returns the discriminator of a union, "" for any other node.
func (v Node) Tag() string {
	if n := v.r(); n != nil {
		return n.tag
	}
	return ""
}

// Variants returns the variants of a union (object nodes) and their discriminator
// values, in schema order.
func (v Node) Variants() ([]Node, []string) {
	n := v.r()
	if n == nil || n.kind != kindUnion {
		return nil, nil
	}
	out := make([]Node, len(n.variants))
	for i, x := range n.variants {
		out[i] = Node{x}
	}
	return out, n.tagValues
}

// Name returns the property's name ("" for the zero Prop).
func (p Prop) Name() string {
	if p.p == nil {
		return ""
	}
	return p.p.name
}

// Node returns the property's schema.
func (p Prop) Node() Node {
	if p.p == nil {
		return Node{}
	}
	return Node{p.p.node}
}

// Required reports that the object's required lists the property.
func (p Prop) Required() bool { return p.p != nil && p.p.required }

// Default returns the default of an optional property (compact JSON), "" when none.
func (p Prop) Default() string {
	if p.p == nil {
		return ""
	}
	return string(p.p.def)
}

// Sensitive reports that the property's values are never echoed: the tool's
// Sensitive paths name it, or its schema says x-toolgen-sensitive.
func (p Prop) Sensitive() bool { return p.p != nil && (p.p.sensitive || p.Node().Sensitive()) }
