package dialect

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// schema is one JSON Schema (draft 2020-12) node.
//
// Its exported fields are the keywords this package lowers, in the order toolgen writes
// them; empty fields are left out. Values (defaults, enum values, bounds) are kept as
// compact JSON and written verbatim. A node is a tree, never shared: a lowering works on
// a clone.
type schema struct {
	Ref                  string            `json:"$ref,omitempty"`
	Type                 typeList          `json:"type,omitempty"`
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
	Items                *schema           `json:"items,omitempty"`
	MinItems             *int              `json:"minItems,omitempty"`
	MaxItems             *int              `json:"maxItems,omitempty"`
	UniqueItems          bool              `json:"uniqueItems,omitempty"`
	Properties           *schemaMap        `json:"properties,omitempty"`
	Required             []string          `json:"required,omitempty"`
	AdditionalProperties *schema           `json:"additionalProperties,omitempty"`
	PropertyNames        *schema           `json:"propertyNames,omitempty"`
	MinProperties        *int              `json:"minProperties,omitempty"`
	MaxProperties        *int              `json:"maxProperties,omitempty"`
	AnyOf                []*schema         `json:"anyOf,omitempty"`
	Default              json.RawMessage   `json:"default,omitempty"`
	Deprecated           bool              `json:"deprecated,omitempty"`
	Defs                 schemaMap         `json:"$defs,omitempty"`

	// boolean makes the node the boolean schema true or false; the other fields are
	// then ignored.
	boolean *bool
	// note is the text a named type adds to the description of a property that refers
	// to it (its documented enum values, the syntax of a duration), recovered from the
	// end of the node's description (see splitNote).
	note string
	// field is the JSON Pointer, in the schema as given, of the property whose value
	// this node is, so warnings can point at it; "" for other nodes.
	field string
	// extra lists the keywords this package does not lower, in the order met.
	extra []string
}

// typeList is the "type" keyword: a single name, or an array of names once a node is
// made nullable.
type typeList []string

// MarshalJSON writes a single type as a string and several as an array.
func (t typeList) MarshalJSON() ([]byte, error) {
	if len(t) == 1 {
		return encodeJSON(t[0], false)
	}
	return encodeJSON([]string(t), false)
}

// namedSchema is one entry of a schemaMap.
type namedSchema struct {
	Name   string
	Schema *schema
}

// schemaMap is an ordered JSON object of schemas: "properties" in declaration order,
// "$defs" sorted by name.
type schemaMap []namedSchema

