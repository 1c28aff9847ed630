package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wire"
)

// toolUse is a content block of a response, as far as tool calls go.
type toolUse struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// Calls returns the tool calls of a Messages response body: its tool_use content
// blocks, in order, each with its id, its name and its input object as Arguments. A
// response without tool_use blocks has no calls. An error body, a body that is not a
// message, a malformed tool_use block and a response cut off by max_tokens inside a
// tool_use block are errors: a call is never returned half written.
func Calls(body []byte) ([]runtime.ToolCall, error) {
	_, calls, err := contentAndCalls(body)
	return calls, err
}

// contentAndCalls returns the raw "content" of a response body and its calls.
func contentAndCalls(body []byte) (json.RawMessage, []runtime.ToolCall, error) {
	msg, err := wire.DecodeObject(body, "the response")
	if err != nil {
		return nil, nil, err
	}
	if typeOf(msg) == "error" {
		return nil, nil, errorOf(msg["error"])
	}
	content, ok := msg["content"]
	if !ok || wire.IsNull(content) {
		return nil, nil, errors.New(`the response has no "content": it is not a message`)
	}
	blocks, err := wire.DecodeArray(msg, "content", "the response")
	if err != nil {
		return nil, nil, err
	}
	var calls []runtime.ToolCall
	for i, raw := range blocks {
		var b toolUse
		if err := json.Unmarshal(raw, &b); err != nil {
			return nil, nil, fmt.Errorf("content[%d] is not a content block: %w", i, err)
		}
		if b.Type != "tool_use" {
			continue
		}
		switch {
		case b.ID == "":
			return nil, nil, fmt.Errorf("content[%d]: tool_use block without an id", i)
		case b.Name == "":
			return nil, nil, fmt.Errorf("content[%d]: tool_use block %s without a name", i, b.ID)
		case wire.IsNull(b.Input):
			b.Input = json.RawMessage(`{}`)
		case !wire.IsObject(b.Input):
			return nil, nil, fmt.Errorf("content[%d]: the input of tool_use block %s (%s) is not a JSON object", i, b.ID, b.Name)
		}
		calls = append(calls, runtime.ToolCall{ID: b.ID, Name: b.Name, Arguments: b.Input})
	}
	if len(blocks) > 0 && len(calls) > 0 {
		var stop string
		_ = json.Unmarshal(msg["stop_reason"], &stop)
		var last toolUse
		_ = json.Unmarshal(blocks[len(blocks)-1], &last)
		if stop == "max_tokens" && last.Type == "tool_use" {
			return nil, nil, fmt.Errorf("the response was cut off by max_tokens inside tool_use block %s (%s): its input may be incomplete; retry with a higher max_tokens", last.ID, last.Name)
		}
	}
	return content, calls, nil
}

// HasToolCalls reports whether a Messages response body holds tool calls that Calls
// can read.
func HasToolCalls(body []byte) bool {
	return wire.HasCalls(Calls(body))
}

// ArgumentsMap returns the top-level arguments of call, strings as their value and
// other values as their JSON text (see runtime.ArgumentsMap).
func ArgumentsMap(call runtime.ToolCall) (map[string]string, error) {
	return runtime.ArgumentsMap(call.Arguments)
}

// Argument returns one top-level argument of call as ArgumentsMap renders it, and
// whether the call has it.
func Argument(call runtime.ToolCall, name string) (string, bool) {
	return runtime.Argument(call.Arguments, name)
}
