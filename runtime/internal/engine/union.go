package engine

import (
	"encoding/json"
	"slices"
	"strconv"
	"unsafe"

	"github.com/toolgen/toolgen/runtime/invalid"
	"github.com/toolgen/toolgen/runtime/jsonread"
)

// BeginUnion starts reading an object that is one variant of a tagged union, told by
// the string its property tag holds, and returns the index in values of that string.
// The property may stand anywhere among the object's own properties (not those of the
// values nested in it): BeginUnion looks ahead for it, then leaves the decoder at the
// object's first property, so that the variant's decoder reads the whole object, the
// tag included, in one pass. The look-ahead remembers what it saw of the objects
// nested in the part it read, so that every byte of the arguments is looked ahead at
// once at most for each tag name, however deep unions nest.
//
// It returns -1 when there is no object (reported as BeginObject reports it) or when
// the tag is missing, is not a string, or is none of values (reported at the tag's
// path, naming values); the rest of the object is then skipped.
func (d *Decoder) BeginUnion(tag string, values ...string) int {
	return d.beginUnion(tag, values, nil)
}

// The violations of a union's tag, for unionMessage.
const (
	tagMissing = iota
	tagNotString
	tagNone
	tagMessages
)

// unionWords is what a union's violations say, and a set of its values, made once
// for a union a program reads many times (a dynamic tool's), so that neither a union
// of thousands of variants nor thousands of failing objects cost more than the text
// they read.
type unionWords struct {
	index    map[string]int // each value's index
	messages [tagMessages]string
	// hidden says the tag is sensitive in a variant (a dynamic tool's schema may mark
	// it): a violation does not show its value.
	hidden bool
}

// newUnionWords returns the words of the union of values.
func newUnionWords(values []string) *unionWords {
	w := &unionWords{index: make(map[string]int, len(values))}
	for i, v := range values {
		if _, dup := w.index[v]; !dup {
			w.index[v] = i
		}
	}
	for k := range w.messages {
		w.messages[k] = unionMessage(k, values)
	}
	return w
}

// unionMessage is the message of a violation of a union's tag (tagMissing,
// tagNotString or tagNone).
func unionMessage(kind int, values []string) string {
	switch kind {
	case tagMissing:
		return "missing required property: it says which kind of object this is, " + quoteValues(values)
	case tagNotString:
		return "must be a string: " + quoteValues(values)
	}
	return oneOfMessage(quoteAll(values))
}

// beginUnion is BeginUnion, with the union's words when w is not nil (else they are
// made from values when a violation needs them).
func (d *Decoder) beginUnion(tag string, values []string, w *unionWords) int {
	if !d.BeginObject() {
		return -1
	}
	val, ok := d.unions.lookup(d.data, d.pos, tag)
	if !ok {
		val, ok = d.scanTag(tag)
		if !ok {
			// Malformed before the tag was found: reading the object reports where.
			d.skipObject()
			if !d.broken {
				// Not malformed after all, to the decoder: the tag was not found.
				d.failTag(tag, invalid.Required, tagMissing, values, w, "")
			}
			return -1
		}
	}
	if val < 0 {
		d.failTag(tag, invalid.Required, tagMissing, values, w, "")
		d.skipObject()
		return -1
	}
	back := d.pos
	d.pos = val
	if d.peek() != '"' {
		start := d.pos
		if !d.skipValue() {
			return -1
		}
		raw := d.data[start:d.pos]
		d.pos = back
		d.failTag(tag, invalid.Type, tagNotString, values, w, describe(raw))
		d.skipObject()
		return -1
	}
	start := d.pos
	s, ok := d.readString()
	if !ok {
		return -1
	}
	end := d.pos
	d.pos = back
	if w != nil {
		if i, ok := w.index[string(s)]; ok {
			return i
		}
	} else {
		for i, v := range values {
			if string(s) == v {
				return i
			}
		}
	}
	d.failTag(tag, invalid.Enum, tagNone, values, w, describe(d.data[start:end]))
	d.skipObject()
	return -1
}

// quoteValues says the variants' values, for a violation's message: "one of "a", "b"",
// or the one value.
func quoteValues(values []string) string {
	if len(values) == 1 {
		return strconv.Quote(values[0])
	}
	return "one of " + cutList(quoteAll(values))
}

// quoteAll quotes each value as a JSON string.
func quoteAll(values []string) []string {
	out := make([]string, len(values))
	for i, v := range values {
		b, _ := json.Marshal(v)
		out[i] = string(b)
	}
	return out
}

