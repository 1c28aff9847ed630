package engine

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolgen/toolgen/runtime/internal/argcheck"
	"github.com/toolgen/toolgen/runtime/invalid"
	prog "github.com/toolgen/toolgen/runtime/invalid/message"
	"github.com/toolgen/toolgen/runtime/jsonread"
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
	kindUnion // a discriminated oneOf: Decoder.BeginUnion, then the variant's properties
)

// durationPattern is the pattern toolgen writes for a Go time.Duration: a string under
// it is read as a Go duration, with the same messages.
const durationPattern = `^[-+]?(0|(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$`

// node is one compiled schema.
type node struct {
	kind     nodeKind
	nullable bool  // type [T, "null"], or anyOf [T, {type: null}]
	ref      *node // a $ref: read as the node it names (kind is then unused)
	src      *jv   // the schema compiled, for errors
	mark     uint8 // the state of a walk over the nodes (see checkCycles, flatten)
	// sensitive: the schema says x-toolgen-sensitive, so the value it reads is
	// redacted wherever the schema stands (a property, an item, a map's value, the
	// target of a $ref).
	sensitive bool

	// Strings.
	minLen, maxLen int // -1 when absent
	pattern        *regexp.Regexp
	simple         *simpleMatcher // the pattern, when compileSimple reads it
	patternSrc     string
	patternMessage string
	format         argcheck.Format // "" when absent

	// Enum and const, for strings, numbers and booleans: a value must be one of them,
	// looked up in the set of its kind. nullFails says that null, which the type
	// allows, is not one of them.
	hasEnum   bool
	nullFails bool
	enumCode  invalid.Code
	enumMsg   string
	enumStr   map[string]string // each string to itself
	enumInt   map[int64]struct{}
	enumUint  map[uint64]struct{}
	enumNum   map[string]struct{} // the numbers' appendDecimalKey
	enumBool  [2]bool             // false, true allowed
	// enumTexts are the enum's values (or the const), compact JSON, in schema order,
	// for the generator's view (Node.Enum).
	enumTexts []string
	// enumDur: the durations of a Go duration's enum, compared as durations, as a
	// generated decoder compares a time.Duration with its constants.
	enumDur map[time.Duration]struct{}

	// Integers: the inclusive range the Decoder checks, then the other keywords.
	lo, hi   int64
	ulo, uhi uint64
	// Numbers (and integers' exclusive bounds and multipleOf).
	checks   []numCheck
	multiple string // multipleOf of a number, as JSON text ("" when absent)
	multInt  int64  // multipleOf of an integer (0 when absent)
	multText string
	// bounds are the number keywords as the schema writes them (JSON text, "" when
	// absent), for the generator's view (Node.Bounds).
	bounds Bounds

	// Objects.
	props      []*prop
	index      map[string]int
	names      []string            // the property names, in order, for Unknown's suggestion
	additional *node               // the schema of other properties; nil: none allowed
	keyEnum    map[string]struct{} // the names propertyNames allows, or nil
	keyNames   []string            // the same, in order, for Unknown's suggestion
	minProps   int                 // -1 when absent
	maxProps   int

	// Arrays.
	items              *node
	minItems, maxItems int // -1 when absent
	unique             bool

	// Unions: a discriminated oneOf, read as a generated union decoder reads it. tag
	// is the discriminator property; variants[i], an object node, is the variant whose
	// tag is tagValues[i] (tagJSON[i] as JSON text).
	tag       string
	tagValues []string
	tagJSON   []string
	variants  []*node
	words     *unionWords // the tag's messages and a set of its values, made once
}

// prop is one property of an object node.
type prop struct {
	name      string
	member    string // the name as the output writes it, a JSON string and a colon
	node      *node
	required  bool
	sensitive bool
	badName   bool   // a name propertyNames does not allow
	def       []byte // the default's compact JSON text, or nil
}

// numCheck is a bound a number is checked against after it is read.
type numCheck struct {
	code    invalid.Code
	msg     string
	dec     decimal // the bound, compared exactly
	f       float64 // the bound as a float64, for a number read as one
	i       int64
	integer bool // compare as integers (i), else as floats (f)
	// exact: f is the bound exactly, so that a number whose float64 differs from f
	// stands on the same side of the bound as its float64 (rounding is monotonic):
	// only a number that rounds to f is compared exactly (see failsNumber).
	exact bool
	op    byte // '<' fails below, '>' above, '[' at or below, ']' at or above
}

// jv is a JSON value of a schema, objects keeping their key order. Each value knows
// where it stands (up and tok), so that the JSON Pointer of a schema is made only when
// an error names it.
type jv struct {
	kind  byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' boolean, 'z' null
	str   string
	b     bool
	keys  []string
	vals  []*jv
	items []*jv
	index map[string]int // the keys of a large object, for get
	up    *jv            // the object or array that holds it, nil at the root
	tok   string         // its key or index in up
}

// indexFrom is the number of keys from which an object keeps an index: below it, a
// scan of the keys costs less.
const indexFrom = 8

func (v *jv) get(key string) (*jv, bool) {
	if v.index != nil {
		i, ok := v.index[key]
		if !ok {
			return nil, false
		}
		return v.vals[i], true
	}
	for i, k := range v.keys {
		if k == key {
			return v.vals[i], true
		}
	}
	return nil, false
}

// pointer returns the JSON Pointer of v in its document ("" for the root), extended by
// the token sub when it is not "".
func (v *jv) pointer(sub string) string {
	var toks []string
	if sub != "" {
		toks = append(toks, sub)
	}
	for ; v != nil && v.up != nil; v = v.up {
		toks = append(toks, v.tok)
	}
	var b strings.Builder
	for i := len(toks) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(jsonread.EscapeToken(toks[i]))
	}
	return b.String()
}

// MaxSchemaBytes is the longest input schema NewTool reads: a longer one is refused
// with a *SchemaError. Compiling a schema costs time and memory in proportion to its
// length (some 100 bytes of memory a byte, at most), up to this.
const MaxSchemaBytes = 1 << 20

