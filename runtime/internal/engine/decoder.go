package engine

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime/internal/argcheck"
	"github.com/toolgen/toolgen/runtime/invalid"
	prog "github.com/toolgen/toolgen/runtime/invalid/message"
	"github.com/toolgen/toolgen/runtime/jsonread"
	"github.com/toolgen/toolgen/runtime/safetext"
)

// Default limits on a call's arguments.
const (
	// DefaultMaxArgumentBytes is the largest argument text a call accepts: 1 MiB, the
	// default text size of toolgen's JSON reader (jsonread.DefaultMaxBytes).
	DefaultMaxArgumentBytes = jsonread.DefaultMaxBytes
	// DefaultMaxDepth is the deepest nesting of objects and arrays a call accepts: 64,
	// the JSON reader's default (jsonread.DefaultMaxDepth).
	DefaultMaxDepth = jsonread.DefaultMaxDepth
	// DefaultMaxViolations is how many violations of one call are reported in full;
	// the rest are only counted.
	DefaultMaxViolations = 20
	// DefaultMaxViolationBytes bounds the text of the violations reported in full
	// (paths, messages and values got, added up): once it is reached, the rest are only
	// counted.
	DefaultMaxViolationBytes = 4096
)

// Limits bound what one call's arguments may cost. A zero field means its default.
type Limits struct {
	// MaxArgumentBytes is the largest argument text accepted, in bytes.
	MaxArgumentBytes int
	// MaxDepth is the deepest nesting of objects and arrays accepted.
	MaxDepth int
	// MaxViolations is how many violations are reported in full; the others are
	// counted (see ArgumentError.Omitted).
	MaxViolations int
	// MaxViolationBytes bounds the text of the violations reported in full.
	MaxViolationBytes int
}

func (l Limits) maxBytes() int {
	if l.MaxArgumentBytes > 0 {
		return l.MaxArgumentBytes
	}
	return DefaultMaxArgumentBytes
}

func (l Limits) maxDepth() int {
	if l.MaxDepth > 0 {
		return l.MaxDepth
	}
	return DefaultMaxDepth
}

func (l Limits) maxViolations() int {
	if l.MaxViolations > 0 {
		return l.MaxViolations
	}
	return DefaultMaxViolations
}

func (l Limits) maxViolationBytes() int {
	if l.MaxViolationBytes > 0 {
		return l.MaxViolationBytes
	}
	return DefaultMaxViolationBytes
}

// A Decoder reads one call's JSON arguments in a single pass, without reflection, and
// collects every violation of the tool's schema with its JSON Pointer path: in full up
// to the budget of Limits.MaxViolations and MaxViolationBytes, counted past it.
//
// Generated decoders drive it; user code rarely needs it. The methods that read a value
// report a type violation and skip the value when it has the wrong type, so decoding
// goes on and every problem is reported at once. A syntax error, or a limit exceeded,
// stops decoding: after it every read reports failure and no more violations are added.
type Decoder struct {
	data []byte // the text being read: the arguments, or a string holding an object
	pos  int
	// valStart is where the last value read began, for the "(got ...)" of violations.
	valStart int

	open   []container // the objects and arrays being read, innermost last
	path   []segment   // the JSON Pointer path of the value being read
	limits Limits

	violations []invalid.Violation
	count      int // the items of the array NextItem last finished
	// What Item kept of the items of the array NextItem last finished: the index of
	// the last one kept (-1 for none), whether the last item of the array was invalid,
	// and the indexes of those kept when some were dropped (nil otherwise).
	lastStored int
	lastFailed bool
	lastKept   []int
	// omitted counts the violations found past the budget of Limits.MaxViolations and
	// MaxViolationBytes; textBytes is the text of those kept.
	omitted   int
	textBytes int
	broken    bool // a syntax error or exceeded limit stopped decoding
	finished  bool // Finish found the arguments valid (see Finished)

	// The name of the property NextField moved to: d.data[keyStart:keyEnd], or key
	// when it held escapes. The common case writes no pointer into the Decoder, which
	// is reused and lives on the heap: while the garbage collector runs, every pointer
	// written costs a write barrier.
	keyStart, keyEnd int
	keyEscaped       bool
	key              []byte
	scratch          []byte // unescaped string contents

	// pendingOuter and pendingPos hold the text to return to once the container that
	// enterString switched into is closed.
	pendingOuter []byte
	pendingPos   int

	// chunk holds the bytes of the short strings String returned, this call's and
	// earlier ones'; it is only ever appended to (see keep).
	chunk []byte

	// unions remembers what BeginUnion looked ahead at.
	unions unionCache
}