// failTag records a violation of the union's tag property in the object being read,
// its message unionMessage's kind (w's, when not nil); got shows its value, unless
// the object is sensitive. The message is made only when the violation is recorded.
func (d *Decoder) failTag(tag string, code invalid.Code, kind int, values []string, w *unionWords, got string) {
	if d.failing() {
		return
	}
	if d.sensitive() || w != nil && w.hidden {
		got = ""
	}
	message := ""
	if w != nil {
		message = w.messages[kind]
	} else {
		message = unionMessage(kind, values)
	}
	d.add(invalid.Violation{Path: d.pointer() + "/" + shownName(tag), Code: code, Message: message, Got: got})
}

// skipObject skips the rest of the object being read, checking only that it is well
// formed, and closes it.
func (d *Decoder) skipObject() {
	for d.NextField() {
		d.skipValue()
	}
}

// scanTag looks ahead, from the first property of the object being read, for the
// property tag among the object's own, and returns where its value starts, or -1 when
// the object has none. ok is false when the text is malformed before either is known.
// The objects nested in the part read are remembered (see unionCache).
func (d *Decoder) scanTag(tag string) (val int, ok bool) {
	var stack []scanFrame
	if d.unions.stack != nil {
		stack = d.unions.stack[:0]
	}
	start := d.pos
	val, ok, reached, stack := d.scanTagWith(tag, stack)
	d.unions.stack = stack[:0]
	d.unions.looked += reached - start
	return val, ok
}

// scanTagWith is scanTag with a stack to reuse, which it returns, grown; reached is
// where the look-ahead stopped.
func (d *Decoder) scanTagWith(tag string, stack []scanFrame) (val int, ok bool, reached int, _ []scanFrame) {
	scan := tagScan{tag: tag, from: d.pos}
	stack = append(stack, scanFrame{obj: d.pos, object: true})
	// The object being read is both stack[0] and the innermost of d.open.
	data, i, depth := d.data, d.pos, d.limits.maxDepth()-len(d.open)+1
	// nested reports that an object or array began in the part read: only then is
	// the part worth remembering.
	nested := false
	for {
		for i < len(data) && jsonread.IsSpace(data[i]) {
			i++
		}
		if i >= len(data) {
			return -1, false, i, stack
		}
		top := &stack[len(stack)-1]
		c := data[i]
		if top.object && top.state != stateValue {
			switch {
			case c == '}' && top.state != stateNext:
				i++
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					if nested {
						scan.to = i
						d.unions.add(data, scan)
					}
					return -1, true, i, stack
				}
				stack[len(stack)-1].state = stateAfter
				continue
			case c == ',' && top.state == stateAfter:
				i++
				top.state = stateNext
				continue
			case c != '"' || top.state == stateAfter:
				return -1, false, i, stack
			}
			j, plain, problem := jsonread.ScanString(data, i)
			escaped, ok := !plain, problem == jsonread.OK
			if !ok {
				return -1, false, i, stack
			}
			match := keyIs(data[i+1:j-1], escaped, tag)
			i = j
			for i < len(data) && jsonread.IsSpace(data[i]) {
				i++
			}
			if i >= len(data) || data[i] != ':' {
				return -1, false, i, stack
			}
			i++
			for i < len(data) && jsonread.IsSpace(data[i]) {
				i++
			}
			top.state = stateValue
			if match && !top.marked {
				top.marked = true
				if len(stack) == 1 {
					if nested {
						scan.to = i
						d.unions.add(data, scan)
					}
					return i, true, i, stack
				}
				if scan.marks == nil {
					scan.marks = d.unions.spare()
				}
				scan.marks = append(scan.marks, tagMark{obj: top.obj, val: i})
			}
			continue
		}
		if !top.object {
			switch {
			case c == ']' && top.state != stateNext:
				i++
				stack = stack[:len(stack)-1]
				stack[len(stack)-1].state = stateAfter
				continue
			case c == ',' && top.state == stateAfter:
				i++
				top.state = stateNext
				continue
			case top.state == stateAfter:
				return -1, false, i, stack
			}
		}
		// A value.
		top.state = stateAfter
		switch c {
		case '{', '[':
			if len(stack) >= depth {
				return -1, false, i, stack
			}
			i++
			nested = true
			stack = append(stack, scanFrame{obj: i, object: c == '{'})
		case '"':
			j, _, problem := jsonread.ScanString(data, i)
			if problem != jsonread.OK {
				return -1, false, i, stack
			}
			i = j
		default:
			j := i
			for j < len(data) && !jsonread.IsSpace(data[j]) && data[j] != ',' && data[j] != '}' && data[j] != ']' {
				j++
			}
			if j == i {
				return -1, false, i, stack
			}
			i = j
		}
	}
}

// The states of a frame of scanTag: at its start (a first member or the end may
// follow), after a member (a comma or the end), after a comma (a member), or at an
// object member's value.
const (
	stateStart = iota
	stateAfter
	stateNext
	stateValue
)