// MaxSchemaDepth is the deepest nesting of objects and arrays in an input schema that
// NewTool reads: a deeper one is refused with a *SchemaError. Arguments nest at most
// DefaultMaxDepth levels, and each level of arguments takes two of the schema
// (properties, then the property's schema).
const MaxSchemaDepth = 256

// parseSchema reads a schema's JSON text, refusing duplicate keys, nesting deeper than
// MaxSchemaDepth and text longer than MaxSchemaBytes.
func parseSchema(b []byte) (*jv, error) {
	if len(b) > MaxSchemaBytes {
		return nil, fmt.Errorf("%d bytes, more than the %d of runtime.MaxSchemaBytes", len(b), MaxSchemaBytes)
	}
	if jsonread.Valid(b, jsonread.StdMaxDepth) {
		// Well-formed text, one value: read it directly, as parseJV would, errors
		// included (which only the structure can cause then), without a json.Decoder's
		// cost per token.
		v, _, err := readJV(b, jsonread.SkipSpace(b, 0), nil, "", 0)
		return v, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := parseJV(dec, nil, "", 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the schema")
	}
	return v, nil
}

func parseJV(dec *json.Decoder, up *jv, tok string, depth int) (*jv, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	v := &jv{up: up, tok: tok}
	switch t := t.(type) {
	case json.Delim:
		if depth++; depth > MaxSchemaDepth {
			return nil, fmt.Errorf("%s: nested deeper than the %d levels of runtime.MaxSchemaDepth", orRoot(v.pointer("")), MaxSchemaDepth)
		}
		if t == '{' {
			v.kind = 'o'
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k := kt.(string)
				if _, dup := v.get(k); dup {
					return nil, fmt.Errorf("%s: the key %q appears twice", orRoot(v.pointer("")), k)
				}
				child, err := parseJV(dec, v, k, depth)
				if err != nil {
					return nil, err
				}
				v.add(k, child)
			}
			_, err := dec.Token()
			return v, err
		}
		v.kind = 'a'
		for i := 0; dec.More(); i++ {
			child, err := parseJV(dec, v, strconv.Itoa(i), depth)
			if err != nil {
				return nil, err
			}
			v.items = append(v.items, child)
		}
		_, err := dec.Token()
		return v, err
	case string:
		v.kind, v.str = 's', t
	case json.Number:
		v.kind, v.str = 'n', string(t)
	case bool:
		v.kind, v.b = 'b', t
	default:
		v.kind = 'z'
	}
	return v, nil
}

// add appends the member k of the object v, indexing v's keys once it has indexFrom.
func (v *jv) add(k string, child *jv) {
	v.keys, v.vals = append(v.keys, k), append(v.vals, child)
	if v.index != nil {
		v.index[k] = len(v.keys) - 1
	} else if len(v.keys) >= indexFrom {
		v.index = make(map[string]int, 2*len(v.keys))
		for i, k := range v.keys {
			v.index[k] = i
		}
	}
}

// readJV is parseJV for the value at b[i] of text that jsonread.Valid accepted; it also
// returns the index after the value.
func readJV(b []byte, i int, up *jv, tok string, depth int) (*jv, int, error) {
	v := &jv{up: up, tok: tok}
	switch c := b[i]; c {
	case '{', '[':
		if depth++; depth > MaxSchemaDepth {
			return nil, i, fmt.Errorf("%s: nested deeper than the %d levels of runtime.MaxSchemaDepth", orRoot(v.pointer("")), MaxSchemaDepth)
		}
		i = jsonread.SkipSpace(b, i+1)
		if c == '[' {
			v.kind = 'a'
			for n := 0; b[i] != ']'; n++ {
				child, end, err := readJV(b, i, v, strconv.Itoa(n), depth)
				if err != nil {
					return nil, end, err
				}
				v.items = append(v.items, child)
				i = afterMember(b, end)
			}
			return v, i + 1, nil
		}
		v.kind = 'o'
		for b[i] != '}' {
			end, plain, _ := jsonread.ScanString(b, i)
			k := string(b[i+1 : end-1])
			if !plain {
				k = jsonread.Unquote(b[i:end])
			}
			if _, dup := v.get(k); dup {
				return nil, i, fmt.Errorf("%s: the key %q appears twice", orRoot(v.pointer("")), k)
			}
			i = jsonread.SkipSpace(b, jsonread.SkipSpace(b, end)+1) // past the colon
			child, end, err := readJV(b, i, v, k, depth)
			if err != nil {
				return nil, end, err
			}
			v.add(k, child)
			i = afterMember(b, end)
		}
		return v, i + 1, nil
	case '"':
		end, plain, _ := jsonread.ScanString(b, i)
		v.kind, v.str = 's', string(b[i+1:end-1])
		if !plain {
			v.str = jsonread.Unquote(b[i:end])
		}
		return v, end, nil
	case 't':
		v.kind, v.b = 'b', true
		return v, i + len("true"), nil
	case 'f':
		v.kind = 'b'
		return v, i + len("false"), nil
	case 'n':
		v.kind = 'z'
		return v, i + len("null"), nil
	}
	end, _ := jsonread.ScanNumber(b, i)
	v.kind, v.str = 'n', string(b[i:end])
	return v, end, nil
}

// afterMember returns the index of the next member or item after the one that ends at
// b[i] (past the comma), or of the bracket that closes them.
func afterMember(b []byte, i int) int {
	if i = jsonread.SkipSpace(b, i); b[i] == ',' {
		i = jsonread.SkipSpace(b, i+1)
	}
	return i
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
	// nodes holds the node of every schema compiled, so that each is compiled once,
	// however many references and places name it; all lists them in order.
	nodes map[*jv]*node
	all   []*node
	// queue holds the nodes of schemas that references name, compiled one after
	// another rather than from inside the reference, so that a chain of references
	// costs no stack.
	queue []*node
	// overlays are the references with list keywords beside them.
	overlays []overlay
	err      *SchemaError
}