// container is an object or array being read.
type container struct {
	array bool
	first bool // no element read yet
	start int  // where its first member begins, in the text it is read from
	// outer holds the text to go back to when this container was read from a JSON string
	// that held it (the double-encoding leniency); nil otherwise.
	outer    []byte
	outerPos int
	// What Item keeps of an array's items (see ItemSlot): mark is how many
	// violations had been found when the current item began, prevFailed whether the
	// item before it added any; stored is the index of the last item kept (-1 for
	// none); kept holds the indexes of the items kept once one was dropped (nil:
	// item i is the i-th kept).
	mark       int
	prevFailed bool
	stored     int
	kept       []int
}

// segment is one step of a JSON Pointer path: a property name or an array index. A
// property's name is d.data[start:end] when inData (the key as the arguments spell it;
// the common case, which writes no pointer), else name.
type segment struct {
	name       string
	start, end int
	index      int
	isIndex    bool
	inData     bool
	sensitive  bool
	// key marks a map key or any other name the arguments chose (Enter), as opposed to
	// a property the schema names: below a sensitive property it is not shown.
	key bool
}

// NewDecoder returns a decoder for args within limits. Empty arguments (no bytes, or
// only white space) and null mean an empty object.
func NewDecoder(args []byte, limits Limits) *Decoder {
	d := &Decoder{}
	d.Reset(args, limits)
	return d
}

// Reset makes d read args, keeping its buffers.
func (d *Decoder) Reset(args []byte, limits Limits) {
	// Field by field, and pointers only where they change: a Decoder is reused for
	// every call, and while the garbage collector runs each pointer written costs a
	// write barrier.
	d.data, d.pos, d.valStart = args, 0, 0
	d.open = d.open[:0]
	d.path = d.path[:0]
	d.scratch = d.scratch[:0]
	d.limits = limits
	d.broken, d.finished = false, false
	d.omitted, d.textBytes, d.count = 0, 0, 0
	d.lastStored, d.lastFailed = -1, false
	if d.lastKept != nil {
		d.lastKept = nil
	}
	if d.violations != nil {
		d.violations = nil
	}
	d.keyEscaped = false
	if d.key != nil {
		d.key = nil
	}
	if d.pendingOuter != nil {
		d.pendingOuter = nil
	}
	d.pendingPos = 0
	d.unions.reset()
	if len(args) > limits.maxBytes() {
		d.data = nil
		d.stop(invalid.TooLarge, "the arguments are "+strconv.Itoa(len(args))+" bytes long, over the limit of "+strconv.Itoa(limits.maxBytes()))
		return
	}
	d.skipSpace()
	if d.pos == len(d.data) || jsonread.IsNull(d.data, d.pos) && jsonread.SkipSpace(d.data, d.pos+4) == len(d.data) {
		d.data, d.pos = emptyObject, 0
	}
}

var emptyObject = []byte("{}")

// Finish checks that nothing but white space follows the arguments and reports whether
// they were valid.
func (d *Decoder) Finish() bool {
	if !d.broken {
		d.skipSpace()
		if d.pos < len(d.data) {
			d.syntaxError("unexpected text after the arguments")
		}
	}
	d.finished = !d.Failed()
	return d.finished
}

// Finished reports whether Finish, since the last Reset, found the arguments valid:
// what runs after it (the tool, when generated code runs it at once) is no longer the
// decode, and a panic there leaves d consistent.
func (d *Decoder) Finished() bool { return d.finished }

// Violations returns what was found wrong so far, in the order found, within the
// budget of Limits.MaxViolations and MaxViolationBytes.
func (d *Decoder) Violations() []invalid.Violation { return d.violations }

