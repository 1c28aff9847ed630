package openai

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wire"
	"github.com/toolgen/toolgen/runtime/jsonread"
)

// isDone reports whether an SSE data payload is the "[DONE]" that ends a Chat
// Completions stream.
func isDone(data []byte) bool { return string(bytes.TrimSpace(data)) == "[DONE]" }

// ChatStream accumulates a streamed chat completion, chunk by chunk, into its text and
// its tool calls. Only the first choice (index 0) is kept. The zero ChatStream is ready
// to use; it is not safe for concurrent use.
type ChatStream struct {
	// Limits bound what the stream holds: its MaxArgumentBytes, the arguments of one
	// call (runtime.DefaultMaxArgumentBytes when zero). The other fields are for
	// Limits.ReadSSE.
	Limits Limits

	id      string
	model   string
	created int64
	content strings.Builder
	refusal strings.Builder
	calls   calls
	finish  string
	chunks  int
	err     error
}

// streamCall is a tool call being assembled from a stream.
type streamCall struct {
	index  int // Chat: the tool call's index; Responses: the item's output_index
	id     string
	itemID string // Responses: the item's id, which argument deltas name
	name   string
	custom bool // Responses: a custom_tool_call, whose input is free text
	args   strings.Builder
}

// calls are the calls of a stream, by index and, for Responses, by item id; found in
// constant time, so that many calls and deltas cost what their bytes cost.
type calls struct {
	byIndex map[int]*streamCall
	byItem  map[string]*streamCall
	last    *streamCall // of the highest index
}

// at returns the call at index, creating it.
func (cs *calls) at(index int) *streamCall {
	if c := cs.byIndex[index]; c != nil {
		return c
	}
	if cs.byIndex == nil {
		cs.byIndex = map[int]*streamCall{}
	}
	c := &streamCall{index: index}
	cs.byIndex[index] = c
	if cs.last == nil || index > cs.last.index {
		cs.last = c
	}
	return c
}

// setItem sets the item id of a call.
func (cs *calls) setItem(c *streamCall, itemID string) {
	if itemID == "" || itemID == c.itemID {
		return
	}
	if cs.byItem[c.itemID] == c {
		delete(cs.byItem, c.itemID)
	}
	if cs.byItem == nil {
		cs.byItem = map[string]*streamCall{}
	}
	c.itemID = itemID
	cs.byItem[itemID] = c
}

// sorted returns the calls in index order.
func (cs *calls) sorted() []*streamCall {
	out := make([]*streamCall, 0, len(cs.byIndex))
	for _, c := range cs.byIndex {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b *streamCall) int { return cmp.Compare(a.index, b.index) })
	return out
}

// write appends a piece of a call's arguments, or returns an error when they would
// pass limit.
func (c *streamCall) write(what string, piece string, limit int) error {
	if err := wire.CheckArguments(fmt.Sprintf("%s %d (%s, %s)", what, c.index, c.name, c.id), c.args.Len(), len(piece), limit); err != nil {
		return err
	}
	c.args.WriteString(piece)
	return nil
}

// set replaces a call's arguments, or returns an error when they pass limit.
func (c *streamCall) set(what string, args string, limit int) error {
	if err := wire.CheckArguments(fmt.Sprintf("%s %d (%s, %s)", what, c.index, c.name, c.id), 0, len(args), limit); err != nil {
		return err
	}
	c.args.Reset()
	c.args.WriteString(args)
	return nil
}

