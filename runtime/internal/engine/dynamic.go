package engine

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/toolgen/toolgen/runtime/internal/argcheck"
	"github.com/toolgen/toolgen/runtime/internal/lists"
	"github.com/toolgen/toolgen/runtime/invalid"
	prog "github.com/toolgen/toolgen/runtime/invalid/message"
)

// anySensitive reports whether a node reachable from n has a sensitive property, in
// one visit of each node.
func anySensitive(n *node, seen map[*node]bool) bool {
	if n == nil || seen[n] {
		return false
	}
	seen[n] = true
	if n.sensitive {
		return true
	}
	for _, p := range n.props {
		if p.sensitive || anySensitive(p.node, seen) {
			return true
		}
	}
	for _, v := range n.variants {
		if anySensitive(v, seen) {
			return true
		}
	}
	return anySensitive(n.ref, seen) || anySensitive(n.items, seen) || anySensitive(n.additional, seen)
}

// maxSensitiveVisits bounds the work of listing a schema's sensitive paths.
const maxSensitiveVisits = 100000

// Program is a compiled input schema: Compile returns it, and its Decode reads a
// call's arguments.
type Program struct {
	root *node
	seed maphash.Seed // see hashJSON
	// full is the program of the general engine, for a schema beyond the keywords
	// toolgen writes (root is then nil); sensitive are the tool's Sensitive paths,
	// split, which its violations do not show.
	full      *fprog
	sensitive [][]string
}

// compileTool compiles def's input schema and completes def.Sensitive with the
// properties the schema marks.
func compileTool(def *Tool) (*Program, error) {
	schema := def.InputSchema
	if len(strings.TrimSpace(string(schema))) == 0 {
		schema = json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
	}
	doc, err := parseSchema(schema)
	if err != nil {
		return nil, &SchemaError{Tool: def.Name, Reason: "not a JSON Schema: " + err.Error()}
	}
	if beyondToolgen(doc, 0) {
		return compileFullTool(def, doc)
	}
	c := &compiler{tool: def.Name, root: doc, nodes: map[*jv]*node{}}
	root := c.compileAll(doc)
	if c.err == nil {
		c.checkCycles()
	}
	if c.err == nil {
		c.flatten()
		c.applyOverlays()
	}
	if c.err != nil {
		// A schema beyond the keywords toolgen writes: the general engine reads it.
		return compileFullTool(def, doc)
	}
	// A reference to a sensitive schema reads a sensitive value: the interpreter asks
	// only the node it holds.
	for _, n := range c.all {
		for r := n; r != nil && !n.sensitive; r = r.ref {
			n.sensitive = r.sensitive
		}
	}
	if r := resolve(root); r.kind != kindObject || r.nullable || root.nullable {
		return nil, &SchemaError{Tool: def.Name, Keyword: "type", Reason: "the arguments must be an object (type object)"}
	}
	for _, p := range def.Sensitive {
		if !strings.HasPrefix(p, "/") || !markSensitivePath(root, strings.Split(p[1:], "/")) {
			return nil, &SchemaError{Tool: def.Name, Reason: "Sensitive path " + strconv.Quote(p) + " names no property of the input schema"}
		}
	}
	sens := slices.Clone(def.Sensitive)
	budget := maxSensitiveVisits
	var paths []string
	if anySensitive(root, map[*node]bool{}) {
		paths = sensitivePaths(root, "", map[*node]bool{}, cyclicNodes(root), nil, &budget)
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
			// A schema marked where it is reached through a reference, an item or a
			// map's value: the property holding it is not echoed in errors either.
			markSensitivePath(root, strings.Split(p[1:], "/"))
		}
	}
	def.Sensitive = sens
	// A discriminator marked sensitive in a variant: BeginUnion does not show its
	// value when it names no variant.
	for _, n := range c.all {
		if n.kind != kindUnion {
			continue
		}
		for _, v := range n.variants {
			v = resolve(v)
			if i, ok := v.index[n.tag]; ok && (v.props[i].sensitive || v.props[i].node.sensitive) {
				n.words.hidden = true
			}
		}
	}
	return &Program{root: root, seed: maphash.MakeSeed()}, nil
}

