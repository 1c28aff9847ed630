package toolmcp

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/toolgen/toolgen/runtime/jsonread"
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
// The reading is runtime/jsonread's Scanner (KeysExact, and KeysFold in the protocol's
// objects), whose cost is linear in the length of data; checkKeys adds the shapes, one
// lookup per key. Its memory comes from a pool: once warm, it allocates nothing for a
// message with at most 1,024 keys in the objects open at once and 16 in each
// (jsonread.LinearKeys), and otherwise memory in proportion to those keys.
func checkKeys(data []byte, maxDepth int) keysReport {
	if len(data) > math.MaxInt32 {
		return keysReport{problem: keysTooLong}
	}
	s := scanners.Get().(*keyScanner)
	r := s.scan(data, maxDepth)
	s.sc.Release()
	s.levels = s.levels[:0]
	if cap(s.levels) <= maxPooledLevels {
		scanners.Put(s)
	}
	return r
}

// scanners keeps checkKeys's memory from one message to the next, unless a message
// made it large.
var scanners = sync.Pool{New: func() any { return new(keyScanner) }}

// maxPooledLevels is the most open objects and arrays a pooled scanner keeps room for
// (its Scanner's Release drops what a large message made it keep).
const maxPooledLevels = 4096

// keyScanner is checkKeys's reader: a Scanner, and the shape of each object and array
// open.
type keyScanner struct {
	sc     jsonread.Scanner
	levels []level
}

// level is an open object or array: its shape, an index in shapes, and, of an object,
// child, the shape of its current member's value.
type level struct {
	array        bool
	shape, child uint8
}

func (s *keyScanner) scan(data []byte, maxDepth int) keysReport {
	sc := &s.sc
	sc.Reset(data, jsonread.Options{
		Limits: jsonread.Limits{MaxBytes: math.MaxInt32, MaxDepth: maxDepth},
		Keys:   jsonread.KeysExact,
	})
	for {
		switch k := sc.Next(); k {
		case jsonread.End:
			return report(sc.Error())
		case jsonread.BeginObject, jsonread.BeginArray:
			array := k == jsonread.BeginArray
			sh := s.valueShape(array)
			s.levels = append(s.levels, level{array: array, shape: sh})
			if !array && shapes[sh].fold {
				sc.SetKeys(jsonread.KeysFold)
			}
		case jsonread.EndObject, jsonread.EndArray:
			s.levels = s.levels[:len(s.levels)-1]
		case jsonread.Key:
			l := &s.levels[len(s.levels)-1]
			l.child = shapes[l.shape].member(sc)
		}
	}
}

// report returns checkKeys's report of what the Scanner found.
func report(e *jsonread.Error) keysReport {
	switch {
	case e == nil:
		return keysReport{}
	case e.Problem == jsonread.TooDeep:
		return keysReport{problem: keysTooDeep}
	case e.Problem == jsonread.TooLarge:
		return keysReport{problem: keysTooLong}
	case e.Problem == jsonread.DuplicateKey:
		return keysReport{problem: keysDuplicate, pointer: e.Pointer, key: e.Key, first: e.First}
	}
	return keysReport{problem: keysSyntax}
}

// valueShape returns the shape of the object or array (array says which) that starts
// now: the message (or a batch of them), a member's value or an array's element.
func (s *keyScanner) valueShape(array bool) uint8 {
	if len(s.levels) == 0 {
		if array {
			return shapeBatch
		}
		return shapeMessage
	}
	p := &s.levels[len(s.levels)-1]
	if p.array {
		return shapes[p.shape].elem
	}
	return p.child
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
	// lengths has bit n set when a member's key has n bytes (n < 64), so that most
	// keys, plain ones of other lengths, are told apart without being compared.
	lengths uint64
}

type shapeMember struct {
	key    string
	folded string // jsonread.Fold(key)
	shape  uint8
}

// member returns the shape of the value of the member whose key sc just read.
func (sh *keyShape) member(sc *jsonread.Scanner) uint8 {
	if len(sh.members) == 0 {
		return sh.every
	}
	if n := len(sc.Raw()) - 2; sc.Plain() && n < 64 && sh.lengths&(1<<n) == 0 {
		// A plain key is its bytes, and under case folding as long as they are.
		return sh.every
	}
	// The key as its object compares it: folded in the protocol's objects.
	key := sc.ComparedKey()
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
			m.folded = string(jsonread.Fold([]byte(m.key)))
			if len(m.key) < 64 {
				t[i].lengths |= 1 << len(m.key)
			}
		}
	}
	return t
}()

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
