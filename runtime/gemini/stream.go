package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wire"
	"github.com/toolgen/toolgen/runtime/jsonread"
)

// Stream accumulates the chunks of a streamed response (streamGenerateContent with
// alt=sse), each a GenerateContentResponse, into the response they make together.
// Feed it every chunk, as ReadSSE does:
//
//	var s gemini.Stream
//	err := gemini.ReadSSE(resp.Body, s.Add)
//	calls, err := s.Calls()
//
// Function calls arrive whole, each in a part; the parts of the first candidate are
// kept in order and unchanged, thought signatures included. The stream ends with a
// chunk carrying a finishReason: Calls and Response answer only once it has come, so
// that a cut-off stream is an error, never a partial turn. The zero Stream is ready to
// use; a Stream is not safe for concurrent use.
type Stream struct {
	// Limits bound what the stream holds: its MaxArgumentBytes, the args of one
	// functionCall (runtime.DefaultMaxArgumentBytes when zero). The other fields are
	// for Limits.ReadSSE.
	Limits Limits

	response  map[string]json.RawMessage // top-level fields but candidates, later chunks winning
	candidate map[string]json.RawMessage // fields of candidates[0] but content
	content   map[string]json.RawMessage // fields of candidates[0].content but parts
	parts     []json.RawMessage          // copies of the parts kept, sharing the blocks of slab
	slab      []byte                     // the block the next part kept goes into
	text      strings.Builder            // the text of the parts that are not thoughts, in order
	finished  bool
	chunks    int
	err       error // the first error, sticky

	// scratch for reading one chunk, emptied after each: the members of the chunk,
	// of its candidate and of its content, and an order to find repeated keys in.
	mTop, mCand, mContent []member
	order                 []int
}

// Add adds one chunk: its JSON data (the SSE event name is ignored). It returns an
// error for data that is not a response object, for an error chunk and for a
// functionCall whose args pass Limits.MaxArgumentBytes; the Stream then keeps that
// error. The Stream keeps copies of what it needs of data, never data itself.
func (s *Stream) Add(event, data []byte) error {
	if s.err != nil {
		return s.err
	}
	s.err = s.add(data)
	clear(s.mTop)
	clear(s.mCand)
	clear(s.mContent) // they point into data
	s.mTop, s.mCand, s.mContent = s.mTop[:0], s.mCand[:0], s.mContent[:0]
	return s.err
}

// add reads a chunk in one pass over each level, once jsonread.Valid has checked it
// (as json.Valid would, and the levels are then found with jsonread's loose skips): the
// members of the chunk, of its first candidate and of that candidate's content are
// found where they are in data, and each part is read once, as decoding it into maps
// and structs would read it (encoding/json: the last of a repeated key wins in a map;
// a struct field takes each value in turn, its key matched without regard to case).
// A chunk that is not valid JSON, or whose levels do not have the types they must,
// is an error, worded by chunkError.
func (s *Stream) add(data []byte) error {
	s.chunks++
	i := jsonread.SkipSpace(data, 0)
	if !jsonread.Valid(data, jsonread.StdMaxDepth) || data[i] != '{' {
		return chunkError(data, s.chunks)
	}
	s.mTop, _ = members(data, i, s.mTop)
	s.mTop = lastOfEach(s.mTop, &s.order)
	candidates := valueOf(s.mTop, "candidates")
	if v := valueOf(s.mTop, "error"); v != nil && !isNull(v) || candidates != nil && !isNull(candidates) && candidates[0] != '[' {
		return chunkError(data, s.chunks)
	}
	if s.response == nil {
		s.response = map[string]json.RawMessage{}
		s.candidate = map[string]json.RawMessage{}
		s.content = map[string]json.RawMessage{}
	}
	merge(s.response, s.mTop, "candidates")
	if candidates == nil || isNull(candidates) {
		return nil
	}
	j := jsonread.SkipSpace(candidates, 1)
	if candidates[j] == ']' {
		return nil
	}
	if candidates[j] != '{' {
		return chunkError(data, s.chunks)
	}
	s.mCand, _ = members(candidates, j, s.mCand)
	s.mCand = lastOfEach(s.mCand, &s.order)
	content := valueOf(s.mCand, "content")
	if content != nil && !isNull(content) && content[0] != '{' {
		return chunkError(data, s.chunks)
	}
	merge(s.candidate, s.mCand, "content")
	if finish := valueOf(s.mCand, "finishReason"); finish != nil && finish[0] == '"' {
		if f := unquote(finish); len(f) > 0 && string(f) != "FINISH_REASON_UNSPECIFIED" {
			s.finished = true
		}
	}
	if content == nil || isNull(content) {
		return nil
	}
	s.mContent, _ = members(content, 0, s.mContent)
	s.mContent = lastOfEach(s.mContent, &s.order)
	parts := valueOf(s.mContent, "parts")
	if parts != nil && !isNull(parts) && parts[0] != '[' {
		return chunkError(data, s.chunks)
	}
	merge(s.content, s.mContent, "parts")
	if parts == nil || isNull(parts) {
		return nil
	}
	i, n := jsonread.SkipSpace(parts, 1), 0
	for parts[i] != ']' {
		end := jsonread.SkipLoose(parts, i)
		if err := s.addPart(parts[i:end], n); err != nil {
			return err
		}
		i, n = jsonread.SkipSpace(parts, end), n+1
		if parts[i] == ',' {
			i = jsonread.SkipSpace(parts, i+1)
		}
	}
	return nil
}