// Decode reads the arguments d holds, returning them re-encoded when they are valid.
func (p *Program) Decode(d *Decoder) (json.RawMessage, bool) {
	if p.full != nil {
		return p.full.decode(d, p.sensitive)
	}
	// The output is about as long as the arguments: one allocation for it, up to
	// maxOutStart bytes (so that invalid arguments, which write none, cost little).
	st := interp{d: d, seed: p.seed, out: make([]byte, 0, min(len(d.data)+64, maxOutStart))}
	st.value(p.root)
	if !d.Finish() {
		return nil, false
	}
	return st.out, true
}

// maxOutStart is the most memory an interp takes for its output before it writes any.
const maxOutStart = 8 << 10

// interp runs a program over one call's arguments. It writes the arguments it read to
// out while they are valid; once a violation is found, out is no longer used and no
// longer written, so that invalid arguments cost no more memory than their reading.
type interp struct {
	d   *Decoder
	out []byte
	// key is the uniqueness key of the last scalar read, when wantKey: the value a
	// generated decoder stores for it (the zero value when it stored none).
	key     string
	wantKey bool
	// keying counts the items of uniqueItems lists of objects or arrays being read
	// for their uniqueness keys, which are their output: written even once the
	// arguments are invalid.
	keying  int
	seed    maphash.Seed // for the hashes of object and array items (uniqueItems)
	scratch []byte       // a number's enum key
}

// w reports whether to write output.
func (st *interp) w() bool { return st.keying > 0 || !st.d.Failed() }

func (st *interp) raw(s string) {
	if st.w() {
		st.out = append(st.out, s...)
	}
}

// value reads one value of node n, as a generated decoder reads the Go type toolgen
// maps to n's schema.
func (st *interp) value(n *node) {
	d := st.d
	for {
		if n.nullable && d.Null() {
			st.key = "z"
			if n.nullFails {
				d.Fail(n.enumCode, n.enumMsg) // the type allows null, the enum does not
				return
			}
			st.raw("null")
			return
		}
		if n.ref == nil {
			break
		}
		n = n.ref
	}
	switch n.kind {
	case kindAny:
		st.anyValue()
	case kindString:
		st.stringValue(n)
	case kindDateTime:
		st.key = "t"
		if t, ok := d.Time(); ok {
			s := t.Format(time.RFC3339Nano)
			if st.wantKey {
				st.key = "t" + s
			}
			if st.w() {
				st.out = appendJSONString(st.out, s)
			}
		}
	case kindDuration:
		st.key = "d0"
		if x, ok := d.Duration(); ok {
			if n.hasEnum {
				if _, in := n.enumDur[x]; !in {
					d.Fail(n.enumCode, n.enumMsg)
					return
				}
			}
			if st.wantKey {
				st.key = "d" + strconv.FormatInt(int64(x), 10)
			}
			if st.w() {
				st.out = appendJSONString(st.out, x.String())
			}
		}
	case kindBytes:
		st.key = "x"
		if b, ok := d.Bytes(); ok {
			if st.wantKey {
				st.key = "x" + string(b)
			}
			if n.minLen >= 0 || n.maxLen >= 0 {
				// The lengths of the text in its canonical form (a generated decoder
				// of a []byte does not check them).
				text := base64.StdEncoding.EncodeToString(b)
				if n.minLen >= 0 {
					d.MinLength(text, n.minLen)
				}
				if n.maxLen >= 0 {
					d.MaxLength(text, n.maxLen)
				}
			}
			if st.w() {
				st.out = append(st.out, '"')
				st.out = base64.StdEncoding.AppendEncode(st.out, b)
				st.out = append(st.out, '"')
			}
		}
	case kindInteger:
		st.intValue(n)
	case kindUnsigned:
		st.uintValue(n)
	case kindNumber:
		st.floatValue(n)
	case kindBool:
		st.key = "bfalse"
		if b, ok := d.Bool(); ok {
			if n.hasEnum && !n.enumBool[b2i(b)] {
				d.Fail(n.enumCode, n.enumMsg)
				return
			}
			st.key = "bfalse"
			if b {
				st.key = "btrue"
			}
			if st.w() {
				st.out = strconv.AppendBool(st.out, b)
			}
		}
	case kindObject:
		st.object(n)
	case kindArray:
		st.array(n)
	case kindUnion:
		st.union(n)
	}
}