// overlay is a $ref with list keywords beside it: n becomes the referenced node with
// those keywords added.
type overlay struct {
	n, target *node
	s         *jv
}

// applyOverlays completes the references that have keywords beside them, each after
// the one it refers to when that is one too. It runs after flatten: each target is
// the node it reads, or a reference straight to it.
func (c *compiler) applyOverlays() {
	pending := make(map[*node]*overlay, len(c.overlays))
	for i := range c.overlays {
		pending[c.overlays[i].n] = &c.overlays[i]
	}
	var apply func(o *overlay)
	apply = func(o *overlay) {
		delete(pending, o.n)
		t, nullable := o.target, false
		if t.ref != nil {
			t, nullable = t.ref, t.nullable
		}
		if inner, ok := pending[t]; ok {
			apply(inner)
		}
		if t == o.n {
			c.fail(o.s, "", "$ref", "a reference cycle that reads no value")
			return
		}
		src, sensitive := o.n.src, o.n.sensitive
		*o.n = *t
		o.n.src, o.n.nullable, o.n.sensitive = src, o.n.nullable || nullable, sensitive || t.sensitive
		switch t.kind {
		case kindArray:
			for _, kw := range []string{"minProperties", "maxProperties"} {
				if _, ok := o.s.get(kw); ok {
					c.fail(o.s, kw, kw, "does not apply to an array")
					return
				}
			}
			c.listKeywords(o.n, o.s)
			// Both apply: the keywords beside the $ref and the target's own.
			o.n.minItems = max(o.n.minItems, t.minItems)
			o.n.maxItems = tighter(o.n.maxItems, t.maxItems)
			o.n.unique = o.n.unique || t.unique
		case kindObject:
			for _, kw := range []string{"minItems", "maxItems", "uniqueItems"} {
				if _, ok := o.s.get(kw); ok {
					c.fail(o.s, kw, kw, "does not apply to an object")
					return
				}
			}
			c.propertyCounts(o.n, o.s)
			o.n.minProps = max(o.n.minProps, t.minProps)
			o.n.maxProps = tighter(o.n.maxProps, t.maxProps)
		default:
			c.fail(o.s, "", "$ref", "list keywords beside a $ref need an array or an object")
		}
	}
	for i := range c.overlays {
		if o := &c.overlays[i]; pending[o.n] == o && c.err == nil {
			apply(o)
		}
	}
}

// tighter returns the smaller of two maximums, -1 meaning none.
func tighter(a, b int) int {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	return min(a, b)
}

// fail records the first error, found at the schema at (its member sub, when not "")
// about keyword (or ""), and returns a node to go on with.
func (c *compiler) fail(at *jv, sub, keyword, reason string) *node {
	if c.err == nil {
		c.err = &SchemaError{Tool: c.tool, Path: at.pointer(sub), Keyword: keyword, Reason: reason}
	}
	return &node{}
}

// The keywords that say nothing a decoder enforces.
var annotationKeywords = map[string]bool{
	"description": true, "title": true, "deprecated": true, "examples": true,
	"$comment": true, "readOnly": true, "writeOnly": true, "$schema": true,
	SensitiveKeyword: true,
}

// toolgenKeywords are the keywords the toolgen engine reads (beside the annotations).
var toolgenKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true, "items": true,
	"$defs": true, "definitions": true, "$ref": true, "anyOf": true, "enum": true, "const": true,
	"default": true, "minimum": true, "maximum": true, "exclusiveMinimum": true,
	"exclusiveMaximum": true, "multipleOf": true, "minLength": true, "maxLength": true,
	"pattern": true, "format": true, "minItems": true, "maxItems": true, "uniqueItems": true,
	"minProperties": true, "maxProperties": true, "propertyNames": true, "contentEncoding": true,
	"oneOf": true,
}

// beyondToolgen reports, in one walk of the schema without allocating, whether the
// toolgen engine would refuse the schema s for its kind (a keyword it does not read, a
// keyword beside no type, enum beside const, the schema false), so that NewTool hands
// it to the general engine without compiling it twice. It is a first look: a schema it
// passes may still be one the toolgen engine refuses, and then handed over.
func beyondToolgen(s *jv, depth int) bool {
	if depth > MaxSchemaDepth {
		return false
	}
	switch s.kind {
	case 'b':
		return !s.b
	case 'o':
	default:
		return false
	}
	_, typed := s.get("type")
	_, ref := s.get("$ref")
	_, any := s.get("anyOf")
	one, union := s.get("oneOf")
	if union && unionTag(one) == "" {
		return true // a oneOf other than the canonical union's
	}
	any = any || union
	_, enum := s.get("enum")
	_, cnst := s.get("const")
	if enum && cnst {
		return true
	}
	for i, k := range s.keys {
		if annotationKeywords[k] || strings.HasPrefix(k, "x-") {
			continue
		}
		if !toolgenKeywords[k] {
			return true
		}
		if !typed && !ref && !any && k != "$defs" && k != "definitions" && k != "default" {
			return true // needs a type beside it
		}
		v := s.vals[i]
		switch k {
		case "properties", "$defs", "definitions":
			if v.kind == 'o' {
				for _, sub := range v.vals {
					if beyondToolgen(sub, depth+1) {
						return true
					}
				}
			}
		case "items", "additionalProperties":
			if v.kind == 'b' && k == "additionalProperties" {
				continue // false: no other property, as toolgen writes it
			}
			if beyondToolgen(v, depth+1) {
				return true
			}
		case "anyOf", "oneOf":
			if v.kind == 'a' {
				for _, sub := range v.items {
					if beyondToolgen(sub, depth+1) {
						return true
					}
				}
			}
		}
	}
	return false
}

// compile returns the node of the schema s, compiling it the first time. The node
// may still be being compiled, when s refers to itself.
func (c *compiler) compile(s *jv) *node {
	n, fresh := c.node(s)
	if fresh && c.err == nil {
		c.compileInto(n, s)
	}
	return n
}

