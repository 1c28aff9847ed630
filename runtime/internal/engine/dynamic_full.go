package engine

import (
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toolgen/toolgen/runtime/internal/argcheck"
	"github.com/toolgen/toolgen/runtime/invalid"
	prog "github.com/toolgen/toolgen/runtime/invalid/message"
	"github.com/toolgen/toolgen/runtime/jsonread"
)

// This file compiles the input schemas of dynamic tools that use JSON Schema beyond the
// keywords toolgen writes (see NewTool) into a program of the general engine: a graph
// of fnodes, one per schema, that dynamic_eval.go evaluates over the arguments read
// into a tree. The schema is read as JSON Schema draft 2020-12 says: every assertion
// of the core, applicator, validation and unevaluated vocabularies, format asserted
// for the formats of Format, unknown keywords read as annotations, and $ref, $anchor,
// $dynamicRef and $dynamicAnchor resolved within the document (embedded resources with
// their own $id included). Only a reference that leaves the document is refused.

// defaultBase is the base URI of a schema without an $id at its root: references
// relative to it name the document itself or nothing.
const defaultBase = "https://toolgen.invalid/input-schema.json"

// fnode is one schema of the general engine. The keywords of each kind of value, and
// the applicators, are in parts made only for a schema that has them, so that a
// schema costs memory in proportion to its keywords.
type fnode struct {
	src *jv
	res *fres // the schema resource it belongs to (the dynamic scope's unit)
	// always is +1 for the schema true (or {}), -1 for false.
	always int8
	// sensitive: x-toolgen-sensitive, so violations at or below it show no value.
	sensitive bool
	hasTypes  bool
	hasEnum   bool
	// needsAnn: the schema has unevaluatedProperties or unevaluatedItems, so the
	// schemas beside them must say which properties and items they evaluated.
	needsAnn bool
	// shared: a reference names the schema, so its results on a value are kept
	// (memo) and a schema whose references share it along many paths costs one
	// evaluation per value.
	shared bool
	mark   uint8 // the state of the cycle check
	types  uint8 // the types allowed (typeBit), when hasTypes

	typeMsg string // "must be a string or null"
	enum    []*jv  // enum, or the one value of const
	// enumStrs are the strings of enum, a set: a string value is looked up in it
	// (no other member of enum equals a string).
	enumStrs map[string]struct{}
	enumCode invalid.Code
	enumMsg  string
	constv   *jv // const, checked beside enum; nil when absent
	constMsg string

	ref     *fnode
	dynRef  *fnode // the static target of a $dynamicRef
	dynName string // the anchor a $dynamicRef looks for in the dynamic scope, or ""

	num *fnum
	str *fstr
	arr *farr
	obj *fobj
	app *fapp
}

// fnum holds the keywords of numbers.
type fnum struct {
	bounds []fbound
	// notInt: a bound is not an integer of int64 (fbound.isInt), so numbers are
	// compared with them exactly.
	notInt   bool
	multiple *decimal
	multText string
}

// fstr holds the keywords of strings.
type fstr struct {
	minLen, maxLen int // -1 when absent
	pattern        *lpattern
	patternMsg     string
	format         argcheck.Format
}

// farr holds the keywords of arrays.
type farr struct {
	prefix             []*fnode
	items              *fnode
	contains           *fnode
	minContains        int // 1 by default
	maxContains        int // -1 when absent
	minItems, maxItems int // -1 when absent
	unique             bool
	unevalItems        *fnode
}

// fobj holds the keywords of objects.
type fobj struct {
	props       []fprop
	propIndex   map[string]int // the declared names, from indexFrom of them (see prop)
	patProps    []fpattern
	additional  *fnode
	propNames   *fnode
	required    []string
	depRequired []fdepReq
	depSchemas  []fdepSchema
	minProps    int // -1 when absent
	maxProps    int
	unevalProps *fnode
}

// prop returns the index of the declared property name, or -1.
func (o *fobj) prop(name string) int {
	if o.propIndex != nil {
		if i, ok := o.propIndex[name]; ok {
			return i
		}
		return -1
	}
	for i := range o.props {
		if o.props[i].name == name {
			return i
		}
	}
	return -1
}

// names returns the declared names, in order, for suggestions.
func (o *fobj) names() []string {
	out := make([]string, len(o.props))
	for i := range o.props {
		out[i] = o.props[i].name
	}
	return out
}

// fapp holds the applicators that apply schemas to the same value.
type fapp struct {
	allOf, anyOf, oneOf []*fnode
	not                 *fnode
	ifs, then, els      *fnode
	// The discriminators of anyOf and oneOf, found once, when a value first matches
	// none of the branches (see discriminator).
	anyDisc, oneDisc fdisc
}