func (st *interp) stringValue(n *node) {
	d := st.d
	st.key = "s"
	var s string
	var ok bool
	if n.hasEnum {
		// As generated: with an enum, the value is matched, not kept, and the other
		// keywords are checked on the enum's own copy of it.
		var b []byte
		if b, ok = d.StringBytes(); !ok {
			return
		}
		// The set's own copy of the string: b is the decoder's, reused by the next read.
		if s, ok = n.enumStr[string(b)]; !ok {
			d.Fail(n.enumCode, n.enumMsg)
			return
		}
	} else if s, ok = d.String(); !ok {
		return
	}
	if n.minLen >= 0 {
		d.MinLength(s, n.minLen)
	}
	if n.maxLen >= 0 {
		d.MaxLength(s, n.maxLen)
	}
	if n.simple != nil {
		if !n.simple.MatchString(s) {
			d.Fail(invalid.Pattern, n.patternMessage)
		}
	} else if n.pattern != nil && !n.pattern.MatchString(s) {
		d.Fail(invalid.Pattern, n.patternMessage)
	}
	if n.format != "" {
		d.Format(s, n.format)
	}
	if st.wantKey {
		st.key = "s" + s
	}
	if st.w() {
		st.out = appendJSONString(st.out, s)
	}
}

func (st *interp) intValue(n *node) {
	d := st.d
	st.key = "i0"
	v, ok := d.Int(n.lo, n.hi)
	if !ok {
		return
	}
	if len(n.checks) > 0 {
		x := d.lastNumber()
		for _, c := range n.checks {
			if c.failsInt(v, x) {
				d.Fail(c.code, c.msg)
			}
		}
	}
	if n.multInt != 0 && v%n.multInt != 0 {
		d.Fail(invalid.MultipleOf, prog.Bound("multipleOf", n.multText))
	}
	if n.multiple != "" {
		d.MultipleOf(n.multiple)
	}
	if _, in := n.enumInt[v]; n.hasEnum && !in {
		d.Fail(n.enumCode, n.enumMsg)
		return
	}
	if st.wantKey {
		st.key = "i" + strconv.FormatInt(v, 10)
	}
	if st.w() {
		st.out = strconv.AppendInt(st.out, v, 10)
	}
}

func (st *interp) uintValue(n *node) {
	d := st.d
	st.key = "i0"
	v, ok := d.Uint(n.ulo, n.uhi)
	if !ok {
		return
	}
	if len(n.checks) > 0 {
		x := d.lastNumber()
		for _, c := range n.checks {
			if c.failsUint(v, x) {
				d.Fail(c.code, c.msg)
			}
		}
	}
	if n.multInt != 0 && v%uint64(n.multInt) != 0 {
		d.Fail(invalid.MultipleOf, prog.Bound("multipleOf", n.multText))
	}
	if n.multiple != "" {
		d.MultipleOf(n.multiple)
	}
	if _, in := n.enumUint[v]; n.hasEnum && !in {
		d.Fail(n.enumCode, n.enumMsg)
		return
	}
	if st.wantKey {
		st.key = "i" + strconv.FormatUint(v, 10)
	}
	if st.w() {
		st.out = strconv.AppendUint(st.out, v, 10)
	}
}

