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
// response without tool_use blocks has no calls. An input that is not an object goes
// to the Toolset as it is, which answers that call with an argument error while the
// others run. An error body, a body that is not a message, a tool_use block without
// its id or name, two tool_use blocks with one id and a response with tool_use blocks
// cut short (stop_reason max_tokens, model_context_window_exceeded or refusal) are
// errors: a call is never returned half written.
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
		}
		calls = append(calls, runtime.ToolCall{ID: b.ID, Name: b.Name, Arguments: b.Input})
	}
	if err := wire.UniqueIDs(calls); err != nil {
		return nil, nil, fmt.Errorf("the response's tool_use blocks: %w", err)
	}
	if len(calls) > 0 {
		var stop string
		_ = json.Unmarshal(msg["stop_reason"], &stop)
		if err := cut(stop, calls); err != nil {
			return nil, nil, err
		}
	}
	return content, calls, nil
}

// cut returns an error when a turn with calls stopped short: by max_tokens or the
// context window, its last tool_use block may be half written; by a refusal, the turn
// is not what the model meant to send.
func cut(stop string, calls []runtime.ToolCall) error {
	var why string
	switch stop {
	case "max_tokens":
		why = "retry with a higher max_tokens"
	case "model_context_window_exceeded":
		why = "the conversation filled the context window"
	case "refusal":
		why = "the model refused to go on"
	default:
		return nil
	}
	last := calls[len(calls)-1]
	return fmt.Errorf("the response was cut off by %s with %d tool_use block(s), the last %s (%s) maybe incomplete: none is taken; %s", stop, len(calls), last.ID, last.Name, why)
}

// HasToolCalls reports whether a Messages response body holds tool calls that Calls
// can read.
func HasToolCalls(body []byte) bool {
	return wire.HasCalls(Calls(body))
}

// ArgumentsMap returns the top-level arguments of call, strings as their value and
// other values as their JSON text. Blank or null arguments give an empty map, as the Toolset reads them as no arguments; arguments
// that are not a JSON object are an error. The other provider packages' ArgumentsMap
// behave the same.
func ArgumentsMap(call runtime.ToolCall) (map[string]string, error) {
	return wire.ArgumentsMap(call.Arguments)
}

// Argument returns one top-level argument of call as ArgumentsMap renders it, and
// whether the call has it.
func Argument(call runtime.ToolCall, name string) (string, bool) {
	return wire.Argument(call.Arguments, name)
}
