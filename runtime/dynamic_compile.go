package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// This file compiles a dynamic tool's input schema (NewTool) into a program: a graph
// of nodes, one per schema, that dynamic.go interprets over a Decoder with the same
// calls, in the same order, that a generated decoder makes for the same schema.

// SensitiveKeyword is the schema extension that marks a property of a dynamic tool's
// input schema as sensitive, as the tool tag's sensitive keyword does for a generated
// tool: `"x-toolgen-sensitive": true` on the property's schema.
const SensitiveKeyword = "x-toolgen-sensitive"

// nodeKind is the kind of value a node reads.
type nodeKind uint8

const (
	kindAny      nodeKind = iota // {}: any JSON value, read as Decoder.Any reads it
	kindString                   // a string, with its keywords
	kindDateTime                 // type string, format date-time: read as Decoder.Time
	kindDuration                 // type string with toolgen's Go duration pattern: Decoder.Duration
	kindBytes                    // type string, contentEncoding base64: Decoder.Bytes
	kindInteger                  // a signed integer: Decoder.Int
	kindUnsigned                 // an unsigned integer: Decoder.Uint
	kindNumber                   // a number: Decoder.Float(64)
	kindBool
	kindObject // properties and/or additional properties
	kindArray
)

// durationPattern is the pattern toolgen writes for a Go time.Duration: a string under
// it is read as a Go duration, with the same messages.
const durationPattern = `^[-+]?(0|(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$`

// node is one compiled schema.
type node struct {
	kind     nodeKind
	nullable bool  // type [T, "null"], or anyOf [T, {type: null}]
	ref      *node // a $ref: read as the node it names (kind is then unused)

	// Strings.
	minLen, maxLen int // -1 when absent
	pattern        *regexp.Regexp
	patternSrc     string
	patternMessage string
	format         Format // "" when absent

	// Enum and const, for strings, numbers and booleans: a value must be one of them.
	enumCode Code
	enumMsg  string
	enumStr  []string
	enumInt  []int64
	enumUint []uint64
	enumF    []float64
	enumBool []bool

	// Integers: the inclusive range the Decoder checks, then the other keywords.
	lo, hi   int64
	ulo, uhi uint64
	// Numbers (and integers' exclusive bounds and multipleOf).
	checks   []numCheck
	multiple string // multipleOf of a number, as JSON text ("" when absent)
	multInt  int64  // multipleOf of an integer (0 when absent)
	multText string

	// Booleans.
	boolConst, hasBoolConst bool

	// Objects.
	props      []*prop
	index      map[string]int
	names      []string // the property names, in order, for Unknown's suggestion
	additional *node    // the schema of other properties; nil: none allowed
	keyEnum    []string // propertyNames enum, or nil
	minProps   int      // -1 when absent
	maxProps   int

	// Arrays.
	items              *node
	minItems, maxItems int // -1 when absent
	unique             bool
}

// prop is one property of an object node.
type prop struct {
	name      string
	node      *node
	required  bool
	sensitive bool
	def       []byte // the default's compact JSON text, or nil
}

// numCheck is a bound a number is checked against after it is read.
type numCheck struct {
	code    Code
	msg     string
	f       float64
	i       int64
	integer bool // compare as integers (i), else as floats (f)
	op      byte // '<' fails below, '>' above, '[' at or below, ']' at or above
}

// jv is a JSON value of a schema, objects keeping their key order.
type jv struct {
	kind  byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' boolean, 'z' null
	str   string
	b     bool
	keys  []string
	vals  []*jv
	items []*jv
}

func (v *jv) get(key string) (*jv, bool) {
	for i, k := range v.keys {
		if k == key {
			return v.vals[i], true
		}
	}
	return nil, false
}

// parseSchema reads a schema's JSON text, refusing duplicate keys.
func parseSchema(b []byte) (*jv, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := parseJV(dec, "")
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the schema")
	}
	return v, nil
}

