package tooltest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/openai"
)

// Stream returns the scripted model of Send, streaming: a loop.StreamFunc that
// answers each request as Send does, but as the server-sent events the real API
// streams, text word by word and call arguments in pieces, written as an event stream
// and read back with ReadSSE. A request that does not ask for a stream ("stream": true;
// Gemini asks in the URL, which a StreamFunc owns) is rejected, as is any request Send
// rejects.
func Stream(f Format, s *Script) (loop.StreamFunc, error) {
	send, err := Send(f, s)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, request []byte, events func(event, data []byte) error) error {
		if f != GenerateContent {
			var r struct {
				Stream bool `json:"stream"`
			}
			if json.Unmarshal(request, &r) != nil || !r.Stream {
				return fmt.Errorf("tooltest %s: %w: the request does not ask for a stream (\"stream\": true), so the API would answer with a whole response", f, ErrRejected)
			}
		}
		body, err := send(ctx, request)
		if err != nil {
			return err
		}
		stream, err := streamOf(f, body)
		if err != nil {
			return err
		}
		return openai.ReadSSE(bytes.NewReader(stream), events)
	}, nil
}

// streamOf returns the server-sent events that stream a whole response body of the
// wire format.
func streamOf(f Format, body []byte) ([]byte, error) {
	var w sse
	if err := w.write(f, body); err != nil {
		return nil, fmt.Errorf("tooltest %s: stream the response: %w", f, err)
	}
	return w.buf.Bytes(), nil
}

// sse writes the events of a stream.
type sse struct {
	buf bytes.Buffer
	err error
}

// event writes one event, named name ("" for none), whose data is v in JSON.
func (w *sse) event(name string, v any) {
	if w.err != nil {
		return
	}
	data, err := marshal(v)
	if err != nil {
		w.err = err
		return
	}
	if name != "" {
		fmt.Fprintf(&w.buf, "event: %s\n", name)
	}
	fmt.Fprintf(&w.buf, "data: %s\n\n", data)
}

// write writes the stream of a whole response body in a provider's format.
func (w *sse) write(f Format, body []byte) error {
	var err error
	switch f {
	case Chat:
		err = w.chat(body)
	case Responses:
		err = w.responses(body)
	case Messages:
		err = w.messages(body)
	case GenerateContent:
		err = w.generateContent(body)
	default:
		_, err = f.wire()
	}
	if err != nil {
		return err
	}
	return w.err
}

// words splits text into the pieces a model streams: words, each with the spaces
// after it.
func words(text string) []string {
	if text == "" {
		return nil
	}
	return strings.SplitAfter(text, " ")
}

// halves splits s in two, on a rune boundary.
func halves(s string) []string {
	i := len(s) / 2
	for i > 0 && i < len(s) && s[i]&0xC0 == 0x80 {
		i--
	}
	return []string{s[:i], s[i:]}
}

// chat streams a chat completion: a chunk per word of the content, the tool calls each
// in three chunks (id and name, then half of the arguments twice), the finish_reason,
// then [DONE].
func (w *sse) chat(body []byte) error {
	var c struct {
		ID      string `json:"id"`
		Created int64  `json:"created"`
		Model   string `json:"model"`
		Choices []struct {
			Message struct {
				Content   *string `json:"content"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Function struct {
						Name      string `json:"name"`
						Arguments string `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(body, &c); err != nil || len(c.Choices) != 1 {
		return fmt.Errorf("not a chat completion of one choice: %s", body)
	}
	chunk := func(delta any, finish *string) {
		w.event("", map[string]any{"id": c.ID, "object": "chat.completion.chunk", "created": c.Created, "model": c.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
	}
	msg := c.Choices[0].Message
	chunk(map[string]any{"role": "assistant", "content": ""}, nil)
	if msg.Content != nil {
		for _, word := range words(*msg.Content) {
			chunk(map[string]any{"content": word}, nil)
		}
	}
	for i, tc := range msg.ToolCalls {
		chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": tc.ID, "type": "function",
			"function": map[string]string{"name": tc.Function.Name, "arguments": ""}}}}, nil)
		for _, piece := range halves(tc.Function.Arguments) {
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]string{"arguments": piece}}}}, nil)
		}
	}
	chunk(map[string]any{}, &c.Choices[0].FinishReason)
	w.buf.WriteString("data: [DONE]\n\n")
	return nil
}

