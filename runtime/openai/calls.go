package openai

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wire"
)

// chatToolCall is one entry of a Chat Completions message's tool_calls.
type chatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// chatMessage returns choices[0].message of a Chat Completions body, raw.
func chatMessage(body []byte) (json.RawMessage, error) {
	obj, err := wire.DecodeObject(body, "the chat completion")
	if err != nil {
		return nil, err
	}
	if err := errorOf(obj["error"]); err != nil {
		return nil, err
	}
	choices, err := wire.RequireArray(obj, "choices", "the chat completion")
	if err != nil {
		return nil, err
	}
	if len(choices) == 0 {
		return nil, errors.New("the chat completion has no choices")
	}
	var choice struct {
		Message json.RawMessage `json:"message"`
	}
	if err := json.Unmarshal(choices[0], &choice); err != nil {
		return nil, fmt.Errorf("the chat completion's first choice: %w", err)
	}
	if wire.IsNull(choice.Message) {
		return nil, errors.New("the chat completion's first choice has no message")
	}
	return choice.Message, nil
}

// ChatCalls returns the function calls of a whole Chat Completions response body
// (choices[0].message.tool_calls), in order, with their arguments unquoted to JSON
// text. A message without tool calls has none; it does not rely on finish_reason, which
// is "stop" when a function was forced. Tool calls of other types (custom tools) are
// skipped. A body that is not a chat completion, or an error body, is an error.
func ChatCalls(body []byte) ([]runtime.ToolCall, error) {
	msg, err := chatMessage(body)
	if err != nil {
		return nil, err
	}
	return messageCalls(msg)
}

// messageCalls returns the function calls of a Chat Completions assistant message.
func messageCalls(msg json.RawMessage) ([]runtime.ToolCall, error) {
	var m struct {
		ToolCalls []json.RawMessage `json:"tool_calls"`
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		return nil, fmt.Errorf("the chat completion's message: %w", err)
	}
	var calls []runtime.ToolCall
	for i, raw := range m.ToolCalls {
		if wire.IsNull(raw) {
			continue
		}
		var tc chatToolCall
		if err := json.Unmarshal(raw, &tc); err != nil {
			return nil, fmt.Errorf("tool call %d: %w", i, err)
		}
		if tc.Type != "" && tc.Type != "function" {
			continue
		}
		switch {
		case tc.ID == "":
			return nil, fmt.Errorf("tool call %d has no id", i)
		case tc.Function == nil || tc.Function.Name == "":
			return nil, fmt.Errorf("tool call %d (%s) has no function name", i, tc.ID)
		}
		args, err := rawArguments(tc.Function.Arguments)
		if err != nil {
			return nil, fmt.Errorf("tool call %d (%s): %w", i, tc.ID, err)
		}
		calls = append(calls, runtime.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: args})
	}
	return calls, nil
}

// responsesFunctionCall is a function_call item of a Responses output.
type responsesFunctionCall struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Status    string          `json:"status"`
}

// responsesOutput returns the output items of a whole Responses body, raw.
func responsesOutput(body []byte) ([]json.RawMessage, error) {
	obj, err := wire.DecodeObject(body, "the response")
	if err != nil {
		return nil, err
	}
	if err := errorOf(obj["error"]); err != nil {
		return nil, err
	}
	return wire.RequireArray(obj, "output", "the response")
}

// ResponsesCalls returns the function calls of a whole Responses API body (the output
// items of type function_call), in order. A call's ID is its call_id, which the answer
// echoes, not the item's id. Other items (messages, reasoning, hosted tools) are
// skipped. A body that is not a response, or a failed response, is an error.
func ResponsesCalls(body []byte) ([]runtime.ToolCall, error) {
	output, err := responsesOutput(body)
	if err != nil {
		return nil, err
	}
	return outputCalls(output)
}

// outputCalls returns the function calls among Responses output items.
func outputCalls(output []json.RawMessage) ([]runtime.ToolCall, error) {
	var calls []runtime.ToolCall
	for i, raw := range output {
		var fc responsesFunctionCall
		if err := json.Unmarshal(raw, &fc); err != nil {
			return nil, fmt.Errorf("output item %d: %w", i, err)
		}
		if fc.Type != "function_call" {
			continue
		}
		switch {
		case fc.CallID == "":
			return nil, fmt.Errorf("output item %d (function_call %s) has no call_id", i, fc.ID)
		case fc.Name == "":
			return nil, fmt.Errorf("output item %d (function_call %s) has no name", i, fc.CallID)
		}
		args, err := rawArguments(fc.Arguments)
		if err != nil {
			return nil, fmt.Errorf("output item %d (function_call %s): %w", i, fc.CallID, err)
		}
		calls = append(calls, runtime.ToolCall{ID: fc.CallID, Name: fc.Name, Arguments: args})
	}
	return calls, nil
}

// HasToolCalls reports whether a whole response body, of either API (a chat
// completion or a Responses response), asks for function calls. A malformed body asks
// for none.
func HasToolCalls(body []byte) bool {
	var probe struct {
		Choices json.RawMessage `json:"choices"`
		Output  json.RawMessage `json:"output"`
	}
	if json.Unmarshal(body, &probe) != nil {
		return false
	}
	switch {
	case probe.Choices != nil:
		return wire.HasCalls(ChatCalls(body))
	case probe.Output != nil:
		return wire.HasCalls(ResponsesCalls(body))
	}
	return false
}