func (st *interp) floatValue(n *node) {
	d := st.d
	st.key = "n0"
	f, ok := d.Float(64)
	if !ok {
		return
	}
	var x decimal
	parsed := false
	for _, c := range n.checks {
		if c.failsNumber(f, d, &x, &parsed) {
			d.Fail(c.code, c.msg)
		}
	}
	if n.multiple != "" {
		d.MultipleOf(n.multiple)
	}
	if n.multInt != 0 {
		d.MultipleOf(n.multText)
	}
	if n.hasEnum && !st.inEnum(n) {
		d.Fail(n.enumCode, n.enumMsg)
		return
	}
	if f == 0 {
		f = 0 // -0 equals 0
	}
	if st.wantKey {
		st.key = "n" + strconv.FormatFloat(f, 'g', -1, 64)
	}
	if st.w() {
		if text := d.data[d.valStart:d.pos]; floatText(text) {
			st.out = append(st.out, text...) // what appendFloat would write
		} else {
			st.out = appendFloat(st.out, f)
		}
	}
}

// inEnum reports whether the number just read is one of n's enum, compared exactly.
func (st *interp) inEnum(n *node) bool {
	st.scratch = appendDecimalKey(st.scratch[:0], st.d.lastNumber())
	_, in := n.enumNum[string(st.scratch)]
	return in
}

// lastNumber returns the number just read, exactly.
func (d *Decoder) lastNumber() decimal {
	x, _ := parseDecimal(d.data[d.valStart:d.pos])
	return x
}

// object reads an object: its declared properties as a generated struct decoder
// reads them, the others as a generated map decoder reads its entries.
func (st *interp) object(n *node) {
	if !st.d.BeginObject() {
		return
	}
	st.members(n, "", "")
}

// union reads a tagged union as a generated union decoder does: Decoder.BeginUnion
// finds the discriminator wherever it stands, then the variant it names reads the
// object's properties, the discriminator's value skipped.
func (st *interp) union(n *node) {
	i := st.d.beginUnion(n.tag, n.tagValues, n.words)
	if i < 0 {
		return
	}
	st.members(n.variants[i], n.tag, n.tagJSON[i])
}

// members reads the properties of an object whose opening brace was read, of the
// object node n. tag, when not "", is the discriminator of the union whose variant n
// is: BeginUnion read it, so its value is skipped (and written as tagJSON), and its
// absence is not reported again.
func (st *interp) members(n *node, tag, tagJSON string) {
	d := st.d
	var seenBuf [16]argcheck.Presence
	seen := seenBuf[:0]
	if len(n.props) <= len(seenBuf) {
		seen = seenBuf[:len(n.props)]
	} else {
		seen = make([]argcheck.Presence, len(n.props))
	}
	var keys map[string]struct{} // the other properties read, for duplicates
	count := 0
	first := true
	st.raw("{")
	for d.NextField() {
		if i, ok := n.index[string(d.FieldName())]; ok {
			p := n.props[i]
			flags := argcheck.Required
			if !p.required {
				flags = argcheck.Optional
			}
			if p.sensitive {
				flags |= argcheck.Sensitive
			}
			if tag != "" && p.name == tag {
				// BeginUnion read it: this variant's value.
				if d.Property(&seen[i], p.name, argcheck.Required) {
					st.member(&first, p.name)
					st.raw(tagJSON)
					d.Skip()
					d.Leave()
				}
				continue
			}
			if p.badName {
				// A name propertyNames refuses, unless null makes it absent.
				if !p.required && seen[i] == argcheck.Absent && d.Null() {
					seen[i] = argcheck.Null
				} else {
					d.Unknown(n.keyNames...)
				}
				continue
			}
			if d.Property(&seen[i], p.name, flags) {
				st.declared(&first, p)
				st.value(p.node)
				d.Leave()
			}
			continue
		}
		if n.additional == nil {
			d.Unknown(n.names...)
			continue
		}
		if _, in := n.keyEnum[string(d.FieldName())]; n.keyEnum != nil && !in {
			d.Unknown(n.keyNames...)
			continue
		}
		k := string(d.FieldName())
		if _, dup := keys[k]; dup {
			d.Duplicate()
			continue
		}
		if keys == nil {
			keys = map[string]struct{}{}
		}
		keys[k] = struct{}{}
		count++
		if n.additional.sensitive {
			d.EnterSensitive(k)
		} else {
			d.Enter(k)
		}
		st.member(&first, k)
		st.value(n.additional)
		d.Leave()
	}
	for i, p := range n.props {
		switch {
		case p.required:
			if seen[i] == argcheck.Absent && (tag == "" || p.name != tag) {
				d.Missing(p.name)
			}
		case p.def != nil:
			if seen[i] != argcheck.Present {
				st.declared(&first, p)
				if st.w() {
					st.out = append(st.out, p.def...)
				}
			}
		}
		if seen[i] == argcheck.Present {
			count++
		}
	}
	if n.minProps >= 0 {
		d.MinProperties(count, n.minProps)
	}
	if n.maxProps >= 0 {
		d.MaxProperties(count, n.maxProps)
	}
	st.raw("}")
}

