package engine

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/toolgen/toolgen/runtime/invalid"
	prog "github.com/toolgen/toolgen/runtime/invalid/message"
	"github.com/toolgen/toolgen/runtime/safetext"

	"github.com/toolgen/toolgen/runtime/jsonread"
)

// This file evaluates a program of the general engine (dynamic_full.go): the call's
// arguments are read over the Decoder into a tree of values (with the Decoder's
// syntax, duplicate, depth and size checks), the tree is evaluated against the
// schema as JSON Schema 2020-12 says, and the violations found go to the Decoder with
// their JSON Pointer paths.

// MaxValidationSteps bounds the schemas the general engine of dynamic tools applies to
// values in one call: past it the call stops with a violation. A schema's references
// are evaluated once per value they are applied to (their results are kept), so a
// call costs in proportion to its arguments times the schema's size; the bound keeps
// a schema built to apply many schemas to each value from costing more than it.
const MaxValidationSteps = 1 << 20

// fval is one value of the arguments, read into a tree.
type fval struct {
	kind  byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' boolean, 'z' null
	b     bool
	s     string // a string's value, a number's text
	keys  []string
	vals  []*fval // an object's member values, an array's items
	index map[string]int
	// drop: a null optional property a schema read as absent (the leniency), left out
	// of the arguments run gets.
	drop bool
}