func parseJV(dec *json.Decoder, at string) (*jv, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			v := &jv{kind: 'o'}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k := kt.(string)
				if slices.Contains(v.keys, k) {
					return nil, fmt.Errorf("%s: the key %q appears twice", orRoot(at), k)
				}
				child, err := parseJV(dec, at+"/"+escapePointer(k))
				if err != nil {
					return nil, err
				}
				v.keys, v.vals = append(v.keys, k), append(v.vals, child)
			}
			_, err := dec.Token()
			return v, err
		}
		v := &jv{kind: 'a'}
		for i := 0; dec.More(); i++ {
			child, err := parseJV(dec, at+"/"+strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			v.items = append(v.items, child)
		}
		_, err := dec.Token()
		return v, err
	case string:
		return &jv{kind: 's', str: t}, nil
	case json.Number:
		return &jv{kind: 'n', str: string(t)}, nil
	case bool:
		return &jv{kind: 'b', b: t}, nil
	}
	return &jv{kind: 'z'}, nil
}

// compact returns v as compact JSON text.
func (v *jv) compact() []byte { return v.appendJSON(nil) }

func (v *jv) appendJSON(b []byte) []byte {
	switch v.kind {
	case 'o':
		b = append(b, '{')
		for i, k := range v.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			b = v.vals[i].appendJSON(b)
		}
		return append(b, '}')
	case 'a':
		b = append(b, '[')
		for i, it := range v.items {
			if i > 0 {
				b = append(b, ',')
			}
			b = it.appendJSON(b)
		}
		return append(b, ']')
	case 's':
		q, _ := json.Marshal(v.str)
		return append(b, q...)
	case 'n':
		return append(b, v.str...)
	case 'b':
		return strconv.AppendBool(b, v.b)
	}
	return append(b, "null"...)
}

func orRoot(p string) string {
	if p == "" {
		return "the schema's root"
	}
	return p
}

// SchemaError reports why NewTool refused a tool's input schema: a keyword it cannot
// enforce, or a schema it cannot read, at the JSON Pointer Path of the schema.
type SchemaError struct {
	Tool    string
	Path    string // the JSON Pointer in the schema ("" for its root)
	Keyword string // the keyword refused, or ""
	Reason  string
}

// Error says which tool, where in its schema and why.
func (e *SchemaError) Error() string {
	kw := ""
	if e.Keyword != "" {
		kw = "keyword " + strconv.Quote(e.Keyword) + " at "
	}
	return "runtime: tool " + strconv.Quote(e.Tool) + ": input schema: " + kw + orRoot(e.Path) + ": " + e.Reason
}

// compiler turns a schema into nodes.
type compiler struct {
	tool string
	root *jv
	refs map[string]*node // compiled $ref targets by pointer, for recursion
	// overlays are the references with list keywords beside them.
	overlays []overlay
	err      *SchemaError
}

// overlay is a $ref with list keywords beside it: n becomes the referenced node with
// those keywords added.
type overlay struct {
	n, target *node
	s         *jv
	at        string
}

// applyOverlays completes the references that have keywords beside them.
func (c *compiler) applyOverlays() {
	for _, o := range c.overlays {
		t := resolve(o.target)
		if t == o.n {
			c.fail(o.at, "$ref", "a reference cycle that reads no value")
			return
		}
		*o.n = *t
		switch t.kind {
		case kindArray:
			for _, kw := range []string{"minProperties", "maxProperties"} {
				if _, ok := o.s.get(kw); ok {
					c.fail(o.at+"/"+kw, kw, "does not apply to an array")
					return
				}
			}
			c.listKeywords(o.n, o.s, o.at)
		case kindObject:
			for _, kw := range []string{"minItems", "maxItems", "uniqueItems"} {
				if _, ok := o.s.get(kw); ok {
					c.fail(o.at+"/"+kw, kw, "does not apply to an object")
					return
				}
			}
			c.propertyCounts(o.n, o.s, o.at)
		default:
			c.fail(o.at, "$ref", "list keywords beside a $ref need an array or an object")
			return
		}
	}
}