// fdisc is the discriminator of a list of branches, found once.
type fdisc struct {
	once   sync.Once
	name   string
	vals   []string        // the JSON texts of the consts, in the branches' order
	consts map[string]bool // the consts
}

// get returns the discriminator of branches (see discriminator), found on first use.
func (d *fdisc) get(branches []*fnode) (string, []string, map[string]bool) {
	d.once.Do(func() { d.name, d.vals, d.consts = discriminator(branches) })
	return d.name, d.vals, d.consts
}

// single returns the one string value n allows by const or a one-value enum (a
// discriminator's, as pydantic, zod and toolgen write it).
func (n *fnode) single() (*jv, bool) {
	switch {
	case n.constv != nil && n.constv.kind == 's':
		return n.constv, true
	case n.hasEnum && len(n.enum) == 1 && n.enum[0].kind == 's':
		return n.enum[0], true
	}
	return nil, false
}

func (n *fnode) nums() *fnum {
	if n.num == nil {
		n.num = &fnum{}
	}
	return n.num
}

func (n *fnode) strs() *fstr {
	if n.str == nil {
		n.str = &fstr{minLen: -1, maxLen: -1}
	}
	return n.str
}

func (n *fnode) arrs() *farr {
	if n.arr == nil {
		n.arr = &farr{minContains: 1, maxContains: -1, minItems: -1, maxItems: -1}
	}
	return n.arr
}

func (n *fnode) objs() *fobj {
	if n.obj == nil {
		n.obj = &fobj{minProps: -1, maxProps: -1}
	}
	return n.obj
}

func (n *fnode) apps() *fapp {
	if n.app == nil {
		n.app = &fapp{}
	}
	return n.app
}

// Type bits.
const (
	tNull uint8 = 1 << iota
	tBoolean
	tObject
	tArray
	tNumber
	tString
	tInteger
)

var typeBits = map[string]uint8{
	"null": tNull, "boolean": tBoolean, "object": tObject, "array": tArray,
	"number": tNumber, "string": tString, "integer": tInteger,
}

// fbound is a number's minimum, maximum, exclusiveMinimum or exclusiveMaximum.
type fbound struct {
	dec decimal
	// i is the bound when it is an integer of int64 (isInt), for the numbers that
	// are small integers (smallInt), compared without reading their digits twice.
	i     int64
	isInt bool
	op    byte // '<' fails below, '>' above, '[' at or below, ']' at or above
	code  invalid.Code
	msg   string
}

type fprop struct {
	name string
	n    *fnode
	def  []byte // the default's compact JSON, or nil
}

type fpattern struct {
	re  *lpattern
	src string
	n   *fnode
}

type fdepReq struct {
	name string
	req  []string
}

type fdepSchema struct {
	name string
	n    *fnode
}

// fres is a schema resource: the document, or a schema with its own $id.
type fres struct {
	uri     string
	root    *jv
	anchors map[string]*jv // $anchor and $dynamicAnchor names
	dynamic map[string]*jv // $dynamicAnchor names
	// dynNodes are the nodes of dynamic, once compiled.
	dynNodes map[string]*fnode
}

// fprog is a schema compiled by the general engine.
type fprog struct {
	root    *fnode
	dynamic bool // the schema has a $dynamicRef: results depend on the dynamic scope
	nodes   int
	all     []*fnode // every node, for the walks of compileFullTool
	names   map[string]string
	// pool keeps the state of finished calls, their memory reused by the next.
	pool sync.Pool
}

// fcompiler compiles a schema for the general engine.
type fcompiler struct {
	tool      string
	doc       *jv
	resources map[string]*fres // by URI, without fragment
	resList   []*fres          // the same, in the document's order
	resOf     map[*jv]*fres    // the resource each resource root starts
	nodes     map[*jv]*fnode
	all       []*fnode
	queue     []*fnode
	dynamic   bool
	err       *SchemaError
	// hubs are the nodes checkCycles goes through from a $dynamicRef to the schemas
	// its anchor's name may land on (hubKids), by name: one edge a reference and one
	// a schema, where an edge from each reference to each schema would make the check
	// quadratic in the schema's length.
	hubs    map[string]*fnode
	hubKids map[*fnode][]*fnode
}

// hub returns the hub of the dynamic anchor name, made on first use.
func (c *fcompiler) hub(name string) *fnode {
	if h, ok := c.hubs[name]; ok {
		return h
	}
	if c.hubs == nil {
		c.hubs, c.hubKids = map[string]*fnode{}, map[*fnode][]*fnode{}
	}
	h := &fnode{}
	var kids []*fnode
	for _, r := range c.resList {
		if t := r.dynNodes[name]; t != nil {
			kids = append(kids, t)
		}
	}
	c.hubs[name], c.hubKids[h] = h, kids
	return h
}

