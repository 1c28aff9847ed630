package jsonread

import (
	"math"
	"strconv"
)

// Default limits of a text.
const (
	// DefaultMaxBytes is the longest text read: 1 MiB (runtime.DefaultMaxArgumentBytes
	// is this limit, for a call's arguments).
	DefaultMaxBytes = 1 << 20
	// DefaultMaxDepth is the deepest nesting of objects and arrays read
	// (runtime.DefaultMaxDepth is this limit).
	DefaultMaxDepth = 64
)

// Limits bound what a Scanner reads. A zero field means its default.
type Limits struct {
	// MaxBytes is the longest text read, in bytes: DefaultMaxBytes when zero, and at
	// most math.MaxInt32, which a Scanner keeps offsets in.
	MaxBytes int
	// MaxDepth is the deepest nesting of objects and arrays read: DefaultMaxDepth when
	// zero.
	MaxDepth int
	// MaxStringBytes is the longest string read (a key or a value), in bytes of the
	// text between its quotes: as long as the text (MaxBytes) when zero.
	MaxStringBytes int
}

// Bytes returns the longest text read.
func (l Limits) Bytes() int {
	if l.MaxBytes > 0 {
		return min(l.MaxBytes, math.MaxInt32)
	}
	return DefaultMaxBytes
}

// Depth returns the deepest nesting read.
func (l Limits) Depth() int {
	if l.MaxDepth > 0 {
		return l.MaxDepth
	}
	return DefaultMaxDepth
}

// StringBytes returns the longest string read.
func (l Limits) StringBytes() int {
	if l.MaxStringBytes > 0 {
		return l.MaxStringBytes
	}
	return l.Bytes()
}

// KeyMode says which keys of an object are the same key, which an object must not have
// twice.
type KeyMode uint8

// The key modes.
const (
	// KeysAny: keys are not compared.
	KeysAny KeyMode = iota
	// KeysExact: keys are compared as encoding/json decodes them, so "a" and "\u0061"
	// are the same key.
	KeysExact
	// KeysFold: keys are compared decoded and under Unicode simple case folding, as
	// encoding/json matches a key with a struct field (bytes.EqualFold): "name",
	// "Name" and "NAME" are the same key, and so are "sk", "\u017f\u212a" and "SK".
	KeysFold
)

// Options say how a Scanner reads a text.
type Options struct {
	Limits
	// Keys is the key mode of every object, unless SetKeys changes it for one.
	Keys KeyMode
}

// Kind is the kind of a token.
type Kind uint8

// The kinds of token.
const (
	// End: the end of the text, or a problem (see Scanner.Err).
	End Kind = iota
	BeginObject
	EndObject
	BeginArray
	EndArray
	// Key: an object's key (its colon read too); Text gives it decoded.
	Key
	// String: a string value; Text gives its contents decoded.
	String
	Number
	True
	False
	Null
)

// An Error is what a Scanner found wrong with a text.
type Error struct {
	Problem Problem
	// Offset is where in the text the problem is.
	Offset int
	// Pointer is the JSON Pointer of where the problem is: for DuplicateKey, of the
	// object that has the key twice ("" for the text itself).
	Pointer string
	// Key is, for DuplicateKey, the key as it is given the second time, decoded, and
	// First as it is given the first time when that is spelled otherwise (equal under
	// case folding, in an object of KeysFold; "" otherwise). Each is cut after 512
	// bytes of its text, so that a report of a long key costs what a short one does.
	Key, First string
	// Limit is, for TooDeep, TooLarge and StringTooLong, the limit passed.
	Limit int
	// what is a syntax error's description.
	what string
}

func (e *Error) Error() string {
	switch e.Problem {
	case TooDeep:
		return "nested deeper than the limit of " + strconv.Itoa(e.Limit) + " levels"
	case TooLarge:
		return "the text is longer than the limit of " + strconv.Itoa(e.Limit) + " bytes"
	case StringTooLong:
		return "a string at offset " + strconv.Itoa(e.Offset) + " is longer than the limit of " + strconv.Itoa(e.Limit) + " bytes"
	case DuplicateKey:
		where := "the text"
		if e.Pointer != "" {
			where = e.Pointer
		}
		if e.First != "" {
			return "the key " + strconv.Quote(e.Key) + " appears twice in " + where + ", first as " + strconv.Quote(e.First)
		}
		return "the key " + strconv.Quote(e.Key) + " appears twice in " + where
	}
	return "malformed JSON: " + e.what + " at offset " + strconv.Itoa(e.Offset)
}