func (c *compiler) fail(at, keyword, reason string) *node {
	if c.err == nil {
		c.err = &SchemaError{Tool: c.tool, Path: at, Keyword: keyword, Reason: reason}
	}
	return &node{}
}

// The keywords that say nothing a decoder enforces.
var annotationKeywords = map[string]bool{
	"description": true, "title": true, "deprecated": true, "examples": true,
	"$comment": true, "readOnly": true, "writeOnly": true, "$schema": true,
	SensitiveKeyword: true,
}

// compile compiles the schema s found at the pointer at.
func (c *compiler) compile(s *jv, at string) *node {
	if c.err != nil {
		return &node{}
	}
	if s.kind == 'b' && s.b {
		return &node{kind: kindAny}
	}
	if s.kind != 'o' {
		return c.fail(at, "", "a schema must be an object (or true)")
	}
	seen := map[string]bool{}
	for _, k := range s.keys {
		seen[k] = true
	}
	for _, k := range s.keys {
		if annotationKeywords[k] || strings.HasPrefix(k, "x-") {
			continue
		}
		switch k {
		case "type", "properties", "required", "additionalProperties", "items", "$defs", "definitions",
			"$ref", "anyOf", "enum", "const", "default", "minimum", "maximum", "exclusiveMinimum",
			"exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "format",
			"minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "propertyNames",
			"contentEncoding":
			continue
		}
		return c.fail(at, k, "not a keyword a dynamic tool can enforce (the keywords are those toolgen writes: see runtime.NewTool)")
	}
	if v, ok := s.get("$ref"); ok {
		besides := false
		for _, k := range s.keys {
			switch {
			case k == "minItems" || k == "maxItems" || k == "uniqueItems" || k == "minProperties" || k == "maxProperties":
				besides = true // the list keywords toolgen writes beside a $ref
			case k != "$ref" && k != "default" && k != "$defs" && k != "definitions" && !annotationKeywords[k] && !strings.HasPrefix(k, "x-"):
				return c.fail(at, k, "beside $ref: only annotations, default and the list keywords (minItems, maxItems, uniqueItems, minProperties, maxProperties) may stand beside a $ref")
			}
		}
		r := c.ref(v, at+"/$ref")
		if !besides {
			return r
		}
		// The referenced schema with the keywords beside: made once every schema is
		// compiled, since the reference may be to one being compiled.
		ov := &node{}
		c.overlays = append(c.overlays, overlay{n: ov, target: r, s: s, at: at})
		return ov
	}
	if v, ok := s.get("anyOf"); ok {
		for _, k := range s.keys {
			if k != "anyOf" && k != "default" && k != "$defs" && k != "definitions" && !annotationKeywords[k] && !strings.HasPrefix(k, "x-") {
				return c.fail(at, k, "beside anyOf: only annotations and default may stand beside the anyOf of an optional value")
			}
		}
		return c.anyOf(v, at+"/anyOf")
	}
	t, hasType := s.get("type")
	if !hasType {
		for _, k := range s.keys {
			if !annotationKeywords[k] && !strings.HasPrefix(k, "x-") && k != "$defs" && k != "definitions" && k != "default" {
				return c.fail(at, k, "needs a type beside it")
			}
		}
		return &node{kind: kindAny}
	}
	n := &node{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1}
	typ := ""
	switch t.kind {
	case 's':
		typ = t.str
	case 'a':
		if len(t.items) == 2 && t.items[0].kind == 's' && t.items[1].kind == 's' && t.items[1].str == "null" && t.items[0].str != "null" {
			typ, n.nullable = t.items[0].str, true
		} else {
			return c.fail(at+"/type", "type", `a list of types must be ["T", "null"]`)
		}
	default:
		return c.fail(at+"/type", "type", "must be a string or a list")
	}
	// Which keywords apply to which type: a keyword for another type is refused
	// rather than silently ignored.
	allowed := map[string]string{
		"minLength": "string", "maxLength": "string", "pattern": "string", "format": "string", "contentEncoding": "string",
		"minimum": "number", "maximum": "number", "exclusiveMinimum": "number", "exclusiveMaximum": "number", "multipleOf": "number",
		"properties": "object", "required": "object", "additionalProperties": "object", "minProperties": "object", "maxProperties": "object", "propertyNames": "object",
		"items": "array", "minItems": "array", "maxItems": "array", "uniqueItems": "array",
	}
	for _, k := range s.keys {
		want, ok := allowed[k]
		if !ok {
			continue
		}
		if want != typ && !(want == "number" && typ == "integer") {
			return c.fail(at+"/"+k, k, "does not apply to a value of type "+typ)
		}
	}
	switch typ {
	case "string":
		c.stringNode(n, s, at)
	case "integer", "number":
		c.numberNode(n, s, at, typ == "integer")
	case "boolean":
		n.kind = kindBool
	case "object":
		c.objectNode(n, s, at)
	case "array":
		c.arrayNode(n, s, at)
	default:
		return c.fail(at+"/type", "type", strconv.Quote(typ)+" is not a type a dynamic tool reads (string, integer, number, boolean, object, array)")
	}
	if c.err != nil {
		return n
	}
	c.enumConst(n, s, at, typ)
	return n
}

