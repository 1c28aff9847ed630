package toolmcp

import (
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// checkKeys's findings about a message.
const (
	keysOK        = iota
	keysSyntax    // not exactly one valid JSON value
	keysTooDeep   // objects and arrays nested deeper than the limit
	keysDuplicate // an object has a key twice (in one of the protocol's, maybe in two cases)
	keysTooLong   // longer than checkKeys reads (math.MaxInt32 bytes)
)

// keysReport is what checkKeys found: the first problem of the message, in the order
// of its bytes.
type keysReport struct {
	problem int
	// pointer is, for keysDuplicate, the JSON Pointer of the object that has the key
	// twice: "" for the message itself.
	pointer string
	// key is, for keysDuplicate, the key, decoded, as it is given the second time.
	key string
	// first is, for keysDuplicate, the key as it is given the first time, when that is
	// spelled otherwise: in an object of the protocol's, the two are equal under case
	// folding. It is "" for two keys the same.
	first string
}

// linearKeys is how many keys an object has before checkKeys looks a new key up in a
// hash table of them, rather than comparing it with each.
const linearKeys = 16

// firstTable is the size of an object's first hash table, in slots: a table is at most
// half full.
const firstTable = 4 * linearKeys

// keysSeed seeds the hashes of keys: random in each process, so that no input can make
// them collide on purpose.
var keysSeed = maphash.MakeSeed()

// checkKeys reads data, a JSON-RPC message: one JSON value with white space around it,
// in one pass, and reports the first problem: a syntax error (as json.Valid sees it),
// objects and arrays nested deeper than maxDepth, or an object with a key twice. Keys
// are compared as encoding/json decodes them (escapes undone, invalid UTF-8 and lone
// surrogates read as U+FFFD), so "a" and "\u0061" are the same key.
//
// In the protocol's own objects, which the SDK decodes into Go structs (the message,
// its params, result and error, and the structs within params: see shapes), keys are
// also compared as encoding/json matches a key with a struct field: under Unicode case
// folding, as bytes.EqualFold compares them. There "name", "Name" and "NAME" are the
// same key, and so are "sk", "\u017f\u212a" (long s, Kelvin sign) and "SK". The SDK
// (v1.8.0) matches them exactly and takes "name"; a reader that decodes with
// encoding/json takes the last: a proxy, a log, an SDK from before its fix of
// GHSA-wvj2-96wp-fq3f, or the SDK itself in inputResponses. Elsewhere, and in
// particular in a tool's arguments (params.arguments) and in _meta, keys are compared
// exactly: there "a" and "A" are two keys, as they are to the tool's decoder and in the
// SDK's maps.
//
// Its cost is linear in the length of data: each byte is read once, a key's bytes once
// more to hash them (decoded first when the key has escapes or bytes outside ASCII, and
// case folded in the protocol's objects), and each key is looked up among its object's
// in constant expected time. Its memory comes from a pool: once warm, it allocates
// nothing for a message with at most 1,024 keys in the objects open at once
// (maxPooledKeys) and 16 in each (linearKeys), and otherwise memory in proportion to
// those keys.
func checkKeys(data []byte, maxDepth int) keysReport {
	if len(data) > math.MaxInt32 {
		return keysReport{problem: keysTooLong}
	}
	s := scanners.Get().(*keyScanner)
	s.data = data
	r := s.scan(maxDepth)
	s.data = nil
	s.frames, s.keys = s.frames[:0], s.keys[:0]
	clear(s.tables)
	s.tables = s.tables[:0]
	if cap(s.keys) <= maxPooledKeys && cap(s.a) <= maxPooledKeyBytes && cap(s.b) <= maxPooledKeyBytes {
		scanners.Put(s)
	}
	return r
}

// scanners keeps checkKeys's memory from one message to the next, unless a message
// made it large.
var scanners = sync.Pool{New: func() any { return new(keyScanner) }}

// The most keys and bytes of a decoded key a pooled scanner keeps room for.
const (
	maxPooledKeys     = 1024
	maxPooledKeyBytes = 4096
)

// keyEntry is a key of an open object.
type keyEntry struct {
	start, end int32  // the key's bytes, quotes excluded
	hash       uint32 // of the key decoded; equal ones are compared
}

// keyFrame is an open object or array.
type keyFrame struct {
	object bool
	// shape is the object's or array's, an index in shapes; child is, of an object, the
	// shape of its current member's value.
	shape, child uint8
	// n is, of an object, the index in keys of its first key; of an array, the index of
	// its current element.
	n int32
	// cur is, of an object, the index in keys of its current member's key.
	cur int32
	// table is, of an object with more than linearKeys keys, 1 + the index in tables of
	// its hash table; 0 otherwise.
	table int32
}

type keyScanner struct {
	data   []byte
	frames []keyFrame
	keys   []keyEntry // of the open objects, in order
	// tables are the hash tables of the open objects with more than linearKeys keys:
	// open addressing, a power of two of slots, each 1 + an index in keys or 0 when free.
	tables [][]int32
	spare  []int32 // a free table of firstTable slots
	a, b   []byte  // decoded keys
}

// The scanner's states.
const (
	wantValue = iota // a value
	wantKey          // an object's key (after '{' or ',')
	afterValue
)

func (s *keyScanner) scan(maxDepth int) keysReport {
	d := s.data
	syntax := keysReport{problem: keysSyntax}
	i := skipSpace(d, 0)
	state := wantValue
	for {
		switch state {
		case wantValue:
			if i >= len(d) {
				return syntax
			}
			switch c := d[i]; c {
			case '{', '[':
				if len(s.frames) >= maxDepth {
					return keysReport{problem: keysTooDeep}
				}
				f := keyFrame{object: c == '{', cur: -1, shape: s.valueShape(c == '[')}
				if f.object {
					f.n = int32(len(s.keys))
				}
				s.frames = append(s.frames, f)
				i = skipSpace(d, i+1)
				switch {
				case i < len(d) && d[i] == c+2: // '}' is '{'+2, ']' is '['+2
					s.pop()
					i++
					state = afterValue
				case f.object:
					state = wantKey
				}
				continue
			case '"':
				var ok bool
				if i, _, ok = scanString(d, i); !ok {
					return syntax
				}
			case 't':
				if i = literal(d, i, "true"); i < 0 {
					return syntax
				}
			case 'f':
				if i = literal(d, i, "false"); i < 0 {
					return syntax
				}
			case 'n':
				if i = literal(d, i, "null"); i < 0 {
					return syntax
				}
			default:
				if i = scanNumber(d, i); i < 0 {
					return syntax
				}
			}
			state = afterValue
		case wantKey:
			if i >= len(d) || d[i] != '"' {
				return syntax
			}
			end, plain, ok := scanString(d, i)
			if !ok {
				return syntax
			}
			if r := s.add(i+1, end-1, plain); r.problem != keysOK {
				return r
			}
			if i = skipSpace(d, end); i >= len(d) || d[i] != ':' {
				return syntax
			}
			i = skipSpace(d, i+1)
			state = wantValue
		case afterValue:
			i = skipSpace(d, i)
			if len(s.frames) == 0 {
				if i != len(d) {
					return syntax
				}
				return keysReport{}
			}
			if i >= len(d) {
				return syntax
			}
			f := &s.frames[len(s.frames)-1]
			switch c := d[i]; {
			case c == ',':
				i = skipSpace(d, i+1)
				if f.object {
					state = wantKey
				} else {
					f.n++
					state = wantValue
				}
			case c == '}' && f.object, c == ']' && !f.object:
				s.pop()
				i++
			default:
				return syntax
			}
		}
	}
}

// pop closes the innermost object or array, forgetting an object's keys.
func (s *keyScanner) pop() {
	f := s.frames[len(s.frames)-1]
	s.frames = s.frames[:len(s.frames)-1]
	if f.object {
		s.keys = s.keys[:f.n]
		if f.table != 0 {
			if t := s.tables[f.table-1]; len(t) == firstTable {
				clear(t)
				s.spare = t
			}
			s.tables[f.table-1] = nil
			s.tables = s.tables[:f.table-1]
		}
	}
}

// valueShape returns the shape of the object or array (array says which) that starts
// now: the message (or a batch of them), a member's value or an array's element.
func (s *keyScanner) valueShape(array bool) uint8 {
	if len(s.frames) == 0 {
		if array {
			return shapeBatch
		}
		return shapeMessage
	}
	p := &s.frames[len(s.frames)-1]
	if p.object {
		return p.child
	}
	return shapes[p.shape].elem
}

// add adds the key data[start:end] to the innermost object, or reports it a duplicate.
// plain says the key has neither escapes nor bytes outside ASCII: its bytes are the key.
func (s *keyScanner) add(start, end int, plain bool) keysReport {
	f := &s.frames[len(s.frames)-1]
	sh := &shapes[f.shape]
	key := s.data[start:end]
	switch {
	case sh.fold:
		if plain {
			s.a = append(s.a[:0], key...)
		} else {
			s.a = unquote(s.a[:0], key)
		}
		key = foldKey(s.a)
	case !plain:
		s.a = unquote(s.a[:0], key)
		key = s.a
	}
	h := uint32(maphash.Bytes(keysSeed, key))
	if f.table == 0 {
		for j := int(f.n); j < len(s.keys); j++ {
			if s.keys[j].hash == h && s.same(j, key, sh.fold) {
				return s.duplicate(start, end, j)
			}
		}
	} else {
		t := s.tables[f.table-1]
		mask := uint32(len(t) - 1)
		for p := h & mask; t[p] != 0; p = (p + 1) & mask {
			if j := int(t[p] - 1); s.keys[j].hash == h && s.same(j, key, sh.fold) {
				return s.duplicate(start, end, j)
			}
		}
	}
	f.child = sh.member(key)
	f.cur = int32(len(s.keys))
	if len(s.keys) == cap(s.keys) {
		s.keys = slices.Grow(s.keys, max(cap(s.keys), 64)) // double: append grows large slices by less
	}
	s.keys = append(s.keys, keyEntry{start: int32(start), end: int32(end), hash: h})
	switch n := len(s.keys) - int(f.n); {
	case f.table == 0 && n > linearKeys:
		s.tables = append(s.tables, nil)
		f.table = int32(len(s.tables))
		s.index(f, firstTable)
	case f.table != 0 && 2*n > len(s.tables[f.table-1]):
		s.index(f, 2*len(s.tables[f.table-1]))
	case f.table != 0:
		insert(s.tables[f.table-1], s.keys, len(s.keys)-1)
	}
	return keysReport{}
}

// index gives the object of f a new hash table of size slots holding its keys.
func (s *keyScanner) index(f *keyFrame, size int) {
	var t []int32
	if size == firstTable && s.spare != nil {
		t, s.spare = s.spare, nil
	} else {
		t = make([]int32, size)
	}
	for j := int(f.n); j < len(s.keys); j++ {
		insert(t, s.keys, j)
	}
	s.tables[f.table-1] = t
}

// insert puts keys[j] into the hash table t, which has a free slot.
func insert(t []int32, keys []keyEntry, j int) {
	mask := uint32(len(t) - 1)
	p := keys[j].hash & mask
	for t[p] != 0 {
		p = (p + 1) & mask
	}
	t[p] = int32(j + 1)
}

// same reports whether keys[j], decoded, and case folded when fold is set, is key.
func (s *keyScanner) same(j int, key []byte, fold bool) bool {
	raw := s.data[s.keys[j].start:s.keys[j].end]
	switch plain := isPlain(raw); {
	case fold && plain:
		s.b = append(s.b[:0], raw...)
		raw = foldKey(s.b)
	case fold:
		s.b = unquote(s.b[:0], raw)
		raw = foldKey(s.b)
	case !plain:
		s.b = unquote(s.b[:0], raw)
		raw = s.b
	}
	return string(raw) == string(key)
}

// duplicate reports the key data[start:end] in the innermost object, where keys[j] is
// the same.
func (s *keyScanner) duplicate(start, end, j int) keysReport {
	key := decodeKey(s.data[start:end])
	first := decodeKey(s.data[s.keys[j].start:s.keys[j].end])
	if first == key {
		first = ""
	}
	var p strings.Builder
	for _, f := range s.frames[:len(s.frames)-1] {
		p.WriteByte('/')
		if !f.object {
			p.WriteString(strconv.Itoa(int(f.n)))
			continue
		}
		e := s.keys[f.cur]
		p.WriteString(pointerEscaper.Replace(decodeKey(s.data[e.start:e.end])))
	}
	return keysReport{problem: keysDuplicate, pointer: p.String(), key: key, first: first}
}

// maxReportedKey bounds the bytes of a key that a report decodes: it shows at most 256.
const maxReportedKey = 512

// decodeKey returns the key whose bytes, quotes excluded and checked by scanString,
// are raw, decoded, up to about maxReportedKey bytes: a report quotes keys cut, and a
// long key costs no more to report than a short one.
func decodeKey(raw []byte) string {
	i := 0
	for i < len(raw) && i < maxReportedKey { // whole escapes only
		switch {
		case raw[i] != '\\':
			i++
		case raw[i+1] == 'u':
			i += 6
		default:
			i += 2
		}
	}
	raw = raw[:i]
	if isPlain(raw) {
		return string(raw)
	}
	return string(unquote(nil, raw))
}

// keyShape is what checkKeys knows of an object or array of a message: whether it is
// one of the protocol's, decoded into a Go struct, and so compared under case folding,
// and the shapes of the values in it.
type keyShape struct {
	// fold says the object is one of the protocol's: its keys are compared under case
	// folding, as encoding/json matches them with a struct's fields.
	fold bool
	// members are the members whose values have shapes of their own, by key: matched
	// under case folding in an object with fold (a case-insensitive reader decodes
	// "Params" as the params), exactly otherwise.
	members []shapeMember
	// every is the shape of the value of any other member; elem, of an array, the shape
	// of its elements.
	every, elem uint8
}

type shapeMember struct {
	key    string
	folded string // foldKey(key)
	shape  uint8
}

// member returns the shape of the value of the member key, which is case folded when
// the object is one of the protocol's.
func (sh *keyShape) member(key []byte) uint8 {
	for i := range sh.members {
		m := &sh.members[i]
		if sh.fold && string(key) == m.folded || !sh.fold && string(key) == m.key {
			return m.shape
		}
	}
	return sh.every
}

// The shapes, indices in shapes.
const (
	shapeFree           uint8 = iota // not the protocol's: compared exactly, and all in it
	shapeBatch                       // an array of messages
	shapeMessage                     // a JSON-RPC message
	shapeParams                      // a request's or notification's params
	shapeMeta                        // params._meta, a map
	shapeStruct                      // one of the protocol's, with nothing of the protocol's in it
	shapeStructs                     // an array of shapeStruct
	shapeImplementation              // clientInfo
	shapeCapabilities                // ClientCapabilities
	shapeSampling                    // SamplingCapabilities
	shapeElicitation                 // ElicitationCapabilities
	shapeInputResponses              // a map of InputResponse
	shapeInputResponse               // ElicitResult, ListRootsResult, CreateMessageWithToolsResult
	shapeResult                      // a response's result
)

// shapes are the objects of a message that the SDK (v1.8.0) decodes into Go structs on
// a server, which a case-insensitive reader would decode alike: the message
// (jsonrpc2.DecodeMessage), its params (each method's params type, in
// newMethodInfo.unmarshalParams), result and error, and within params the structs of
// initialize (clientInfo, capabilities, also as _meta's SEP-2575 clientInfo and
// clientCapabilities), completion/complete (ref, argument, context),
// subscriptions/listen (notifications) and of a retried call (each of inputResponses,
// which the SDK decodes with encoding/json, case-insensitively: InputResponseMap's
// UnmarshalJSON), and the roots of a roots/list result. What is not here is compared
// exactly: a tool's arguments, prompts/get's, context.arguments, every _meta, the
// capabilities' experimental and extensions, error.data, and the content of a result
// (an ElicitResult's is a map).
var shapes = func() []keyShape {
	t := []keyShape{
		shapeFree:  {},
		shapeBatch: {elem: shapeMessage},
		shapeMessage: {fold: true, members: []shapeMember{
			{key: "params", shape: shapeParams},
			{key: "result", shape: shapeResult},
			{key: "error", shape: shapeStruct},
		}},
		shapeParams: {fold: true, members: []shapeMember{
			{key: "_meta", shape: shapeMeta},
			{key: "clientInfo", shape: shapeImplementation},
			{key: "capabilities", shape: shapeCapabilities},
			{key: "ref", shape: shapeStruct},
			{key: "argument", shape: shapeStruct},
			{key: "context", shape: shapeStruct},
			{key: "notifications", shape: shapeStruct},
			{key: "inputResponses", shape: shapeInputResponses},
		}},
		shapeMeta: {members: []shapeMember{
			{key: "io.modelcontextprotocol/clientInfo", shape: shapeImplementation},
			{key: "io.modelcontextprotocol/clientCapabilities", shape: shapeCapabilities},
		}},
		shapeStruct:         {fold: true},
		shapeStructs:        {elem: shapeStruct},
		shapeImplementation: {fold: true, members: []shapeMember{{key: "icons", shape: shapeStructs}}},
		shapeCapabilities: {fold: true, members: []shapeMember{
			{key: "roots", shape: shapeStruct},
			{key: "sampling", shape: shapeSampling},
			{key: "elicitation", shape: shapeElicitation},
		}},
		shapeSampling:       {fold: true, members: []shapeMember{{key: "context", shape: shapeStruct}, {key: "tools", shape: shapeStruct}}},
		shapeElicitation:    {fold: true, members: []shapeMember{{key: "form", shape: shapeStruct}, {key: "url", shape: shapeStruct}}},
		shapeInputResponses: {every: shapeInputResponse},
		shapeInputResponse:  {fold: true, members: []shapeMember{{key: "roots", shape: shapeStructs}}},
		shapeResult:         {fold: true, members: []shapeMember{{key: "roots", shape: shapeStructs}}},
	}
	for i := range t {
		for j := range t[i].members {
			m := &t[i].members[j]
			m.folded = string(foldKey([]byte(m.key)))
		}
	}
	return t
}()

// foldKey replaces key, valid UTF-8, with its case folding, in place, and returns it:
// each character becomes the smallest of those equal to it under Unicode simple case
// folding (which is what bytes.EqualFold and encoding/json compare), so an ASCII letter
// its upper case, and U+212A (Kelvin sign) and U+017F (long s) "K" and "S". Two keys
// are equal under bytes.EqualFold when their foldings are the same.
func foldKey(key []byte) []byte {
	w := 0
	for i := 0; i < len(key); {
		c := key[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			key[w] = c
			w++
			i++
			continue
		}
		r, n := utf8.DecodeRune(key[i:])
		if n == 1 { // invalid UTF-8, which a decoded key never has: kept as it is
			key[w] = c
			w++
			i++
			continue
		}
		// The folding, a smaller character, is no longer: w stays at most i.
		w += utf8.EncodeRune(key[w:], foldRune(r))
		i += n
	}
	return key[:w]
}

// foldRune returns the smallest character equal to r under simple case folding.
func foldRune(r rune) rune {
	for {
		r2 := unicode.SimpleFold(r)
		if r2 <= r {
			return r2
		}
		r = r2
	}
}

// pointerEscaper escapes a key as a JSON Pointer's reference token (RFC 6901).
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// keysAnswer returns the JSON-RPC error answer to msg for the problem checkKeys found
// in it, or nil when there is none; parse is the message of a syntax error. The answer
// to a duplicate key has msg's id, unless the id is the key that appears twice (in
// whatever case: a case-insensitive reader would take the last "ID" for the id).
func keysAnswer(msg []byte, r keysReport, parse string) []byte {
	switch r.problem {
	case keysSyntax:
		return answer(topLevelID(msg), jsonrpc.CodeParseError, parse)
	case keysTooDeep:
		return answer(topLevelID(msg), jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid request: the message is nested deeper than %d levels", maxMessageDepth))
	case keysTooLong:
		return answer(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid request: the message is longer than %d bytes", math.MaxInt32))
	case keysDuplicate:
		id := topLevelID(msg)
		where := "the message"
		if r.pointer == "" && strings.EqualFold(r.key, "id") {
			id = nil // which one?
		} else if r.pointer != "" {
			where = clip(r.pointer, 256)
		}
		if r.first == "" {
			return answer(id, jsonrpc.CodeInvalidRequest, "Invalid request: the key "+strconv.Quote(clip(r.key, 128))+" appears twice in "+where+": a message must not repeat a key in any object")
		}
		return answer(id, jsonrpc.CodeInvalidRequest, "Invalid request: the key "+strconv.Quote(clip(r.key, 64))+" appears twice in "+where+", first as "+strconv.Quote(clip(r.first, 64))+
			": a message must not repeat a key in any object, nor, in the protocol's objects, in another case (a case-insensitive reader takes the two for one)")
	}
	return nil
}

// clip returns s cut to at most about n bytes, at a character boundary, with an
// ellipsis when it was cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// special marks the bytes scanString stops at in a string: the quote, the backslash,
// control characters and the bytes outside ASCII.
var special = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf
	}
	return t
}()

// scanString reads the string that starts at d[i] and returns the index after it, and
// whether it is plain: no escapes, only ASCII. It checks what json.Valid checks:
// escapes and control characters, not UTF-8.
func scanString(d []byte, i int) (end int, plain, ok bool) {
	plain = true
	for i++; i < len(d); i++ {
		c := d[i]
		if !special[c] {
			continue
		}
		switch {
		case c == '"':
			return i + 1, plain, true
		case c == '\\':
			plain = false
			if i+1 >= len(d) {
				return 0, false, false
			}
			i++
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d) || hex4(d[i+1:i+5]) < 0 {
					return 0, false, false
				}
				i += 4
			default:
				return 0, false, false
			}
		case c < 0x20:
			return 0, false, false
		default:
			plain = false
		}
	}
	return 0, false, false
}