// A Scanner reads a JSON text token by token, checking it as Valid does, within its
// Limits, and, in objects whose KeyMode says so, that no key is given twice. It keeps
// the JSON Pointer of the current position (AppendPointer). The zero Scanner reads an
// empty text; Reset gives it one. A Scanner keeps its memory from one text to the
// next.
//
// Its cost is linear in the length of the text: each byte is read once, and, when keys
// are compared, a key's bytes once more: a short one (7 bytes or fewer as its object
// compares it) is held in a word and compared whole with the others of an object
// of up to LinearKeys keys, and a longer one, or one of a larger object, is hashed
// (decoded first when the key has escapes or bytes outside ASCII, and case folded
// under KeysFold) and looked up among its object's in constant expected time.
type Scanner struct {
	data  []byte
	pos   int
	opt   Options
	state uint8

	frames []frame
	// The last token: its kind, its text data[start:end], and, of a string or key,
	// whether it is plain (its bytes are its contents).
	kind       Kind
	start, end int
	plain      bool
	err        *Error

	buf   []byte // decoded strings
	set   keySet
	keyed []byte // the last key as its object compares it, or nil
	// lazy says keyed is still to be made, from the last key's own bytes: a plain
	// short key, which its object compared without copying it (keySet.add).
	lazy bool
}

// frame is an object or array being read.
type frame struct {
	object bool
	keys   KeyMode
	// n is, of an object, the index in set.keys of its first key; of an array, the
	// index of its current element (-1 before the first).
	n int32
	// key is, of an object, its current member's key, quotes excluded: data[key:keyEnd]
	// (key is -1 before the first).
	key, keyEnd int32
	// table is, of an object with more than linearKeys keys compared, 1 + the index in
	// set.tables of its hash table; 0 otherwise.
	table int32
}

// The scanner's states: what the grammar wants next.
const (
	wantValue     = iota // a value
	wantKey              // an object's key, after a comma
	wantKeyOrEnd         // an object's first key, or its end
	wantItemOrEnd        // an array's first element, or its end
	afterValue           // a comma, an end, or the end of the text
	done                 // the end of the text, or a problem
)

// Reset makes s read data with opt, keeping its memory.
func (s *Scanner) Reset(data []byte, opt Options) {
	s.data, s.pos, s.opt, s.state = data, 0, opt, wantValue
	s.frames = s.frames[:0]
	s.kind, s.start, s.end, s.plain, s.err, s.keyed, s.lazy = End, 0, 0, false, nil, nil, false
	s.set.reset()
	if len(data) > opt.Bytes() {
		s.fail(0, TooLarge)
	}
}

// Release drops s's hold on the text, and the memory a large text made it keep, before
// s goes back to a pool.
func (s *Scanner) Release() {
	s.data, s.keyed, s.lazy = nil, nil, false
	s.set.release()
	if cap(s.buf) > maxKeptBytes {
		s.buf = nil
	}
	if cap(s.frames) > maxKeptFrames {
		s.frames = nil
	}
}

// The most memory a Scanner keeps from one text to the next (see Release).
const (
	maxKeptKeys   = 1024
	maxKeptBytes  = 4096
	maxKeptFrames = 4096
)

// Err returns the problem that stopped the Scanner, or nil (an *Error).
func (s *Scanner) Err() error {
	if s.err == nil {
		return nil
	}
	return s.err
}

// Problem returns what stopped the Scanner: OK before the end, or at its end if the
// text was well formed.
func (s *Scanner) Problem() Problem {
	if s.err == nil {
		return OK
	}
	return s.err.Problem
}

// Error returns the problem that stopped the Scanner, or nil.
func (s *Scanner) Error() *Error { return s.err }

// Depth returns how many objects and arrays are open.
func (s *Scanner) Depth() int { return len(s.frames) }

// Raw returns the text of the last token (a string's with its quotes), valid while
// the text is.
func (s *Scanner) Raw() []byte { return s.data[s.start:s.end] }

// Offset returns where the last token starts.
func (s *Scanner) Offset() int { return s.start }

// Plain reports whether the last token, a key or a string, has neither escapes nor
// bytes outside ASCII: its bytes between the quotes are its contents.
func (s *Scanner) Plain() bool { return s.plain }

// Text returns the contents of the last token, a key or a string, decoded (see
// ReadString), valid until the next call of Text.
func (s *Scanner) Text() []byte {
	if s.plain {
		return s.data[s.start+1 : s.end-1]
	}
	t, _, _ := ReadString(s.data, s.start, &s.buf)
	return t
}

// ComparedKey returns the last token, a key, as its object compares keys: decoded,
// and case folded (see Fold) under KeysFold; nil in an object of KeysAny. It is valid
// until the next token.
func (s *Scanner) ComparedKey() []byte {
	if s.kind != Key {
		return nil
	}
	if s.lazy {
		s.lazy = false
		s.keyed = s.data[s.start+1 : s.end-1]
		if s.frames[len(s.frames)-1].keys == KeysFold {
			s.set.a = append(s.set.a[:0], s.keyed...)
			s.keyed = Fold(s.set.a)
		}
	}
	return s.keyed
}