// ref compiles a $ref: a JSON Pointer into the same schema ("#/$defs/Name", "#").
func (c *compiler) ref(v *jv, at string) *node {
	if v.kind != 's' {
		return c.fail(at, "$ref", "must be a string")
	}
	if !strings.HasPrefix(v.str, "#") {
		return c.fail(at, "$ref", strconv.Quote(v.str)+" is not a local reference (only #/... references into the same schema are read)")
	}
	ptr := v.str[1:]
	if n, ok := c.refs[ptr]; ok {
		return &node{ref: n}
	}
	target := c.root
	if ptr != "" {
		if !strings.HasPrefix(ptr, "/") {
			return c.fail(at, "$ref", strconv.Quote(v.str)+" is not a JSON Pointer reference")
		}
		for _, tok := range strings.Split(ptr[1:], "/") {
			tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
			var next *jv
			switch target.kind {
			case 'o':
				next, _ = target.get(tok)
			case 'a':
				if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(target.items) {
					next = target.items[i]
				}
			}
			if next == nil {
				return c.fail(at, "$ref", strconv.Quote(v.str)+" names nothing in the schema")
			}
			target = next
		}
	}
	// A placeholder first, so that a recursive reference finds it.
	holder := &node{}
	c.refs[ptr] = holder
	// The holder refers to what it holds rather than copying it: that may be a $ref
	// with keywords beside it, completed only once every schema is compiled.
	holder.ref = c.compile(target, ptr)
	return &node{ref: holder}
}

// anyOf compiles the one anyOf toolgen writes: an optional value, [T, {"type": "null"}].
func (c *compiler) anyOf(v *jv, at string) *node {
	isNull := func(s *jv) bool {
		if s.kind != 'o' {
			return false
		}
		t, ok := s.get("type")
		for _, k := range s.keys {
			if k != "type" && !annotationKeywords[k] {
				return false
			}
		}
		return ok && t.kind == 's' && t.str == "null"
	}
	if v.kind != 'a' || len(v.items) != 2 || isNull(v.items[0]) == isNull(v.items[1]) {
		return c.fail(at, "anyOf", `only the anyOf of an optional value, [{...}, {"type": "null"}], is read`)
	}
	i := 0
	if isNull(v.items[0]) {
		i = 1
	}
	inner := c.compile(v.items[i], at+"/"+strconv.Itoa(i))
	return &node{ref: inner, nullable: true}
}