func (c *fcompiler) fail(at *jv, sub, keyword, reason string) {
	if c.err == nil {
		c.err = &SchemaError{Tool: c.tool, Path: at.pointer(sub), Keyword: keyword, Reason: reason}
	}
}

// compileFull compiles the schema doc for the general engine.
func compileFull(tool string, doc *jv) (*fprog, *SchemaError) {
	c := &fcompiler{tool: tool, doc: doc, resources: map[string]*fres{}, resOf: map[*jv]*fres{},
		nodes: map[*jv]*fnode{}}
	c.index(doc, defaultBase, nil)
	if c.err != nil {
		return nil, c.err
	}
	root := c.compile(doc)
	// The schemas a $dynamicRef may land on, in whichever resource of the dynamic
	// scope: compiled whether or not a static reference names them.
	for _, r := range c.resList {
		r.dynNodes = make(map[string]*fnode, len(r.dynamic))
		for _, name := range slices.Sorted(maps.Keys(r.dynamic)) {
			r.dynNodes[name] = c.later(r.dynamic[name])
		}
	}
	for len(c.queue) > 0 && c.err == nil {
		n := c.queue[0]
		c.queue = c.queue[1:]
		c.compileInto(n, n.src)
	}
	if c.err == nil {
		c.checkCycles()
	}
	if c.err != nil {
		return nil, c.err
	}
	// The names the schema declares, which the members of the arguments read as (see
	// arena.name).
	names := map[string]string{}
	for _, n := range c.all {
		if n.obj != nil {
			for _, p := range n.obj.props {
				names[p.name] = p.name
			}
		}
	}
	return &fprog{root: root, dynamic: c.dynamic, nodes: len(c.all), all: c.all, names: names}, nil
}

// The keywords whose value is a schema, a list of schemas, or an object of schemas.
var (
	schemaKeywords = map[string]bool{
		"additionalProperties": true, "propertyNames": true, "items": true, "contains": true,
		"not": true, "if": true, "then": true, "else": true, "unevaluatedItems": true,
		"unevaluatedProperties": true, "contentSchema": true,
	}
	schemaListKeywords = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}
	schemaMapKeywords  = map[string]bool{
		"$defs": true, "definitions": true, "properties": true, "patternProperties": true, "dependentSchemas": true,
	}
)

// index walks the schemas of the document from s, whose base URI is base before its
// own $id, recording the resources, their anchors and each schema's base URI. Only
// schema positions are walked: an $id inside an enum, a const or an unknown keyword
// is data.
func (c *fcompiler) index(s *jv, base string, res *fres) {
	if c.err != nil || s.kind != 'o' {
		return
	}
	if id, ok := s.get("$id"); ok {
		if id.kind != 's' {
			c.fail(s, "$id", "$id", "must be a string")
			return
		}
		u, err := resolveURI(base, id.str)
		if err != nil {
			c.fail(s, "$id", "$id", "is not a URI reference: "+err.Error())
			return
		}
		base = u
		res = nil
	}
	if res == nil {
		if _, dup := c.resources[base]; dup {
			c.fail(s, "$id", "$id", strconv.Quote(base)+" names two schemas of the document")
			return
		}
		res = &fres{uri: base, root: s, anchors: map[string]*jv{}, dynamic: map[string]*jv{}}
		c.resources[base] = res
		c.resList = append(c.resList, res)
		c.resOf[s] = res
	}
	for _, kw := range [...]string{"$anchor", "$dynamicAnchor"} {
		a, ok := s.get(kw)
		if !ok {
			continue
		}
		if a.kind != 's' || !validAnchor(a.str) {
			c.fail(s, kw, kw, "must be a plain name (a letter or '_', then letters, digits, '-', '_', '.')")
			return
		}
		if other, dup := res.anchors[a.str]; dup && other != s {
			c.fail(s, kw, kw, strconv.Quote(a.str)+" names two schemas of one resource")
			return
		}
		res.anchors[a.str] = s
		if kw == "$dynamicAnchor" {
			res.dynamic[a.str] = s
		}
	}
	for i, k := range s.keys {
		v := s.vals[i]
		switch {
		case schemaKeywords[k]:
			c.index(v, base, res)
		case schemaListKeywords[k] && v.kind == 'a':
			for _, it := range v.items {
				c.index(it, base, res)
			}
		case schemaMapKeywords[k] && v.kind == 'o':
			for _, it := range v.vals {
				c.index(it, base, res)
			}
		}
	}
}