// scanFrame is an object or array scanTag is inside.
type scanFrame struct {
	obj    int // where its first member may start
	object bool
	state  int
	marked bool // the tag was found among its properties
}

// keyIs reports whether the contents of a string, escaped or not, are tag.
func keyIs(raw []byte, escaped bool, tag string) bool {
	if !escaped {
		return string(raw) == tag
	}
	var s string
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(append(append(quoted, '"'), raw...), '"')
	return json.Unmarshal(quoted, &s) == nil && s == tag
}

// tagMark says where the tag's value starts in an object that holds it: obj is where
// the object's first member may start (just after its brace).
type tagMark struct{ obj, val int }

// tagScan is what one look-ahead for a tag saw: the objects that start in [from, to)
// and hold the tag at their top level, sorted by where they start. Every other object
// that starts there does not hold it.
type tagScan struct {
	tag      string
	from, to int
	base     *byte // the text scanned (the arguments, or a string that held an object)
	marks    []tagMark
}

// unionCache holds the look-aheads of one call's arguments, so that a union nested in a
// part of the text already looked ahead at is not read again.
//
// A decoder reads each text forward, so the objects it begins unions at come in the
// order they start in: of the look-aheads for one tag in one text, which do not overlap
// (an object one covers is not looked ahead at again), only the latest can cover the
// next object. lookup asks only that one, found through latest, so that a call with
// thousands of look-aheads (a list of unions whose items hold objects) costs no more a
// union than one with a few. Were an object met out of order, it would be looked ahead
// at again: slower, never wrong.
type unionCache struct {
	scans []tagScan
	// latest indexes the latest look-ahead of each text and tag in scans, once there
	// are two or more.
	latest map[scanKey]int
	stack  []scanFrame
	// looked counts the bytes looked ahead at, and probed the look-aheads lookup
	// asked, which the tests bound.
	looked, probed int
}

// scanKey names the look-aheads of one tag in one text.
type scanKey struct {
	base *byte
	tag  string
}

// maxKeptLatest is the most entries a reset keeps unionCache.latest's memory for: a
// larger map is dropped, so that the calls after a large one do not clear it whole.
const maxKeptLatest = 64

// reset forgets the look-aheads, keeping the memory.
func (c *unionCache) reset() {
	c.looked, c.probed = 0, 0
	if c.scans == nil {
		return
	}
	for i := range c.scans {
		c.scans[i].base = nil // the text of a call that ended
	}
	c.scans = c.scans[:0]
	if c.latest != nil {
		if len(c.latest) > maxKeptLatest {
			c.latest = nil
		} else {
			clear(c.latest)
		}
	}
}

// spare returns an empty list of marks, reusing one a reset left behind.
func (c *unionCache) spare() []tagMark {
	if n := len(c.scans); n < cap(c.scans) {
		if m := c.scans[:n+1][n].marks; m != nil {
			return m[:0]
		}
	}
	return nil
}

// add records a look-ahead over data.
func (c *unionCache) add(data []byte, s tagScan) {
	s.base = unsafe.SliceData(data)
	slices.SortFunc(s.marks, func(a, b tagMark) int { return a.obj - b.obj })
	if n := len(c.scans); n > 0 {
		if c.latest == nil {
			c.latest = make(map[scanKey]int)
		}
		if len(c.latest) == 0 {
			// The first look-ahead, which lookup found without the map.
			first := &c.scans[0]
			c.latest[scanKey{first.base, first.tag}] = 0
		}
		c.latest[scanKey{s.base, s.tag}] = n
	}
	c.scans = append(c.scans, s)
}

// lookup returns where the value of tag starts in the object of data whose first
// member may start at obj, -1 when it has none, and ok false when no look-ahead saw it.
// Only the latest look-ahead of tag in data is asked (see unionCache).
func (c *unionCache) lookup(data []byte, obj int, tag string) (val int, ok bool) {
	n := len(c.scans)
	if n == 0 {
		return 0, false
	}
	base := unsafe.SliceData(data)
	i := n - 1
	if s := &c.scans[i]; s.base != base || s.tag != tag {
		// Not the latest look-ahead of all: the latest of this text and tag.
		if n == 1 {
			return 0, false
		}
		j, has := c.latest[scanKey{base, tag}]
		if !has {
			return 0, false
		}
		i = j
	}
	s := &c.scans[i]
	c.probed++
	if obj < s.from || obj >= s.to {
		return 0, false
	}
	if k, found := slices.BinarySearchFunc(s.marks, obj, func(m tagMark, obj int) int { return m.obj - obj }); found {
		return s.marks[k].val, true
	}
	return -1, true
}