// addPart adds part n of the chunk: it checks the args of a functionCall, keeps the
// part unless it is {"text":""} alone, and adds its text unless it is a thought.
func (s *Stream) addPart(part []byte, n int) error {
	p := readPart(part)
	if p.call {
		size, limit := len(p.args), wire.ArgumentBytes(s.Limits.MaxArgumentBytes)
		if size > limit {
			var compact bytes.Buffer
			if json.Compact(&compact, p.args) == nil {
				size = compact.Len() // as Calls gives the args
			}
		}
		if size > limit {
			what := fmt.Sprintf("functionCall %s (part %d of stream chunk %d)", unquote(p.name), n, s.chunks)
			return wire.CheckArguments(what, 0, size, s.Limits.MaxArgumentBytes)
		}
	}
	if p.empty {
		return nil
	}
	s.parts = append(s.parts, s.keep(part))
	if p.text != nil {
		s.text.Write(unquote(p.text))
	}
	return nil
}

// partInfo is what a Stream reads of a part.
type partInfo struct {
	text       []byte // the JSON string of a text that is not a thought, or nil
	empty      bool   // {"text":""} and nothing else: a streamed turn may end with one
	call       bool   // a functionCall whose args are to be checked
	name, args []byte // its name (a JSON string, or nil) and args, as they came
}

// readPart reads a part as decoding it would: into a map, to find {"text":""} (or
// {"text":null}) alone, which carries nothing to send back, while a part with an
// empty text and a thought signature is kept; into a struct of text and thought, for
// the text of a part that is not a thought (none when either field has another type);
// into a struct of functionCall name and args, whose args are checked unless a field
// has another type.
func readPart(part []byte) partInfo {
	var p partInfo
	if part[0] != '{' {
		return p // no text, no call: kept as it is
	}
	var text []byte
	textErr, thought := false, false
	onlyText, lastText := true, []byte(nil)
	call, callErr := false, false
	forEachMember(part, func(key, v []byte) {
		if string(key) == "text" {
			lastText = v
		} else {
			onlyText = false
		}
		switch {
		case fieldIs(key, "text"):
			switch v[0] {
			case '"':
				text = v
			case 'n':
			default:
				textErr = true
			}
		case fieldIs(key, "thought"):
			switch v[0] {
			case 't':
				thought = true
			case 'f':
				thought = false
			case 'n':
			default:
				textErr = true
			}
		case fieldIs(key, "functionCall"):
			switch v[0] {
			case 'n': // null sets the pointer back to nil
				call, p.name, p.args = false, nil, nil
			case '{':
				call = true
				forEachMember(v, func(key, v []byte) {
					switch {
					case fieldIs(key, "name"):
						switch v[0] {
						case '"':
							p.name = v
						case 'n':
						default:
							callErr = true
						}
					case fieldIs(key, "args"):
						p.args = v // a json.RawMessage takes any value, null too
					}
				})
			default:
				callErr = true
			}
		}
	})
	p.call = call && !callErr
	if !textErr && !thought {
		p.text = text
	}
	p.empty = onlyText && lastText != nil && (string(lastText) == `""` || string(lastText) == "null")
	return p
}

