package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wire"
	"github.com/toolgen/toolgen/runtime/jsonread"
)

// Stream accumulates the server-sent events of a streamed Messages response
// ("stream": true) into the message they describe. Feed it every event, as ReadSSE
// does:
//
//	var s anthropic.Stream
//	err := anthropic.ReadSSE(resp.Body, s.Add)
//	calls, err := s.Calls()
//
// Calls and Response answer only for a complete stream: one cut off before
// message_stop, or inside a tool_use block, is an error naming what is missing, never
// a half call. The zero Stream is ready to use; a Stream is not safe for concurrent
// use.
type Stream struct {
	// Limits bound what the stream holds: its MaxArgumentBytes, the input of one
	// content block (runtime.DefaultMaxArgumentBytes when zero). The other fields are
	// for Limits.ReadSSE.
	Limits Limits

	message map[string]json.RawMessage // from message_start, updated by message_delta
	usage   map[string]json.RawMessage // the message's usage, updated by message_delta
	blocks  []*streamBlock
	text    strings.Builder // every text_delta, in the order they came
	stopped bool            // message_stop arrived
	events  int
	err     error // the first error, sticky
}

// streamBlock is one content block being assembled.
type streamBlock struct {
	fields    map[string]json.RawMessage // from content_block_start
	typ       string
	text      []byte // text_delta
	thinking  []byte // thinking_delta
	signature []byte // signature_delta
	input     []byte // input_json_delta, joined
	citations []json.RawMessage
	stopped   bool
}

// streamEvent is the data of one stream event.
type streamEvent struct {
	Type         string          `json:"type"`
	Index        *int            `json:"index"`
	Message      json.RawMessage `json:"message"`
	ContentBlock json.RawMessage `json:"content_block"`
	Delta        json.RawMessage `json:"delta"`
	Usage        json.RawMessage `json:"usage"`
	Error        json.RawMessage `json:"error"`
}

// streamDelta is the delta of a content_block_delta event.
type streamDelta struct {
	Type        string          `json:"type"`
	Text        string          `json:"text"`
	PartialJSON string          `json:"partial_json"`
	Thinking    string          `json:"thinking"`
	Signature   string          `json:"signature"`
	Citation    json.RawMessage `json:"citation"`
}

// Add adds one event: its name (the SSE event field, used when the data has no
// "type") and its JSON data. It returns an error for data that is not an event, for
// events out of order, for an error event and for a block's input over
// Limits.MaxArgumentBytes; the Stream then keeps that error. Ping events and events of
// unknown types are ignored.
func (s *Stream) Add(event, data []byte) error {
	if s.err != nil {
		return s.err
	}
	s.err = s.add(event, data)
	return s.err
}

func (s *Stream) add(name, data []byte) error {
	s.events++
	var ev streamEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return fmt.Errorf("stream event %d is not a JSON event: %w", s.events, err)
	}
	if ev.Type == "" {
		ev.Type = string(name)
	}
	if s.stopped && ev.Type != "ping" {
		return fmt.Errorf("stream event %d (%s) came after message_stop", s.events, ev.Type)
	}
	switch ev.Type {
	case "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop":
		if s.message == nil {
			return fmt.Errorf("stream event %d (%s) came before message_start", s.events, ev.Type)
		}
	}
	switch ev.Type {
	case "error":
		return errorOf(ev.Error)
	case "message_start":
		if s.message != nil {
			return fmt.Errorf("stream event %d is a second message_start", s.events)
		}
		msg, err := wire.DecodeObject(ev.Message, "the message of message_start")
		if err != nil {
			return err
		}
		s.message, s.usage = msg, map[string]json.RawMessage{}
		_ = json.Unmarshal(msg["usage"], &s.usage) // one that is not an object stays as it is, unless a delta brings usage
		if s.usage == nil {
			s.usage = map[string]json.RawMessage{}
		}
	case "content_block_start":
		if ev.Index == nil || *ev.Index != len(s.blocks) {
			return fmt.Errorf("content_block_start for block %s, want block %d", indexText(ev.Index), len(s.blocks))
		}
		fields, err := wire.DecodeObject(ev.ContentBlock, fmt.Sprintf("the content_block of block %d", len(s.blocks)))
		if err != nil {
			return err
		}
		s.blocks = append(s.blocks, &streamBlock{fields: fields, typ: typeOf(fields)})
	case "content_block_delta":
		b, err := s.block(ev)
		if err != nil {
			return err
		}
		var d streamDelta
		if err := json.Unmarshal(ev.Delta, &d); err != nil {
			return fmt.Errorf("the delta of block %d is not a delta object: %w", *ev.Index, err)
		}
		switch d.Type {
		case "text_delta":
			b.text = append(b.text, d.Text...)
			s.text.WriteString(d.Text)
		case "input_json_delta":
			if err := wire.CheckArguments(b.describe(*ev.Index), len(b.input), len(d.PartialJSON), s.Limits.MaxArgumentBytes); err != nil {
				return err
			}
			b.input = append(b.input, d.PartialJSON...)
		case "thinking_delta":
			b.thinking = append(b.thinking, d.Thinking...)
		case "signature_delta":
			b.signature = append(b.signature, d.Signature...)
		case "citations_delta":
			b.citations = append(b.citations, d.Citation)
		}
	case "content_block_stop":
		b, err := s.block(ev)
		if err != nil {
			return err
		}
		b.stopped = true
		if len(bytes.TrimSpace(b.input)) > 0 && !jsonread.Valid(b.input, jsonread.StdMaxDepth) {
			return fmt.Errorf("the input of %s is not complete JSON: %.80q", b.describe(*ev.Index), b.input)
		}
	case "message_delta":
		var delta map[string]json.RawMessage
		if !wire.IsNull(ev.Delta) {
			var err error
			if delta, err = wire.DecodeObject(ev.Delta, "the delta of message_delta"); err != nil {
				return err
			}
		}
		delete(delta, "usage")
		wire.Merge(s.message, delta)
		if !wire.IsNull(ev.Usage) {
			usage, err := wire.DecodeObject(ev.Usage, "the usage of message_delta")
			if err != nil {
				return err
			}
			wire.Merge(s.usage, usage) // encoded once, by Response
		}
	case "message_stop":
		s.stopped = true
	}
	return nil
}