// SetKeys sets the key mode of the object just begun (the last token was BeginObject).
func (s *Scanner) SetKeys(mode KeyMode) {
	if n := len(s.frames); n > 0 && s.kind == BeginObject {
		s.frames[n-1].keys = mode
	}
}

// fail stops s with the problem p at offset at.
func (s *Scanner) fail(at int, p Problem) Kind {
	e := &Error{Problem: p, Offset: at}
	switch p {
	case TooDeep:
		e.Limit = s.opt.Depth()
	case TooLarge:
		e.Limit = s.opt.Bytes()
	case StringTooLong:
		e.Limit = s.opt.StringBytes()
	default:
		e.what = Describe(s.data, at, p)
	}
	e.Pointer = string(s.appendPointer(nil, len(s.frames), maxReportedKey))
	s.err, s.state, s.kind = e, done, End
	return End
}

// Next reads the next token and returns its kind: End at the end of the text, or when
// a problem stops the Scanner (Err). A text is one value with white space around it.
func (s *Scanner) Next() Kind {
	d := s.data
	i := SkipSpace(d, s.pos)
	switch s.state {
	case done:
		return End
	case afterValue:
		if len(s.frames) == 0 {
			if i != len(d) {
				return s.fail(i, Unexpected)
			}
			s.state, s.kind = done, End
			return End
		}
		if i >= len(d) {
			return s.fail(i, Unexpected)
		}
		f := &s.frames[len(s.frames)-1]
		switch c := d[i]; {
		case c == ',':
			i = SkipSpace(d, i+1)
			if f.object {
				return s.key(i)
			}
			f.n++
		case c == '}' && f.object, c == ']' && !f.object:
			return s.close(i)
		default:
			return s.fail(i, Unexpected)
		}
	case wantKey:
		return s.key(i)
	case wantKeyOrEnd:
		if i < len(d) && d[i] == '}' {
			return s.close(i)
		}
		return s.key(i)
	case wantItemOrEnd:
		if i < len(d) && d[i] == ']' {
			return s.close(i)
		}
		s.frames[len(s.frames)-1].n = 0
	}
	return s.value(i)
}

// value reads the value at d[i].
func (s *Scanner) value(i int) Kind {
	d := s.data
	if i >= len(d) {
		return s.fail(i, Unexpected)
	}
	s.start = i
	var ok bool
	switch c := d[i]; c {
	case '{', '[':
		if len(s.frames) >= s.opt.Depth() {
			return s.fail(i, TooDeep)
		}
		f := frame{object: c == '{', n: -1, key: -1}
		s.kind, s.state = BeginArray, wantItemOrEnd
		if f.object {
			f.keys, f.n = s.opt.Keys, int32(len(s.set.keys))
			s.kind, s.state = BeginObject, wantKeyOrEnd
		}
		s.frames = append(s.frames, f)
		s.end, s.pos = i+1, i+1
		return s.kind
	case '"':
		end, plain, p := ScanString(d, i)
		if p != OK {
			return s.fail(end, p)
		}
		if end-i-2 > s.opt.StringBytes() {
			return s.fail(i, StringTooLong)
		}
		s.kind, s.end, s.plain = String, end, plain
	case 't':
		s.kind = True
		s.end, ok = Literal(d, i, "true")
	case 'f':
		s.kind = False
		s.end, ok = Literal(d, i, "false")
	case 'n':
		s.kind = Null
		s.end, ok = Literal(d, i, "null")
	default:
		s.kind = Number
		s.end, ok = ScanNumber(d, i)
	}
	if s.kind != String && !ok {
		return s.fail(s.end, Unexpected)
	}
	s.pos, s.state = s.end, afterValue
	return s.kind
}

// key reads an object's key at d[i] and the colon after it.
func (s *Scanner) key(i int) Kind {
	d := s.data
	if i >= len(d) || d[i] != '"' {
		return s.fail(i, Unexpected)
	}
	end, plain, p := ScanString(d, i)
	if p != OK {
		return s.fail(end, p)
	}
	if end-i-2 > s.opt.StringBytes() {
		return s.fail(i, StringTooLong)
	}
	f := &s.frames[len(s.frames)-1]
	s.keyed, s.lazy = nil, false
	if f.keys != KeysAny {
		var first int
		if s.keyed, first = s.set.add(d, f, i+1, end-1, plain); first >= 0 {
			return s.duplicate(i, end, first)
		}
		s.lazy = s.keyed == nil
	}
	f.key, f.keyEnd = int32(i+1), int32(end-1)
	s.kind, s.start, s.end, s.plain = Key, i, end, plain
	j := SkipSpace(d, end)
	if j >= len(d) || d[j] != ':' {
		return s.fail(j, Unexpected)
	}
	s.pos, s.state = j+1, wantValue
	return Key
}