// isPlain reports whether a key has neither escapes nor bytes outside ASCII.
func isPlain(raw []byte) bool {
	for _, c := range raw {
		if c == '\\' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// hex4 returns the value of four hexadecimal digits, or -1.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// unquote appends to dst the string whose bytes, quotes excluded and checked by
// scanString, are raw, decoded as encoding/json decodes it: escapes undone, a
// surrogate pair joined, a lone surrogate and each byte of invalid UTF-8 read as
// U+FFFD.
func unquote(dst, raw []byte) []byte {
	// At most three bytes a byte (an invalid one becomes U+FFFD): one allocation at
	// most, where append's growth would make several.
	dst = slices.Grow(dst, 3*len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			switch e := raw[i+1]; e {
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				r := hex4(raw[i+2:])
				i += 6
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						r2 = hex4(raw[i+2:])
					}
					if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
						r = pair
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				dst = utf8.AppendRune(dst, r)
				continue
			default: // '"', '\\', '/'
				dst = append(dst, e)
			}
			i += 2
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, r)
			} else {
				dst = append(dst, raw[i:i+size]...)
			}
			i += size
		}
	}
	return dst
}

// literal returns the index after word, which must start at d[i], or -1.
func literal(d []byte, i int, word string) int {
	if len(d)-i < len(word) || string(d[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// scanNumber returns the index after the JSON number that starts at d[i], or -1.
func scanNumber(d []byte, i int) int {
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		i = digits(d, i+1)
	default:
		return -1
	}
	if i < len(d) && d[i] == '.' {
		if i+1 >= len(d) || d[i+1] < '0' || d[i+1] > '9' {
			return -1
		}
		i = digits(d, i+1)
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return -1
		}
		i = digits(d, i)
	}
	return i
}

func digits(d []byte, i int) int {
	for i < len(d) && '0' <= d[i] && d[i] <= '9' {
		i++
	}
	return i
}