// MarshalJSON writes the entries as a JSON object, in order.
func (m schemaMap) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, e := range m {
		if i > 0 {
			buf.WriteByte(',')
		}
		key, err := encodeJSON(e.Name, false)
		if err != nil {
			return nil, err
		}
		val, err := encodeJSON(e.Schema, false)
		if err != nil {
			return nil, err
		}
		buf.Write(key)
		buf.WriteByte(':')
		buf.Write(val)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// get returns the schema named name, or nil.
func (m schemaMap) get(name string) *schema {
	for _, e := range m {
		if e.Name == name {
			return e.Schema
		}
	}
	return nil
}

// schemaKeywords has schema's fields without its MarshalJSON method.
type schemaKeywords schema

// MarshalJSON writes the node's keywords in field order, or true or false for a boolean
// schema.
func (s *schema) MarshalJSON() ([]byte, error) {
	if s.boolean != nil {
		if *s.boolean {
			return []byte("true"), nil
		}
		return []byte("false"), nil
	}
	return encodeJSON((*schemaKeywords)(s), false)
}

// boolSchema returns the boolean schema b.
func boolSchema(b bool) *schema {
	return &schema{boolean: &b}
}

// isNull reports whether s is exactly {"type":"null"}.
func (s *schema) isNull() bool {
	return s.keywords() == `{"type":"null"}`
}

// keywords returns s as compact JSON text, or "" if it cannot be written.
func (s *schema) keywords() string {
	b, err := encodeJSON(s, false)
	if err != nil {
		return ""
	}
	return string(b)
}

// acceptsNull reports whether s already accepts null as it stands: it allows the
// "null" type, or it has no "type" and nothing else (enum, const, $ref, anyOf) that could
// exclude null; the other keywords apply to one type of value each.
func (s *schema) acceptsNull() bool {
	if s.boolean != nil {
		return *s.boolean
	}
	if slices.Contains(s.Type, "null") || slices.ContainsFunc(s.AnyOf, (*schema).isNull) {
		return true
	}
	return len(s.Type) == 0 && s.Ref == "" && s.Enum == nil && s.Const == nil && s.AnyOf == nil
}

// clone returns a deep copy of s, for dialects that transform the canonical schema.
func (s *schema) clone() *schema {
	if s == nil {
		return nil
	}
	c := *s
	if s.boolean != nil {
		b := *s.boolean
		c.boolean = &b
	}
	c.Type = slices.Clone(s.Type)
	c.Enum = make([]json.RawMessage, 0, len(s.Enum))
	for _, v := range s.Enum {
		c.Enum = append(c.Enum, slices.Clone(v))
	}
	if s.Enum == nil {
		c.Enum = nil
	}
	c.Const = slices.Clone(s.Const)
	c.MinLength = cloneInt(s.MinLength)
	c.MaxLength = cloneInt(s.MaxLength)
	c.Minimum = slices.Clone(s.Minimum)
	c.ExclusiveMinimum = slices.Clone(s.ExclusiveMinimum)
	c.Maximum = slices.Clone(s.Maximum)
	c.ExclusiveMaximum = slices.Clone(s.ExclusiveMaximum)
	c.MultipleOf = slices.Clone(s.MultipleOf)
	c.Items = s.Items.clone()
	c.MinItems = cloneInt(s.MinItems)
	c.MaxItems = cloneInt(s.MaxItems)
	if s.Properties != nil {
		p := s.Properties.clone()
		c.Properties = &p
	}
	c.Required = slices.Clone(s.Required)
	c.AdditionalProperties = s.AdditionalProperties.clone()
	c.PropertyNames = s.PropertyNames.clone()
	c.MinProperties = cloneInt(s.MinProperties)
	c.MaxProperties = cloneInt(s.MaxProperties)
	if s.AnyOf != nil {
		c.AnyOf = make([]*schema, len(s.AnyOf))
		for i, a := range s.AnyOf {
			c.AnyOf[i] = a.clone()
		}
	}
	c.Default = slices.Clone(s.Default)
	c.Defs = s.Defs.clone()
	return &c
}

// clone returns a deep copy of m.
func (m schemaMap) clone() schemaMap {
	if m == nil {
		return nil
	}
	c := make(schemaMap, len(m))
	for i, e := range m {
		c[i] = namedSchema{Name: e.Name, Schema: e.Schema.clone()}
	}
	return c
}

// cloneInt copies an optional int.
func cloneInt(p *int) *int {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// walk calls fn for s and then for every subschema below it, depth first, in the order
// they are written. A dialect uses it to rewrite keywords in place (on a clone).
func (s *schema) walk(fn func(*schema)) {
	if s == nil {
		return
	}
	fn(s)
	s.Items.walk(fn)
	if s.Properties != nil {
		for _, e := range *s.Properties {
			e.Schema.walk(fn)
		}
	}
	s.AdditionalProperties.walk(fn)
	s.PropertyNames.walk(fn)
	for _, a := range s.AnyOf {
		a.walk(fn)
	}
	for _, e := range s.Defs {
		e.Schema.walk(fn)
	}
}

// encodeJSON marshals v without escaping <, > and &, either compact (no trailing
// newline) or indented by two spaces with a trailing newline, as files are written.
func encodeJSON(v any, indent bool) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if indent {
		return buf.Bytes(), nil
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// joinText joins the non-empty parts as paragraphs.
func joinText(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n\n")
}