// Omitted returns how many violations were found past the budget and only counted.
func (d *Decoder) Omitted() int { return d.omitted }

// Failed reports whether any violation was found so far.
func (d *Decoder) Failed() bool { return len(d.violations) > 0 || d.omitted > 0 }

// failures counts the violations found so far, kept or omitted.
func (d *Decoder) failures() int { return len(d.violations) + d.omitted }

// ItemSlot says where to decode the item of the innermost array that NextItem moved
// to, when n items of the array are kept so far (toolimpl.Item calls it): keep is how
// many of them to keep, n or n-1 when the last one kept is the item just before,
// which was invalid (its place is reused: a list of a million mistakes costs one
// item); spare reports that the item is not kept at all, because max items (max > 0)
// are kept already. Every valid item within max is kept, whatever was found wrong
// before it, so that uniqueItems compares them: KeptItems and NotUniqueKept then
// tell them apart from the dropped ones.
func (d *Decoder) ItemSlot(n, max int) (keep int, spare bool) {
	c := &d.open[len(d.open)-1]
	i := d.Index()
	if !c.prevFailed && c.kept == nil && (max <= 0 || n < max) {
		c.stored = i // the usual case: the item before was valid, this one is kept
		return n, false
	}
	if n > 0 && c.prevFailed && c.stored == i-1 {
		if c.kept == nil { // the items kept so far are the first n
			c.kept = make([]int, n, n+4)
			for k := range c.kept {
				c.kept[k] = k
			}
		}
		n--
		c.kept = c.kept[:n]
		c.stored = -1
		if n > 0 {
			c.stored = c.kept[n-1]
		}
	}
	if max > 0 && n >= max {
		return n, true
	}
	c.stored = i
	if c.kept != nil {
		c.kept = append(c.kept, i)
	}
	return n, false
}

// KeptItems returns how many of the n items kept of the array that NextItem just
// reached the end of are valid: n, or n-1 when the array's last item was kept and
// was invalid.
func (d *Decoder) KeptItems(n int) int {
	if n > 0 && d.lastFailed && d.lastStored == d.count-1 {
		return n - 1
	}
	return n
}

// NotUniqueKept is NotUnique for the i-th and j-th items kept (see ItemSlot) of the
// array that NextItem just reached the end of: it reports them by their indexes in
// the array.
func (d *Decoder) NotUniqueKept(i, j int) {
	if d.lastKept != nil {
		i, j = d.lastKept[i], d.lastKept[j]
	}
	d.NotUnique(i, j)
}

// Enter pushes a name the arguments chose, such as a map key, onto the path of the
// value being read. Below a sensitive property such names are not shown in paths.
func (d *Decoder) Enter(name string) { d.path = append(d.path, segment{name: name, key: true}) }

// EnterSensitive is Enter for a property whose values must never be echoed: violations
// at or below it leave out the value they got.
func (d *Decoder) EnterSensitive(name string) {
	d.path = append(d.path, segment{name: name, sensitive: true})
}

// hideItems marks the items of the array just begun as sensitive: violations at or
// below them leave out the value they got (a dynamic tool's items schema marked
// x-toolgen-sensitive).
func (d *Decoder) hideItems() {
	if n := len(d.path); n > 0 && d.path[n-1].isIndex {
		d.path[n-1].sensitive = true
	}
}

// Property starts reading the value of the property NextField moved to, named name, and
// reports whether to read it. It returns false, having consumed the value, when the
// property was already in this object (a duplicate, reported, even if the first was
// null) or when it is optional and null (recorded as Null). Otherwise it records the
// property Present and enters its path: call Leave once the value is read.
func (d *Decoder) Property(p *argcheck.Presence, name string, flags argcheck.PropertyFlags) bool {
	// The usual case first: a property seen for the first time, required or not
	// null (its value begins right after the colon, with a byte other than null's),
	// its name as the text spells it, and room on the path.
	if n := len(d.path); *p == argcheck.Absent && !d.keyEscaped && d.keyEnd-d.keyStart == len(name) &&
		n < cap(d.path) && (flags == argcheck.Required || flags == argcheck.Optional && d.pos < len(d.data) &&
		d.data[d.pos] > ' ' && d.data[d.pos] != 'n') {
		*p = argcheck.Present
		d.path = d.path[:n+1]
		seg := &d.path[n]
		seg.isIndex, seg.key, seg.sensitive, seg.inData = false, false, false, true
		seg.start, seg.end = d.keyStart, d.keyEnd
		return true
	}
	return d.property(p, name, flags)
}