// chatChunk is the part of a chat.completion.chunk the accumulator reads.
type chatChunk struct {
	ID      string          `json:"id"`
	Object  string          `json:"object"`
	Created int64           `json:"created"`
	Model   string          `json:"model"`
	Error   json.RawMessage `json:"error"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content   *string `json:"content"`
			Refusal   *string `json:"refusal"`
			ToolCalls []struct {
				Index    *int   `json:"index"`
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
}

// Add adds one chunk: the payload of one SSE "data:" line, a chat.completion.chunk
// object. The "[DONE]" that ends the stream, and blank payloads, are ignored. Tool call
// fragments are merged by their index: the first carries the call's id and name, the
// next ones pieces of its arguments. An error chunk, a payload that is not JSON or a
// fragment that contradicts an earlier one is an error, which Calls reports again.
func (s *ChatStream) Add(data []byte) error {
	if s.err != nil {
		return s.err
	}
	if len(bytes.TrimSpace(data)) == 0 || isDone(data) {
		return nil
	}
	s.err = s.add(data)
	return s.err
}

func (s *ChatStream) add(data []byte) error {
	s.chunks++
	var c chatChunk
	if err := json.Unmarshal(data, &c); err != nil {
		return fmt.Errorf("chunk %d is not a chat.completion.chunk: %w", s.chunks, err)
	}
	if err := errorOf(c.Error); err != nil {
		return fmt.Errorf("chunk %d: %w", s.chunks, err)
	}
	if c.Object != "" && c.Object != "chat.completion.chunk" {
		return fmt.Errorf("chunk %d is a %q, not a chat.completion.chunk", s.chunks, c.Object)
	}
	if s.id == "" {
		s.id, s.model, s.created = c.ID, c.Model, c.Created
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue
		}
		if ch.Delta.Content != nil {
			s.content.WriteString(*ch.Delta.Content)
		}
		if ch.Delta.Refusal != nil {
			s.refusal.WriteString(*ch.Delta.Refusal)
		}
		for _, f := range ch.Delta.ToolCalls {
			if f.Type != "" && f.Type != "function" {
				return fmt.Errorf("chunk %d: tool call %s is of type %q, not function", s.chunks, f.ID, f.Type)
			}
			call := s.callFor(f.Index, f.ID)
			if err := merge(&call.id, f.ID, "id", call); err != nil {
				return fmt.Errorf("chunk %d: %w", s.chunks, err)
			}
			if err := merge(&call.name, f.Function.Name, "name", call); err != nil {
				return fmt.Errorf("chunk %d: %w", s.chunks, err)
			}
			if err := call.write("tool call", f.Function.Arguments, s.Limits.MaxArgumentBytes); err != nil {
				return fmt.Errorf("chunk %d: %w", s.chunks, err)
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			s.finish = *ch.FinishReason
		}
	}
	return nil
}

// callFor returns the call a fragment continues, creating it on its first fragment.
// A fragment without an index (sent by some compatible servers) starts a new call when
// it has a new id, and continues the last call otherwise.
func (s *ChatStream) callFor(index *int, id string) *streamCall {
	if index == nil {
		last := s.calls.last
		if last != nil && (id == "" || last.id == id) {
			return last
		}
		next := 0
		if last != nil {
			next = last.index + 1
		}
		index = &next
	}
	return s.calls.at(*index)
}

// merge sets *field to v on a call's first fragment; a later fragment may repeat it
// but not change it.
func merge(field *string, v, what string, call *streamCall) error {
	switch {
	case v == "" || v == *field:
	case *field == "":
		*field = v
	default:
		return fmt.Errorf("tool call %d changed its %s from %q to %q", call.index, what, *field, v)
	}
	return nil
}

// Text returns the message text streamed so far.
func (s *ChatStream) Text() string { return s.content.String() }

// FinishReason returns the first choice's finish_reason, or "" while the stream has not
// finished.
func (s *ChatStream) FinishReason() string { return s.finish }

// Calls returns the function calls of the finished stream, in order, with their
// arguments as JSON text. A stream that has not finished (no finish_reason yet: it was
// cut off, or is still running), one cut short with calls (finish_reason "length" or
// "content_filter"), a call missing its id or name, two calls with one id, or
// arguments that are not complete JSON are errors naming what is missing: Calls never
// returns half a call. Arguments over Limits.MaxArgumentBytes are an error as soon as
// they arrive, from Add.
func (s *ChatStream) Calls() ([]runtime.ToolCall, error) {
	if s.err != nil {
		return nil, s.err
	}
	if s.finish == "" {
		return nil, s.unfinished()
	}
	sorted := s.calls.sorted()
	calls := make([]runtime.ToolCall, 0, len(sorted))
	for _, c := range sorted {
		call, err := c.toolCall(fmt.Sprintf("tool call %d", c.index))
		if err != nil {
			return nil, err
		}
		calls = append(calls, call)
	}
	if err := chatCut(s.finish, calls); err != nil {
		return nil, err
	}
	if err := wire.UniqueIDs(calls); err != nil {
		return nil, fmt.Errorf("the chat completion's tool calls: %w", err)
	}
	return calls, nil
}

func (s *ChatStream) unfinished() error {
	msg := fmt.Sprintf("the chat completion stream ended before a finish_reason (%d chunks read)", s.chunks)
	if n := len(s.calls.byIndex); n > 0 {
		msg += fmt.Sprintf("; %d tool call(s) may be incomplete, the last one %s", n, s.calls.last.describe())
	}
	return errors.New(msg)
}

// toolCall returns the complete call, or an error naming what it lacks.
func (c *streamCall) toolCall(what string) (runtime.ToolCall, error) {
	switch {
	case c.id == "":
		return runtime.ToolCall{}, fmt.Errorf("%s has no id", what)
	case c.name == "":
		return runtime.ToolCall{}, fmt.Errorf("%s (%s) has no function name", what, c.id)
	}
	if c.custom {
		input, err := wire.Marshal(c.args.String())
		if err != nil {
			return runtime.ToolCall{}, err
		}
		return runtime.ToolCall{ID: c.id, Name: c.name, Arguments: customArguments(input)}, nil
	}
	args := arguments(c.args.String())
	if !jsonread.Valid(args, jsonread.StdMaxDepth) {
		return runtime.ToolCall{}, fmt.Errorf("the arguments of %s (%s, %s) are not complete JSON: %d bytes ending in %q",
			what, c.name, c.id, len(args), tail(args))
	}
	return runtime.ToolCall{ID: c.id, Name: c.name, Arguments: args}, nil
}

func (c *streamCall) describe() string {
	return fmt.Sprintf("%s (%s) with %d bytes of arguments", c.name, c.id, c.args.Len())
}

// tail returns the last bytes of b, to show where truncated arguments stop.
func tail(b []byte) string {
	const n = 24
	if len(b) > n {
		return "…" + string(b[len(b)-n:])
	}
	return string(b)
}

// Message returns the assistant message of the finished stream, as the chat completion
// would have held it: {"role":"assistant","content":..,"tool_calls":[..]}, to append to
// the conversation. It fails as Calls does.
func (s *ChatStream) Message() (json.RawMessage, error) {
	calls, err := s.Calls()
	if err != nil {
		return nil, err
	}
	type function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	type toolCall struct {
		ID       string   `json:"id"`
		Type     string   `json:"type"`
		Function function `json:"function"`
	}
	msg := struct {
		Role      string     `json:"role"`
		Content   *string    `json:"content"`
		Refusal   *string    `json:"refusal,omitempty"`
		ToolCalls []toolCall `json:"tool_calls,omitempty"`
	}{Role: "assistant"}
	if s.content.Len() > 0 || len(calls) == 0 {
		text := s.content.String()
		msg.Content = &text
	}
	if s.refusal.Len() > 0 {
		refusal := s.refusal.String()
		msg.Refusal = &refusal
	}
	for _, c := range calls {
		msg.ToolCalls = append(msg.ToolCalls, toolCall{ID: c.ID, Type: "function", Function: function{Name: c.Name, Arguments: string(c.Arguments)}})
	}
	return wire.Marshal(msg)
}

// Completion returns the finished stream as a whole chat completion body, which
// ChatCalls and Chat.Continue read like a response that was not streamed. It fails as
// Calls does.
func (s *ChatStream) Completion() ([]byte, error) {
	msg, err := s.Message()
	if err != nil {
		return nil, err
	}
	type choice struct {
		Index        int             `json:"index"`
		Message      json.RawMessage `json:"message"`
		FinishReason string          `json:"finish_reason"`
	}
	return wire.Marshal(struct {
		ID      string   `json:"id"`
		Object  string   `json:"object"`
		Created int64    `json:"created"`
		Model   string   `json:"model"`
		Choices []choice `json:"choices"`
	}{s.id, "chat.completion", s.created, s.model, []choice{{0, msg, s.finish}}})
}

// ResponsesStream accumulates a streamed Responses API response, event by event, into
// its text and its function calls. The zero ResponsesStream is ready to use; it is not
// safe for concurrent use.
type ResponsesStream struct {
	// Limits bound what the stream holds: its MaxArgumentBytes, the arguments (or
	// input) of one call (runtime.DefaultMaxArgumentBytes when zero). The other fields
	// are for Limits.ReadSSE.
	Limits Limits

	calls     calls // function_call and custom_tool_call items, by output_index
	text      strings.Builder
	completed bool
	response  json.RawMessage // of response.completed
	events    int
	last      string // the type of the last event
	err       error
}

// responsesEvent is the part of a Responses stream event the accumulator reads.
type responsesEvent struct {
	Type        string          `json:"type"`
	OutputIndex *int            `json:"output_index"`
	ItemID      string          `json:"item_id"`
	Item        json.RawMessage `json:"item"`
	Delta       string          `json:"delta"`
	Arguments   *string         `json:"arguments"`
	Input       *string         `json:"input"`
	Response    json.RawMessage `json:"response"`
}

// Add adds one event: the payload of one SSE "data:" line, whose "type" names the
// event. It reads response.output_item.added and response.output_item.done,
// response.function_call_arguments.delta and .done,
// response.custom_tool_call_input.delta and .done, response.output_text.delta and
// response.completed; response.failed, response.incomplete and error events are
// errors, as are payloads that are not JSON and a call's arguments over
// Limits.MaxArgumentBytes. Other events are ignored. An error is reported again by
// Calls.
func (s *ResponsesStream) Add(data []byte) error {
	if s.err != nil {
		return s.err
	}
	if len(bytes.TrimSpace(data)) == 0 || isDone(data) {
		return nil
	}
	s.err = s.add(data)
	return s.err
}

func (s *ResponsesStream) add(data []byte) error {
	s.events++
	var e responsesEvent
	if err := json.Unmarshal(data, &e); err != nil {
		return fmt.Errorf("event %d is not a Responses stream event: %w", s.events, err)
	}
	if e.Type == "" {
		return fmt.Errorf("event %d has no type", s.events)
	}
	s.last = e.Type
	switch e.Type {
	case "response.output_item.added", "response.output_item.done":
		var it responsesItem
		if err := json.Unmarshal(e.Item, &it); err != nil {
			return fmt.Errorf("%s (event %d): item: %w", e.Type, s.events, err)
		}
		if it.Type != "function_call" && it.Type != "custom_tool_call" {
			return nil
		}
		if e.OutputIndex == nil {
			return fmt.Errorf("%s (event %d) has no output_index", e.Type, s.events)
		}
		call := s.calls.at(*e.OutputIndex)
		s.calls.setItem(call, it.ID)
		call.id = cmpOr(it.CallID, call.id)
		call.name = cmpOr(it.Name, call.name)
		call.custom = it.Type == "custom_tool_call"
		field := it.Arguments
		if call.custom {
			field = it.Input
		}
		if args, ok := stringArguments(field); ok && (e.Type == "response.output_item.done" || call.args.Len() == 0) {
			if err := call.set("call", args, s.Limits.MaxArgumentBytes); err != nil {
				return fmt.Errorf("%s (event %d): %w", e.Type, s.events, err)
			}
		}
	case "response.function_call_arguments.delta", "response.function_call_arguments.done",
		"response.custom_tool_call_input.delta", "response.custom_tool_call_input.done":
		call := s.callOf(e.ItemID, e.OutputIndex)
		if call == nil {
			return fmt.Errorf("%s (event %d) is for item %q, which was never added", e.Type, s.events, e.ItemID)
		}
		done := e.Arguments
		if strings.HasPrefix(e.Type, "response.custom_tool_call_input") {
			done = e.Input
		}
		var err error
		switch {
		case strings.HasSuffix(e.Type, ".delta"):
			err = call.write("call", e.Delta, s.Limits.MaxArgumentBytes)
		case done != nil:
			err = call.set("call", *done, s.Limits.MaxArgumentBytes)
		}
		if err != nil {
			return fmt.Errorf("%s (event %d): %w", e.Type, s.events, err)
		}
	case "response.output_text.delta":
		s.text.WriteString(e.Delta)
	case "response.completed":
		if wire.IsNull(e.Response) {
			return fmt.Errorf("response.completed (event %d) has no response", s.events)
		}
		s.completed, s.response = true, bytes.Clone(e.Response)
	case "response.failed", "response.incomplete":
		var r struct {
			Error             json.RawMessage `json:"error"`
			IncompleteDetails struct {
				Reason string `json:"reason"`
			} `json:"incomplete_details"`
		}
		_ = json.Unmarshal(e.Response, &r)
		if err := errorOf(r.Error); err != nil {
			return fmt.Errorf("the response failed: %w", err)
		}
		if r.IncompleteDetails.Reason != "" {
			return fmt.Errorf("the response is incomplete: %s", r.IncompleteDetails.Reason)
		}
		return fmt.Errorf("the stream ended with %s", e.Type)
	case "error":
		if err := errorOf(data); err != nil {
			return fmt.Errorf("event %d: %w", s.events, err)
		}
		return fmt.Errorf("event %d: the API returned an error: %s", s.events, bytes.TrimSpace(data))
	}
	return nil
}

// stringArguments returns the arguments string of an item, if it has one.
func stringArguments(raw json.RawMessage) (string, bool) {
	var s string
	if wire.IsNull(raw) || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// callOf returns the call an arguments event names by item id, or else by output
// index; nil when there is none.
func (s *ResponsesStream) callOf(itemID string, index *int) *streamCall {
	if c := s.calls.byItem[itemID]; itemID != "" && c != nil {
		return c
	}
	if index != nil {
		if c := s.calls.byIndex[*index]; c != nil && (itemID == "" || c.itemID == "") {
			return c
		}
	}
	return nil
}

// Text returns the output text streamed so far.
func (s *ResponsesStream) Text() string { return s.text.String() }

// Completed reports whether the stream got its response.completed event.
func (s *ResponsesStream) Completed() bool { return s.completed }

// Calls returns the calls of the completed stream, function calls and custom tool
// calls (read as ResponsesCalls reads them), in output order, with their call_id as
// ID. A stream that did not complete (cut off, still running, failed or incomplete), a
// call missing its call_id or name, two calls with one call_id, or arguments that are
// not complete JSON are errors naming what is missing: Calls never returns half a
// call.
func (s *ResponsesStream) Calls() ([]runtime.ToolCall, error) {
	if s.err != nil {
		return nil, s.err
	}
	if !s.completed {
		msg := fmt.Sprintf("the response stream ended before response.completed (%d events read", s.events)
		if s.last != "" {
			msg += ", the last a " + s.last
		}
		msg += ")"
		if n := len(s.calls.byIndex); n > 0 {
			msg += fmt.Sprintf("; %d function call(s) may be incomplete, the last one %s", n, s.calls.last.describe())
		}
		return nil, errors.New(msg)
	}
	if len(s.calls.byIndex) == 0 {
		// No item events: a server that sends only the final response.
		return ResponsesCalls(s.response)
	}
	if err := clientItems(s.response); err != nil {
		return nil, err
	}
	sorted := s.calls.sorted()
	calls := make([]runtime.ToolCall, 0, len(sorted))
	for _, c := range sorted {
		call, err := c.toolCall(fmt.Sprintf("function call %d", c.index))
		if err != nil {
			return nil, err
		}
		calls = append(calls, call)
	}
	if err := wire.UniqueIDs(calls); err != nil {
		return nil, fmt.Errorf("the response's calls: %w", err)
	}
	return calls, nil
}

// Response returns the response object of the response.completed event: a whole
// Responses body, which ResponsesCalls and Responses.Continue read like a response that
// was not streamed. It fails as Calls does.
func (s *ResponsesStream) Response() ([]byte, error) {
	if _, err := s.Calls(); err != nil {
		return nil, err
	}
	return bytes.Clone(s.response), nil
}
