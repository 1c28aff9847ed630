// Package schematree is the JSON Schema (draft 2020-12) tree toolgen writes, shared by
// the generator, which builds it from the model, and runtime/dialect, which parses a
// canonical schema into it and lowers it to each provider's dialect.
//
// A node's exported fields are the keywords toolgen writes, in the order they are
// written; each package keeps what it alone knows about a node in the extension Ext,
// which is never written. The package imports only the standard library, since
// runtime/dialect, which every program using generated tools links, imports it. It is
// for toolgen's own packages: its API follows them, as runtime/toolimpl's follows
// generated code, and is not part of the runtime's compatibility promise.
package schematree

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// Schema is one JSON Schema node whose extension, of type X, is the user's own.
//
// Its exported keyword fields are written in field order; empty fields are left out.
// Values (defaults, enum values, bounds) are kept as compact JSON and written verbatim.
// A node is a tree, never shared: a transformation works on a Clone.
type Schema[X any] struct {
	Ref                  string            `json:"$ref,omitempty"`
	Type                 TypeList          `json:"type,omitempty"`
	Title                string            `json:"title,omitempty"`
	Description          string            `json:"description,omitempty"`
	Enum                 []json.RawMessage `json:"enum,omitempty"`
	Const                json.RawMessage   `json:"const,omitempty"`
	Format               string            `json:"format,omitempty"`
	Pattern              string            `json:"pattern,omitempty"`
	ContentEncoding      string            `json:"contentEncoding,omitempty"`
	MinLength            *int              `json:"minLength,omitempty"`
	MaxLength            *int              `json:"maxLength,omitempty"`
	Minimum              json.RawMessage   `json:"minimum,omitempty"`
	ExclusiveMinimum     json.RawMessage   `json:"exclusiveMinimum,omitempty"`
	Maximum              json.RawMessage   `json:"maximum,omitempty"`
	ExclusiveMaximum     json.RawMessage   `json:"exclusiveMaximum,omitempty"`
	MultipleOf           json.RawMessage   `json:"multipleOf,omitempty"`
	Items                *Schema[X]        `json:"items,omitempty"`
	MinItems             *int              `json:"minItems,omitempty"`
	MaxItems             *int              `json:"maxItems,omitempty"`
	UniqueItems          bool              `json:"uniqueItems,omitempty"`
	Properties           *Map[*Schema[X]]  `json:"properties,omitempty"`
	Required             []string          `json:"required,omitempty"`
	AdditionalProperties *Schema[X]        `json:"additionalProperties,omitempty"`
	PropertyNames        *Schema[X]        `json:"propertyNames,omitempty"`
	MinProperties        *int              `json:"minProperties,omitempty"`
	MaxProperties        *int              `json:"maxProperties,omitempty"`
	AnyOf                []*Schema[X]      `json:"anyOf,omitempty"`
	OneOf                []*Schema[X]      `json:"oneOf,omitempty"`
	Default              json.RawMessage   `json:"default,omitempty"`
	Deprecated           bool              `json:"deprecated,omitempty"`
	Examples             []json.RawMessage `json:"examples,omitempty"`
	XMCPHeader           string            `json:"x-mcp-header,omitempty"`
	Defs                 Map[*Schema[X]]   `json:"$defs,omitempty"`

	// Boolean, when set, makes the node the boolean schema true or false; the keyword
	// fields are then ignored.
	Boolean *bool `json:"-"`
	// Ext is what the package using the tree records on the node besides its keywords.
	// It is never written, and Clone copies it as a value.
	Ext X `json:"-"`
}

// Bool returns the boolean schema b.
func Bool[X any](b bool) *Schema[X] {
	return &Schema[X]{Boolean: &b}
}

// MarshalJSON writes the node's keywords in field order, or true or false for a boolean
// schema.
func (s *Schema[X]) MarshalJSON() ([]byte, error) {
	return s.appendJSON(nil)
}

// Keywords returns s as compact JSON text, or "" if it cannot be written.
func (s *Schema[X]) Keywords() string {
	b, err := EncodeJSON(s, false)
	if err != nil {
		return ""
	}
	return string(b)
}

// IsNull reports whether s is exactly {"type":"null"}.
func (s *Schema[X]) IsNull() bool {
	return s.Keywords() == `{"type":"null"}`
}

// AcceptsNull reports whether s already accepts null as it stands: it allows the
// "null" type, or it has no "type" and nothing else (enum, const, $ref, anyOf) that could
// exclude null; the other keywords apply to one type of value each.
func (s *Schema[X]) AcceptsNull() bool {
	if s.Boolean != nil {
		return *s.Boolean
	}
	if slices.Contains(s.Type, "null") || slices.ContainsFunc(s.AnyOf, (*Schema[X]).IsNull) {
		return true
	}
	return len(s.Type) == 0 && s.Ref == "" && s.Enum == nil && s.Const == nil && s.AnyOf == nil && s.OneOf == nil
}