// later returns the node of the schema s, queued to be compiled when it is new.
func (c *compiler) later(s *jv) *node {
	n, fresh := c.node(s)
	if fresh {
		c.queue = append(c.queue, n)
	}
	return n
}

// node returns the node of the schema s, and whether it is new, not yet compiled.
func (c *compiler) node(s *jv) (n *node, fresh bool) {
	if n, ok := c.nodes[s]; ok {
		return n, false
	}
	n = &node{src: s}
	c.nodes[s] = n
	c.all = append(c.all, n)
	return n, true
}

// compileAll compiles the schema doc and every schema a reference names.
func (c *compiler) compileAll(doc *jv) *node {
	root := c.compile(doc)
	for len(c.queue) > 0 && c.err == nil {
		n := c.queue[0]
		c.queue = c.queue[1:]
		c.compileInto(n, n.src)
	}
	return root
}

// compileInto compiles the schema s into n.
func (c *compiler) compileInto(n *node, s *jv) {
	if s.kind == 'b' && s.b {
		n.kind = kindAny
		return
	}
	if s.kind != 'o' {
		c.fail(s, "", "", "a schema must be an object (or true)")
		return
	}
	if x, ok := s.get(SensitiveKeyword); ok {
		if x.kind != 'b' {
			c.fail(s, SensitiveKeyword, SensitiveKeyword, "must be true or false")
			return
		}
		n.sensitive = x.b
	}
	for _, k := range s.keys {
		if annotationKeywords[k] || strings.HasPrefix(k, "x-") {
			continue
		}
		if toolgenKeywords[k] {
			continue
		}
		c.fail(s, "", k, "not a keyword a dynamic tool can enforce (the keywords are those toolgen writes: see runtime.NewTool)")
		return
	}
	if v, ok := s.get("$ref"); ok {
		besides := false
		for _, k := range s.keys {
			switch {
			case k == "minItems" || k == "maxItems" || k == "uniqueItems" || k == "minProperties" || k == "maxProperties":
				besides = true // the list keywords toolgen writes beside a $ref
			case k != "$ref" && k != "default" && k != "$defs" && k != "definitions" && !annotationKeywords[k] && !strings.HasPrefix(k, "x-"):
				c.fail(s, "", k, "beside $ref: only annotations, default and the list keywords (minItems, maxItems, uniqueItems, minProperties, maxProperties) may stand beside a $ref")
				return
			}
		}
		r := c.ref(v)
		if !besides {
			n.ref = r
			return
		}
		// The referenced schema with the keywords beside: made once every schema is
		// compiled, since the reference may be to one being compiled.
		c.overlays = append(c.overlays, overlay{n: n, target: r, s: s})
		return
	}
	if v, ok := s.get("oneOf"); ok {
		for _, k := range s.keys {
			if k != "oneOf" && k != "default" && k != "$defs" && k != "definitions" && !annotationKeywords[k] && !strings.HasPrefix(k, "x-") {
				c.fail(s, "", k, "beside oneOf: only annotations and default may stand beside the oneOf of a union")
				return
			}
		}
		c.union(n, v)
		return
	}
	if v, ok := s.get("anyOf"); ok {
		for _, k := range s.keys {
			if k != "anyOf" && k != "default" && k != "$defs" && k != "definitions" && !annotationKeywords[k] && !strings.HasPrefix(k, "x-") {
				c.fail(s, "", k, "beside anyOf: only annotations and default may stand beside the anyOf of an optional value")
				return
			}
		}
		c.anyOf(n, v)
		return
	}
	t, hasType := s.get("type")
	if !hasType {
		for _, k := range s.keys {
			if !annotationKeywords[k] && !strings.HasPrefix(k, "x-") && k != "$defs" && k != "definitions" && k != "default" {
				c.fail(s, "", k, "needs a type beside it")
				return
			}
		}
		n.kind = kindAny
		return
	}
	n.minLen, n.maxLen, n.minItems, n.maxItems, n.minProps, n.maxProps = -1, -1, -1, -1, -1, -1
	typ := ""
	switch t.kind {
	case 's':
		typ = t.str
	case 'a':
		if len(t.items) == 2 && t.items[0].kind == 's' && t.items[1].kind == 's' && t.items[1].str == "null" && t.items[0].str != "null" {
			typ, n.nullable = t.items[0].str, true
		} else {
			c.fail(s, "type", "type", `a list of types must be ["T", "null"]`)
			return
		}
	default:
		c.fail(s, "type", "type", "must be a string or a list")
		return
	}
	// Which keywords apply to which type: a keyword for another type is refused
	// rather than silently ignored.
	for _, k := range s.keys {
		want := keywordType(k)
		if want != "" && want != typ && !(want == "number" && typ == "integer") {
			c.fail(s, k, k, "does not apply to a value of type "+typ)
			return
		}
	}
	switch typ {
	case "string":
		c.stringNode(n, s)
	case "integer", "number":
		c.numberNode(n, s, typ == "integer")
	case "boolean":
		n.kind = kindBool
	case "object":
		c.objectNode(n, s)
	case "array":
		c.arrayNode(n, s)
	default:
		c.fail(s, "type", "type", strconv.Quote(typ)+" is not a type a dynamic tool reads (string, integer, number, boolean, object, array)")
		return
	}
	if c.err == nil {
		c.enumConst(n, s, typ)
	}
}

// keywordType returns the type whose values a keyword applies to, or "" for a keyword
// of any type.
func keywordType(k string) string {
	switch k {
	case "minLength", "maxLength", "pattern", "format", "contentEncoding":
		return "string"
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		return "number"
	case "properties", "required", "additionalProperties", "minProperties", "maxProperties", "propertyNames":
		return "object"
	case "items", "minItems", "maxItems", "uniqueItems":
		return "array"
	}
	return ""
}