func (c *compiler) stringNode(n *node, s *jv, at string) {
	n.kind = kindString
	if v, ok := s.get("minLength"); ok {
		n.minLen = c.count(v, at+"/minLength", "minLength")
	}
	if v, ok := s.get("maxLength"); ok {
		n.maxLen = c.count(v, at+"/maxLength", "maxLength")
	}
	if v, ok := s.get("pattern"); ok {
		if v.kind != 's' {
			c.fail(at+"/pattern", "pattern", "must be a string")
			return
		}
		re, err := regexp.Compile(v.str)
		if err != nil {
			c.fail(at+"/pattern", "pattern", "not an RE2 expression: "+err.Error())
			return
		}
		n.pattern, n.patternSrc, n.patternMessage = re, v.str, "must match the pattern "+v.str
	}
	if v, ok := s.get("format"); ok {
		if v.kind != 's' {
			c.fail(at+"/format", "format", "must be a string")
			return
		}
		switch f := Format(v.str); f {
		case FormatDateTime, FormatDate, FormatTime, FormatDuration, FormatEmail, FormatHostname,
			FormatIPv4, FormatIPv6, FormatURI, FormatUUID:
			n.format = f
		default:
			c.fail(at+"/format", "format", strconv.Quote(v.str)+" is not a format toolgen checks")
			return
		}
	}
	if v, ok := s.get("contentEncoding"); ok {
		if v.kind != 's' || v.str != "base64" {
			c.fail(at+"/contentEncoding", "contentEncoding", "only base64 is read")
			return
		}
		if n.pattern != nil || n.format != "" {
			c.fail(at+"/contentEncoding", "contentEncoding", "base64 text takes no pattern or format")
			return
		}
		n.kind = kindBytes
	}
	// What toolgen writes for a time.Time and a time.Duration reads as those do.
	if n.kind == kindString && n.format == FormatDateTime && n.minLen < 0 && n.maxLen < 0 && n.pattern == nil {
		n.kind = kindDateTime
	}
	if n.kind == kindString && n.patternSrc == durationPattern && n.minLen < 0 && n.maxLen < 0 && n.format == "" {
		n.kind = kindDuration
	}
}

// count reads a non-negative integer keyword.
func (c *compiler) count(v *jv, at, kw string) int {
	if v.kind == 'n' {
		if i, err := strconv.Atoi(v.str); err == nil && i >= 0 {
			return i
		}
	}
	c.fail(at, kw, "must be a non-negative integer")
	return -1
}