// Clone returns a deep copy of s (nil for nil), for code that transforms a tree it does
// not own. The extension is copied as a value.
func (s *Schema[X]) Clone() *Schema[X] {
	if s == nil {
		return nil
	}
	c := *s
	if s.Boolean != nil {
		b := *s.Boolean
		c.Boolean = &b
	}
	c.Type = slices.Clone(s.Type)
	c.Enum = cloneValues(s.Enum)
	c.Const = slices.Clone(s.Const)
	c.MinLength = CloneInt(s.MinLength)
	c.MaxLength = CloneInt(s.MaxLength)
	c.Minimum = slices.Clone(s.Minimum)
	c.ExclusiveMinimum = slices.Clone(s.ExclusiveMinimum)
	c.Maximum = slices.Clone(s.Maximum)
	c.ExclusiveMaximum = slices.Clone(s.ExclusiveMaximum)
	c.MultipleOf = slices.Clone(s.MultipleOf)
	c.Items = s.Items.Clone()
	c.MinItems = CloneInt(s.MinItems)
	c.MaxItems = CloneInt(s.MaxItems)
	if s.Properties != nil {
		p := CloneMap(*s.Properties)
		c.Properties = &p
	}
	c.Required = slices.Clone(s.Required)
	c.AdditionalProperties = s.AdditionalProperties.Clone()
	c.PropertyNames = s.PropertyNames.Clone()
	c.MinProperties = CloneInt(s.MinProperties)
	c.MaxProperties = CloneInt(s.MaxProperties)
	if s.AnyOf != nil {
		c.AnyOf = make([]*Schema[X], len(s.AnyOf))
		for i, a := range s.AnyOf {
			c.AnyOf[i] = a.Clone()
		}
	}
	if s.OneOf != nil {
		c.OneOf = make([]*Schema[X], len(s.OneOf))
		for i, a := range s.OneOf {
			c.OneOf[i] = a.Clone()
		}
	}
	c.Default = slices.Clone(s.Default)
	c.Examples = cloneValues(s.Examples)
	c.Defs = CloneMap(s.Defs)
	return &c
}

// cloneValues returns a deep copy of a list of JSON values (nil for nil).
func cloneValues(vs []json.RawMessage) []json.RawMessage {
	if vs == nil {
		return nil
	}
	c := make([]json.RawMessage, len(vs))
	for i, v := range vs {
		c[i] = slices.Clone(v)
	}
	return c
}

// Walk calls fn for s and then for every subschema below it, "$defs" included, depth
// first, in the order they are written. A transformation uses it to rewrite keywords in
// place (on a Clone).
func (s *Schema[X]) Walk(fn func(*Schema[X])) {
	if s == nil {
		return
	}
	fn(s)
	s.Items.Walk(fn)
	if s.Properties != nil {
		for _, e := range *s.Properties {
			e.Schema.Walk(fn)
		}
	}
	s.AdditionalProperties.Walk(fn)
	s.PropertyNames.Walk(fn)
	for _, a := range s.AnyOf {
		a.Walk(fn)
	}
	for _, a := range s.OneOf {
		a.Walk(fn)
	}
	for _, e := range s.Defs {
		e.Schema.Walk(fn)
	}
}

// TypeList is the "type" keyword: a single name, or an array of names once a node is
// made nullable.
type TypeList []string

// MarshalJSON writes a single type as a string and several as an array.
func (t TypeList) MarshalJSON() ([]byte, error) {
	if len(t) == 1 {
		return EncodeJSON(t[0], false)
	}
	return EncodeJSON([]string(t), false)
}

// Entry is one entry of a Map.
type Entry[S any] struct {
	// Name is the entry's key.
	Name string
	// Schema is the entry's value.
	Schema S
}

// Map is an ordered JSON object of schemas, of type S: "properties" in declaration
// order, "$defs" sorted by name. runtime/dialect also uses it for the properties of the
// schemas of dialects that have a tree of their own.
type Map[S any] []Entry[S]

// MarshalJSON writes the entries as a JSON object, in order.
func (m Map[S]) MarshalJSON() ([]byte, error) {
	return m.appendJSON(nil)
}

// Get returns the schema named name, or the zero S (nil for a pointer) if there is none.
func (m Map[S]) Get(name string) S {
	for _, e := range m {
		if e.Name == name {
			return e.Schema
		}
	}
	var zero S
	return zero
}

// CloneMap returns a deep copy of m (nil for nil).
func CloneMap[X any](m Map[*Schema[X]]) Map[*Schema[X]] {
	if m == nil {
		return nil
	}
	c := make(Map[*Schema[X]], len(m))
	for i, e := range m {
		c[i] = Entry[*Schema[X]]{Name: e.Name, Schema: e.Schema.Clone()}
	}
	return c
}

// CloneInt copies an optional int, such as a node's minLength.
func CloneInt(p *int) *int {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// EncodeJSON marshals v as toolgen writes JSON: without escaping <, > and &, either
// compact (no trailing newline) or indented by two spaces with a trailing newline, as
// files are written.
func EncodeJSON(v any, indent bool) ([]byte, error) {
	if a, ok := v.(appender); ok && !indent {
		// A node appends itself as encoding/json would write it, compact and valid
		// (appendJSON): encoding/json would only check and copy it again, which for
		// the thousands of schemas of a big package cost a scan of each. On an error,
		// encoding/json below reports it as it always did.
		if a.isNil() {
			return []byte("null"), nil
		}
		if b, err := a.appendJSON(nil); err == nil {
			return b, nil
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if indent {
		// What an Encoder with SetIndent writes: the same indentation of the same
		// compact text and its newline, into a buffer grown once for it, where the
		// Encoder's own grows by doubling from nothing at each call (the schema
		// files of a big package are megabytes).
		var out bytes.Buffer
		if err := json.Indent(&out, buf.Bytes(), "", "  "); err != nil {
			return nil, err
		}
		return out.Bytes(), nil
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// JoinText joins the non-empty parts as paragraphs, as descriptions are assembled.
func JoinText(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n\n")
}
