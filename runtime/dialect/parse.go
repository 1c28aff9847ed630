package dialect

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/runtime/jsonread"
)

// annotations are keywords a lowering drops without a word: they say nothing a
// provider checks.
var annotations = map[string]bool{
	"$schema": true, "$id": true, "$comment": true, "examples": true,
	"readOnly": true, "writeOnly": true, "x-toolgen-sensitive": true,
	// An MCP client's header (SEP-2243): MCP alone reads it, from the canonical schema.
	"x-mcp-header": true,
}

// The notes toolgen adds to the description of a time.Duration value.
const (
	durationNote       = `A Go duration such as "1h30m" or "90s".`
	durationOutputNote = "A duration in nanoseconds."
)

// parse reads a schema. Keywords it does not know are listed in each node's extra, and
// keep the schema out of strict mode.
func parse(raw json.RawMessage) (*schema, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errors.New("the schema is empty")
	}
	if !json.Valid(raw) {
		return nil, errors.New("the schema is not valid JSON")
	}
	s, ok := parseNode(raw, "", false)
	if !ok {
		return nil, errors.New("the schema is not an object")
	}
	return s, nil
}

// parseNode reads the node raw at the JSON Pointer at; prop says that it is the value
// of a property. It reports false for a value that is not a schema.
func parseNode(raw json.RawMessage, at string, prop bool) (*schema, bool) {
	raw = bytes.TrimSpace(raw)
	switch string(raw) {
	case "true":
		return boolSchema(true), true
	case "false":
		return boolSchema(false), true
	}
	s := &schema{}
	if prop {
		s.Ext.field = at
	}
	if !members(raw, func(key string, v json.RawMessage) bool {
		if !setKeyword(s, key, compact(v), at) {
			if !annotations[key] {
				s.Ext.extra = append(s.Ext.extra, key)
			}
		}
		return true
	}) {
		return nil, false
	}
	if at != "" && s.Defs != nil {
		// Only the root's $defs are followed.
		s.Defs, s.Ext.extra = nil, append(s.Ext.extra, "$defs")
	}
	s.Ext.note = splitNote(s)
	return s, true
}

// setKeyword reads one keyword into s; it reports false for a keyword it does not know
// or cannot read.
func setKeyword(s *schema, key string, v json.RawMessage, at string) bool {
	str := func(p *string) bool {
		if s, ok := plainString(v); ok {
			*p = s
			return true
		}
		return json.Unmarshal(v, p) == nil
	}
	num := func(p *json.RawMessage) bool {
		if _, ok := new(big.Rat).SetString(string(v)); !ok || v[0] == '"' {
			return false
		}
		*p = v
		return true
	}
	count := func(p **int) bool {
		var n int
		if json.Unmarshal(v, &n) != nil || n < 0 {
			return false
		}
		*p = &n
		return true
	}
	sub := func(p **schema, seg string) bool {
		n, ok := parseNode(v, at+seg, false)
		*p = n
		return ok
	}
	switch key {
	case "$ref":
		return str(&s.Ref)
	case "type":
		if one, ok := plainString(v); ok {
			s.Type = typeList{one}
			return true
		}
		var one string
		if json.Unmarshal(v, &one) == nil {
			s.Type = typeList{one}
			return true
		}
		var many []string
		if json.Unmarshal(v, &many) != nil || len(many) == 0 {
			return false
		}
		s.Type = many
		return true
	case "title":
		return str(&s.Title)
	case "description":
		return str(&s.Description)
	case "enum":
		var vals []json.RawMessage
		if json.Unmarshal(v, &vals) != nil || vals == nil {
			return false
		}
		for i := range vals {
			vals[i] = compact(vals[i])
		}
		s.Enum = vals
		return true
	case "const":
		s.Const = v
		return true
	case "format":
		return str(&s.Format)
	case "pattern":
		return str(&s.Pattern)
	case "contentEncoding":
		return str(&s.ContentEncoding)
	case "minLength":
		return count(&s.MinLength)
	case "maxLength":
		return count(&s.MaxLength)
	case "minimum":
		return num(&s.Minimum)
	case "exclusiveMinimum":
		return num(&s.ExclusiveMinimum)
	case "maximum":
		return num(&s.Maximum)
	case "exclusiveMaximum":
		return num(&s.ExclusiveMaximum)
	case "multipleOf":
		return num(&s.MultipleOf)
	case "items":
		return sub(&s.Items, "/items")
	case "minItems":
		return count(&s.MinItems)
	case "maxItems":
		return count(&s.MaxItems)
	case "uniqueItems":
		return json.Unmarshal(v, &s.UniqueItems) == nil
	case "properties":
		m, ok := parseMap(v, at+"/properties/", true)
		if ok {
			s.Properties = &m
		}
		return ok
	case "required":
		return json.Unmarshal(v, &s.Required) == nil
	case "additionalProperties":
		return sub(&s.AdditionalProperties, "/additionalProperties")
	case "propertyNames":
		return sub(&s.PropertyNames, "/propertyNames")
	case "minProperties":
		return count(&s.MinProperties)
	case "maxProperties":
		return count(&s.MaxProperties)
	case "anyOf":
		var branches []json.RawMessage
		if json.Unmarshal(v, &branches) != nil || len(branches) == 0 {
			return false
		}
		for i, b := range branches {
			n, ok := parseNode(b, at+"/anyOf/"+strconv.Itoa(i), false)
			if !ok {
				return false
			}
			s.AnyOf = append(s.AnyOf, n)
		}
		return true
	case "oneOf":
		var branches []json.RawMessage
		if json.Unmarshal(v, &branches) != nil || len(branches) == 0 {
			return false
		}
		for i, b := range branches {
			n, ok := parseNode(b, at+"/oneOf/"+strconv.Itoa(i), false)
			if !ok {
				return false
			}
			s.OneOf = append(s.OneOf, n)
		}
		return true
	case "default":
		s.Default = v
		return true
	case "deprecated":
		return json.Unmarshal(v, &s.Deprecated) == nil
	case "$defs":
		m, ok := parseMap(v, at+"/$defs/", false)
		if ok && len(m) > 0 {
			s.Defs = m
		}
		return ok
	}
	return false
}