func (c *compiler) numberNode(n *node, s *jv, at string, integer bool) {
	n.kind = kindNumber
	num := func(kw string) (string, bool) {
		v, ok := s.get(kw)
		if !ok {
			return "", false
		}
		if v.kind != 'n' {
			c.fail(at+"/"+kw, kw, "must be a number")
			return "", false
		}
		return v.str, true
	}
	minT, hasMin := num("minimum")
	maxT, hasMax := num("maximum")
	exMinT, hasExMin := num("exclusiveMinimum")
	exMaxT, hasExMax := num("exclusiveMaximum")
	multT, hasMult := num("multipleOf")
	if c.err != nil {
		return
	}
	if integer {
		// toolgen writes minimum 0 for unsigned Go integers, with the maximum of
		// uint8, uint16 or uint32 or none: read those as unsigned, as the generated
		// decoder of such a type does, and every other integer as signed.
		n.kind, n.lo, n.hi = kindInteger, math.MinInt64, math.MaxInt64
		if hasMin && minT == "0" && (!hasMax || maxT == "255" || maxT == "65535" || maxT == "4294967295") {
			n.kind, n.ulo, n.uhi = kindUnsigned, 0, math.MaxUint64
			if hasMax {
				n.uhi, _ = strconv.ParseUint(maxT, 10, 64)
			}
		} else {
			if hasMin {
				lo, ok := c.intBound(minT, at+"/minimum", "minimum")
				if ok {
					n.lo = lo
				}
			}
			if hasMax {
				hi, ok := c.intBound(maxT, at+"/maximum", "maximum")
				if ok {
					n.hi = hi
				}
			}
		}
	} else {
		if hasMin {
			n.checks = append(n.checks, c.numCheck(minT, at+"/minimum", "minimum", CodeMinimum, "must be at least", '<', false))
		}
		if hasMax {
			n.checks = append(n.checks, c.numCheck(maxT, at+"/maximum", "maximum", CodeMaximum, "must be at most", '>', false))
		}
	}
	if hasExMin {
		n.checks = append(n.checks, c.numCheck(exMinT, at+"/exclusiveMinimum", "exclusiveMinimum", CodeExclusiveMinimum, "must be greater than", '[', integer))
	}
	if hasExMax {
		n.checks = append(n.checks, c.numCheck(exMaxT, at+"/exclusiveMaximum", "exclusiveMaximum", CodeExclusiveMaximum, "must be less than", ']', integer))
	}
	if hasMult {
		q, ok := parseDecimal([]byte(multT))
		if !ok || q.zero() || q.neg {
			c.fail(at+"/multipleOf", "multipleOf", "must be greater than 0")
			return
		}
		if k, err := strconv.ParseInt(multT, 10, 64); integer && err == nil {
			n.multInt, n.multText = k, multT
		} else {
			n.multiple = multT
		}
	}
}

// intBound reads an integer bound, which must be integral; one past int64 is left to
// the Go range.
func (c *compiler) intBound(text, at, kw string) (int64, bool) {
	neg, mag, ok, overflow := integerDigits([]byte(text))
	switch {
	case !ok:
		c.fail(at, kw, "must be an integer for an integer")
		return 0, false
	case overflow || !neg && mag > math.MaxInt64 || neg && mag > 1<<63:
		return 0, false
	case neg:
		return -int64(mag), true
	}
	return int64(mag), true
}

func (c *compiler) numCheck(text, at, kw string, code Code, msg string, op byte, integer bool) numCheck {
	ch := numCheck{code: code, msg: msg + " " + text, op: op}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		c.fail(at, kw, "must be a number a float64 holds")
		return ch
	}
	ch.f = f
	if integer {
		if i, err := strconv.ParseInt(text, 10, 64); err == nil {
			ch.i, ch.integer = i, true
		}
	}
	return ch
}

func (c *compiler) enumConst(n *node, s *jv, at, typ string) {
	var vals []*jv
	kw := "enum"
	if v, ok := s.get("const"); ok {
		kw, vals = "const", []*jv{v}
		n.enumCode = CodeConst
	} else if v, ok := s.get("enum"); ok {
		if v.kind != 'a' || len(v.items) == 0 {
			c.fail(at+"/enum", "enum", "must be a non-empty list")
			return
		}
		vals = v.items
		n.enumCode = CodeEnum
	} else {
		return
	}
	if n.kind == kindBytes || n.kind == kindDateTime || n.kind == kindDuration || n.kind == kindObject || n.kind == kindArray {
		c.fail(at+"/"+kw, kw, "is read only for strings, numbers and booleans")
		return
	}
	texts := make([]string, len(vals))
	for i, v := range vals {
		bad := func() { c.fail(at+"/"+kw, kw, "holds a value that is not of type "+typ) }
		texts[i] = string(v.compact())
		switch n.kind {
		case kindString:
			if v.kind != 's' {
				bad()
				return
			}
			n.enumStr = append(n.enumStr, v.str)
		case kindInteger:
			x, err := strconv.ParseInt(v.str, 10, 64)
			if v.kind != 'n' || err != nil {
				bad()
				return
			}
			n.enumInt = append(n.enumInt, x)
		case kindUnsigned:
			x, err := strconv.ParseUint(v.str, 10, 64)
			if v.kind != 'n' || err != nil {
				bad()
				return
			}
			n.enumUint = append(n.enumUint, x)
		case kindNumber:
			x, err := strconv.ParseFloat(v.str, 64)
			if v.kind != 'n' || err != nil {
				bad()
				return
			}
			n.enumF = append(n.enumF, x)
		case kindBool:
			if v.kind != 'b' {
				bad()
				return
			}
			n.enumBool = append(n.enumBool, v.b)
		}
	}
	if n.kind == kindBool && kw == "const" {
		n.boolConst, n.hasBoolConst = n.enumBool[0], true
		n.enumBool = nil
	}
	if len(texts) == 1 {
		n.enumMsg = "must be " + texts[0]
	} else {
		n.enumMsg = "must be one of " + strings.Join(texts, ", ")
	}
}