func validAnchor(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		letter := 'a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || ch == '_'
		if i == 0 && !letter || !letter && !('0' <= ch && ch <= '9' || ch == '-' || ch == '.') {
			return false
		}
	}
	return true
}

// resolveURI resolves ref against base, without the fragment when it is empty.
func resolveURI(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	u := b.ResolveReference(r)
	if u.Fragment == "" {
		u.RawFragment = ""
	}
	s := u.String()
	return strings.TrimSuffix(s, "#"), nil
}

// baseOf returns the base URI of the schema s: that of the resource it belongs to
// (a base URI changes only where an $id starts a resource).
func (c *fcompiler) baseOf(s *jv) string {
	if r := c.resourceOf(s); r != nil {
		return r.uri
	}
	return defaultBase
}

// resourceOf returns the resource the schema s belongs to.
func (c *fcompiler) resourceOf(s *jv) *fres {
	for v := s; v != nil; v = v.up {
		if r, ok := c.resOf[v]; ok {
			return r
		}
	}
	return c.resOf[c.doc]
}

// node returns the node of s, and whether it is new.
func (c *fcompiler) node(s *jv) (*fnode, bool) {
	if n, ok := c.nodes[s]; ok {
		return n, false
	}
	n := &fnode{src: s, res: c.resourceOf(s)}
	c.nodes[s] = n
	c.all = append(c.all, n)
	return n, true
}

// compile returns the node of s, compiling it the first time.
func (c *fcompiler) compile(s *jv) *fnode {
	n, fresh := c.node(s)
	if fresh && c.err == nil {
		c.compileInto(n, s)
	}
	return n
}

// later returns the node of s, queued to be compiled when new: the target of a
// reference, compiled after the schema that names it, so that chains of references
// cost no stack.
func (c *fcompiler) later(s *jv) *fnode {
	n, fresh := c.node(s)
	if fresh {
		c.queue = append(c.queue, n)
	}
	n.shared = true
	return n
}

// lookup resolves the reference ref of the schema at s to the schema it names.
func (c *fcompiler) lookup(s *jv, kw, ref string) *jv {
	abs, err := resolveURI(c.baseOf(s), ref)
	if err != nil {
		c.fail(s, kw, kw, strconv.Quote(ref)+" is not a URI reference: "+err.Error())
		return nil
	}
	uri, frag, _ := strings.Cut(abs, "#")
	res, ok := c.resources[uri]
	if !ok {
		c.fail(s, kw, kw, strconv.Quote(ref)+" leaves the document (it names "+strconv.Quote(uri)+"): only references within the schema are resolved")
		return nil
	}
	if frag != "" {
		if f, err := url.PathUnescape(frag); err == nil {
			frag = f
		}
	}
	if frag == "" {
		return res.root
	}
	if !strings.HasPrefix(frag, "/") {
		t, ok := res.anchors[frag]
		if !ok {
			c.fail(s, kw, kw, strconv.Quote(ref)+" names no anchor of the schema")
			return nil
		}
		return t
	}
	target := res.root
	for _, tok := range strings.Split(frag[1:], "/") {
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
			c.fail(s, kw, kw, strconv.Quote(ref)+" names nothing in the schema")
			return nil
		}
		target = next
	}
	return target
}

// compileInto compiles the schema s into n.
func (c *fcompiler) compileInto(n *fnode, s *jv) {
	switch s.kind {
	case 'b':
		n.always = -1
		if s.b {
			n.always = 1
		}
		return
	case 'o':
	default:
		c.fail(s, "", "", "a schema must be an object or a boolean")
		return
	}
	if x, ok := s.get(SensitiveKeyword); ok {
		if x.kind != 'b' {
			c.fail(s, SensitiveKeyword, SensitiveKeyword, "must be true or false")
			return
		}
		n.sensitive = x.b
	}
	for i, k := range s.keys {
		if c.err != nil {
			return
		}
		c.keyword(n, s, k, s.vals[i])
	}
	if _, ok := s.get("contains"); !ok && n.arr != nil {
		n.arr.minContains, n.arr.maxContains = 1, -1 // without contains, both are ignored
	}
	if c.err == nil && n.hasEnum {
		texts := make([]string, len(n.enum))
		for i, v := range n.enum {
			texts[i] = string(v.compact())
		}
		n.enumMsg = oneOfMessage(texts)
	}
	if len(s.keys) == 0 {
		n.always = 1
	}
}