// ref compiles a $ref: a JSON Pointer into the same schema ("#/$defs/Name", "#").
func (c *compiler) ref(v *jv) *node {
	if v.kind != 's' {
		return c.fail(v, "", "$ref", "must be a string")
	}
	if !strings.HasPrefix(v.str, "#") {
		return c.fail(v, "", "$ref", strconv.Quote(v.str)+" is not a local reference (only #/... references into the same schema are read)")
	}
	ptr := v.str[1:]
	target := c.root
	if ptr != "" {
		if !strings.HasPrefix(ptr, "/") {
			return c.fail(v, "", "$ref", strconv.Quote(v.str)+" is not a JSON Pointer reference")
		}
		for _, tok := range strings.Split(ptr[1:], "/") {
			tok = jsonread.UnescapeToken(tok)
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
				return c.fail(v, "", "$ref", strconv.Quote(v.str)+" names nothing in the schema")
			}
			target = next
		}
	}
	return c.later(target)
}

// anyOf compiles the one anyOf toolgen writes: an optional value, [T, {"type": "null"}].
func (c *compiler) anyOf(n *node, v *jv) {
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
		c.fail(v, "", "anyOf", `only the anyOf of an optional value, [{...}, {"type": "null"}], is read`)
		return
	}
	i := 0
	if isNull(v.items[0]) {
		i = 1
	}
	n.ref, n.nullable = c.compile(v.items[i]), true
}

// union compiles the oneOf of a tagged union as toolgen writes it (the canonical
// form): every branch a closed object (type object, additionalProperties false) with a
// required property of the same name, the discriminator, whose schema is a string
// const, each branch's its own. It is read as a generated union decoder reads it.
func (c *compiler) union(n *node, v *jv) {
	tag := unionTag(v)
	if tag == "" {
		c.fail(v, "", "oneOf", "only the oneOf of a tagged union is read by the toolgen engine: closed objects told apart by a required string const property of the same name")
		return
	}
	n.kind, n.tag = kindUnion, tag
	values := make(map[string]bool, len(v.items))
	for i, b := range v.items {
		props, _ := b.get("properties")
		t, _ := props.get(tag)
		k, _ := t.get("const")
		if values[k.str] {
			c.fail(v, strconv.Itoa(i), "oneOf", "two branches of the union have the discriminator "+strconv.Quote(k.str))
			return
		}
		values[k.str] = true
		j, _ := json.Marshal(k.str)
		n.tagValues = append(n.tagValues, k.str)
		n.tagJSON = append(n.tagJSON, string(j))
		n.variants = append(n.variants, c.compile(b))
	}
	n.words = newUnionWords(n.tagValues)
}

// unionTag returns the name of the discriminator of a oneOf that is a tagged
// union as toolgen writes it (see union), or "" when it is not one, without
// allocating.
func unionTag(v *jv) string {
	if v.kind != 'a' || len(v.items) == 0 {
		return ""
	}
	tag := ""
	for i, b := range v.items {
		if b.kind != 'o' {
			return ""
		}
		if t, ok := b.get("type"); !ok || t.kind != 's' || t.str != "object" {
			return ""
		}
		if a, ok := b.get("additionalProperties"); !ok || a.kind != 'b' || a.b {
			return ""
		}
		if _, ok := b.get("propertyNames"); ok {
			return "" // which might refuse the tag's name
		}
		props, ok := b.get("properties")
		if !ok || props.kind != 'o' {
			return ""
		}
		if i == 0 {
			// The first property that is a string const: toolgen writes the
			// discriminator first.
			for j, name := range props.keys {
				if constString(props.vals[j]) != nil {
					tag = name
					break
				}
			}
			if tag == "" {
				return ""
			}
		}
		p, ok := props.get(tag)
		if !ok {
			return ""
		}
		k := constString(p)
		if k == nil {
			return ""
		}
		req, ok := b.get("required")
		if !ok || req.kind != 'a' || !slices.ContainsFunc(req.items, func(r *jv) bool { return r.kind == 's' && r.str == tag }) {
			return ""
		}
	}
	return tag
}

// constString returns the const of a schema {"type": "string", "const": "..."} (with
// annotations beside), or nil when s is not one.
func constString(s *jv) *jv {
	if s.kind != 'o' {
		return nil
	}
	t, ok := s.get("type")
	if !ok || t.kind != 's' || t.str != "string" {
		return nil
	}
	k, ok := s.get("const")
	if !ok || k.kind != 's' {
		return nil
	}
	for _, key := range s.keys {
		if key != "type" && key != "const" && !annotationKeywords[key] && !strings.HasPrefix(key, "x-") {
			return nil
		}
	}
	return k
}

func (c *compiler) stringNode(n *node, s *jv) {
	n.kind = kindString
	if v, ok := s.get("minLength"); ok {
		n.minLen = c.count(v, "minLength")
	}
	if v, ok := s.get("maxLength"); ok {
		n.maxLen = c.count(v, "maxLength")
	}
	if v, ok := s.get("pattern"); ok {
		if v.kind != 's' {
			c.fail(s, "pattern", "pattern", "must be a string")
			return
		}
		re, err := argcheck.CompilePattern(v.str)
		if err != nil {
			c.fail(s, "pattern", "pattern", err.Error())
			return
		}
		n.pattern, n.patternSrc, n.patternMessage = re, v.str, argcheck.PatternMessage(v.str)
		n.simple = compileSimple(v.str)
	}
	if v, ok := s.get("format"); ok {
		if v.kind != 's' {
			c.fail(s, "format", "format", "must be a string")
			return
		}
		switch f := argcheck.Format(v.str); f {
		case argcheck.FormatDateTime, argcheck.FormatDate, argcheck.FormatTime, argcheck.FormatDuration, argcheck.FormatEmail, argcheck.FormatHostname, argcheck.FormatIPv4, argcheck.FormatIPv6, argcheck.FormatURI, argcheck.FormatUUID:
			n.format = f
		default:
			c.fail(s, "format", "format", strconv.Quote(v.str)+" is not a format toolgen checks")
			return
		}
	}
	if v, ok := s.get("contentEncoding"); ok {
		if v.kind != 's' || v.str != "base64" {
			c.fail(s, "contentEncoding", "contentEncoding", "only base64 is read")
			return
		}
		if n.pattern != nil || n.format != "" {
			c.fail(s, "contentEncoding", "contentEncoding", "base64 text takes no pattern or format")
			return
		}
		n.kind = kindBytes
	}
	// What toolgen writes for a time.Time and a time.Duration reads as those do.
	if n.kind == kindString && n.format == argcheck.FormatDateTime && n.minLen < 0 && n.maxLen < 0 && n.pattern == nil {
		n.kind = kindDateTime
	}
	if n.kind == kindString && n.patternSrc == durationPattern && n.minLen < 0 && n.maxLen < 0 && n.format == "" {
		n.kind = kindDuration
	}
}