// property is Property in full.
func (d *Decoder) property(p *argcheck.Presence, name string, flags argcheck.PropertyFlags) bool {
	if *p != argcheck.Absent {
		d.Duplicate()
		return false
	}
	if flags&argcheck.Optional != 0 && d.Null() {
		*p = argcheck.Null
		return false
	}
	*p = argcheck.Present
	// Enter the property's path, pointing at its key in the text rather than storing
	// the name when it can.
	seg := d.pushSegment()
	seg.isIndex, seg.key, seg.sensitive = false, false, flags&argcheck.Sensitive != 0
	if !d.keyEscaped && d.keyEnd-d.keyStart == len(name) {
		seg.inData, seg.start, seg.end = true, d.keyStart, d.keyEnd
	} else {
		seg.inData, seg.name = false, name
	}
	return true
}

// pushSegment grows the path by one segment and returns it, as it was left: the caller
// sets every field it reads.
func (d *Decoder) pushSegment() *segment {
	n := len(d.path)
	if n == cap(d.path) {
		d.path = append(d.path, segment{})
	} else {
		d.path = d.path[:n+1]
	}
	return &d.path[n]
}

// nameOf returns the property name of a segment.
func (d *Decoder) nameOf(s *segment) string {
	if s.inData {
		return string(d.data[s.start:s.end])
	}
	return s.name
}

// detachPath makes the path's names independent of d.data, before d.data changes.
func (d *Decoder) detachPath() {
	for i := range d.path {
		if s := &d.path[i]; s.inData {
			s.name, s.inData = d.nameOf(s), false
		}
	}
}

// Leave pops what the last Enter pushed.
func (d *Decoder) Leave() { d.path = d.path[:len(d.path)-1] }

// Fail records a violation of the value just read, at the current path.
func (d *Decoder) Fail(code invalid.Code, message string) {
	if d.broken || d.full() {
		return
	}
	d.add(invalid.Violation{Path: d.pointer(), Code: code, Message: message, Got: d.got()})
}

// full reports whether the violation budget is spent, counting the violation about to
// be recorded as omitted if so. Callers check it before building a violation's text,
// so that a call with a million mistakes costs no more than its bytes.
func (d *Decoder) full() bool {
	if len(d.violations) < d.limits.maxViolations() && d.textBytes < d.limits.maxViolationBytes() {
		return false
	}
	d.omitted++
	return true
}

// failing reports whether a violation found now would not be kept, counting it if so:
// callers check it before building a message.
func (d *Decoder) failing() bool { return d.broken || d.full() }

// add records v, whose text counts against the budget. The text the model reads must
// be valid UTF-8, whatever bytes the arguments held.
func (d *Decoder) add(v invalid.Violation) {
	v.Message = validText(v.Message)
	d.textBytes += len(v.Path) + len(v.Message) + len(v.Got)
	d.violations = append(d.violations, v)
}

// failHere records a violation that has no value to show, at the path the current
// one extended by the name child ("" for the current path itself).
func (d *Decoder) failHere(child string, code invalid.Code, message string) {
	if d.broken || d.full() {
		return
	}
	path := d.pointer()
	if child != "" {
		path += "/" + child
	}
	d.add(invalid.Violation{Path: path, Code: code, Message: message})
}

// Missing records that a required property is absent from the object being read.
func (d *Decoder) Missing(name string) {
	d.failHere(jsonread.EscapeToken(name), invalid.Required, "missing required property")
}

