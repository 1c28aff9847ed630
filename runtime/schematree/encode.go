package schematree

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// The encoder of a Schema: it appends the node's keywords as encoding/json would write
// the struct's fields (the field order, omitempty, RawMessage values compacted, strings
// escaped as with SetEscapeHTML(false)), byte for byte, but directly: encoding/json
// calls MarshalJSON at every node and compacts what each returns again at every level
// above it, which for the schema files of a package of thousands of tools was most of
// their encoding.

// appender is a *Schema[X] of any X: a node that appends its own JSON, which Map's
// entries use.
type appender interface {
	appendJSON(dst []byte) ([]byte, error)
	isNil() bool
}

func (s *Schema[X]) isNil() bool { return s == nil }

// appendJSON appends s as MarshalJSON writes it.
func (s *Schema[X]) appendJSON(dst []byte) ([]byte, error) {
	if s.Boolean != nil {
		return strconv.AppendBool(dst, *s.Boolean), nil
	}
	w := objectWriter{dst: append(dst, '{')}
	w.str("$ref", s.Ref)
	if len(s.Type) > 0 {
		w.key("type")
		if len(s.Type) == 1 {
			w.dst = appendString(w.dst, s.Type[0])
		} else {
			w.strings(s.Type)
		}
	}
	w.str("title", s.Title)
	w.str("description", s.Description)
	w.values("enum", s.Enum)
	w.raw("const", s.Const)
	w.str("format", s.Format)
	w.str("pattern", s.Pattern)
	w.str("contentEncoding", s.ContentEncoding)
	w.int("minLength", s.MinLength)
	w.int("maxLength", s.MaxLength)
	w.raw("minimum", s.Minimum)
	w.raw("exclusiveMinimum", s.ExclusiveMinimum)
	w.raw("maximum", s.Maximum)
	w.raw("exclusiveMaximum", s.ExclusiveMaximum)
	w.raw("multipleOf", s.MultipleOf)
	appendNode(&w, "items", s.Items)
	w.int("minItems", s.MinItems)
	w.int("maxItems", s.MaxItems)
	w.bool("uniqueItems", s.UniqueItems)
	if s.Properties != nil {
		w.key("properties")
		w.add((*s.Properties).appendJSON)
	}
	if len(s.Required) > 0 {
		w.key("required")
		w.strings(s.Required)
	}
	appendNode(&w, "additionalProperties", s.AdditionalProperties)
	appendNode(&w, "propertyNames", s.PropertyNames)
	w.int("minProperties", s.MinProperties)
	w.int("maxProperties", s.MaxProperties)
	appendList(&w, "anyOf", s.AnyOf)
	appendList(&w, "oneOf", s.OneOf)
	w.raw("default", s.Default)
	w.bool("deprecated", s.Deprecated)
	w.values("examples", s.Examples)
	w.str("x-mcp-header", s.XMCPHeader)
	if len(s.Defs) > 0 {
		w.key("$defs")
		w.add(s.Defs.appendJSON)
	}
	if w.err != nil {
		return nil, w.err
	}
	return append(w.dst, '}'), nil
}

// objectWriter appends the members of one JSON object, keeping the first error.
type objectWriter struct {
	dst  []byte
	more bool // a member is written
	err  error
}

// key starts a member. Keys are the keywords' names, which need no escaping.
func (w *objectWriter) key(k string) {
	if w.more {
		w.dst = append(w.dst, ',')
	}
	w.more = true
	w.dst = append(w.dst, '"')
	w.dst = append(w.dst, k...)
	w.dst = append(w.dst, '"', ':')
}

func (w *objectWriter) str(k, v string) {
	if v != "" {
		w.key(k)
		w.dst = appendString(w.dst, v)
	}
}

func (w *objectWriter) bool(k string, v bool) {
	if v {
		w.key(k)
		w.dst = append(w.dst, "true"...)
	}
}

func (w *objectWriter) int(k string, v *int) {
	if v != nil {
		w.key(k)
		w.dst = strconv.AppendInt(w.dst, int64(*v), 10)
	}
}

func (w *objectWriter) raw(k string, v json.RawMessage) {
	if len(v) > 0 {
		w.key(k)
		w.value(v)
	}
}

// value appends a JSON value compacted, as encoding/json writes a RawMessage: null
// for nil.
func (w *objectWriter) value(v json.RawMessage) {
	if v == nil {
		w.dst = append(w.dst, "null"...)
		return
	}
	if w.err != nil {
		return
	}
	dst, err := appendCompact(w.dst, v)
	if err != nil {
		w.err = err
		return
	}
	w.dst = dst
}

func (w *objectWriter) values(k string, vs []json.RawMessage) {
	if len(vs) == 0 {
		return
	}
	w.key(k)
	w.dst = append(w.dst, '[')
	for i, v := range vs {
		if i > 0 {
			w.dst = append(w.dst, ',')
		}
		w.value(v)
	}
	w.dst = append(w.dst, ']')
}

func (w *objectWriter) strings(vs []string) {
	w.dst = append(w.dst, '[')
	for i, v := range vs {
		if i > 0 {
			w.dst = append(w.dst, ',')
		}
		w.dst = appendString(w.dst, v)
	}
	w.dst = append(w.dst, ']')
}

// add appends what fn appends, unless an error came first.
func (w *objectWriter) add(fn func([]byte) ([]byte, error)) {
	if w.err != nil {
		return
	}
	dst, err := fn(w.dst)
	if err != nil {
		w.err = err
		return
	}
	w.dst = dst
}

// appendNode appends the member k, a subschema, unless it is nil.
func appendNode[X any](w *objectWriter, k string, s *Schema[X]) {
	if s != nil {
		w.key(k)
		w.add(s.appendJSON)
	}
}

// appendList appends the member k, a list of subschemas (anyOf, oneOf), unless it is
// empty; a nil subschema is null, as encoding/json writes a nil pointer.
func appendList[X any](w *objectWriter, k string, l []*Schema[X]) {
	if len(l) == 0 {
		return
	}
	w.key(k)
	w.dst = append(w.dst, '[')
	for i, s := range l {
		if i > 0 {
			w.dst = append(w.dst, ',')
		}
		if s == nil {
			w.dst = append(w.dst, "null"...)
			continue
		}
		w.add(s.appendJSON)
	}
	w.dst = append(w.dst, ']')
}

// appendJSON appends m as its MarshalJSON writes it.
func (m Map[S]) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, '{')
	for i, e := range m {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, e.Name)
		dst = append(dst, ':')
		if a, ok := any(e.Schema).(appender); ok {
			if a.isNil() {
				dst = append(dst, "null"...)
				continue
			}
			var err error
			if dst, err = a.appendJSON(dst); err != nil {
				return nil, err
			}
			continue
		}
		val, err := EncodeJSON(e.Schema, false)
		if err != nil {
			return nil, err
		}
		dst = append(dst, val...)
	}
	return append(dst, '}'), nil
}

// appendString appends s quoted as encoding/json quotes it without HTML escaping: the
// common case of printable ASCII with nothing to escape directly, anything else
// through encoding/json.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			b, err := EncodeJSON(s, false) // a string always encodes
			if err != nil {
				panic("schematree: " + err.Error())
			}
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// appendCompact appends the JSON value v without insignificant space, as
// encoding/json writes a RawMessage.
func appendCompact(dst []byte, v json.RawMessage) ([]byte, error) {
	buf := bytes.NewBuffer(dst)
	if err := json.Compact(buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