// keyword compiles one keyword k of value v of the schema s into n.
func (c *fcompiler) keyword(n *fnode, s *jv, k string, v *jv) {
	count := func() int {
		if v.kind == 'n' {
			if neg, mag, ok, overflow := integerDigits([]byte(v.str)); ok && !neg && !overflow && mag <= 1<<31 {
				return int(mag)
			}
		}
		c.fail(s, k, k, "must be a non-negative integer")
		return -1
	}
	sub := func() *fnode { return c.compile(v) }
	list := func() []*fnode {
		if v.kind != 'a' || len(v.items) == 0 {
			c.fail(s, k, k, "must be a non-empty list of schemas")
			return nil
		}
		out := make([]*fnode, len(v.items))
		for i, it := range v.items {
			out[i] = c.compile(it)
		}
		return out
	}
	switch k {
	case "$ref":
		if v.kind != 's' {
			c.fail(s, k, k, "must be a string")
			return
		}
		if t := c.lookup(s, k, v.str); t != nil {
			n.ref = c.later(t)
		}
	case "$dynamicRef":
		if v.kind != 's' {
			c.fail(s, k, k, "must be a string")
			return
		}
		t := c.lookup(s, k, v.str)
		if t == nil {
			return
		}
		n.dynRef = c.later(t)
		// The reference is dynamic only when its target has a $dynamicAnchor of the
		// fragment's name: otherwise it is a $ref.
		_, frag, _ := strings.Cut(v.str, "#")
		if a, ok := t.get("$dynamicAnchor"); ok && a.kind == 's' && a.str == frag {
			n.dynName = frag
			c.dynamic = true
		}
	case "type":
		c.types(n, s, v)
	case "enum":
		if v.kind != 'a' || len(v.items) == 0 {
			c.fail(s, k, k, "must be a non-empty list")
			return
		}
		n.enum, n.hasEnum, n.enumCode = v.items, true, invalid.Enum
		n.enumStrs = map[string]struct{}{}
		for _, e := range v.items {
			if e.kind == 's' {
				n.enumStrs[e.str] = struct{}{}
			}
		}
	case "const":
		n.constv, n.constMsg = v, oneOfMessage([]string{string(v.compact())})
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		x, ok := parseDecimal([]byte(v.str))
		if v.kind != 'n' || !ok {
			c.fail(s, k, k, "must be a number")
			return
		}
		b := fbound{dec: x}
		if neg, mag, ok, overflow := integerDigits([]byte(v.str)); ok && !overflow && (mag <= math.MaxInt64 || neg && mag == 1<<63) {
			b.i, b.isInt = int64(mag), true
			if neg {
				b.i = -b.i
			}
		}
		switch k {
		case "minimum":
			b.op, b.code = '<', invalid.Minimum
		case "maximum":
			b.op, b.code = '>', invalid.Maximum
		case "exclusiveMinimum":
			b.op, b.code = '[', invalid.ExclusiveMinimum
		default:
			b.op, b.code = ']', invalid.ExclusiveMaximum
		}
		b.msg = prog.Bound(k, v.str)
		n.nums().bounds = append(n.nums().bounds, b)
		n.num.notInt = n.num.notInt || !b.isInt
	case "multipleOf":
		x, ok := parseDecimal([]byte(v.str))
		if v.kind != 'n' || !ok || x.zero() || x.neg {
			c.fail(s, k, k, "must be a number greater than 0")
			return
		}
		n.nums().multiple, n.num.multText = &x, v.str
	case "minLength":
		n.strs().minLen = count()
	case "maxLength":
		n.strs().maxLen = count()
	case "pattern":
		if v.kind != 's' {
			c.fail(s, k, k, "must be a string")
			return
		}
		re, err := compileLookahead(v.str)
		if err != nil {
			c.fail(s, k, k, err.Error())
			return
		}
		n.strs().pattern, n.str.patternMsg = re, argcheck.PatternMessage(v.str)
	case "format":
		if v.kind != 's' {
			c.fail(s, k, k, "must be a string")
			return
		}
		switch f := argcheck.Format(v.str); f {
		case argcheck.FormatDateTime, argcheck.FormatDate, argcheck.FormatTime, argcheck.FormatDuration, argcheck.FormatEmail, argcheck.FormatHostname, argcheck.FormatIPv4, argcheck.FormatIPv6,

			// Any other format is an annotation, as JSON Schema says.
			argcheck.FormatURI, argcheck.FormatUUID:
			n.strs().format = f
		}

	case "minItems":
		n.arrs().minItems = count()
	case "maxItems":
		n.arrs().maxItems = count()
	case "uniqueItems":
		if v.kind != 'b' {
			c.fail(s, k, k, "must be true or false")
			return
		}
		n.arrs().unique = v.b
	case "minContains":
		n.arrs().minContains = count()
	case "maxContains":
		n.arrs().maxContains = count()
	case "minProperties":
		n.objs().minProps = count()
	case "maxProperties":
		n.objs().maxProps = count()
	case "required":
		n.objs().required = c.names(s, k, v)
	case "dependentRequired":
		if v.kind != 'o' {
			c.fail(s, k, k, "must be an object of lists of names")
			return
		}
		for i, name := range v.keys {
			n.objs().depRequired = append(n.obj.depRequired, fdepReq{name: name, req: c.names(v, name, v.vals[i])})
		}
	case "dependentSchemas":
		if v.kind != 'o' {
			c.fail(s, k, k, "must be an object of schemas")
			return
		}
		for i, name := range v.keys {
			n.objs().depSchemas = append(n.obj.depSchemas, fdepSchema{name: name, n: c.compile(v.vals[i])})
		}
	case "properties":
		if v.kind != 'o' {
			c.fail(s, k, k, "must be an object of schemas")
			return
		}
		o := n.objs()
		if len(v.keys) >= indexFrom {
			o.propIndex = make(map[string]int, len(v.keys))
		}
		for i, name := range v.keys {
			ps := v.vals[i]
			p := fprop{name: name, n: c.compile(ps)}
			if ps.kind == 'o' {
				if d, ok := ps.get("default"); ok {
					p.def = d.compact()
				}
			}
			if o.propIndex != nil {
				o.propIndex[name] = len(o.props)
			}
			o.props = append(o.props, p)
		}
	case "patternProperties":
		if v.kind != 'o' {
			c.fail(s, k, k, "must be an object of schemas")
			return
		}
		for i, src := range v.keys {
			re, err := compileLookahead(src)
			if err != nil {
				c.fail(v, src, k, err.Error())
				return
			}
			n.objs().patProps = append(n.obj.patProps, fpattern{re: re, src: src, n: c.compile(v.vals[i])})
		}
	case "additionalProperties":
		n.objs().additional = sub()
	case "propertyNames":
		n.objs().propNames = sub()
	case "unevaluatedProperties":
		n.objs().unevalProps, n.needsAnn = sub(), true
	case "prefixItems":
		n.arrs().prefix = list()
	case "items":
		if v.kind == 'a' {
			c.fail(s, k, k, "must be a schema: the schemas of a tuple's items are prefixItems in draft 2020-12")
			return
		}
		n.arrs().items = sub()
	case "contains":
		n.arrs().contains = sub()
	case "unevaluatedItems":
		n.arrs().unevalItems, n.needsAnn = sub(), true
	case "allOf":
		n.apps().allOf = list()
	case "anyOf":
		n.apps().anyOf = list()
	case "oneOf":
		n.apps().oneOf = list()
	case "not":
		n.apps().not = sub()
	case "if":
		n.apps().ifs = sub()
	case "then":
		n.apps().then = sub()
	case "else":
		n.apps().els = sub()
	case "$defs", "definitions":
		if v.kind != 'o' {
			c.fail(s, k, k, "must be an object of schemas")
		}
	case "$id", "$anchor", "$dynamicAnchor":
		// Read by index.
	default:
		// Every other keyword is an annotation: description, title, default,
		// examples, discriminator, nullable, contentEncoding, "x-..." and the rest.
	}
}

