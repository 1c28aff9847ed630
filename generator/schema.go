package generator

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/toolgen/toolgen/model"
)

// schema is one JSON Schema (draft 2020-12) node.
//
// Its exported fields are the keywords toolgen writes, in the order they are written;
// empty fields are left out. Values that come from the model as JSON text (defaults,
// enum values, bounds) are kept as json.RawMessage and written verbatim.
//
// The unexported fields carry what the builder knows about a node, so descriptions can be
// moved to the property that holds it, and so warnings can point at a field. The
// dialects lower the schema's JSON (runtime/dialect), never this tree.
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
	// named is the named type whose schema this node is: the target of a $ref, or a
	// named type's inlined body.
	named string
	// typeDoc is the named type's doc comment, for an inlined named type.
	typeDoc string
	// note is text the node adds to the description of the property that holds it: an
	// enum's list of values, the syntax of a duration.
	note string
	// field is the struct field or parameter whose property this node is, so dialects
	// can point warnings at it; nil for other nodes.
	field *model.Field
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

// nullable returns s made to accept null as well: a type array for a plain node, else
// {"anyOf":[s,{"type":"null"}]}.
func nullable(s *schema) *schema {
	if s.acceptsNull() {
		return s
	}
	if len(s.Type) == 1 && s.Ref == "" && s.Enum == nil && s.Const == nil && s.AnyOf == nil {
		s.Type = append(s.Type, "null")
		return s
	}
	return &schema{AnyOf: []*schema{s, {Type: typeList{"null"}}}}
}

// nonNull returns the branch of a nullable anyOf that is not null, or s itself.
func (s *schema) nonNull() *schema {
	if len(s.AnyOf) == 2 && s.AnyOf[1].isNull() {
		return s.AnyOf[0]
	}
	return s
}

// cloneInt copies an optional int.
func cloneInt(p *int) *int {
	if p == nil {
		return nil
	}
	v := *p
	return &v
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