// stop records a violation that ends decoding. It is kept even past the budget: it
// says why the rest of the arguments was not read.
func (d *Decoder) stop(code invalid.Code, message string) {
	if d.broken {
		return
	}
	d.add(invalid.Violation{Path: d.pointer(), Code: code, Message: message})
	d.broken = true
}

func (d *Decoder) syntaxError(what string) {
	d.stop(invalid.Syntax, "malformed JSON: "+what+" at offset "+strconv.Itoa(d.pos))
}

// unexpected reports the byte at d.pos, or the end of the text, as out of place.
func (d *Decoder) unexpected() { d.malformed(jsonread.Unexpected) }

// malformed reports the lexical problem p the JSON reader found at d.pos.
func (d *Decoder) malformed(p jsonread.Problem) {
	if p == jsonread.TooDeep {
		d.tooDeep()
		return
	}
	d.syntaxError(jsonread.Describe(d.data, d.pos, p))
}

func (d *Decoder) tooDeep() {
	d.stop(invalid.TooDeep, "nested deeper than the limit of "+strconv.Itoa(d.limits.maxDepth())+" levels")
}

// pointer renders the current path as a JSON Pointer ("" for the root). Names the
// arguments chose are shown as "*" below a sensitive property, and cut when long.
func (d *Decoder) pointer() string {
	if len(d.path) == 0 {
		return ""
	}
	var b []byte
	hidden := false
	for i := range d.path {
		s := &d.path[i]
		b = append(b, '/')
		switch {
		case s.isIndex:
			b = strconv.AppendInt(b, int64(s.index), 10)
		case s.key && hidden:
			b = append(b, '*')
		default:
			b = append(b, shownName(d.nameOf(s))...)
		}
		hidden = hidden || s.sensitive
	}
	return string(b)
}

// sensitive reports whether the value being read is, or is inside, a sensitive
// property.
func (d *Decoder) sensitive() bool {
	for i := range d.path {
		if d.path[i].sensitive {
			return true
		}
	}
	return false
}

// childName renders the name of the property NextField moved to as a step of a path:
// "*" below a sensitive property, cut when long.
func (d *Decoder) childName() string {
	if d.sensitive() {
		return "*"
	}
	return shownName(string(d.FieldName()))
}

// shownName renders a name the arguments or the schema chose as a step of a path in a
// violation: cut when long, each character that is not printable written as its Go
// escape, so that a name holding a newline, a terminal escape or a bidirectional
// override keeps the violation on its line and shows what it holds, and escaped as a
// JSON Pointer step.
func shownName(s string) string {
	return jsonread.EscapeToken(safetext.Line(cutName(s)))
}

// maxNameBytes is the longest name a path shows whole; a longer one, which only the
// arguments can hold, is cut.
const maxNameBytes = 64

// cutName cuts a name for a path, keeping it valid UTF-8.
func cutName(s string) string {
	if len(s) <= maxNameBytes {
		return s
	}
	return cutText(s, maxNameBytes) + "…"
}

// cutText returns the longest prefix of s of at most n bytes that does not split a
// character.
func cutText(s string, n int) string { return prog.CutText(s, n) }

// validText returns s with each run of invalid UTF-8 bytes replaced by U+FFFD.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// got describes the value just read for a violation, or "" when it must not be shown.
func (d *Decoder) got() string {
	if d.sensitive() || d.valStart >= d.pos || d.pos > len(d.data) {
		return ""
	}
	return describe(d.data[d.valStart:d.pos])
}

// describe shows a JSON value briefly: scalars as written (long ones cut), objects and
// arrays by kind.
func describe(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	}
	const max = 48
	if len(raw) <= max {
		return validText(string(raw))
	}
	s := validText(cutText(string(raw[:max+1]), max)) + "…"
	if raw[0] == '"' {
		s += `"`
	}
	return s
}

func (d *Decoder) skipSpace() { d.pos = jsonread.SkipSpace(d.data, d.pos) }