func (c *compiler) objectNode(n *node, s *jv, at string) {
	n.kind = kindObject
	n.index = map[string]int{}
	if v, ok := s.get("properties"); ok {
		if v.kind != 'o' {
			c.fail(at+"/properties", "properties", "must be an object")
			return
		}
		for i, name := range v.keys {
			pat := at + "/properties/" + escapePointer(name)
			ps := v.vals[i]
			p := &prop{name: name, node: c.compile(ps, pat)}
			if ps.kind == 'o' {
				if x, ok := ps.get(SensitiveKeyword); ok {
					if x.kind != 'b' {
						c.fail(pat+"/"+SensitiveKeyword, SensitiveKeyword, "must be true or false")
						return
					}
					p.sensitive = x.b
				}
				if d, ok := ps.get("default"); ok {
					p.def = d.compact()
				}
			}
			n.index[name] = len(n.props)
			n.props = append(n.props, p)
			n.names = append(n.names, name)
		}
	}
	if v, ok := s.get("required"); ok {
		if v.kind != 'a' {
			c.fail(at+"/required", "required", "must be a list of names")
			return
		}
		for _, r := range v.items {
			i, ok := n.index[r.str]
			if r.kind != 's' || !ok {
				c.fail(at+"/required", "required", "names a property that properties does not declare")
				return
			}
			n.props[i].required = true
		}
	}
	for _, p := range n.props {
		if p.required {
			p.def = nil // a required property is missing, never defaulted
		}
	}
	n.additional = &node{kind: kindAny}
	if v, ok := s.get("additionalProperties"); ok {
		if v.kind == 'b' && !v.b {
			n.additional = nil
		} else {
			n.additional = c.compile(v, at+"/additionalProperties")
		}
	}
	if v, ok := s.get("propertyNames"); ok {
		e, hasEnum := v.get("enum")
		for _, k := range v.keys {
			if k != "enum" && k != "type" && !annotationKeywords[k] {
				c.fail(at+"/propertyNames/"+k, k, "propertyNames takes only an enum of names")
				return
			}
		}
		if v.kind != 'o' || !hasEnum || e.kind != 'a' {
			c.fail(at+"/propertyNames", "propertyNames", "must hold an enum of names")
			return
		}
		for _, it := range e.items {
			if it.kind != 's' {
				c.fail(at+"/propertyNames/enum", "enum", "property names are strings")
				return
			}
			n.keyEnum = append(n.keyEnum, it.str)
		}
		if n.keyEnum == nil {
			n.keyEnum = []string{}
		}
	}
	c.propertyCounts(n, s, at)
}

// propertyCounts reads minProperties and maxProperties into an object node.
func (c *compiler) propertyCounts(n *node, s *jv, at string) {
	if v, ok := s.get("minProperties"); ok {
		n.minProps = c.count(v, at+"/minProperties", "minProperties")
	}
	if v, ok := s.get("maxProperties"); ok {
		n.maxProps = c.count(v, at+"/maxProperties", "maxProperties")
	}
}