// count reads a non-negative integer keyword.
func (c *compiler) count(v *jv, kw string) int {
	if v.kind == 'n' {
		if i, err := strconv.Atoi(v.str); err == nil && i >= 0 {
			return i
		}
	}
	c.fail(v, "", kw, "must be a non-negative integer")
	return -1
}

func (c *compiler) numberNode(n *node, s *jv, integer bool) {
	n.kind = kindNumber
	num := func(kw string) (string, bool) {
		v, ok := s.get(kw)
		if !ok {
			return "", false
		}
		if v.kind != 'n' {
			c.fail(s, kw, kw, "must be a number")
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
	n.bounds = Bounds{Minimum: minT, Maximum: maxT, ExclusiveMinimum: exMinT, ExclusiveMaximum: exMaxT, MultipleOf: multT}
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
				n.lo = c.intBound(n, s, minT, "minimum", invalid.Minimum, prog.BoundWords("minimum"), '<', n.lo)
			}
			if hasMax {
				n.hi = c.intBound(n, s, maxT, "maximum", invalid.Maximum, prog.BoundWords("maximum"), '>', n.hi)
			}
		}
	} else {
		if hasMin {
			n.checks = append(n.checks, c.numCheck(s, minT, "minimum", invalid.Minimum, prog.BoundWords("minimum"), '<', false))
		}
		if hasMax {
			n.checks = append(n.checks, c.numCheck(s, maxT, "maximum", invalid.Maximum, prog.BoundWords("maximum"), '>', false))
		}
	}
	if hasExMin {
		n.checks = append(n.checks, c.numCheck(s, exMinT, "exclusiveMinimum", invalid.ExclusiveMinimum, prog.BoundWords("exclusiveMinimum"), '[', integer))
	}
	if hasExMax {
		n.checks = append(n.checks, c.numCheck(s, exMaxT, "exclusiveMaximum", invalid.ExclusiveMaximum, prog.BoundWords("exclusiveMaximum"), ']', integer))
	}
	if hasMult {
		q, ok := parseDecimal([]byte(multT))
		if !ok || q.zero() || q.neg {
			c.fail(s, "multipleOf", "multipleOf", "must be greater than 0")
			return
		}
		if k, err := strconv.ParseInt(multT, 10, 64); integer && err == nil {
			n.multInt, n.multText = k, multT
		} else {
			n.multiple = multT
		}
	}
}

// intBound reads an integer's minimum or maximum, returning the bound the Decoder
// checks (keep when the bound checks nothing an int64 could break). A bound past the
// int64 range on the side that holds no int64 (a minimum of 1e30, a maximum of -1e30),
// and one with a fraction, become a check of n, made as numbers are compared.
func (c *compiler) intBound(n *node, s *jv, text, kw string, code invalid.Code, msg string, op byte, keep int64) int64 {
	neg, mag, ok, overflow := integerDigits([]byte(text))
	switch {
	case ok && !overflow && !neg && mag <= math.MaxInt64:
		return int64(mag)
	case ok && !overflow && neg && mag <= 1<<63:
		return int64(-mag)
	case ok && (op == '<') == neg:
		return keep // past the range where every int64 meets it
	}
	n.checks = append(n.checks, c.numCheck(s, text, kw, code, msg, op, false))
	return keep
}

func (c *compiler) numCheck(s *jv, text, kw string, code invalid.Code, msg string, op byte, integer bool) numCheck {
	ch := numCheck{code: code, msg: msg + " " + text, op: op}
	dec, ok := parseDecimal([]byte(text))
	if !ok {
		c.fail(s, kw, kw, "must be a number")
		return ch
	}
	ch.dec = dec
	ch.f, _ = strconv.ParseFloat(text, 64) // ±Inf past the range: every float64 meets it or none does
	ch.exact = exactFloat(ch.f, dec, text)
	if integer {
		if i, err := strconv.ParseInt(text, 10, 64); err == nil {
			ch.i, ch.integer = i, true
		}
	}
	return ch
}

// fails reports whether the integer v breaks the check.
func (c numCheck) failsInt(v int64, x decimal) bool {
	if c.integer {
		return c.op == '[' && v <= c.i || c.op == ']' && v >= c.i
	}
	return c.failsDec(x)
}

// failsUint reports whether the unsigned integer v breaks the check.
func (c numCheck) failsUint(v uint64, x decimal) bool {
	if c.integer {
		return c.op == '[' && c.i >= 0 && v <= uint64(c.i) || c.op == ']' && (c.i < 0 || v >= uint64(c.i))
	}
	return c.failsDec(x)
}

// failsNumber reports whether the number just read, f as a float64 holds it, breaks
// the check, exactly and as that float64 (failsDec or failsFloat). A float64 other
// than an exact bound decides both alone; the number's text is read (into *x, once
// for all the checks: *parsed says so) only for one equal to it.
func (c numCheck) failsNumber(f float64, d *Decoder, x *decimal, parsed *bool) bool {
	if c.exact && f != c.f {
		return c.failsFloat(f)
	}
	if !*parsed {
		*x, *parsed = d.lastNumber(), true
	}
	return c.failsDec(*x) || c.failsFloat(f)
}