// parseMap reads an object of schemas in order; prefix is the JSON Pointer of its keys.
func parseMap(raw json.RawMessage, prefix string, props bool) (schemaMap, bool) {
	m := schemaMap{}
	if !members(raw, func(name string, v json.RawMessage) bool {
		n, ok := parseNode(v, prefix+jsonread.EscapeToken(name), props)
		if ok {
			m = append(m, namedSchema{Name: name, Schema: n})
		}
		return ok
	}) {
		return nil, false
	}
	return m, true
}

// members calls fn with each member of the JSON object raw, in order: its key decoded
// as encoding/json decodes it, and its value's text (part of raw). raw is valid JSON
// (parse checked it). It reports false when raw is not an object, or as soon as fn
// does. It reads raw once, where a json.Decoder's Token and Decode cost a scan, a
// copy and an error value per member (the end of each value in a stream), at every
// level of every schema.
func members(raw []byte, fn func(key string, v json.RawMessage) bool) bool {
	i := jsonread.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return false
	}
	if i = jsonread.SkipSpace(raw, i+1); i < len(raw) && raw[i] == '}' {
		return true
	}
	for {
		if i >= len(raw) || raw[i] != '"' {
			return false
		}
		end, plain, p := jsonread.ScanString(raw, i)
		if p != jsonread.OK {
			return false
		}
		key := string(raw[i+1 : end-1])
		if !plain {
			key = jsonread.Unquote(raw[i:end])
		}
		if i = jsonread.SkipSpace(raw, end); i >= len(raw) || raw[i] != ':' {
			return false
		}
		// raw is part of the text parse checked (json.Valid): where its value ends is
		// all there is to find.
		start := jsonread.SkipSpace(raw, i+1)
		if end = jsonread.SkipLoose(raw, start); end < 0 {
			return false
		}
		if !fn(key, raw[start:end]) {
			return false
		}
		if i = jsonread.SkipSpace(raw, end); i >= len(raw) {
			return false
		}
		switch raw[i] {
		case '}':
			return true
		case ',':
			i = jsonread.SkipSpace(raw, i+1)
		default:
			return false
		}
	}
}

// plainString returns the contents of v when it is a JSON string without escapes, of
// ASCII only, as json.Unmarshal would read it, without reflection; ok is false for
// any other value, which json.Unmarshal is left to read.
func plainString(v json.RawMessage) (s string, ok bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	end, plain, p := jsonread.ScanString(v, 0)
	if p != jsonread.OK || !plain || end != len(v) {
		return "", false
	}
	return string(v[1 : end-1]), true
}

// compact returns v as compact JSON.
func compact(v json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if json.Compact(&buf, v) != nil {
		return v
	}
	return buf.Bytes()
}

// splitNote returns the paragraphs at the end of s's description that toolgen adds to
// a named type's documentation (the list of its enum values with their comments, the
// syntax of a duration), which stay when a property's own description replaces the
// type's.
func splitNote(s *schema) string {
	paras := strings.Split(s.Description, "\n\n")
	var note []string
	for len(paras) > 0 && len(note) < 2 {
		p := paras[len(paras)-1]
		if p != durationNote && p != durationOutputNote && !isEnumNote(p, s) {
			break
		}
		note = append([]string{p}, note...)
		paras = paras[:len(paras)-1]
	}
	return strings.Join(note, "\n\n")
}

// isEnumNote reports whether p lists s's enum (or const) values, one "- value" or
// "- value: comment" line each, in order.
func isEnumNote(p string, s *schema) bool {
	vals := s.Enum
	if vals == nil && s.Const != nil {
		vals = []json.RawMessage{s.Const}
	}
	lines := strings.Split(p, "\n")
	if len(vals) == 0 || len(lines) != len(vals) {
		return false
	}
	for i, l := range lines {
		item := "- " + string(vals[i])
		if l != item && !strings.HasPrefix(l, item+": ") {
			return false
		}
	}
	return true
}

// compareNumbers compares two JSON numbers as exact rationals; 0 when either is not one.
func compareNumbers(a, b string) int {
	x, okx := new(big.Rat).SetString(a)
	y, oky := new(big.Rat).SetString(b)
	if !okx || !oky {
		return 0
	}
	return x.Cmp(y)
}