// block returns the started, not yet stopped block an event addresses.
func (s *Stream) block(ev streamEvent) (*streamBlock, error) {
	if ev.Index == nil || *ev.Index < 0 || *ev.Index >= len(s.blocks) {
		return nil, fmt.Errorf("%s for block %s, but %d blocks have started", ev.Type, indexText(ev.Index), len(s.blocks))
	}
	b := s.blocks[*ev.Index]
	if b.stopped {
		return nil, fmt.Errorf("%s for %s, which has stopped", ev.Type, b.describe(*ev.Index))
	}
	return b, nil
}

func indexText(i *int) string {
	if i == nil {
		return "without an index"
	}
	return fmt.Sprint(*i)
}

// describe names a block in errors: "tool_use block 1 (get_weather, toolu_01...)".
func (b *streamBlock) describe(index int) string {
	var id, name string
	_ = json.Unmarshal(b.fields["id"], &id)
	_ = json.Unmarshal(b.fields["name"], &name)
	if name != "" || id != "" {
		return fmt.Sprintf("%s block %d (%s, %s)", b.typ, index, name, id)
	}
	return fmt.Sprintf("%s block %d", b.typ, index)
}

// Text returns the text the model has written so far: the text_delta pieces of its
// text blocks, in the order they came (thinking left out).
func (s *Stream) Text() string { return s.text.String() }

// Done reports whether the stream is complete: message_stop arrived.
func (s *Stream) Done() bool { return s.stopped && s.err == nil }

// Err returns the error that stopped the stream, or nil.
func (s *Stream) Err() error { return s.err }

// Response returns the message the stream describes as a Messages response body, as
// the API would have answered without streaming: the message of message_start with
// its content blocks assembled from their deltas and the fields of message_delta
// applied. It fails for an incomplete stream, naming what is missing.
func (s *Stream) Response() ([]byte, error) {
	if err := s.complete(); err != nil {
		return nil, err
	}
	content := make([]json.RawMessage, len(s.blocks))
	for i, b := range s.blocks {
		raw, err := b.assemble()
		if err != nil {
			return nil, err
		}
		content[i] = raw
	}
	msg := make(map[string]json.RawMessage, len(s.message)+1)
	for k, v := range s.message {
		msg[k] = v
	}
	var err error
	if msg["content"], err = wire.Marshal(content); err != nil {
		return nil, err
	}
	if len(s.usage) > 0 {
		if msg["usage"], err = wire.Marshal(s.usage); err != nil {
			return nil, err
		}
	}
	return wire.Marshal(msg)
}

// complete returns an error naming what an unfinished stream lacks.
func (s *Stream) complete() error {
	if s.err != nil {
		return s.err
	}
	if s.message == nil {
		return errors.New("the stream ended before message_start")
	}
	for i, b := range s.blocks {
		if !b.stopped {
			if b.typ == "tool_use" {
				return fmt.Errorf("the stream ended inside %s: no content_block_stop, its input is incomplete", b.describe(i))
			}
			return fmt.Errorf("the stream ended inside %s: no content_block_stop", b.describe(i))
		}
	}
	if !s.stopped {
		return errors.New("the stream ended without message_stop")
	}
	return nil
}

// assemble returns the block with its deltas applied.
func (b *streamBlock) assemble() (json.RawMessage, error) {
	fields := make(map[string]json.RawMessage, len(b.fields))
	for k, v := range b.fields {
		fields[k] = v
	}
	appendString := func(key string, more []byte) error {
		if len(more) == 0 {
			return nil
		}
		var s string
		_ = json.Unmarshal(fields[key], &s)
		raw, err := wire.Marshal(s + string(more))
		fields[key] = raw
		return err
	}
	if err := appendString("text", b.text); err != nil {
		return nil, err
	}
	if err := appendString("thinking", b.thinking); err != nil {
		return nil, err
	}
	if err := appendString("signature", b.signature); err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(b.input)) > 0 {
		fields["input"] = json.RawMessage(b.input)
	}
	if len(b.citations) > 0 {
		var citations []json.RawMessage
		_ = json.Unmarshal(fields["citations"], &citations)
		raw, err := wire.Marshal(append(citations, b.citations...))
		if err != nil {
			return nil, err
		}
		fields["citations"] = raw
	}
	return wire.Marshal(fields)
}

// Calls returns the tool calls of the streamed message, in order, as Calls reads them
// from the whole message. An incomplete stream is an error.
func (s *Stream) Calls() ([]runtime.ToolCall, error) {
	body, err := s.Response()
	if err != nil {
		return nil, err
	}
	return Calls(body)
}