// names reads a list of property names.
func (c *fcompiler) names(s *jv, k string, v *jv) []string {
	if v.kind != 'a' {
		c.fail(s, k, k, "must be a list of names")
		return nil
	}
	out := make([]string, 0, len(v.items))
	for _, it := range v.items {
		if it.kind != 's' {
			c.fail(s, k, k, "must be a list of names")
			return nil
		}
		out = append(out, it.str)
	}
	return out
}

// types reads the type keyword: one type, or a list of them.
func (c *fcompiler) types(n *fnode, s *jv, v *jv) {
	var names []string
	switch v.kind {
	case 's':
		names = []string{v.str}
	case 'a':
		for _, it := range v.items {
			if it.kind != 's' {
				c.fail(s, "type", "type", "must be a type name or a list of them")
				return
			}
			names = append(names, it.str)
		}
	default:
		c.fail(s, "type", "type", "must be a type name or a list of them")
		return
	}
	n.hasTypes = true
	var words []string
	for _, t := range names {
		bit, ok := typeBits[t]
		if !ok {
			c.fail(s, "type", "type", strconv.Quote(t)+" is not a JSON Schema type (null, boolean, object, array, number, string, integer)")
			return
		}
		n.types |= bit
		words = append(words, typeWord(t))
	}
	switch len(words) {
	case 0:
		n.typeMsg = "must be of no type (the type list is empty)"
	case 1:
		n.typeMsg = "must be " + words[0]
	default:
		n.typeMsg = "must be " + strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
	}
}