// responses streams a Responses response: each output item added, its text word by
// word or its arguments in two halves, and done, then response.completed with the
// whole response.
func (w *sse) responses(body []byte) error {
	var r struct {
		Output []json.RawMessage `json:"output"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return fmt.Errorf("not a response: %w", err)
	}
	for i, raw := range r.Output {
		item, err := streamObject(raw, "an output item")
		if err != nil {
			return err
		}
		typ, _ := stringOf(item["type"])
		id, _ := stringOf(item["id"])
		added := make(map[string]json.RawMessage, len(item))
		for k, v := range item {
			added[k] = v
		}
		switch typ {
		case "message":
			added["content"] = json.RawMessage(`[]`)
			added["status"] = json.RawMessage(`"in_progress"`)
		case "function_call":
			added["arguments"] = json.RawMessage(`""`)
			added["status"] = json.RawMessage(`"in_progress"`)
		}
		w.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": i, "item": added})
		switch typ {
		case "message":
			var m struct {
				Content []struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"content"`
			}
			_ = json.Unmarshal(raw, &m)
			for j, part := range m.Content {
				if part.Type != "output_text" {
					continue
				}
				for _, word := range words(part.Text) {
					w.event("response.output_text.delta", map[string]any{"type": "response.output_text.delta",
						"item_id": id, "output_index": i, "content_index": j, "delta": word})
				}
			}
		case "function_call":
			args, _ := stringOf(item["arguments"])
			for _, piece := range halves(args) {
				w.event("response.function_call_arguments.delta", map[string]any{"type": "response.function_call_arguments.delta",
					"item_id": id, "output_index": i, "delta": piece})
			}
			w.event("response.function_call_arguments.done", map[string]any{"type": "response.function_call_arguments.done",
				"item_id": id, "output_index": i, "arguments": args})
		}
		w.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": i, "item": raw})
	}
	w.event("response.completed", map[string]any{"type": "response.completed", "response": json.RawMessage(body)})
	return nil
}

// messages streams a Messages response: message_start, each content block started,
// its text word by word (its input in two halves, its thinking and signature whole)
// and stopped, message_delta with the stop reason, then message_stop.
func (w *sse) messages(body []byte) error {
	msg, err := streamObject(body, "the message")
	if err != nil {
		return err
	}
	var blocks []json.RawMessage
	if err := json.Unmarshal(msg["content"], &blocks); err != nil {
		return fmt.Errorf("the message's content: %w", err)
	}
	start := make(map[string]json.RawMessage, len(msg))
	for k, v := range msg {
		start[k] = v
	}
	start["content"] = json.RawMessage(`[]`)
	start["stop_reason"] = json.RawMessage(`null`)
	start["stop_sequence"] = json.RawMessage(`null`)
	w.event("message_start", map[string]any{"type": "message_start", "message": start})
	for i, raw := range blocks {
		block, err := streamObject(raw, "a content block")
		if err != nil {
			return err
		}
		typ, _ := stringOf(block["type"])
		delta := func(d map[string]any) {
			w.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d})
		}
		switch typ {
		case "text":
			text, _ := stringOf(block["text"])
			first := map[string]json.RawMessage{}
			for k, v := range block {
				first[k] = v
			}
			first["text"] = json.RawMessage(`""`)
			w.event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": first})
			for _, word := range words(text) {
				delta(map[string]any{"type": "text_delta", "text": word})
			}
		case "tool_use":
			w.event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{
				"type": "tool_use", "id": block["id"], "name": block["name"], "input": json.RawMessage(`{}`)}})
			for _, piece := range halves(compact(block["input"])) {
				delta(map[string]any{"type": "input_json_delta", "partial_json": piece})
			}
		case "thinking":
			thinking, _ := stringOf(block["thinking"])
			signature, _ := stringOf(block["signature"])
			w.event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{
				"type": "thinking", "thinking": "", "signature": ""}})
			delta(map[string]any{"type": "thinking_delta", "thinking": thinking})
			delta(map[string]any{"type": "signature_delta", "signature": signature})
		default:
			w.event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": raw})
		}
		w.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	w.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]json.RawMessage{"stop_reason": msg["stop_reason"], "stop_sequence": orNull(msg["stop_sequence"])},
		"usage": msg["usage"]})
	w.event("message_stop", map[string]any{"type": "message_stop"})
	return nil
}

// generateContent streams a generateContent response: a chunk per part of the first
// candidate, then a last chunk with the candidate's finishReason and the response's
// other fields. A text part is streamed whole, not word by word: the parts of a
// streamed turn go back as they came, and the turn's text is read part by part (see
// Text), so a part split in words would read as so many lines.
func (w *sse) generateContent(body []byte) error {
	resp, err := streamObject(body, "the response")
	if err != nil {
		return err
	}
	var candidates []map[string]json.RawMessage
	if err := json.Unmarshal(resp["candidates"], &candidates); err != nil || len(candidates) != 1 {
		return fmt.Errorf("not a response of one candidate: %s", body)
	}
	cand := candidates[0]
	var content struct {
		Role  string            `json:"role"`
		Parts []json.RawMessage `json:"parts"`
	}
	if !isNull(cand["content"]) {
		if err := json.Unmarshal(cand["content"], &content); err != nil {
			return fmt.Errorf("the candidate's content: %w", err)
		}
	}
	chunk := func(part any) {
		w.event("", map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": content.Role, "parts": []any{part}}}}})
	}
	for _, raw := range content.Parts {
		chunk(raw)
	}
	last := make(map[string]json.RawMessage, len(resp))
	for k, v := range resp {
		last[k] = v
	}
	rest := make(map[string]json.RawMessage, len(cand))
	for k, v := range cand {
		rest[k] = v
	}
	delete(rest, "content")
	raw, err := marshal([]any{rest})
	if err != nil {
		return err
	}
	last["candidates"] = raw
	w.event("", last)
	return nil
}

// orNull returns raw, or null when it is absent.
func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage(`null`)
	}
	return raw
}

// streamObject decodes a JSON object.
func streamObject(raw json.RawMessage, what string) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("%s is not a JSON object", what)
	}
	return obj, nil
}