func (v *fval) get(key string) (*fval, bool) {
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

// argIndexFrom is the number of members from which an object of the arguments keeps
// an index of them (for duplicates and get): below it, a scan of the members costs
// less than the map, which a call would allocate for each object of a list.
const argIndexFrom = 32

// arena holds the values of the trees one evaluation reads, in blocks, and the keys
// and members of their objects and arrays in slabs, so that a value costs no
// allocation of its own; it is kept with its feval for the next call.
type arena struct {
	blocks [][]fval
	bi     int // the block being filled
	// The members of the objects and arrays being read, innermost last, copied into
	// the slabs once each is read.
	kstack []string
	vstack []*fval
	kslab  []string
	vslab  []*fval
	// kused and vused count the members of this call's trees, so that the next call's
	// slabs hold them in one.
	kused, vused int
	// names are the property names the schema declares, each its own value: a member
	// of one of those names takes the schema's string, so that the names of a list of
	// objects cost no allocation each.
	names map[string]string
}

// name returns the name of the member d just moved to.
func (a *arena) name(d *Decoder) string {
	b := d.FieldName()
	if s, ok := a.names[string(b)]; ok {
		return s
	}
	return string(b)
}

// reset makes the arena empty, keeping its memory.
func (a *arena) reset() {
	for i := 0; i <= a.bi && i < len(a.blocks); i++ {
		clear(a.blocks[i])
		a.blocks[i] = a.blocks[i][:0]
	}
	a.bi = 0
	clear(a.kslab)
	clear(a.vslab)
	a.kslab, a.vslab = a.kslab[:0], a.vslab[:0]
	if a.kused > cap(a.kslab) {
		a.kslab = make([]string, 0, a.kused)
	}
	if a.vused > cap(a.vslab) {
		a.vslab = make([]*fval, 0, a.vused)
	}
	a.kused, a.vused = 0, 0
}

// newVal takes a value from the arena.
func (a *arena) newVal() *fval {
	for {
		if a.bi == len(a.blocks) {
			size := 1024
			if a.bi < 6 {
				size = 16 << a.bi
			}
			a.blocks = append(a.blocks, make([]fval, 0, size))
		}
		b := &a.blocks[a.bi]
		if len(*b) < cap(*b) {
			*b = (*b)[:len(*b)+1]
			return &(*b)[len(*b)-1]
		}
		a.bi++
	}
}

// keep copies the last n members of the stacks into the slabs, returning them with
// their capacity cut, so that an append to them (a default filled) copies them out.
func (a *arena) keep(mark, n int, keys bool) ([]string, []*fval) {
	var ks []string
	if keys {
		if len(a.kslab)+n > cap(a.kslab) {
			a.kslab = make([]string, 0, max(256, n))
		}
		start := len(a.kslab)
		a.kused += n
		a.kslab = append(a.kslab, a.kstack[mark:mark+n]...)
		ks = a.kslab[start : start+n : start+n]
		clear(a.kstack[mark:])
		a.kstack = a.kstack[:mark]
	}
	if len(a.vslab)+n > cap(a.vslab) {
		a.vslab = make([]*fval, 0, max(256, n))
	}
	start := len(a.vslab)
	a.vused += n
	a.vslab = append(a.vslab, a.vstack[len(a.vstack)-n:]...)
	vs := a.vslab[start : start+n : start+n]
	a.vstack = a.vstack[:len(a.vstack)-n]
	return ks, vs
}

// readTree reads the value d stands at into a tree, as Decoder.Any reads it, or
// returns nil when it cannot.
func (a *arena) readTree(d *Decoder) *fval {
	if d.broken {
		return nil
	}
	v := a.newVal()
	switch d.peek() {
	case '{':
		if !d.begin(false) {
			return nil
		}
		a.readMembers(d, v)
	case '[':
		if !d.begin(true) {
			return nil
		}
		v.kind = 'a'
		mark := len(a.vstack)
		for d.NextItem() {
			it := a.readTree(d)
			if it == nil {
				it = a.newVal()
				it.kind = 'z'
			}
			a.vstack = append(a.vstack, it)
		}
		_, v.vals = a.keep(0, len(a.vstack)-mark, false)
	case '"':
		v.kind = 's'
		v.s, _ = d.String()
	case 't', 'f':
		v.kind = 'b'
		v.b, _ = d.Bool()
	case 'n':
		v.kind = 'z'
		d.valStart = d.pos
		d.literal("null")
	default:
		v.kind = 'n'
		num, ok := d.number("a JSON value")
		if !ok {
			return nil
		}
		// The number's text where the Decoder read it: the arguments (or the copy of a
		// string that held them), which stay as they are for the call, and the value
		// does not outlive it (the arena is cleared before the next).
		v.s = unsafe.String(unsafe.SliceData(num), len(num))
	}
	return v
}

// readMembers reads the members of the object d just began into v.
func (a *arena) readMembers(d *Decoder, v *fval) {
	v.kind = 'o'
	mark := len(a.kstack)
	for d.NextField() {
		name := a.name(d)
		if v.index != nil {
			if _, dup := v.index[name]; dup {
				d.Duplicate()
				continue
			}
		} else if slices.Contains(a.kstack[mark:], name) {
			d.Duplicate()
			continue
		}
		d.Enter(name)
		m := a.readTree(d)
		d.Leave()
		if m == nil {
			m = a.newVal()
			m.kind = 'z'
		}
		a.kstack = append(a.kstack, name)
		a.vstack = append(a.vstack, m)
		if n := len(a.kstack) - mark; v.index != nil {
			v.index[name] = n - 1
		} else if n >= argIndexFrom {
			v.index = make(map[string]int, 2*n)
			for i, k := range a.kstack[mark:] {
				v.index[k] = i
			}
		}
	}
	v.keys, v.vals = a.keep(mark, len(a.kstack)-mark, true)
}

// fviolation is a violation found while evaluating, kept until the applicator that
// found it knows whether it counts (a failed branch of an anyOf that another branch
// passes does not).
type fviolation struct {
	path  string
	code  invalid.Code
	msg   string
	got   string
	depth int // the path's segments: how far into the value the branch got
}

// fill is a default to write into an object, once the arguments are valid.
type fill struct {
	obj  *fval
	name string
	def  []byte
}

// evaluated is what a schema evaluated of a value: the properties of an object, and
// the items of an array, that unevaluatedProperties and unevaluatedItems then leave
// alone.
type evaluated struct {
	allProps bool
	props    map[string]struct{}
	items    int // the items before it
	allItems bool
	itemSet  map[int]struct{} // items contains matched
}

func (e *evaluated) addProp(name string) {
	if e.props == nil {
		e.props = map[string]struct{}{}
	}
	e.props[name] = struct{}{}
}

func (e *evaluated) merge(o *evaluated) {
	if o == nil {
		return
	}
	e.allProps = e.allProps || o.allProps
	for k := range o.props {
		e.addProp(k)
	}
	e.items = max(e.items, o.items)
	e.allItems = e.allItems || o.allItems
	for i := range o.itemSet {
		if e.itemSet == nil {
			e.itemSet = map[int]struct{}{}
		}
		e.itemSet[i] = struct{}{}
	}
}

func (e *evaluated) hasProp(name string) bool {
	if e.allProps {
		return true
	}
	_, ok := e.props[name]
	return ok
}

func (e *evaluated) hasItem(i int) bool {
	if e.allItems || i < e.items {
		return true
	}
	_, ok := e.itemSet[i]
	return ok
}

// fseg is one step of the path of the value being evaluated.
type fseg struct {
	name  string
	index int // -1 for a name
}

// memoKey names one evaluation of a shared schema on a value, in a dynamic scope.
type memoKey struct {
	n     *fnode
	v     *fval
	ann   bool
	scope int32
}

// scopeStep is a dynamic scope entering a resource.
type scopeStep struct {
	parent int32
	res    *fres
}

// memoResult is what it found.
type memoResult struct {
	viols []fviolation
	fails int
	fills []fill
	ev    *evaluated
}

// feval evaluates one call's arguments.
type feval struct {
	prog  *fprog
	path  []fseg
	viols []fviolation
	fails int // the violations found, kept or not
	fills []fill
	steps int
	stop  bool // MaxValidationSteps spent
	scope []*fres
	// scopeID names the dynamic scope (scopes interns each by its parent's name and
	// the resource entered), so that the results kept of a schema on a value are those
	// of the same scope: a $dynamicRef lands where the scope says.
	scopeID int32
	scopes  map[scopeStep]int32
	// hide counts the sensitive schemas being evaluated: their violations show no
	// value.
	hide      int
	sensitive [][]string // the tool's Sensitive paths, split
	memo      map[memoKey]*memoResult
	maxKept   int // the violations kept in full; past it they are only counted
	limits    Limits
	arena     arena
}

// decode reads and checks the arguments d holds, returning them with defaults filled
// when they are valid.
func (p *fprog) decode(d *Decoder, sensitive [][]string) ([]byte, bool) {
	st, _ := p.pool.Get().(*feval)
	if st == nil {
		st = &feval{prog: p}
	}
	defer p.pool.Put(st)
	st.begin(d, sensitive)
	root := st.arena.newVal()
	if d.BeginObject() {
		st.arena.readMembers(d, root)
	}
	if d.Failed() || d.broken {
		d.Finish()
		return nil, false
	}
	st.eval(p.root, root, false)
	if st.stop {
		d.stop(invalid.TooLarge, "the arguments take more than the "+strconv.Itoa(MaxValidationSteps)+" steps of runtime.MaxValidationSteps to check against this schema")
	}
	for _, v := range st.viols {
		if d.broken || d.full() {
			continue
		}
		d.add(invalid.Violation{Path: v.path, Code: v.code, Message: v.msg, Got: v.got})
	}
	if n := st.fails - len(st.viols); n > 0 && !d.broken {
		d.omitted += n
	}
	if !d.Finish() || d.Failed() {
		return nil, false
	}
	st.applyFills()
	// The arguments as run gets them are about as long as they came.
	return appendVal(make([]byte, 0, len(d.data)+64), root), true
}

// begin readies st for a call whose arguments d reads, keeping its memory.
func (st *feval) begin(d *Decoder, sensitive [][]string) {
	st.arena.reset()
	st.arena.names = st.prog.names
	st.path, st.scope = st.path[:0], st.scope[:0]
	clear(st.viols)
	clear(st.fills)
	st.viols, st.fills = st.viols[:0], st.fills[:0]
	st.fails, st.steps, st.stop, st.hide, st.scopeID = 0, 0, false, 0, 0
	st.sensitive, st.limits, st.maxKept = sensitive, d.limits, 4*d.limits.maxViolations()
	if st.memo != nil {
		clear(st.memo)
	}
	if st.scopes != nil {
		clear(st.scopes)
	}
}

// applyFills writes the defaults of absent properties, the first one found for each.
func (st *feval) applyFills() {
	for _, f := range st.fills {
		if m, ok := f.obj.get(f.name); ok && !m.drop {
			continue
		}
		v := &fval{kind: 'r', s: string(f.def)}
		if i := slices.Index(f.obj.keys, f.name); i >= 0 {
			f.obj.vals[i] = v
			continue
		}
		f.obj.keys = append(f.obj.keys, f.name)
		f.obj.vals = append(f.obj.vals, v)
		if f.obj.index != nil {
			f.obj.index[f.name] = len(f.obj.keys) - 1
		}
	}
}

// appendVal writes v as compact JSON.
func appendVal(b []byte, v *fval) []byte {
	switch v.kind {
	case 'o':
		b = append(b, '{')
		first := true
		for i, k := range v.keys {
			if v.vals[i].drop {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendJSONString(b, k)
			b = append(b, ':')
			b = appendVal(b, v.vals[i])
		}
		return append(b, '}')
	case 'a':
		b = append(b, '[')
		for i, it := range v.vals {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendVal(b, it)
		}
		return append(b, ']')
	case 's':
		return appendJSONString(b, v.s)
	case 'n', 'r':
		return append(b, v.s...)
	case 'b':
		return strconv.AppendBool(b, v.b)
	}
	return append(b, "null"...)
}

// pointer returns the JSON Pointer of the value being evaluated.
func (st *feval) pointer() string {
	var b strings.Builder
	for _, s := range st.path {
		b.WriteByte('/')
		if s.index >= 0 {
			b.WriteString(strconv.Itoa(s.index))
		} else {
			b.WriteString(jsonread.EscapeToken(shownName(s.name)))
		}
	}
	return b.String()
}

// hidden reports whether the value being evaluated must not be shown: a sensitive
// schema applies to it, or the tool's Sensitive names its path.
func (st *feval) hidden() bool {
	if st.hide > 0 {
		return true
	}
	for _, p := range st.sensitive {
		if matchSensitive(p, st.path) {
			return true
		}
	}
	return false
}

// matchSensitive reports whether the path, or a value holding it, is one a Sensitive
// pattern names ("*" any one step, "**" any number of them).
func matchSensitive(pat []string, path []fseg) bool {
	if len(pat) == 0 {
		return true // the path is at or below the one named
	}
	if pat[0] == "**" {
		for i := 0; i <= len(path); i++ {
			if matchSensitive(pat[1:], path[i:]) {
				return true
			}
		}
		return false
	}
	if len(path) == 0 {
		return false
	}
	seg := path[0].name
	if path[0].index >= 0 {
		seg = strconv.Itoa(path[0].index)
	}
	if pat[0] != "*" && pat[0] != seg {
		return false
	}
	return matchSensitive(pat[1:], path[1:])
}

// fail records a violation of the value v being evaluated.
func (st *feval) fail(v *fval, code invalid.Code, msg string) {
	st.fails++
	if len(st.viols) >= st.maxKept {
		return
	}
	got := ""
	if v != nil && !st.hidden() {
		got = describeVal(v)
	}
	st.viols = append(st.viols, fviolation{path: st.pointer(), code: code, msg: msg, got: got, depth: len(st.path)})
}

// failAt records a violation at the child name of the value being evaluated, with no
// value to show.
func (st *feval) failAt(child string, code invalid.Code, msg string) {
	st.path = append(st.path, fseg{name: child, index: -1})
	st.fail(nil, code, msg)
	st.path = st.path[:len(st.path)-1]
}

// describeVal shows a value briefly, as describe does.
func describeVal(v *fval) string {
	switch v.kind {
	case 'o':
		return "an object"
	case 'a':
		return "an array"
	case 's':
		return describe(appendJSONString(nil, v.s))
	case 'n':
		return describe([]byte(v.s))
	case 'b':
		return strconv.FormatBool(v.b)
	}
	return "null"
}

// mark is where the evaluation's lists stood, to go back to when a branch's findings
// do not count.
type mark struct{ viols, fails, fills int }

func (st *feval) mark() mark { return mark{len(st.viols), st.fails, len(st.fills)} }

func (st *feval) reset(m mark) {
	st.viols, st.fails, st.fills = st.viols[:m.viols], m.fails, st.fills[:m.fills]
}

// eval applies the schema n to the value v, recording what is wrong with it, and
// reports whether v is valid. With ann, it returns what it evaluated of v (for the
// unevaluated keywords of a schema beside it).
func (st *feval) eval(n *fnode, v *fval, ann bool) (bool, *evaluated) {
	if st.stop {
		return false, nil
	}
	if st.steps++; st.steps > MaxValidationSteps {
		st.stop = true
		return false, nil
	}
	switch n.always {
	case 1:
		return true, nil // true evaluates no property or item
	case -1:
		st.fail(v, invalid.Not, "no value is allowed here (the schema is false)")
		return false, nil
	}
	if n.shared {
		if st.memo == nil {
			st.memo = map[memoKey]*memoResult{}
		}
		key := memoKey{n, v, ann, st.scopeID}
		if r, ok := st.memo[key]; ok {
			st.fails += r.fails
			for _, x := range r.viols {
				if len(st.viols) < st.maxKept {
					st.viols = append(st.viols, x)
				}
			}
			st.fills = append(st.fills, r.fills...)
			return r.fails == 0, r.ev
		}
		m := st.mark()
		ok, ev := st.evalNode(n, v, ann)
		st.memo[key] = &memoResult{
			viols: slices.Clone(st.viols[m.viols:]), fails: st.fails - m.fails,
			fills: slices.Clone(st.fills[m.fills:]), ev: ev,
		}
		return ok, ev
	}
	return st.evalNode(n, v, ann)
}

func (st *feval) evalNode(n *fnode, v *fval, ann bool) (bool, *evaluated) {
	if n.res != nil && (len(st.scope) == 0 || st.scope[len(st.scope)-1] != n.res) {
		st.scope = append(st.scope, n.res)
		outer := st.scopeID
		if st.prog.dynamic {
			st.scopeID = st.enterScope(n.res)
		}
		defer func() { st.scope, st.scopeID = st.scope[:len(st.scope)-1], outer }()
	}
	if n.sensitive {
		st.hide++
		defer func() { st.hide-- }()
	}
	start := st.fails
	var ev *evaluated
	if ann || n.needsAnn {
		ev = &evaluated{}
	}
	sub := ann || n.needsAnn // the in-place applicators must say what they evaluated
	if v.kind == 's' && n.hasTypes && n.types&tString == 0 && n.types&(tObject|tArray) != 0 {
		st.undouble(v, n.types)
	}
	if n.hasTypes && !typeOK(n.types, v) {
		st.fail(v, invalid.Type, n.typeMsg)
		return false, nil
	}
	if n.ref != nil {
		st.apply(n.ref, v, sub, ev)
	}
	if n.dynRef != nil {
		st.apply(st.dynamicTarget(n), v, sub, ev)
	}
	if n.hasEnum && !inEnum(n, v) {
		st.fail(v, n.enumCode, n.enumMsg)
	}
	if n.constv != nil && !equalJV(v, n.constv) {
		st.fail(v, invalid.Const, n.constMsg)
	}
	switch {
	case v.kind == 'n' && n.num != nil:
		st.number(n.num, v)
	case v.kind == 's' && n.str != nil:
		st.str(n.str, v)
	case v.kind == 'a' && n.arr != nil:
		st.array(n.arr, v, ev)
	case v.kind == 'o' && n.obj != nil:
		st.object(n.obj, v, ev)
	}
	if a := n.app; a != nil {
		st.applicators(a, v, sub, ev)
	}
	if v.kind == 'o' && n.obj != nil {
		for _, dep := range n.obj.depSchemas {
			if _, ok := v.get(dep.name); ok {
				st.apply(dep.n, v, sub, ev)
			}
		}
	}
	if n.arr != nil && n.arr.unevalItems != nil && v.kind == 'a' {
		for i, it := range v.vals {
			if ev.hasItem(i) {
				continue
			}
			st.path = append(st.path, fseg{index: i})
			if n.arr.unevalItems.always == -1 {
				st.fail(nil, invalid.MaxItems, "no item is allowed here: the schema evaluates only "+strconv.Itoa(ev.items)+" "+plural(ev.items, "item", "items")+" (unevaluatedItems)")
			} else {
				st.eval(n.arr.unevalItems, it, false)
			}
			st.path = st.path[:len(st.path)-1]
		}
		ev.allItems = true
	}
	if n.obj != nil && n.obj.unevalProps != nil && v.kind == 'o' {
		for i, k := range v.keys {
			if ev.hasProp(k) || v.vals[i].drop {
				continue
			}
			if n.obj.unevalProps.always == -1 {
				st.failAt(k, invalid.UnknownProperty, unknownMessage(k, st.knownNames(n)))
				continue
			}
			st.path = append(st.path, fseg{name: k, index: -1})
			st.eval(n.obj.unevalProps, v.vals[i], false)
			st.path = st.path[:len(st.path)-1]
		}
		ev.allProps = true
	}
	ok := st.fails == start
	if !ok {
		return false, nil
	}
	return true, ev
}

// apply applies m to the value v in place, adding what it evaluated to ev when it
// passes.
func (st *feval) apply(m *fnode, v *fval, sub bool, ev *evaluated) bool {
	ok, e := st.eval(m, v, sub)
	if ok && ev != nil {
		ev.merge(e)
	}
	return ok
}

// applicators applies allOf, anyOf, oneOf, not and if/then/else to v.
func (st *feval) applicators(a *fapp, v *fval, sub bool, ev *evaluated) {
	for _, m := range a.allOf {
		st.apply(m, v, sub, ev)
	}
	if len(a.anyOf) > 0 {
		st.anyOf(a.anyOf, &a.anyDisc, v, sub, ev, false)
	}
	if len(a.oneOf) > 0 {
		st.anyOf(a.oneOf, &a.oneDisc, v, sub, ev, true)
	}
	if a.not != nil {
		m := st.mark()
		ok, _ := st.eval(a.not, v, false)
		st.reset(m)
		if ok {
			st.fail(v, invalid.Not, "must not match the schema of not")
		}
	}
	if a.ifs != nil {
		m := st.mark()
		ok, e := st.eval(a.ifs, v, sub)
		if ok {
			st.fills = st.fills[:m.fills] // the condition's defaults are not the value's
			if ev != nil {
				ev.merge(e)
			}
			if a.then != nil {
				st.apply(a.then, v, sub, ev)
			}
		} else {
			st.reset(m)
			if a.els != nil {
				st.apply(a.els, v, sub, ev)
			}
		}
	}
}

// undouble is the double-encoding leniency: a string holding a whole, well-formed
// object or array, where the schema takes an object or an array and no string, is
// read as the value it holds (and run gets that value). The string is read by a
// Decoder of its own, within what is left of the depth limit; one that does not hold
// such a value stays a string.
func (st *feval) undouble(v *fval, types uint8) {
	inner := strings.TrimSpace(v.s)
	if inner == "" || !(inner[0] == '{' && types&tObject != 0 || inner[0] == '[' && types&tArray != 0) {
		return
	}
	depth := st.limits.maxDepth() - len(st.path)
	if depth < 1 {
		return
	}
	d := NewDecoder([]byte(inner), Limits{MaxArgumentBytes: st.limits.maxBytes(), MaxDepth: depth})
	t := st.arena.readTree(d)
	if t == nil || !d.Finish() || d.Failed() {
		return
	}
	*v = *t
	if st.memo != nil {
		clear(st.memo) // results on the string no longer hold
	}
}

// knownNames lists the property names an unknown one is compared with: those the
// schema and the schemas beside it declare.
func (st *feval) knownNames(n *fnode) []string {
	var names []string
	seen := map[*fnode]bool{}
	var walk func(m *fnode)
	walk = func(m *fnode) {
		if m == nil || seen[m] || len(seen) > 1000 {
			return
		}
		seen[m] = true
		if m.obj != nil {
			names = append(names, m.obj.names()...)
		}
		walk(m.ref)
		if a := m.app; a != nil {
			for _, l := range [][]*fnode{a.allOf, a.anyOf, a.oneOf} {
				for _, x := range l {
					walk(x)
				}
			}
			walk(a.then)
			walk(a.els)
		}
	}
	walk(n)
	slices.Sort(names)
	return slices.Compact(names)
}

// enterScope returns the name of the dynamic scope that enters res from the current
// one.
func (st *feval) enterScope(res *fres) int32 {
	if st.scopes == nil {
		st.scopes = map[scopeStep]int32{}
	}
	k := scopeStep{st.scopeID, res}
	id, ok := st.scopes[k]
	if !ok {
		id = int32(len(st.scopes) + 1)
		st.scopes[k] = id
	}
	return id
}

// dynamicTarget returns the schema a $dynamicRef of n lands on: the first schema of
// the dynamic scope, outermost first, with the $dynamicAnchor it names, or its static
// target.
func (st *feval) dynamicTarget(n *fnode) *fnode {
	if n.dynName != "" {
		for _, r := range st.scope {
			if t, ok := r.dynNodes[n.dynName]; ok {
				return t
			}
		}
	}
	return n.dynRef
}

// inEnum reports whether v equals a value of n's enum.
func inEnum(n *fnode, v *fval) bool {
	if v.kind == 's' {
		_, in := n.enumStrs[v.s]
		return in
	}
	return slices.ContainsFunc(n.enum, func(e *jv) bool { return equalJV(v, e) })
}

// typeOK reports whether v is of one of the types.
func typeOK(types uint8, v *fval) bool {
	switch v.kind {
	case 'z':
		return types&tNull != 0
	case 'b':
		return types&tBoolean != 0
	case 'o':
		return types&tObject != 0
	case 'a':
		return types&tArray != 0
	case 's':
		return types&tString != 0
	case 'n':
		if types&tNumber != 0 {
			return true
		}
		if types&tInteger != 0 {
			if _, ok := smallInt(v.s); ok {
				return true
			}
			_, _, ok, _ := integerDigits([]byte(v.s))
			return ok
		}
	}
	return false
}

func (st *feval) number(n *fnum, v *fval) {
	if len(n.bounds) == 0 && n.multiple == nil {
		return
	}
	if i, ok := smallInt(v.s); ok && n.multiple == nil && !n.notInt {
		// A small integer and integer bounds: compared as int64s.
		for _, b := range n.bounds {
			if b.op == '<' && i < b.i || b.op == '>' && i > b.i || b.op == '[' && i <= b.i || b.op == ']' && i >= b.i {
				st.fail(v, b.code, b.msg)
			}
		}
		return
	}
	x, ok := parseDecimal([]byte(v.s))
	if !ok {
		return
	}
	for _, b := range n.bounds {
		r := cmpDecimal(x, b.dec)
		if b.op == '<' && r < 0 || b.op == '>' && r > 0 || b.op == '[' && r <= 0 || b.op == ']' && r >= 0 {
			st.fail(v, b.code, b.msg)
		}
	}
	if n.multiple != nil && !isMultiple(x, *n.multiple) {
		st.fail(v, invalid.MultipleOf, prog.Bound("multipleOf", n.multText))
	}
}

// smallInt returns the value of the JSON number text s when it is an integer written
// without fraction or exponent in at most 18 digits, which an int64 holds.
func smallInt(s string) (int64, bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	if n := len(s) - i; n == 0 || n > 18 {
		return 0, false
	}
	var x int64
	for _, c := range []byte(s[i:]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		x = x*10 + int64(c-'0')
	}
	if s[0] == '-' {
		x = -x
	}
	return x, true
}

func (st *feval) str(n *fstr, v *fval) {
	if n.minLen >= 0 || n.maxLen >= 0 {
		c := utf8.RuneCountInString(v.s)
		if n.minLen >= 0 && c < n.minLen {
			st.fail(v, invalid.MinLength, prog.Length("minLength", n.minLen))
		}
		if n.maxLen >= 0 && c > n.maxLen {
			st.fail(v, invalid.MaxLength, prog.Length("maxLength", n.maxLen))
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(v.s) {
		st.fail(v, invalid.Pattern, n.patternMsg)
	}
	if n.format != "" && !n.format.Valid(v.s) {
		st.fail(v, invalid.Format, "must be "+n.format.Describe())
	}
}

func (st *feval) array(n *farr, v *fval, ev *evaluated) {
	count := len(v.vals)
	if n.minItems >= 0 && count < n.minItems {
		st.fail(nil, invalid.MinItems, "must have at least "+strconv.Itoa(n.minItems)+" "+plural(n.minItems, "item", "items")+" (got "+strconv.Itoa(count)+")")
	}
	if n.maxItems >= 0 && count > n.maxItems {
		st.fail(nil, invalid.MaxItems, "must have at most "+strconv.Itoa(n.maxItems)+" "+plural(n.maxItems, "item", "items")+" (got "+strconv.Itoa(count)+")")
	}
	if n.unique && count > 1 {
		seen := make(map[string]int, count)
		for i, it := range v.vals {
			k := string(canonicalVal(nil, it))
			if j, dup := seen[k]; dup {
				st.fail(nil, invalid.UniqueItems, "must not hold equal items (items "+strconv.Itoa(j)+" and "+strconv.Itoa(i)+" are equal)")
				break
			}
			seen[k] = i
		}
	}
	for i, it := range v.vals {
		var m *fnode
		switch {
		case i < len(n.prefix):
			m = n.prefix[i]
		case n.items != nil:
			m = n.items
		default:
			continue
		}
		st.path = append(st.path, fseg{index: i})
		if m.always == -1 && i >= len(n.prefix) && len(n.prefix) > 0 {
			st.fail(nil, invalid.MaxItems, "no item is allowed past the "+strconv.Itoa(len(n.prefix))+" of the tuple (prefixItems)")
		} else {
			st.eval(m, it, false)
		}
		st.path = st.path[:len(st.path)-1]
	}
	if ev != nil {
		if n.items != nil {
			ev.allItems = true
		} else {
			ev.items = max(ev.items, min(len(n.prefix), count))
		}
	}
	if n.contains != nil {
		matched := 0
		for i, it := range v.vals {
			m := st.mark()
			st.path = append(st.path, fseg{index: i})
			ok, _ := st.eval(n.contains, it, false)
			st.path = st.path[:len(st.path)-1]
			st.reset(m)
			if ok {
				matched++
				if ev != nil {
					if ev.itemSet == nil {
						ev.itemSet = map[int]struct{}{}
					}
					ev.itemSet[i] = struct{}{}
				}
			}
		}
		if matched < n.minContains {
			msg := "must hold an item that matches the schema of contains"
			if n.minContains != 1 {
				msg = "must hold at least " + strconv.Itoa(n.minContains) + " " + plural(n.minContains, "item", "items") + " that match the schema of contains (got " + strconv.Itoa(matched) + ")"
			}
			st.fail(nil, invalid.Contains, msg)
		}
		if n.maxContains >= 0 && matched > n.maxContains {
			st.fail(nil, invalid.Contains, "must hold at most "+strconv.Itoa(n.maxContains)+" "+plural(n.maxContains, "item", "items")+" that match the schema of contains (got "+strconv.Itoa(matched)+")")
		}
	}
}

func (st *feval) object(n *fobj, v *fval, ev *evaluated) {
	count := len(v.keys)
	// The leniency: null for a declared optional property means the property is
	// absent, as for a generated tool.
	absent := func(i int) bool {
		if v.vals[i].kind != 'z' {
			return false
		}
		if n.prop(v.keys[i]) < 0 || slices.Contains(n.required, v.keys[i]) {
			return false
		}
		v.vals[i].drop = true
		return true
	}
	for i, k := range v.keys {
		member := v.vals[i]
		declared := false
		if pi := n.prop(k); pi >= 0 {
			declared = true
			if ev != nil {
				ev.addProp(k)
			}
			if absent(i) {
				count--
				continue
			}
			st.path = append(st.path, fseg{name: k, index: -1})
			st.eval(n.props[pi].n, member, false)
			st.path = st.path[:len(st.path)-1]
		}
		for _, pp := range n.patProps {
			if !pp.re.MatchString(k) {
				continue
			}
			declared = true
			if ev != nil {
				ev.addProp(k)
			}
			st.path = append(st.path, fseg{name: k, index: -1})
			st.eval(pp.n, member, false)
			st.path = st.path[:len(st.path)-1]
		}
		if !declared && n.additional != nil {
			if ev != nil {
				ev.addProp(k)
			}
			if n.additional.always == -1 {
				names := n.names()
				msg := unknownMessage(k, names)
				if len(n.patProps) > 0 {
					srcs := make([]string, len(n.patProps))
					for i, pp := range n.patProps {
						srcs[i] = safetext.Line(pp.src)
					}
					msg = "unknown property: the names are " + quoteList(names) + " and those matching " + cutList(srcs)
					if len(names) == 0 {
						msg = "unknown property: the names are those matching " + cutList(srcs)
					}
				}
				st.failAt(k, invalid.UnknownProperty, msg)
				continue
			}
			st.path = append(st.path, fseg{name: k, index: -1})
			st.eval(n.additional, member, false)
			st.path = st.path[:len(st.path)-1]
		}
		if n.propNames != nil {
			name := fval{kind: 's', s: k}
			m := st.mark()
			if ok, _ := st.eval(n.propNames, &name, false); !ok {
				st.reset(m)
				st.failAt(k, invalid.UnknownProperty, "the property name "+describe(appendJSONString(nil, k))+" is not allowed (propertyNames)"+st.firstReason(n.propNames, &name))
			}
		}
	}
	for _, r := range n.required {
		if m, ok := v.get(r); !ok || m.drop {
			st.failAt(r, invalid.Required, "missing required property")
		}
	}
	for _, dr := range n.depRequired {
		if _, ok := v.get(dr.name); !ok {
			continue
		}
		for _, r := range dr.req {
			if m, ok := v.get(r); !ok || m.drop {
				st.failAt(r, invalid.Required, "missing property, required when "+strconv.Quote(dr.name)+" is present")
			}
		}
	}
	if n.minProps >= 0 && count < n.minProps {
		st.fail(nil, invalid.MinProperties, "must have at least "+strconv.Itoa(n.minProps)+" "+plural(n.minProps, "property", "properties")+" (got "+strconv.Itoa(count)+")")
	}
	if n.maxProps >= 0 && count > n.maxProps {
		st.fail(nil, invalid.MaxProperties, "must have at most "+strconv.Itoa(n.maxProps)+" "+plural(n.maxProps, "property", "properties")+" (got "+strconv.Itoa(count)+")")
	}
	for _, p := range n.props {
		if p.def == nil || slices.Contains(n.required, p.name) {
			continue
		}
		if m, ok := v.get(p.name); !ok || m.drop {
			st.fills = append(st.fills, fill{obj: v, name: p.name, def: p.def})
		}
	}
}

// firstReason returns ": " and the message of the first violation of n on v, or "".
func (st *feval) firstReason(n *fnode, v *fval) string {
	m := st.mark()
	st.eval(n, v, false)
	reason := ""
	if len(st.viols) > m.viols {
		reason = ": " + st.viols[m.viols].msg
	}
	st.reset(m)
	return reason
}

// anyOf applies the branches of an anyOf (or, with one, a oneOf) to v. When none
// passes, it reports the branch that came closest and that branch's violations.
func (st *feval) anyOf(branches []*fnode, disc *fdisc, v *fval, sub bool, ev *evaluated, one bool) {
	start := st.mark()
	var passed []int
	tries := make([]try, len(branches))
	here := len(st.path)
	for i, b := range branches {
		m := st.mark()
		ok, e := st.eval(b, v, sub)
		if ok {
			passed = append(passed, i)
			if ev != nil {
				ev.merge(e)
			}
			if !sub && (!one || len(passed) > 1) {
				break // enough is known, and nothing asks what the others evaluated
			}
			continue
		}
		t := try{viols: slices.Clone(st.viols[m.viols:]), fails: st.fails - m.fails, typeOK: true, tagged: tagMatches(b, v), names: declaredNames(b, v)}
		for _, x := range t.viols {
			t.depth = max(t.depth, x.depth)
			if x.code == invalid.Type && x.depth == here {
				t.typeOK = false
			}
		}
		tries[i] = t
		st.reset(m)
	}
	kw := "anyOf"
	code := invalid.AnyOf
	if one {
		kw, code = "oneOf", invalid.OneOf
	}
	switch {
	case one && len(passed) > 1:
		st.reset(start)
		st.fails = start.fails
		st.fail(v, code, "must match exactly one of the "+strconv.Itoa(len(branches))+" schemas of oneOf, but matches "+strconv.Itoa(passed[0]+1)+" and "+strconv.Itoa(passed[1]+1))
		return
	case len(passed) > 0:
		// The fills of the branches that failed were taken back with their violations.
		return
	}
	// None passed. When each fails for the value's type alone, the value must be of
	// one of their types.
	if words, ok := typeWords(tries); ok {
		st.fail(v, invalid.Type, "must be "+words+" ("+kw+")")
		return
	}
	// A discriminator that is missing, or names no branch: the values it may take.
	if name, vals, consts := disc.get(branches); name != "" && v.kind == 'o' {
		m, ok := v.get(name)
		if !ok || m.drop {
			st.failAt(name, invalid.Required, "missing required property: the discriminator of "+kw+", one of "+cutList(vals))
			return
		}
		if m.kind != 's' || !consts[m.s] {
			st.path = append(st.path, fseg{name: name, index: -1})
			st.fail(m, invalid.Enum, oneOfMessage(vals)+" (the discriminator of "+kw+")")
			st.path = st.path[:len(st.path)-1]
			return
		}
	}
	// Else the closest is the one whose discriminator matches, else one of the
	// value's type, using most of the object's names, with the fewest violations,
	// going deepest.
	best := 0
	for i := 1; i < len(branches); i++ {
		if closer(tries[i], tries[best]) {
			best = i
		}
	}
	bt := tries[best]
	shown := v
	if v.kind == 'o' || v.kind == 'a' {
		shown = nil
	}
	st.fail(shown, code, "matches none of the "+strconv.Itoa(len(branches))+" schemas of "+kw+"; the closest is schema "+
		strconv.Itoa(best+1)+branchWord(branches[best])+", whose "+plural(bt.fails, "violation follows", strconv.Itoa(bt.fails)+" violations follow"))
	for _, x := range bt.viols {
		if len(st.viols) < st.maxKept {
			st.viols = append(st.viols, x)
		}
	}
	st.fails += bt.fails
}

// typeWords returns the types the branches take, "a string or an integer", when each
// failed for its type alone.
func typeWords(tries []try) (string, bool) {
	var words []string
	for _, t := range tries {
		if t.typeOK || len(t.viols) != 1 || t.fails != 1 {
			return "", false
		}
		w := strings.TrimPrefix(t.viols[0].msg, "must be ")
		if !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	if len(words) == 1 {
		return words[0], true
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1], true
}

// String renders a pending violation as the model reads one.
func (v fviolation) String() string {
	return invalid.Violation{Path: v.path, Message: v.msg, Got: v.got}.String()
}

// try is what one branch of an anyOf or oneOf found wrong with the value.
type try struct {
	viols  []fviolation
	fails  int
	depth  int  // how deep its violations go
	names  int  // the object's names it declares
	typeOK bool // it did not fail for the value's type
	tagged bool // its discriminator matches
}

// closer reports whether the branch a came closer to the value than b.
func closer(a, b try) bool {
	switch {
	case a.tagged != b.tagged:
		return a.tagged
	case a.typeOK != b.typeOK:
		return a.typeOK
	case a.names != b.names:
		return a.names > b.names
	case a.fails != b.fails:
		return a.fails < b.fails
	}
	return a.depth > b.depth
}

// discriminator returns the property that every branch holds to a const, each
// branch's its own (as pydantic, zod and toolgen's unions write a discriminator), and
// the JSON texts of those consts; "" when there is none. A property two branches hold
// to the same const tells them not apart: it is not one.
func discriminator(branches []*fnode) (string, []string, map[string]bool) {
	first := objectOf(branches[0])
	if first == nil {
		return "", nil, nil
	}
	for _, p := range first.props {
		vals := make([]string, 0, len(branches))
		var seen map[string]bool
		for _, b := range branches {
			o := objectOf(b)
			if o == nil {
				return "", nil, nil
			}
			i := o.prop(p.name)
			if i < 0 {
				vals = nil
				break
			}
			c := o.props[i].n
			one, ok := c.single()
			if !ok {
				vals = nil
				break
			}
			if seen == nil {
				seen = make(map[string]bool, len(branches))
			}
			if seen[one.str] {
				vals = nil
				break
			}
			seen[one.str] = true
			vals = append(vals, string(one.compact()))
		}
		if vals != nil {
			return p.name, vals, seen
		}
	}
	return "", nil, nil
}

// objectOf returns the object keywords of a branch, through its references.
func objectOf(b *fnode) *fobj {
	for i := 0; b.ref != nil && b.obj == nil && i < 64; i++ {
		b = b.ref
	}
	return b.obj
}

// declaredNames counts the names of the object v that the branch b declares.
func declaredNames(b *fnode, v *fval) int {
	if v.kind != 'o' {
		return 0
	}
	for i := 0; b.ref != nil && b.obj == nil && i < 64; i++ {
		b = b.ref
	}
	if b.obj == nil {
		return 0
	}
	n := 0
	for _, k := range v.keys {
		if b.obj.prop(k) >= 0 {
			n++
		}
	}
	return n
}

// tagMatches reports whether the object v has, for a property that the branch b
// requires to be a const (a discriminator, as pydantic, zod and toolgen's unions
// write them), that const.
func tagMatches(b *fnode, v *fval) bool {
	if v.kind != 'o' {
		return false
	}
	for i := 0; b.ref != nil && b.obj == nil && i < 64; i++ {
		b = b.ref
	}
	if b.obj == nil {
		return false
	}
	for _, p := range b.obj.props {
		one, ok := p.n.single()
		if !ok {
			continue
		}
		if m, ok := v.get(p.name); ok && m.kind == 's' && m.s == one.str {
			return true
		}
	}
	return false
}

// branchWord describes a branch briefly: the discriminator it holds, or its title.
func branchWord(b *fnode) string {
	for i := 0; b.ref != nil && b.obj == nil && i < 64; i++ {
		if t, ok := b.src.get("title"); ok && t.kind == 's' {
			return " (" + describe(appendJSONString(nil, t.str)) + ")"
		}
		b = b.ref
	}
	if b.src.kind == 'o' {
		if t, ok := b.src.get("title"); ok && t.kind == 's' {
			return " (" + describe(appendJSONString(nil, t.str)) + ")"
		}
	}
	if b.obj == nil {
		return ""
	}
	for _, p := range b.obj.props {
		if one, ok := p.n.single(); ok {
			return " (" + p.name + " " + describe(appendJSONString(nil, one.str)) + ")"
		}
	}
	return ""
}

// equalJV reports whether the value v equals the schema's JSON value e, as JSON
// Schema compares: numbers by value, objects whatever their members' order.
func equalJV(v *fval, e *jv) bool {
	switch v.kind {
	case 'z':
		return e.kind == 'z'
	case 'b':
		return e.kind == 'b' && e.b == v.b
	case 's':
		return e.kind == 's' && e.str == v.s
	case 'n':
		if e.kind != 'n' {
			return false
		}
		a, ok1 := parseDecimal([]byte(v.s))
		b, ok2 := parseDecimal([]byte(e.str))
		return ok1 && ok2 && cmpDecimal(a, b) == 0
	case 'a':
		if e.kind != 'a' || len(e.items) != len(v.vals) {
			return false
		}
		for i, it := range v.vals {
			if !equalJV(it, e.items[i]) {
				return false
			}
		}
		return true
	case 'o':
		if e.kind != 'o' || len(e.keys) != len(v.keys) {
			return false
		}
		for i, k := range e.keys {
			m, ok := v.get(k)
			if !ok || !equalJV(m, e.vals[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// canonicalVal writes a key of v that values equal as JSON share.
func canonicalVal(b []byte, v *fval) []byte {
	switch v.kind {
	case 'o':
		order := make([]int, len(v.keys))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(x, y int) int { return strings.Compare(v.keys[x], v.keys[y]) })
		b = append(b, '{')
		for _, i := range order {
			b = appendJSONString(b, v.keys[i])
			b = append(b, ':')
			b = canonicalVal(b, v.vals[i])
			b = append(b, ',')
		}
		return append(b, '}')
	case 'a':
		b = append(b, '[')
		for _, it := range v.vals {
			b = canonicalVal(b, it)
			b = append(b, ',')
		}
		return append(b, ']')
	case 'n':
		x, _ := parseDecimal([]byte(v.s))
		b = append(b, 'n')
		return appendDecimalKey(b, x)
	case 's':
		return appendJSONString(b, v.s)
	case 'b':
		return strconv.AppendBool(b, v.b)
	}
	return append(b, "null"...)
}