// typeWord names the values of a type as the decoder's messages do.
func typeWord(t string) string {
	switch t {
	case "null":
		return "null"
	case "boolean":
		return "a boolean"
	case "object":
		return "an object"
	case "array":
		return "an array"
	case "number":
		return "a number"
	case "string":
		return "a string"
	}
	return "an integer"
}

// checkCycles refuses schemas that apply themselves to the same value without end
// ({"$ref": "#"} at the root, {"allOf": [{"$ref": "#/$defs/a"}]} in a), which no
// value could ever end: each node is visited once, mark 1 on the way, 2 once done.
func (c *fcompiler) checkCycles() {
	type frame struct {
		n    *fnode
		kids []*fnode
		i    int
	}
	for _, start := range c.all {
		if start.mark != 0 {
			continue
		}
		start.mark = 1
		stack := []frame{{n: start, kids: c.inPlace(start)}}
		for len(stack) > 0 && c.err == nil {
			f := &stack[len(stack)-1]
			if f.i == len(f.kids) {
				f.n.mark = 2
				stack = stack[:len(stack)-1]
				continue
			}
			k := f.kids[f.i]
			f.i++
			switch k.mark {
			case 1:
				at := k.src
				if _, hub := c.hubKids[k]; hub {
					// The schema of the cycle the hub leads to, a dynamic anchor's.
					for _, g := range stack {
						if g.n == k {
							at = g.kids[g.i-1].src
						}
					}
				}
				c.fail(at, "", "$ref", "a reference cycle that reads no value: the schema applies itself to the same value without end")
			case 0:
				k.mark = 1
				stack = append(stack, frame{n: k, kids: c.inPlace(k)})
			}
		}
		if c.err != nil {
			return
		}
	}
}

// inPlace lists the schemas n applies to the value n is applied to.
func (c *fcompiler) inPlace(n *fnode) []*fnode {
	// A $dynamicRef may land on the schema of its anchor's name in any resource: its
	// edge goes to the hub of that name (see hub), whose edges go to them.

	var out []*fnode
	add := func(m *fnode) {
		if m != nil {
			out = append(out, m)
		}
	}
	if kids, ok := c.hubKids[n]; ok {
		return kids
	}
	add(n.ref)
	add(n.dynRef)
	if n.dynName != "" {
		add(c.hub(n.dynName))
	}
	if a := n.app; a != nil {
		out = append(out, a.allOf...)
		out = append(out, a.anyOf...)
		out = append(out, a.oneOf...)
		add(a.not)
		add(a.ifs)
		add(a.then)
		add(a.els)
	}
	if n.obj != nil {
		for _, d := range n.obj.depSchemas {
			add(d.n)
		}
	}
	return out
}

// compileFullTool compiles def's input schema, doc, with the general engine and
// completes def.Sensitive with the properties the schema marks.
func compileFullTool(def *Tool, doc *jv) (*Program, error) {
	fp, err := compileFull(def.Name, doc)
	if err != nil {
		return nil, err
	}
	if !objectRoot(fp.root) {
		return nil, &SchemaError{Tool: def.Name, Keyword: "type", Reason: "the arguments must be an object (type object)"}
	}
	for _, p := range def.Sensitive {
		if !strings.HasPrefix(p, "/") || !fullNames(fp.root, strings.Split(p[1:], "/")) {
			return nil, &SchemaError{Tool: def.Name, Reason: "Sensitive path " + strconv.Quote(p) + " names no property of the input schema"}
		}
	}
	sens := slices.Clone(def.Sensitive)
	reach := reachesSensitive(fp.all)
	budget := maxSensitiveVisits
	var paths []string
	if reach[fp.root] {
		cyclic := map[*fnode]bool{}
		fullCycles(fp.root, map[*fnode]int{}, nil, cyclic)
		fullSensitivePaths(fp.root, "", map[*fnode]bool{}, cyclic, reach, &paths, &budget)
	}
	if budget < 0 {
		return nil, &SchemaError{Tool: def.Name, Reason: "its sensitive properties lie along more paths than can be listed (definitions shared along too many paths)"}
	}
	for _, p := range paths {
		if p == "" {
			return nil, &SchemaError{Tool: def.Name, Keyword: SensitiveKeyword, Reason: "the arguments as a whole cannot be sensitive: mark the properties that are"}
		}
		if !slices.Contains(sens, p) {
			sens = append(sens, p)
		}
	}
	def.Sensitive = sens
	prog := &Program{full: fp}
	for _, p := range sens {
		segs := strings.Split(p[1:], "/")
		for i := range segs {
			segs[i] = jsonread.UnescapeToken(segs[i])
		}
		prog.sensitive = append(prog.sensitive, segs)
	}
	return prog, nil
}