// exactFloat reports whether the float64 f is exactly the number x, whose JSON text is
// text. A bound longer than maxExactBound bytes is taken as not exact (its checks read
// every number's text), so that compiling costs in proportion to the schema's length.
func exactFloat(f float64, x decimal, text string) bool {
	switch {
	case len(text) > maxExactBound || math.IsInf(f, 0) || math.IsNaN(f):
		return false
	case f == 0:
		return x.zero()
	case x.zero():
		return false
	}
	r, ok := new(big.Rat).SetString(text)
	return ok && r.Cmp(new(big.Rat).SetFloat64(f)) == 0
}

// maxExactBound is the longest bound exactFloat compares with its float64.
const maxExactBound = 64

// failsDec reports whether the number x breaks the check, compared exactly.
func (c numCheck) failsDec(x decimal) bool {
	r := cmpDecimal(x, c.dec)
	switch c.op {
	case '<':
		return r < 0
	case '>':
		return r > 0
	case '[':
		return r <= 0
	}
	return r >= 0
}

// failsFloat reports whether the number f, as a float64 holds it, breaks the check:
// a number is read as a float64, and the value run gets must meet the schema too
// (1e-400 is greater than 0, but the float64 it rounds to is not).
func (c numCheck) failsFloat(f float64) bool {
	switch c.op {
	case '<':
		return f < c.f
	case '>':
		return f > c.f
	case '[':
		return f <= c.f
	}
	return f >= c.f
}

// cmpDecimal compares two numbers exactly: -1, 0 or +1 as a is less than, equal to
// or greater than b.
func cmpDecimal(a, b decimal) int {
	sign := func(x decimal) int {
		switch {
		case x.zero():
			return 0
		case x.neg:
			return -1
		}
		return 1
	}
	sa, sb := sign(a), sign(b)
	if sa != sb || sa == 0 {
		return cmp.Compare(sa, sb)
	}
	// Both of one sign: compare magnitudes, the place of the first digit, then the
	// digits.
	mag := cmp.Compare(int64(a.len())+a.exp, int64(b.len())+b.exp)
	for i := 0; mag == 0 && i < max(a.len(), b.len()); i++ {
		mag = cmp.Compare(a.digit(i), b.digit(i))
	}
	return sa * mag
}

// digit returns the i-th significant digit of x, '0' past the last.
func (x decimal) digit(i int) byte {
	switch {
	case i < len(x.hi):
		return x.hi[i]
	case i < x.len():
		return x.lo[i-len(x.hi)]
	}
	return '0'
}

// appendDecimalKey writes a key of x that equal numbers share (2, 2.0, 20e-1 and
// 0.2e1 alike; -0 is 0).
func appendDecimalKey(b []byte, x decimal) []byte {
	if x.zero() {
		return append(b, '0')
	}
	if x.neg {
		b = append(b, '-')
	}
	b = append(b, x.hi...)
	b = append(b, x.lo...)
	b = append(b, 'e')
	return strconv.AppendInt(b, x.exp, 10)
}