// peek skips white space and returns the next byte, or 0 at the end.
func (d *Decoder) peek() byte {
	d.skipSpace()
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

// Null reports whether the next value is null, and consumes it if so. Generated code
// uses it for optional properties, where null means absent.
func (d *Decoder) Null() bool {
	if d.broken || d.peek() != 'n' {
		return false
	}
	if !jsonread.IsNull(d.data, d.pos) {
		return false // a syntax error the next read reports
	}
	d.valStart = d.pos
	d.pos += 4
	return true
}

// mismatch records that the next value is not of the wanted type and skips it.
func (d *Decoder) mismatch(want string) {
	d.valStart = d.pos
	if !d.skipValue() {
		return
	}
	if !d.failing() {
		d.Fail(invalid.Type, "must be "+want)
	}
}

// BeginObject starts reading an object, reporting whether there is one to read. An
// object that arrives as a JSON string holding it is read from that string. Read its
// properties with NextField until it returns false.
func (d *Decoder) BeginObject() bool { return d.begin(false) }

// BeginArray starts reading an array, reporting whether there is one to read. An array
// that arrives as a JSON string holding it is read from that string. Read its items
// with NextItem until it returns false.
func (d *Decoder) BeginArray() bool { return d.begin(true) }

func (d *Decoder) begin(array bool) bool {
	if d.broken {
		return false
	}
	// The usual case first: the container right here, not inside a string.
	if i := d.pos; i < len(d.data) && (d.data[i] == '{' && !array || d.data[i] == '[' && array) &&
		len(d.open) < d.limits.maxDepth() && d.pendingOuter == nil {
		d.pos = i + 1
		d.push(array, nil, 0)
		if array {
			s := d.pushSegment()
			s.isIndex, s.index, s.inData, s.sensitive = true, -1, false, false
		}
		return true
	}
	return d.beginAny(array)
}

// beginAny is begin in full.
func (d *Decoder) beginAny(array bool) bool {
	open, want := byte('{'), "an object"
	if array {
		open, want = '[', "an array"
	}
	c := d.peek()
	if c == '"' && d.enterString(open) {
		c = d.data[d.pos]
	}
	if c != open {
		d.mismatch(want)
		return false
	}
	if len(d.open) >= d.limits.maxDepth() {
		d.tooDeep()
		return false
	}
	d.pos++
	d.push(array, d.pendingOuter, d.pendingPos)
	if d.pendingOuter != nil {
		d.pendingOuter = nil
	}
	if array {
		s := d.pushSegment()
		s.isIndex, s.index, s.inData, s.sensitive = true, -1, false, false
	}
	return true
}

// enterString handles the double-encoding leniency: when the string at d.pos holds a
// whole, well-formed object or array (open is '{' or '['), the decoder switches to
// reading the string's contents and returns true. Otherwise it changes nothing.
func (d *Decoder) enterString(open byte) bool {
	start := d.pos
	content, ok := d.readString()
	if !ok {
		d.pos = start
		return false
	}
	end := d.pos
	inner := jsonread.TrimSpace(content)
	if len(inner) == 0 || inner[0] != open || !jsonread.Valid(inner, max(d.limits.maxDepth()-len(d.open), 1)) {
		d.pos = start
		return false
	}
	// The contents may live in d.scratch, which later strings reuse: keep a copy.
	inner = append([]byte(nil), inner...)
	d.detachPath()
	d.pendingOuter, d.pendingPos = d.data, end
	d.data, d.pos = inner, 0
	return true
}

// NextField advances to the next property of the object being read and reports whether
// there is one; its name is then FieldName. At the end of the object it returns false.
func (d *Decoder) NextField() bool {
	if d.broken {
		return false
	}
	top := &d.open[len(d.open)-1]
	// Compact text, the usual case, here: a comma unless this is the first property,
	// then a plain name and its colon. Anything else from the start, below.
	b, i := d.data, d.pos
	if i >= len(b) {
		return d.nextField(top)
	}
	switch c := b[i]; {
	case c == '}':
		d.pos = i + 1
		d.end()
		return false
	case c == ',' && !top.first:
		i++
	case c != '"' || !top.first:
		return d.nextField(top)
	}
	if i < len(b) && b[i] == '"' {
		start := i + 1
		// Most names end within sixteen bytes: those are found here, eight bytes at a
		// time, without a call; any other name (longer, escaped, near the end of the
		// text) is left to nextField, which starts again from d.pos. With no call but
		// those that return, nothing is kept on the stack across one.
		if start+8 <= len(b) {
			end := start
			special := jsonread.Special8(binary.LittleEndian.Uint64(b[start:]))
			if special == 0 && start+16 <= len(b) {
				end = start + 8
				special = jsonread.Special8(binary.LittleEndian.Uint64(b[end:]))
			}
			if special != 0 {
				end += bits.TrailingZeros64(special) / 8
				if end+2 <= len(b) && binary.LittleEndian.Uint16(b[end:]) == '"'|':'<<8 {
					top.first = false
					d.keyStart, d.keyEnd, d.keyEscaped = start, end, false
					d.pos = end + 2
					return true
				}
			}
		}
	}
	return d.nextField(top)
}

// nextField is NextField from d.pos, in full.
func (d *Decoder) nextField(top *container) bool {
	c := d.peek()
	if c == '}' {
		d.pos++
		d.end()
		return false
	}
	if !top.first {
		if c != ',' {
			d.unexpected()
			return false
		}
		d.pos++
		c = d.peek()
	}
	top.first = false
	if c != '"' {
		d.unexpected()
		return false
	}
	start := d.pos + 1
	if end := jsonread.PlainEnd(d.data, start); end < len(d.data) && d.data[end] == '"' {
		// A plain name, the usual case: it stays where it is in the text.
		d.keyStart, d.keyEnd, d.keyEscaped = start, end, false
		d.pos = end + 1
	} else {
		name, ok := d.readString()
		if !ok {
			return false
		}
		if len(name) == 0 || &name[0] == &d.data[start] {
			d.keyStart, d.keyEnd, d.keyEscaped = start, start+len(name), false
		} else {
			d.key, d.keyEscaped = name, true
		}
	}
	if d.pos < len(d.data) && d.data[d.pos] == ':' {
		d.pos++
		return true
	}
	if d.peek() != ':' {
		d.unexpected()
		return false
	}
	d.pos++
	return true
}

// FieldName returns the name of the property NextField moved to. The bytes are valid
// until the next read.
func (d *Decoder) FieldName() []byte {
	if d.keyEscaped {
		return d.key
	}
	return d.data[d.keyStart:d.keyEnd]
}

// NextItem advances to the next item of the array being read and reports whether there
// is one. At the end of the array it returns false.
func (d *Decoder) NextItem() bool {
	if d.broken {
		return false
	}
	top := &d.open[len(d.open)-1]
	c := d.peek()
	if c == ']' {
		d.pos++
		d.lastFailed = !top.first && d.failures() > top.mark
		d.lastStored, d.lastKept = top.stored, top.kept
		d.count = d.path[len(d.path)-1].index + 1
		d.path = d.path[:len(d.path)-1]
		d.end()
		return false
	}
	if !top.first {
		if c != ',' {
			d.unexpected()
			return false
		}
		d.pos++
	}
	top.prevFailed = !top.first && d.failures() > top.mark
	top.mark = d.failures()
	top.first = false
	d.path[len(d.path)-1].index++
	return true
}

// Index returns the index of the array item NextItem moved to.
func (d *Decoder) Index() int { return d.path[len(d.path)-1].index }

// Count returns how many items the array that NextItem just reached the end of held,
// for the minItems and maxItems checks: Item keeps only the valid items, and only up
// to maxItems, so the slice does not count them.
func (d *Decoder) Count() int { return d.count }

// push opens a container; outer is the text to go back to at its end, if it is read
// from a string. Like pushSegment, it writes pointers only when they change.
func (d *Decoder) push(array bool, outer []byte, outerPos int) {
	n := len(d.open)
	if n == cap(d.open) {
		d.open = append(d.open, container{})
	} else {
		d.open = d.open[:n+1]
	}
	c := &d.open[n]
	c.array, c.first, c.start, c.outerPos = array, true, d.pos, outerPos
	c.prevFailed, c.stored = false, -1
	if c.kept != nil {
		c.kept = nil
	}
	if c.outer != nil || outer != nil {
		c.outer = outer
	}
}

// Room returns the capacity to give a list of items of size bytes each (in memory)
// that the n items of the innermost array read so far fill: room for four items at
// first (as encoding/json makes), then for as many as the rest of the text could hold
// at the size the items read so far took, so that a long array is not copied again and
// again as it grows. That is within max when the array may hold at most max items
// (max > 0). Without max, since the rest of the text may hold other things than the
// array, the room past 8n items takes at most as many bytes as the text left. It is
// always more than n.
func (d *Decoder) Room(n, max, size int) int {
	want := 4
	if n > 0 {
		want = 2 * n
		if len(d.open) > 0 {
			if used := d.pos - d.open[len(d.open)-1].start; used > 0 {
				// The items read so far took used bytes, commas included: at that
				// size, the rest of the text holds at most this many more.
				left := len(d.data) - d.pos
				want = n + left*n/used + 1
				if max <= 0 {
					if size < 1 {
						size = 1
					}
					want = min(want, 8*n+left/size)
				}
			}
		}
	}
	if max > 0 && want > max {
		want = max
	}
	if want <= n {
		want = n + 1
	}
	return want
}

// end closes the innermost container, going back to the enclosing text when the
// container was read from a string.
func (d *Decoder) end() {
	n := len(d.open) - 1
	if top := &d.open[n]; top.outer != nil {
		d.data, d.pos = top.outer, top.outerPos
	}
	d.open = d.open[:n]
}

// Unknown records that the current property is not one of known, suggesting the nearest
// name, and skips its value.
func (d *Decoder) Unknown(known ...string) {
	if d.broken {
		return
	}
	if d.full() {
		d.skipValue()
		return
	}
	name := string(d.FieldName())
	child := d.childName()
	if !d.skipValue() {
		return
	}
	d.add(invalid.Violation{Path: d.pointer() + "/" + child, Code: invalid.UnknownProperty, Message: unknownMessage(name, known)})
}

// Duplicate records that the current property appeared before in the same object, and
// skips its value.
func (d *Decoder) Duplicate() {
	if d.broken {
		return
	}
	if d.full() {
		d.skipValue()
		return
	}
	child := d.childName()
	if !d.skipValue() {
		return
	}
	d.add(invalid.Violation{Path: d.pointer() + "/" + child, Code: invalid.Duplicate, Message: "duplicate property"})
}

// Skip skips the next value, checking only that it is well formed.
func (d *Decoder) Skip() { d.skipValue() }

// skipValue skips one value, reporting false (with a syntax error) when it is malformed.
func (d *Decoder) skipValue() bool {
	if d.broken {
		return false
	}
	end, p := jsonread.Skip(d.data, d.pos, d.limits.maxDepth()-len(d.open))
	d.pos = end
	if p != jsonread.OK {
		d.malformed(p)
		return false
	}
	return true
}

// literal reads word (true, false or null) at d.pos.
func (d *Decoder) literal(word string) bool {
	end, ok := jsonread.Literal(d.data, d.pos, word)
	d.pos = end
	if !ok {
		d.unexpected()
	}
	return ok
}

// readNumber reads a JSON number and returns its text.
func (d *Decoder) readNumber() ([]byte, bool) {
	start := d.pos
	end, ok := jsonread.ScanNumber(d.data, start)
	d.pos = end
	if !ok {
		d.unexpected()
		return nil, false
	}
	return d.data[start:end], true
}

// readString reads a JSON string at d.pos (which holds the opening quote) and returns its
// unescaped contents, valid until the next read. Invalid UTF-8 becomes U+FFFD, as
// encoding/json does.
func (d *Decoder) readString() ([]byte, bool) {
	s, end, p := jsonread.ReadString(d.data, d.pos, &d.scratch)
	d.pos = end
	if p != jsonread.OK {
		d.malformed(p)
		return nil, false
	}
	return s, true
}

// EmptyObject reads the arguments of a tool that takes none: an object with no
// properties.
func (d *Decoder) EmptyObject() {
	if d.BeginObject() {
		for d.NextField() {
			d.Unknown()
		}
	}
}