// objectRoot reports whether the schema n takes only objects: its type is "object",
// or it is a reference to such a schema.
func objectRoot(n *fnode) bool {
	for i := 0; n != nil && i < 64; i++ {
		if n.hasTypes {
			return n.types == tObject
		}
		n = n.ref
	}
	return false
}

// fedge is one edge of the schema graph: the schema applied to a value below
// (token, "*" for any item or name) or to the same value ("").
type fedge struct {
	tok string
	n   *fnode
}

// fedges lists the schemas n applies to its value and the values in it.
func fedges(n *fnode) []fedge {
	var out []fedge
	add := func(tok string, m *fnode) {
		if m != nil {
			out = append(out, fedge{tok, m})
		}
	}
	if o := n.obj; o != nil {
		for _, p := range o.props {
			add(jsonread.EscapeToken(p.name), p.n)
		}
		for _, p := range o.patProps {
			add("*", p.n)
		}
		add("*", o.additional)
		add("*", o.unevalProps)
		for _, d := range o.depSchemas {
			add("", d.n)
		}
	}
	if a := n.arr; a != nil {
		for _, m := range a.prefix {
			add("*", m)
		}
		add("*", a.items)
		add("*", a.unevalItems)
	}
	add("", n.ref)
	add("", n.dynRef)
	if a := n.app; a != nil {
		for _, l := range [][]*fnode{a.allOf, a.anyOf, a.oneOf} {
			for _, m := range l {
				add("", m)
			}
		}
		add("", a.then)
		add("", a.els)
	}
	return out
}

// fullCycles marks the nodes that lie on a cycle of the schema graph (on the stack,
// at depth onStack[n]-1, when met again).
func fullCycles(n *fnode, onStack map[*fnode]int, stack []*fnode, cyclic map[*fnode]bool) {
	if d, ok := onStack[n]; ok {
		if d > 0 {
			for _, m := range stack[d-1:] {
				cyclic[m] = true
			}
		}
		return
	}
	onStack[n] = len(stack) + 1
	stack = append(stack, n)
	for _, e := range fedges(n) {
		fullCycles(e.n, onStack, stack, cyclic)
	}
	onStack[n] = 0 // done: met again, it is no cycle of this path
}

// fullSensitivePaths lists the paths of the sensitive schemas, as sensitivePaths does
// for the toolgen engine: below a cycle's entry they go on with "**".
func fullSensitivePaths(n *fnode, prefix string, visiting, cyclic, reach map[*fnode]bool, out *[]string, budget *int) {
	if !reach[n] || visiting[n] {
		return
	}
	if *budget--; *budget < 0 {
		return
	}
	if n.sensitive {
		*out = append(*out, prefix)
		return
	}
	if cyclic[n] && !strings.HasSuffix(prefix, "/**") {
		prefix += "/**"
	}
	visiting[n] = true
	defer delete(visiting, n)
	for _, e := range fedges(n) {
		p := prefix
		if e.tok != "" {
			p += "/" + e.tok
		}
		fullSensitivePaths(e.n, p, visiting, cyclic, reach, out, budget)
	}
}

// reachesSensitive returns the nodes from which a sensitive one can be reached, in one
// visit of each edge: the walk of the sensitive paths goes only through them.
func reachesSensitive(all []*fnode) map[*fnode]bool {
	if !slices.ContainsFunc(all, func(n *fnode) bool { return n.sensitive }) {
		return nil // the common case: nothing to walk
	}
	into := map[*fnode][]*fnode{}
	var queue []*fnode
	reach := map[*fnode]bool{}
	for _, n := range all {
		for _, e := range fedges(n) {
			into[e.n] = append(into[e.n], n)
		}
		if n.sensitive {
			reach[n] = true
			queue = append(queue, n)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range into[n] {
			if !reach[m] {
				reach[m] = true
				queue = append(queue, m)
			}
		}
	}
	return reach
}

// fullNames reports whether a Tool.Sensitive path names a value the schema describes.
func fullNames(root *fnode, segs []string) bool {
	type at struct {
		n *fnode
		i int
	}
	seen := map[at]bool{}
	var walk func(n *fnode, i int) bool
	walk = func(n *fnode, i int) bool {
		if i == len(segs) {
			return true
		}
		if seen[at{n, i}] || len(seen) > maxSensitiveVisits {
			return false
		}
		seen[at{n, i}] = true
		for _, e := range fedges(n) {
			switch {
			case e.tok == "" && walk(e.n, i):
				return true
			case e.tok != "" && (segs[i] == "**") && (walk(e.n, i) || walk(e.n, i+1)):
				return true
			case e.tok != "" && (segs[i] == "*" || e.tok == segs[i] || e.tok == "*") && walk(e.n, i+1):
				return true
			}
		}
		return false
	}
	return walk(root, 0)
}