// member writes the name of an object's member, after a comma unless it is the first.
func (st *interp) member(first *bool, name string) {
	if !st.w() {
		return
	}
	if !*first {
		st.out = append(st.out, ',')
	}
	*first = false
	st.out = appendJSONString(st.out, name)
	st.out = append(st.out, ':')
}

// declared writes the name of a declared property, as member does.
func (st *interp) declared(first *bool, p *prop) {
	if !st.w() {
		return
	}
	if !*first {
		st.out = append(st.out, ',')
	}
	*first = false
	st.out = append(st.out, p.member...)
}

// array reads an array as a generated slice decoder does: for uniqueItems, the items
// compared are those a generated decoder keeps and compares (toolimpl.Item and
// Unique: the first maxItems valid items), each as the value it stored, and reported
// by their indexes in the array.
func (st *interp) array(n *node) {
	d := st.d
	if !d.BeginArray() {
		return
	}
	if n.items.sensitive {
		d.hideItems()
	}
	var keys []string      // scalar items: the values a generated decoder compares
	var items []hashedItem // object and array items
	var at []int           // the index of each key's or item's, once an item was left out
	base := len(st.out)
	outer := st.wantKey
	st.wantKey = n.unique
	st.raw("[")
	first := true
	for d.NextItem() {
		if st.w() {
			if !first {
				st.out = append(st.out, ',')
			}
			first = false
		}
		// The valid items are compared, by their indexes, even once the arguments
		// are invalid: every duplicate is reported with the other violations. The
		// text of an object or array item is written for its hash even then.
		start, mark, i := len(st.out), d.failures(), d.Index()
		keep := n.unique && (n.maxItems <= 0 || len(keys)+len(items) < n.maxItems)
		keying := keep && !scalar(n.items)
		if keying {
			st.keying++
		}
		st.value(n.items)
		valid := d.failures() == mark
		switch {
		case keying:
			st.keying--
			if valid {
				h, _ := hashJSON(st.out, start, st.seed)
				at = indexKept(at, len(items), i)
				items = append(items, hashedItem{h, int32(start), int32(len(st.out))})
			} else if !st.w() {
				st.out = st.out[:start]
			}
		case keep && valid:
			at = indexKept(at, len(keys), i)
			keys = append(keys, st.key)
		}
	}
	st.wantKey = outer
	st.raw("]")
	if n.minItems >= 0 {
		d.MinItems(d.Count(), n.minItems)
	}
	if n.maxItems >= 0 {
		d.MaxItems(d.Count(), n.maxItems)
	}
	if n.unique {
		if i, j, ok := lists.Duplicate(keys); ok {
			if at != nil {
				i, j = at[i], at[j]
			}
			d.NotUnique(i, j)
		} else if i, j, ok := st.equalItems(items); ok {
			if at != nil {
				i, j = at[i], at[j]
			}
			d.NotUnique(i, j)
		}
	}
	if !st.w() {
		st.out = st.out[:base] // written for the items' hashes alone
	}
}