// fieldIs reports whether key names the struct field of JSON name name, as
// encoding/json matches them: exactly, or else without regard to case.
func fieldIs(key []byte, name string) bool {
	return string(key) == name || bytes.EqualFold(key, []byte(name))
}

// keep returns a copy of part. Parts share blocks of up to 32 KiB, which they keep
// alive no longer than the Stream, as they are all kept; a large part has its own.
func (s *Stream) keep(part []byte) json.RawMessage {
	const minBlock, maxBlock = 512, 32 << 10
	if len(part) > maxBlock/8 {
		return bytes.Clone(part)
	}
	if cap(s.slab)-len(s.slab) < len(part) {
		size := min(max(2*cap(s.slab), minBlock), maxBlock)
		s.slab = make([]byte, 0, size)
	}
	n := len(s.slab)
	s.slab = append(s.slab, part...)
	return json.RawMessage(s.slab[n:len(s.slab):len(s.slab)])
}

// chunkError returns the error of a chunk that add cannot read, worded as decoding it
// level by level words it.
func chunkError(data []byte, n int) error {
	chunk, err := wire.DecodeObject(data, fmt.Sprintf("stream chunk %d", n))
	if err != nil {
		return err
	}
	if err := errorOf(chunk["error"]); err != nil {
		return err
	}
	candidates, err := wire.DecodeArray(chunk, "candidates", fmt.Sprintf("stream chunk %d", n))
	if err != nil {
		return err
	}
	if len(candidates) > 0 {
		cand, err := wire.DecodeObject(candidates[0], fmt.Sprintf("candidates[0] of stream chunk %d", n))
		if err != nil {
			return err
		}
		if content := cand["content"]; !wire.IsNull(content) {
			c, err := wire.DecodeObject(content, fmt.Sprintf("the content of stream chunk %d", n))
			if err != nil {
				return err
			}
			if _, err := wire.DecodeArray(c, "parts", fmt.Sprintf("the content of stream chunk %d", n)); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("stream chunk %d cannot be read", n) // not reached
}

// A member is a member of a JSON object: its key, unescaped, and its value as it came.
type member struct{ key, value []byte }

// members appends the members of the object at data[i] to ms, in order, and returns
// them and the index after the object. data is valid JSON.
func members(data []byte, i int, ms []member) ([]member, int) {
	i = jsonread.SkipSpace(data, i+1)
	for data[i] != '}' {
		end := jsonread.SkipLooseString(data, i)
		key := unquote(data[i:end])
		i = jsonread.SkipSpace(data, jsonread.SkipSpace(data, end)+1) // past the colon
		end = jsonread.SkipLoose(data, i)
		ms = append(ms, member{key, data[i:end]})
		if i = jsonread.SkipSpace(data, end); data[i] == ',' {
			i = jsonread.SkipSpace(data, i+1)
		}
	}
	return ms, i + 1
}

// forEachMember calls fn with the members of the valid JSON object obj, in order.
func forEachMember(obj []byte, fn func(key, value []byte)) {
	i := jsonread.SkipSpace(obj, 1)
	for obj[i] != '}' {
		end := jsonread.SkipLooseString(obj, i)
		key := unquote(obj[i:end])
		i = jsonread.SkipSpace(obj, jsonread.SkipSpace(obj, end)+1)
		end = jsonread.SkipLoose(obj, i)
		fn(key, obj[i:end])
		if i = jsonread.SkipSpace(obj, end); obj[i] == ',' {
			i = jsonread.SkipSpace(obj, i+1)
		}
	}
}

// lastOfEach drops the members whose key comes again later, as decoding into a map
// does, keeping the order of the others; order is scratch.
func lastOfEach(ms []member, order *[]int) []member {
	if len(ms) < 2 {
		return ms
	}
	if len(ms) <= 16 {
		out := ms[:0]
	next:
		for i, m := range ms {
			for _, later := range ms[i+1:] {
				if bytes.Equal(m.key, later.key) {
					continue next
				}
			}
			out = append(out, m)
		}
		clear(ms[len(out):])
		return out
	}
	o := (*order)[:0]
	for i := range ms {
		o = append(o, i)
	}
	slices.SortStableFunc(o, func(a, b int) int { return bytes.Compare(ms[a].key, ms[b].key) })
	for k := 0; k+1 < len(o); k++ {
		if bytes.Equal(ms[o[k]].key, ms[o[k+1]].key) {
			ms[o[k]].value = nil // a later one wins
		}
	}
	*order = o
	out := ms[:0]
	for _, m := range ms {
		if m.value != nil {
			out = append(out, m)
		}
	}
	clear(ms[len(out):])
	return out
}

// valueOf returns the value of the member of ms with key, or nil.
func valueOf(ms []member, key string) []byte {
	for _, m := range ms {
		if string(m.key) == key {
			return m.value
		}
	}
	return nil
}

// merge sets the members of ms that are not null in dst, but the one keyed skip, as
// wire.Merge does, copying their values; a value that has not changed is not copied
// again.
func merge(dst map[string]json.RawMessage, ms []member, skip string) {
	for _, m := range ms {
		if string(m.key) == skip || isNull(m.value) {
			continue
		}
		if old, ok := dst[string(m.key)]; ok && bytes.Equal(old, m.value) {
			continue
		}
		dst[string(m.key)] = bytes.Clone(m.value)
	}
}

// isNull reports whether a value, as it came, is null.
func isNull(v []byte) bool { return string(v) == "null" }

// unquote returns the text of the JSON string s, quotes included, as decoding it into
// a string gives it (escapes read, invalid UTF-8 replaced); nil for nil.
func unquote(s []byte) []byte {
	if s == nil {
		return nil
	}
	var buf []byte
	t, _, _ := jsonread.ReadString(s, 0, &buf) // s is a valid JSON string
	return t
}

// Text returns the text the model has written so far: the text parts of the first
// candidate, thoughts left out, in the order they came.
func (s *Stream) Text() string { return s.text.String() }

// Done reports whether the stream is complete: a chunk with a finishReason came.
func (s *Stream) Done() bool { return s.finished && s.err == nil }

// Err returns the error that stopped the stream, or nil.
func (s *Stream) Err() error { return s.err }

// Response returns the streamed response as one generateContent response body: the
// last value of each top-level field (usageMetadata, modelVersion, ...) and one
// candidate whose content holds the parts of every chunk in order. It fails for a
// stream cut off before its finishReason, or whose prompt was blocked.
func (s *Stream) Response() ([]byte, error) {
	if err := s.complete(); err != nil {
		return nil, err
	}
	return s.body(), nil
}

// Calls returns the function calls of the streamed turn, in order, as Calls reads
// them from a whole response. An incomplete stream is an error.
func (s *Stream) Calls() ([]runtime.ToolCall, error) {
	if err := s.complete(); err != nil {
		return nil, err
	}
	if calls, ok := s.calls(); ok {
		return calls, nil
	}
	return Calls(s.body())
}

// calls returns the calls of a complete stream as Calls reads them from its
// response, when reading them needs no more than its parts and its finishReason and
// is no error; otherwise ok is false, and Calls is to read them.
func (s *Stream) calls() (calls []runtime.ToolCall, ok bool) {
	var finish struct {
		FinishReason string `json:"finishReason"`
	}
	_ = json.Unmarshal(appendObject(nil, s.candidate, "", nil), &finish)
	switch finish.FinishReason {
	case "MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL":
		return nil, false
	}
	for _, p := range s.parts {
		call, has, ok := readCallPart(p)
		if !ok {
			return nil, false
		}
		if has {
			calls = append(calls, call)
		}
	}
	if wire.UniqueIDs(calls) != nil || cut(finish.FinishReason, calls) != nil {
		return nil, false
	}
	return calls, true
}

// readCallPart reads the call of a part as Calls does: the last value of a key that
// names functionCall, decoded as a functionCall. has is false for a part without a
// call; ok is false for a part Calls would refuse, or that readCallPart leaves to it.
func readCallPart(part []byte) (call runtime.ToolCall, has, ok bool) {
	if part[0] != '{' {
		return call, false, string(part) == "null"
	}
	var fc []byte
	forEachMember(part, func(key, v []byte) {
		if fieldIs(key, "functionCall") {
			fc = v
		}
	})
	if fc == nil || isNull(fc) {
		return call, false, true
	}
	if fc[0] != '{' {
		return call, false, false
	}
	var name, id, args, partial []byte
	more, typeErr := false, false
	str := func(dst *[]byte, v []byte) {
		switch v[0] {
		case '"':
			*dst = v
		case 'n':
		default:
			typeErr = true
		}
	}
	forEachMember(fc, func(key, v []byte) {
		switch {
		case fieldIs(key, "id"):
			str(&id, v)
		case fieldIs(key, "name"):
			str(&name, v)
		case fieldIs(key, "args"):
			args = v
		case fieldIs(key, "partialArgs"):
			partial = v
		case fieldIs(key, "willContinue"):
			switch v[0] {
			case 't':
				more = true
			case 'f', 'n':
				more = false
			default:
				typeErr = true
			}
		}
	})
	call.Name = string(unquote(name))
	if typeErr || call.Name == "" || partial != nil && !isNull(partial) || more {
		return call, false, false // an error of Calls
	}
	call.ID = string(unquote(id))
	if args == nil || isNull(args) {
		call.Arguments = json.RawMessage(`{}`)
	} else {
		call.Arguments = appendCompact(nil, args)
	}
	return call, true, true
}

// complete returns the error of a stream that is not a complete turn, or nil.
func (s *Stream) complete() error {
	if s.err != nil {
		return s.err
	}
	if s.response != nil {
		if err := blocked(s.response); err != nil {
			return err
		}
	}
	if !s.finished {
		return fmt.Errorf("the stream ended without a finishReason, after %d chunks: the turn is incomplete", s.chunks)
	}
	return nil
}

// body writes the response as wire.Marshal writes its fields in maps: keys sorted,
// values compacted.
func (s *Stream) body() []byte {
	var content []byte
	if len(s.parts) > 0 || len(s.content) > 0 {
		size := 2
		for _, p := range s.parts {
			size += len(p) + 1
		}
		parts := make([]byte, 0, size)
		parts = append(parts, '[')
		for i, p := range s.parts {
			if i > 0 {
				parts = append(parts, ',')
			}
			parts = appendCompact(parts, p)
		}
		parts = append(parts, ']')
		content = appendObject(make([]byte, 0, len(parts)+64), s.content, "parts", parts)
	}
	var cand []byte
	if content != nil {
		cand = appendObject(make([]byte, 0, len(content)+256), s.candidate, "content", content)
	} else {
		cand = appendObject(nil, s.candidate, "", nil)
	}
	candidates := make([]byte, 0, len(cand)+2)
	candidates = append(append(append(candidates, '['), cand...), ']')
	return appendObject(make([]byte, 0, len(candidates)+256), s.response, "candidates", candidates)
}

// appendObject appends the object of the fields, and of key with value when value is
// not nil, its keys sorted and its values compacted, as wire.Marshal writes a
// map[string]json.RawMessage.
func appendObject(buf []byte, fields map[string]json.RawMessage, key string, value []byte) []byte {
	keys := make([]string, 0, len(fields)+1)
	for k := range fields {
		if value == nil || k != key {
			keys = append(keys, k)
		}
	}
	if value != nil {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	buf = append(buf, '{')
	for i, k := range keys {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendKey(buf, k)
		buf = append(buf, ':')
		if value != nil && k == key {
			buf = append(buf, value...) // written compact
		} else {
			buf = appendCompact(buf, fields[k])
		}
	}
	return append(buf, '}')
}

// appendKey appends the JSON string of a key as wire.Marshal writes it.
func appendKey(buf []byte, k string) []byte {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < ' ' || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			enc, _ := wire.Marshal(k)
			return append(buf, enc...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, k...)
	return append(buf, '"')
}

// appendCompact appends the valid JSON v compacted, as wire.Marshal writes a
// json.RawMessage.
func appendCompact(buf []byte, v []byte) []byte {
	if !hasSpace(v) {
		return append(buf, v...)
	}
	b := bytes.NewBuffer(buf)
	_ = json.Compact(b, v) // v is valid
	return b.Bytes()
}

// hasSpace reports whether the valid JSON v has white space outside its strings.
func hasSpace(v []byte) bool {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case ' ', '\t', '\n', '\r':
			return true
		case '"':
			i = jsonread.SkipLooseString(v, i) - 1
		}
	}
	return false
}
