package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wire"
)

// referenceStream is Stream as it was before Add read each chunk in one pass: each
// chunk decoded into maps level by level, each part three more times. FuzzStream
// checks that Stream answers as it does.
type referenceStream struct {
	Limits Limits

	response  map[string]json.RawMessage
	candidate map[string]json.RawMessage
	content   map[string]json.RawMessage
	parts     []json.RawMessage
	text      strings.Builder
	finished  bool
	chunks    int
	err       error
}

// Add adds one chunk: its JSON data (the SSE event name is ignored). It returns an
// error for data that is not a response object, for an error chunk and for a
// functionCall whose args pass Limits.MaxArgumentBytes; the Stream then keeps that
// error.
func (s *referenceStream) Add(event, data []byte) error {
	if s.err != nil {
		return s.err
	}
	s.err = s.add(data)
	return s.err
}

func (s *referenceStream) add(data []byte) error {
	s.chunks++
	chunk, err := wire.DecodeObject(data, fmt.Sprintf("stream chunk %d", s.chunks))
	if err != nil {
		return err
	}
	if err := errorOf(chunk["error"]); err != nil {
		return err
	}
	if s.response == nil {
		s.response = map[string]json.RawMessage{}
		s.candidate = map[string]json.RawMessage{}
		s.content = map[string]json.RawMessage{}
	}
	candidates, err := wire.DecodeArray(chunk, "candidates", fmt.Sprintf("stream chunk %d", s.chunks))
	if err != nil {
		return err
	}
	delete(chunk, "candidates")
	wire.Merge(s.response, chunk)
	if len(candidates) == 0 {
		return nil
	}
	cand, err := wire.DecodeObject(candidates[0], fmt.Sprintf("candidates[0] of stream chunk %d", s.chunks))
	if err != nil {
		return err
	}
	content := cand["content"]
	delete(cand, "content")
	wire.Merge(s.candidate, cand)
	var finish string
	_ = json.Unmarshal(cand["finishReason"], &finish)
	if finish != "" && finish != "FINISH_REASON_UNSPECIFIED" {
		s.finished = true
	}
	if wire.IsNull(content) {
		return nil
	}
	c, err := wire.DecodeObject(content, fmt.Sprintf("the content of stream chunk %d", s.chunks))
	if err != nil {
		return err
	}
	parts, err := wire.DecodeArray(c, "parts", fmt.Sprintf("the content of stream chunk %d", s.chunks))
	if err != nil {
		return err
	}
	delete(c, "parts")
	wire.Merge(s.content, c)
	for i, p := range parts {
		if err := s.refCheckArgs(p, i); err != nil {
			return err
		}
		if !refEmptyText(p) {
			s.parts = append(s.parts, p)
			s.text.WriteString(refPartText(p))
		}
	}
	return nil
}

// refCheckArgs returns an error when a part is a functionCall whose args pass
// Limits.MaxArgumentBytes.
func (s *referenceStream) refCheckArgs(part json.RawMessage, i int) error {
	var p struct {
		FunctionCall *struct {
			Name string          `json:"name"`
			Args json.RawMessage `json:"args"`
		} `json:"functionCall"`
	}
	if json.Unmarshal(part, &p) != nil || p.FunctionCall == nil {
		return nil
	}
	n := len(p.FunctionCall.Args)
	if n > wire.ArgumentBytes(s.Limits.MaxArgumentBytes) {
		var compact bytes.Buffer
		if json.Compact(&compact, p.FunctionCall.Args) == nil {
			n = compact.Len() // as Calls gives the args
		}
	}
	what := fmt.Sprintf("functionCall %s (part %d of stream chunk %d)", p.FunctionCall.Name, i, s.chunks)
	return wire.CheckArguments(what, 0, n, s.Limits.MaxArgumentBytes)
}

// refEmptyText reports whether a part is {"text":""} and nothing else: a streamed turn
// may end with one, and it carries nothing to send back. A part with an empty text
// and a thought signature is kept.
func refEmptyText(part json.RawMessage) bool {
	var p map[string]json.RawMessage
	if json.Unmarshal(part, &p) != nil || len(p) != 1 {
		return false
	}
	var text string
	raw, ok := p["text"]
	return ok && json.Unmarshal(raw, &text) == nil && text == ""
}

// refPartText returns the text of a part that is text and not a thought, or "".
func refPartText(part json.RawMessage) string {
	var p struct {
		Text    string `json:"text"`
		Thought bool   `json:"thought"`
	}
	if json.Unmarshal(part, &p) != nil || p.Thought {
		return ""
	}
	return p.Text
}

// Text returns the text the model has written so far: the text parts of the first
// candidate, thoughts left out, in the order they came.
func (s *referenceStream) Text() string { return s.text.String() }

// Done reports whether the stream is complete: a chunk with a finishReason came.
func (s *referenceStream) Done() bool { return s.finished && s.err == nil }

// Err returns the error that stopped the stream, or nil.
func (s *referenceStream) Err() error { return s.err }

// Response returns the streamed response as one generateContent response body: the
// last value of each top-level field (usageMetadata, modelVersion, ...) and one
// candidate whose content holds the parts of every chunk in order. It fails for a
// stream cut off before its finishReason, or whose prompt was blocked.
func (s *referenceStream) Response() ([]byte, error) {
	if s.err != nil {
		return nil, s.err
	}
	if s.response != nil {
		if err := blocked(s.response); err != nil {
			return nil, err
		}
	}
	if !s.finished {
		return nil, fmt.Errorf("the stream ended without a finishReason, after %d chunks: the turn is incomplete", s.chunks)
	}
	cand := make(map[string]json.RawMessage, len(s.candidate)+1)
	for k, v := range s.candidate {
		cand[k] = v
	}
	if len(s.parts) > 0 || len(s.content) > 0 {
		content := make(map[string]json.RawMessage, len(s.content)+1)
		for k, v := range s.content {
			content[k] = v
		}
		parts := s.parts
		if parts == nil {
			parts = []json.RawMessage{}
		}
		var err error
		if content["parts"], err = wire.Marshal(parts); err != nil {
			return nil, err
		}
		if cand["content"], err = wire.Marshal(content); err != nil {
			return nil, err
		}
	}
	resp := make(map[string]json.RawMessage, len(s.response)+1)
	for k, v := range s.response {
		resp[k] = v
	}
	candidates, err := wire.Marshal([]map[string]json.RawMessage{cand})
	if err != nil {
		return nil, err
	}
	resp["candidates"] = candidates
	return wire.Marshal(resp)
}

// Calls returns the function calls of the streamed turn, in order, as Calls reads
// them from a whole response. An incomplete stream is an error.
func (s *referenceStream) Calls() ([]runtime.ToolCall, error) {
	body, err := s.Response()
	if err != nil {
		return nil, err
	}
	return Calls(body)
}