func (c *compiler) arrayNode(n *node, s *jv, at string) {
	n.kind = kindArray
	n.items = &node{kind: kindAny}
	if v, ok := s.get("items"); ok {
		n.items = c.compile(v, at+"/items")
	}
	c.listKeywords(n, s, at)
}

// listKeywords reads minItems, maxItems and uniqueItems into an array node.
func (c *compiler) listKeywords(n *node, s *jv, at string) {
	if v, ok := s.get("minItems"); ok {
		n.minItems = c.count(v, at+"/minItems", "minItems")
	}
	if v, ok := s.get("maxItems"); ok {
		n.maxItems = c.count(v, at+"/maxItems", "maxItems")
	}
	if v, ok := s.get("uniqueItems"); ok {
		if v.kind != 'b' {
			c.fail(at+"/uniqueItems", "uniqueItems", "must be true or false")
			return
		}
		n.unique = v.b
	}
}

// resolve follows a node's references. Reference cycles that read no value were
// refused when compiling.
func resolve(n *node) *node {
	for n.ref != nil {
		n = n.ref
	}
	return n
}

// checkCycles refuses references that lead back to themselves without reading a
// value, which no argument could ever end.
func (c *compiler) checkCycles() {
	for ptr, n := range c.refs {
		seen := map[*node]bool{}
		for m := n; m.ref != nil; m = m.ref {
			if seen[m] {
				c.fail(ptr, "$ref", "a reference cycle that reads no value")
				return
			}
			seen[m] = true
		}
	}
}

// markSensitive marks the property a Tool.Sensitive path names ("*" for any item or
// map key), reporting whether it names one.
func markSensitive(n *node, segs []string) bool {
	n = resolve(n)
	if len(segs) == 0 {
		return false
	}
	seg := strings.NewReplacer("~1", "/", "~0", "~").Replace(segs[0])
	switch n.kind {
	case kindArray:
		if seg == "*" {
			return markSensitive(n.items, segs[1:])
		}
	case kindObject:
		if i, ok := n.index[seg]; ok {
			if len(segs) == 1 {
				n.props[i].sensitive = true
				return true
			}
			return markSensitive(n.props[i].node, segs[1:])
		}
		if seg == "*" && n.additional != nil {
			return markSensitive(n.additional, segs[1:])
		}
	}
	return false
}

// sensitivePaths lists the paths of the sensitive properties, as toolgen lists a
// generated tool's: below the place a cycle of the schema (cyclic, see cyclicNodes)
// is entered, the paths go on with "**", so that they reach its sensitive properties
// at every depth. visiting holds the nodes on the way from the root, references and
// the nodes a $ref with keywords beside it copies alike, so that a cycle through
// either ends. budget bounds the nodes visited: a schema whose definitions are shared
// along many paths has exponentially many of them, and listing them stops, with
// budget below zero, once it is spent.
func sensitivePaths(n *node, prefix string, visiting, cyclic map[*node]bool, out []string, budget *int) []string {
	if *budget--; *budget < 0 {
		return out
	}
	for ; n != nil; n = n.ref {
		if visiting[n] {
			return out
		}
		visiting[n] = true
		defer delete(visiting, n)
		if cyclic[n] && !strings.HasSuffix(prefix, "/**") {
			prefix += "/**"
		}
		if n.ref == nil {
			break
		}
	}
	switch n.kind {
	case kindArray:
		out = sensitivePaths(n.items, prefix+"/*", visiting, cyclic, out, budget)
	case kindObject:
		for _, p := range n.props {
			path := prefix + "/" + escapePointer(p.name)
			if p.sensitive {
				out = append(out, path)
				continue
			}
			out = sensitivePaths(p.node, path, visiting, cyclic, out, budget)
		}
		if n.additional != nil {
			out = sensitivePaths(n.additional, prefix+"/*", visiting, cyclic, out, budget)
		}
	}
	return out
}