// close reads the end of the innermost object or array at d[i].
func (s *Scanner) close(i int) Kind {
	f := s.frames[len(s.frames)-1]
	s.frames = s.frames[:len(s.frames)-1]
	if f.object {
		s.set.pop(&f)
		s.kind = EndObject
	} else {
		s.kind = EndArray
	}
	s.start, s.end, s.pos, s.state = i, i+1, i+1, afterValue
	return s.kind
}

// Skip skips the rest of the object or array that the last token began (or the value
// of the key just read), checking it as Valid does within the depth left, without
// comparing its keys, and returns the kind of the token that ends it (EndObject,
// EndArray, or that of the value skipped) or End on a problem.
func (s *Scanner) Skip() Kind {
	switch s.kind {
	case BeginObject, BeginArray:
	case Key:
		k := s.Next()
		if k != BeginObject && k != BeginArray {
			return k
		}
	default:
		return s.kind
	}
	n := len(s.frames)
	f := &s.frames[n-1]
	s.frames = s.frames[:n-1]
	end, p := Skip(s.data, s.start, s.opt.Depth()-(n-1))
	if p != OK {
		s.frames = s.frames[:n]
		return s.fail(end, p)
	}
	if f.object {
		s.set.pop(f)
		s.kind = EndObject
	} else {
		s.kind = EndArray
	}
	s.start, s.end, s.pos, s.state = end-1, end, end, afterValue
	return s.kind
}

// AppendPointer appends the JSON Pointer of the current position to dst: the steps of
// the open objects and arrays to their current members, so after a Key token the
// member's, after a BeginObject the object's, and after an EndObject the member that
// held the object.
func (s *Scanner) AppendPointer(dst []byte) []byte {
	return s.appendPointer(dst, len(s.frames), -1)
}

// appendPointer appends the steps of the first n frames, their keys cut after cut
// bytes of their text when cut >= 0.
func (s *Scanner) appendPointer(dst []byte, n, cut int) []byte {
	for k := range n {
		f := &s.frames[k]
		switch {
		case f.object && f.key >= 0:
			dst = append(dst, '/')
			dst = s.appendKey(dst, int(f.key), int(f.keyEnd), cut, true)
		case !f.object && f.n >= 0:
			dst = append(dst, '/')
			dst = strconv.AppendInt(dst, int64(f.n), 10)
		}
	}
	return dst
}

// maxReportedKey bounds the bytes of a key's text that a report decodes.
const maxReportedKey = 512

// appendKey appends the key data[start:end] (quotes excluded), decoded, cut after cut
// bytes of its text (whole escapes only) when cut >= 0, and escaped as a JSON Pointer's
// reference token when token is set.
func (s *Scanner) appendKey(dst []byte, start, end, cut int, token bool) []byte {
	d := s.data
	whole := end
	if cut >= 0 {
		i := start
		for i < end && i-start < cut {
			switch {
			case d[i] != '\\':
				i++
			case d[i+1] == 'u':
				i += 6
			default:
				i += 2
			}
		}
		end = i
	}
	key := d[start:end]
	if !isPlain(key) {
		// Decoded where it is, or from a copy holding the closing quote a cut key
		// lacks, into room for the most it decodes to (a byte of invalid UTF-8 is
		// three of U+FFFD): one allocation, whatever the key holds.
		raw := d[start-1 : end+1]
		if end != whole {
			raw = append(append(append(make([]byte, 0, end-start+2), '"'), key...), '"')
		}
		buf := make([]byte, 0, 3*len(key))
		key, _, _ = ReadString(raw, 0, &buf)
	}
	if token {
		return AppendToken(dst, key)
	}
	return append(dst, key...)
}

// duplicate stops s at the key data[start:end] (quotes included) of the innermost
// object, the same as its key set.keys[first].
func (s *Scanner) duplicate(start, end, first int) Kind {
	n := len(s.frames)
	e := &Error{Problem: DuplicateKey, Offset: start}
	e.Pointer = string(s.appendPointer(nil, n-1, maxReportedKey))
	e.Key = string(s.appendKey(nil, start+1, end-1, maxReportedKey, false))
	k := s.set.keys[first]
	if f := string(s.appendKey(nil, int(k.start), int(k.end), maxReportedKey, false)); f != e.Key {
		e.First = f
	}
	s.err, s.state, s.kind = e, done, End
	return End
}