// indexKept returns at, the indexes of the items kept for uniqueItems, with i, the
// index of the kept-th: nil while every item was kept (each item's index is its
// place), made when one was left out.
func indexKept(at []int, kept, i int) []int {
	if at == nil && i == kept {
		return nil
	}
	if at == nil {
		at = make([]int, kept, kept+1)
		for k := range at {
			at[k] = k
		}
	}
	return append(at, i)
}

// hashedItem is an object or array item of an array with uniqueItems: a hash of its
// JSON value, and where st.out holds it.
type hashedItem struct {
	hash       uint64
	start, end int32
}

// equalItems returns the first two items equal as JSON values, as lists.Duplicate
// does: items of equal hash are compared by their canonical text, so that the rare
// items of equal hash that differ are not taken for equal. An item's hash costs a pass
// over its text, with no allocation, whichever array holds it, so that arrays of
// unique arrays nested sixty deep cost no more memory than one.
func (st *interp) equalItems(items []hashedItem) (i, j int, ok bool) {
	if len(items) < 2 {
		return 0, 0, false
	}
	text := func(k int32) string { return canonical(st.out[items[k].start:items[k].end]) }
	order := make([]int32, len(items))
	for k := range order {
		order[k] = int32(k)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(items[a].hash, items[b].hash); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	// The first duplicate is the second item of the run of equal hashes whose second
	// item comes first.
	bi, bj := int32(-1), int32(-1)
	for k := 1; k < len(order); k++ {
		a, b := order[k-1], order[k]
		if items[a].hash != items[b].hash || k >= 2 && items[order[k-2]].hash == items[a].hash {
			continue // not a run, or not its first two
		}
		if text(a) != text(b) {
			// Two items of one hash that differ: compare every item by its text.
			texts := make([]string, len(items))
			for x := range texts {
				texts[x] = text(int32(x))
			}
			return lists.Duplicate(texts)
		}
		if bj < 0 || b < bj {
			bi, bj = a, b
		}
	}
	return int(bi), int(bj), bj >= 0
}

// hashJSON returns a hash of the JSON value that starts at b[i], written as the
// interpreter writes values (compact, each string and number in one form), and where
// it ends: values equal as JSON have equal hashes (object members in any order, -0
// and 0 alike). Text cut short hashes as what it holds.
func hashJSON(b []byte, i int, seed maphash.Seed) (uint64, int) {
	if i >= len(b) {
		return 0, i
	}
	switch b[i] {
	case '{':
		var sum uint64
		count := uint64(0)
		i++
		for i < len(b) && b[i] != '}' {
			if b[i] == ',' {
				i++
			}
			kh, end := hashJSON(b, i, seed)
			i = end + 1 // the colon
			vh, end := hashJSON(b, i, seed)
			i = max(end, i+1)  // text cut short moves on too
			sum += mix(kh, vh) // commutative: members in any order
			count++
		}
		return mix(mix(0x6f626a, sum), count), i + 1
	case '[':
		h := uint64(0x617272)
		i++
		for i < len(b) && b[i] != ']' {
			if b[i] == ',' {
				i++
			}
			ih, end := hashJSON(b, i, seed)
			i = max(end, i+1)
			h = mix(h, ih)
		}
		return h, i + 1
	case '"':
		end := i + 1
		for end < len(b) && b[end] != '"' {
			if b[end] == '\\' {
				end++
			}
			end++
		}
		end = min(end+1, len(b))
		return maphash.Bytes(seed, b[i:end]), end
	}
	end := i
	for end < len(b) && b[end] != ',' && b[end] != ']' && b[end] != '}' && b[end] != ':' {
		end++
	}
	if string(b[i:end]) == "-0" {
		return maphash.String(seed, "0"), end
	}
	return maphash.Bytes(seed, b[i:end]), end
}

// mix combines two hashes (the finalizer of SplitMix64 over their combination).
func mix(a, b uint64) uint64 {
	x := a*0x9e3779b97f4a7c15 ^ b
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// scalar reports whether the values of n are strings, numbers or booleans (or null),
// whose uniqueness keys the interpreter computes as a generated decoder compares them.
func scalar(n *node) bool {
	switch resolve(n).kind {
	case kindString, kindInteger, kindUnsigned, kindNumber, kindBool, kindDateTime, kindDuration, kindBytes:
		return true
	}
	return false
}

// canonical returns the uniqueness key of an object or array item, which the
// interpreter wrote: its canonical JSON (canonicalJSON), so that items equal as JSON
// values are equal, numbers compared exactly.
func canonical(item []byte) string { return string(canonicalJSON(item)) }

// anyValue reads any JSON value as Decoder.Any does, with the same violations, and
// writes it without building it.
func (st *interp) anyValue() {
	d := st.d
	if d.broken {
		return
	}
	switch d.peek() {
	case '{':
		if !d.begin(false) {
			return
		}
		var seen map[string]struct{}
		first := true
		st.raw("{")
		for d.NextField() {
			name := string(d.FieldName())
			if _, dup := seen[name]; dup {
				d.Duplicate()
				continue
			}
			if seen == nil {
				seen = map[string]struct{}{}
			}
			seen[name] = struct{}{}
			d.Enter(name)
			st.member(&first, name)
			st.anyValue()
			d.Leave()
		}
		st.raw("}")
	case '[':
		if !d.begin(true) {
			return
		}
		st.raw("[")
		first := true
		for d.NextItem() {
			if st.w() {
				if !first {
					st.out = append(st.out, ',')
				}
				first = false
			}
			st.anyValue()
		}
		st.raw("]")
	case '"':
		if s, ok := d.String(); ok && st.w() {
			st.out = appendJSONString(st.out, s)
		}
	case 't', 'f':
		if b, ok := d.Bool(); ok && st.w() {
			st.out = strconv.AppendBool(st.out, b)
		}
	case 'n':
		d.valStart = d.pos
		if d.literal("null") {
			st.raw("null")
		}
	default:
		if f, ok := d.Float(64); ok && st.w() {
			st.out = appendFloat(st.out, f)
		}
	}
}

// floatText reports whether appendFloat writes the float64 nearest the JSON number
// text as text itself: a number without exponent, fraction ending in a digit other
// than 0, of at most 15 significant digits (so that no shorter text rounds to the
// same float64, and the shortest is text), and 0 or at least 1e-6 in magnitude
// (below it appendFloat writes an exponent).
func floatText(text []byte) bool {
	i := 0
	if i < len(text) && text[i] == '-' {
		i++
	}
	digits, lead := 0, true       // significant digits; still in the zeros before the first
	point, last := false, byte(0) // a point read; the last digit
	zeros := 0                    // the zeros between the point and the first significant digit
	for ; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '.' && !point:
			point = true
			continue
		case c < '0' || c > '9':
			return false // an exponent, or not a number
		}
		last = c
		if lead && c == '0' {
			if point {
				zeros++
			}
			continue
		}
		lead = false
		digits++
	}
	switch {
	case len(text) == 0 || text[len(text)-1] == '.' || point && last == '0' || digits > 15:
		return false
	case digits == 0:
		return string(text) == "0" // not -0, nor 0.0
	}
	return !point || zeros < 6 // 0.000001 is 1e-6, the least written without exponent
}

// appendFloat writes f as encoding/json does.
func appendFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// Clean up e-09 to e-9, as encoding/json does.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendJSONString writes s as a JSON string. s is valid UTF-8: the decoder replaced
// invalid bytes.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
				b = append(b, s[start:i]...)
				if r == utf8.RuneError {
					b = append(b, `\ufffd`...)
				} else {
					b = append(b, `\u202`...)
					b = append(b, hexDigits[r&0xf])
				}
				i += size
				start = i
				continue
			}
			i += size
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendJSONBytes is appendJSONString for bytes, which it does not keep.
func appendJSONBytes(b, s []byte) []byte {
	return appendJSONString(b, unsafe.String(unsafe.SliceData(s), len(s)))
}