func (c *compiler) enumConst(n *node, s *jv, typ string) {
	var vals []*jv
	kw := "enum"
	_, hasEnum := s.get("enum")
	if _, hasConst := s.get("const"); hasConst && hasEnum {
		// Both apply; the general engine checks both.
		c.fail(s, "const", "const", "beside enum: both apply, which the toolgen engine does not read")
		return
	}
	if v, ok := s.get("const"); ok {
		kw, vals = "const", []*jv{v}
		n.enumCode = invalid.Const
	} else if v, ok := s.get("enum"); ok {
		if v.kind != 'a' || len(v.items) == 0 {
			c.fail(s, "enum", "enum", "must be a non-empty list")
			return
		}
		vals = v.items
		n.enumCode = invalid.Enum
	} else {
		return
	}
	if n.kind == kindBytes || n.kind == kindDateTime || n.kind == kindObject || n.kind == kindArray {
		c.fail(s, kw, kw, "is read only for strings, numbers and booleans")
		return
	}
	n.hasEnum, n.nullFails = true, n.nullable
	switch n.kind {
	case kindString:
		n.enumStr = make(map[string]string, len(vals))
	case kindInteger:
		n.enumInt = make(map[int64]struct{}, len(vals))
	case kindUnsigned:
		n.enumUint = make(map[uint64]struct{}, len(vals))
	case kindNumber:
		n.enumNum = make(map[string]struct{}, len(vals))
	case kindDuration:
		n.enumDur = make(map[time.Duration]struct{}, len(vals))
	}
	texts := make([]string, len(vals))
	for i, v := range vals {
		bad := func() { c.fail(s, kw, kw, "holds a value that is not of type "+typ) }
		texts[i] = string(v.compact())
		if v.kind == 'z' && n.nullable {
			n.nullFails = false // null is allowed by the type and listed
			continue
		}
		switch n.kind {
		case kindString:
			if v.kind != 's' {
				bad()
				return
			}
			n.enumStr[v.str] = v.str
		case kindDuration:
			x, err := time.ParseDuration(v.str)
			if v.kind != 's' || err != nil {
				bad()
				return
			}
			n.enumDur[x] = struct{}{}
		case kindInteger, kindUnsigned:
			// Any integral number, as the value read is (2.0 is 2); one past the Go
			// range is never read, and is left out.
			neg, mag, ok, overflow := integerDigits([]byte(v.str))
			if v.kind != 'n' || !ok {
				bad()
				return
			}
			switch {
			case overflow:
			case n.kind == kindUnsigned:
				if !neg || mag == 0 {
					n.enumUint[mag] = struct{}{}
				}
			case !neg && mag <= math.MaxInt64:
				n.enumInt[int64(mag)] = struct{}{}
			case neg && mag <= 1<<63:
				n.enumInt[int64(-mag)] = struct{}{}
			}
		case kindNumber:
			x, ok := parseDecimal([]byte(v.str))
			if v.kind != 'n' || !ok {
				bad()
				return
			}
			n.enumNum[string(appendDecimalKey(nil, x))] = struct{}{}
		case kindBool:
			if v.kind != 'b' {
				bad()
				return
			}
			n.enumBool[b2i(v.b)] = true
		}
	}
	n.enumMsg, n.enumTexts = oneOfMessage(texts), texts
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// maxListedBytes bounds the text of a list of values or names in a violation's
// message (see prog.MaxListedBytes).
const maxListedBytes = prog.MaxListedBytes

// oneOfMessage is the message of a value that is none of the values whose JSON texts
// are vals: prog.OneOf, which generated code's messages are written from too.
func oneOfMessage(vals []string) string { return prog.OneOf(vals) }

// cutList joins items with commas, cut to about maxListedBytes (prog.CutList).
func cutList(items []string) string { return prog.CutList(items) }

func (c *compiler) objectNode(n *node, s *jv) {
	n.kind = kindObject
	n.index = map[string]int{}
	if v, ok := s.get("properties"); ok {
		if v.kind != 'o' {
			c.fail(s, "properties", "properties", "must be an object")
			return
		}
		for i, name := range v.keys {
			ps := v.vals[i]
			p := &prop{name: name, member: string(append(appendJSONString(nil, name), ':')), node: c.compile(ps)}
			if ps.kind == 'o' {
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
			c.fail(s, "required", "required", "must be a list of names")
			return
		}
		for _, r := range v.items {
			i, ok := n.index[r.str]
			if r.kind != 's' || !ok {
				c.fail(s, "required", "required", "names a property that properties does not declare")
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
			n.additional = c.compile(v)
		}
	}
	if v, ok := s.get("propertyNames"); ok {
		if v.kind != 'o' {
			c.fail(s, "propertyNames", "propertyNames", "must hold an enum of names")
			return
		}
		for i, k := range v.keys {
			switch {
			case k == "type":
				if t := v.vals[i]; t.kind != 's' || t.str != "string" {
					c.fail(v, k, k, `property names are strings: the type of propertyNames is "string"`)
					return
				}
			case k != "enum" && !annotationKeywords[k] && !strings.HasPrefix(k, "x-"):
				c.fail(v, k, k, "propertyNames takes only an enum of names")
				return
			}
		}
		e, hasEnum := v.get("enum")
		if !hasEnum || e.kind != 'a' {
			c.fail(s, "propertyNames", "propertyNames", "must hold an enum of names")
			return
		}
		n.keyEnum = make(map[string]struct{}, len(e.items))
		for _, it := range e.items {
			if it.kind != 's' {
				c.fail(v, "enum", "enum", "property names are strings")
				return
			}
			if _, dup := n.keyEnum[it.str]; !dup {
				n.keyEnum[it.str] = struct{}{}
				n.keyNames = append(n.keyNames, it.str)
			}
		}
		// propertyNames applies to every name, the declared ones too.
		for _, p := range n.props {
			_, ok := n.keyEnum[p.name]
			p.badName = !ok
		}
	}
	c.propertyCounts(n, s)
}

// propertyCounts reads minProperties and maxProperties into an object node.
func (c *compiler) propertyCounts(n *node, s *jv) {
	if v, ok := s.get("minProperties"); ok {
		n.minProps = c.count(v, "minProperties")
	}
	if v, ok := s.get("maxProperties"); ok {
		n.maxProps = c.count(v, "maxProperties")
	}
}

func (c *compiler) arrayNode(n *node, s *jv) {
	n.kind = kindArray
	n.items = &node{kind: kindAny}
	if v, ok := s.get("items"); ok {
		n.items = c.compile(v)
	}
	c.listKeywords(n, s)
}

// listKeywords reads minItems, maxItems and uniqueItems into an array node.
func (c *compiler) listKeywords(n *node, s *jv) {
	if v, ok := s.get("minItems"); ok {
		n.minItems = c.count(v, "minItems")
	}
	if v, ok := s.get("maxItems"); ok {
		n.maxItems = c.count(v, "maxItems")
	}
	if v, ok := s.get("uniqueItems"); ok {
		if v.kind != 'b' {
			c.fail(s, "uniqueItems", "uniqueItems", "must be true or false")
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
// value, which no argument could ever end. Each node is visited once: mark is 1 on
// the way being walked, 2 once known to end.
func (c *compiler) checkCycles() {
	for _, n := range c.all {
		m := n
		for ; m != nil && m.mark == 0; m = m.ref {
			m.mark = 1
		}
		if m != nil && m.mark == 1 {
			c.fail(m.src, "", "$ref", "a reference cycle that reads no value")
			return
		}
		for m = n; m != nil && m.mark == 1; m = m.ref {
			m.mark = 2
		}
	}
}

// flatten makes every reference lead straight to the node it reads, nullable when a
// reference on the way was, so that reading a value follows at most one reference
// however long the chain of $refs in the schema. Each node is visited once: mark is
// 3 once flat. The schema has no reference cycle (checkCycles).
func (c *compiler) flatten() {
	var chain []*node
	for _, n := range c.all {
		chain = chain[:0]
		m := n
		for ; m.ref != nil && m.mark != 3; m = m.ref {
			chain = append(chain, m)
		}
		target, nullable := m, false
		if m.ref != nil {
			target, nullable = m.ref, m.nullable
		}
		for i := len(chain) - 1; i >= 0; i-- {
			x := chain[i]
			nullable = nullable || x.nullable
			x.ref, x.nullable, x.mark = target, nullable, 3
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
	seg := jsonread.UnescapeToken(segs[0])
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
	case kindUnion:
		// A property of any variant: each that has it.
		found := false
		for _, v := range n.variants {
			found = markSensitive(v, segs) || found
		}
		return found
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
		if n.sensitive {
			return append(out, prefix)
		}
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
			path := prefix + "/" + jsonread.EscapeToken(p.name)
			if p.sensitive {
				out = append(out, path)
				continue
			}
			out = sensitivePaths(p.node, path, visiting, cyclic, out, budget)
		}
		if n.additional != nil {
			out = sensitivePaths(n.additional, prefix+"/*", visiting, cyclic, out, budget)
		}
	case kindUnion:
		for _, v := range n.variants {
			for _, p := range sensitivePaths(v, prefix, visiting, cyclic, nil, budget) {
				if !slices.Contains(out, p) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}
