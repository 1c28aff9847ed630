package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wire"
)

// chatToolCall is one entry of a Chat Completions message's tool_calls: a function
// call, or a custom tool call, whose input is free text.
type chatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
	Custom *struct {
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"custom"`
}

// chatChoice returns choices[0] of a Chat Completions body: its message, raw, and its
// finish_reason.
func chatChoice(body []byte) (json.RawMessage, string, error) {
	obj, err := wire.DecodeObject(body, "the chat completion")
	if err != nil {
		return nil, "", err
	}
	if err := errorOf(obj["error"]); err != nil {
		return nil, "", err
	}
	choices, err := wire.RequireArray(obj, "choices", "the chat completion")
	if err != nil {
		return nil, "", err
	}
	if len(choices) == 0 {
		return nil, "", errors.New("the chat completion has no choices")
	}
	var choice struct {
		Message      json.RawMessage `json:"message"`
		FinishReason *string         `json:"finish_reason"`
	}
	if err := json.Unmarshal(choices[0], &choice); err != nil {
		return nil, "", fmt.Errorf("the chat completion's first choice: %w", err)
	}
	if wire.IsNull(choice.Message) {
		return nil, "", errors.New("the chat completion's first choice has no message")
	}
	var finish string
	if choice.FinishReason != nil {
		finish = *choice.FinishReason
	}
	return choice.Message, finish, nil
}

// chatTurn returns the message of a whole Chat Completions body and its calls.
func chatTurn(body []byte) (json.RawMessage, []runtime.ToolCall, error) {
	msg, finish, err := chatChoice(body)
	if err != nil {
		return nil, nil, err
	}
	calls, err := messageCalls(msg)
	if err != nil {
		return nil, nil, err
	}
	if err := chatCut(finish, calls); err != nil {
		return nil, nil, err
	}
	return msg, calls, nil
}

// chatCut returns an error when a turn with calls was cut short, by the token limit or
// the content filter: its last call may be half written, and the others may not be
// all the model meant to make.
func chatCut(finish string, calls []runtime.ToolCall) error {
	if len(calls) == 0 {
		return nil
	}
	var why string
	switch finish {
	case "length":
		why = "it reached max_completion_tokens or the context window; raise max_completion_tokens"
	case "content_filter":
		why = "the content filter stopped it"
	default:
		return nil
	}
	last := calls[len(calls)-1]
	return fmt.Errorf("the chat completion was cut short (finish_reason %q: %s) with %d tool call(s), the last %s (%s) maybe incomplete: none is taken", finish, why, len(calls), last.Name, last.ID)
}

// ChatCalls returns the tool calls of a whole Chat Completions response body
// (choices[0].message.tool_calls), in order, with their arguments unquoted to JSON
// text. A message without tool calls has none; it does not rely on finish_reason, which
// is "stop" when a function was forced.
//
// Every call the message holds is returned, so that every call echoed in the
// conversation gets its answer. A custom tool call, whose input is free text, is read
// as a call of the tool of its name with the arguments {"input": <the text>}: a tool
// with one string parameter named input serves it, and without one it is answered
// with the Toolset's unknown-tool error. Arguments that are not a JSON string (an
// object, as some compatible servers send, is decoded as the arguments) reach the
// Toolset as they are, which answers that call with an argument error while the
// others run.
//
// A body that is not a chat completion, an error body, a call without an id, two calls
// with one id, a call of a type this package cannot answer, and a turn with calls cut
// short (finish_reason "length" or "content_filter") are errors: a call is never
// taken half written.
func ChatCalls(body []byte) ([]runtime.ToolCall, error) {
	_, calls, err := chatTurn(body)
	return calls, err
}

// messageCalls returns the tool calls of a Chat Completions assistant message.
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
		if tc.ID == "" {
			return nil, fmt.Errorf("tool call %d has no id", i)
		}
		switch tc.Type {
		case "", "function":
			if tc.Function == nil || tc.Function.Name == "" {
				return nil, fmt.Errorf("tool call %d (%s) has no function name", i, tc.ID)
			}
			calls = append(calls, runtime.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: rawArguments(tc.Function.Arguments)})
		case "custom":
			if tc.Custom == nil || tc.Custom.Name == "" {
				return nil, fmt.Errorf("tool call %d (%s) has no custom tool name", i, tc.ID)
			}
			calls = append(calls, runtime.ToolCall{ID: tc.ID, Name: tc.Custom.Name, Arguments: customArguments(tc.Custom.Input)})
		default:
			return nil, fmt.Errorf("tool call %d (%s) is of type %q, which this package cannot answer, and the API rejects a conversation with an unanswered call", i, tc.ID, tc.Type)
		}
	}
	if err := wire.UniqueIDs(calls); err != nil {
		return nil, fmt.Errorf("the chat completion's tool calls: %w", err)
	}
	return calls, nil
}

// responsesItem is an output item of a Responses body, as far as calls go: a
// function_call, or a custom_tool_call, whose input is free text.
type responsesItem struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	Status    string          `json:"status"`
	// ApprovalRequestID is the request an mcp_approval_response answers.
	ApprovalRequestID string `json:"approval_request_id"`
	// Execution says who runs a tool_search_call: "server" (the API, whose
	// tool_search_output follows it) or "client".
	Execution string `json:"execution"`
}

// responsesTurn returns the output items of a whole Responses body and its calls, and
// which of them (by call_id) are custom tool calls.
func responsesTurn(body []byte) ([]json.RawMessage, []runtime.ToolCall, map[string]bool, error) {
	obj, err := wire.DecodeObject(body, "the response")
	if err != nil {
		return nil, nil, nil, err
	}
	if err := errorOf(obj["error"]); err != nil {
		return nil, nil, nil, err
	}
	output, err := wire.RequireArray(obj, "output", "the response")
	if err != nil {
		return nil, nil, nil, err
	}
	calls, custom, err := outputCalls(output)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(calls) > 0 {
		var r struct {
			Status            string `json:"status"`
			IncompleteDetails struct {
				Reason string `json:"reason"`
			} `json:"incomplete_details"`
		}
		_ = json.Unmarshal(body, &r)
		if r.Status == "incomplete" {
			reason := r.IncompleteDetails.Reason
			if reason == "" {
				reason = "no reason given"
			}
			last := calls[len(calls)-1]
			return nil, nil, nil, fmt.Errorf("the response is incomplete (%s) with %d call(s), the last %s (%s) maybe cut: none is taken; for max_output_tokens, raise it", reason, len(calls), last.Name, last.ID)
		}
	}
	return output, calls, custom, nil
}

// clientItems reports an item of a completed stream's response that the client must
// answer and a Toolset cannot (see outputCalls), as ResponsesCalls does for a whole
// body, so that a streamed turn with one is refused before its calls run, not after.
// A response without its output items has none.
func clientItems(response []byte) error {
	var r struct {
		Output []json.RawMessage `json:"output"`
	}
	if json.Unmarshal(response, &r) != nil || len(r.Output) == 0 {
		return nil
	}
	_, _, err := outputCalls(r.Output)
	return err
}

// ResponsesCalls returns the calls of a whole Responses API body: its output items of
// type function_call and custom_tool_call, in order. A call's ID is its call_id, which
// the answer echoes, not the item's id. A custom tool call is read as a call of the
// tool of its name with the arguments {"input": <its text>}, as ChatCalls reads one;
// answer it with ResponsesOutputsFor, RunResponses or Responses.Continue, which give
// it the custom_tool_call_output item it needs. Arguments that are not a JSON string
// reach the Toolset as they are, as for ChatCalls. Other items (messages, reasoning,
// hosted tools that run on OpenAI's side) are skipped.
//
// A body that is not a response, a failed response, a call without its call_id or
// name, two calls with one call_id, and a response incomplete (status "incomplete",
// for max_output_tokens or the content filter) with calls in it, or with a call
// itself incomplete, are errors: a call is never taken half written. So is an item
// that the client must answer and a Toolset cannot (a computer_call, local_shell_call,
// shell_call, apply_patch_call or mcp_approval_request without its answer in the same
// output): echoed unanswered, it would make the API refuse the next request.
func ResponsesCalls(body []byte) ([]runtime.ToolCall, error) {
	_, calls, _, err := responsesTurn(body)
	return calls, err
}

// clientAnswered maps the output items that the client must answer, and a Toolset
// cannot, to the item type of their answer: the hosted tools that run on the client's
// side (the computer, the shell, patches) and MCP approvals.
var clientAnswered = map[string]string{
	"computer_call":        "computer_call_output",
	"local_shell_call":     "local_shell_call_output",
	"shell_call":           "shell_call_output",
	"apply_patch_call":     "apply_patch_call_output",
	"mcp_approval_request": "mcp_approval_response",
}

// outputCalls returns the calls among Responses output items, and which are custom.
func outputCalls(output []json.RawMessage) ([]runtime.ToolCall, map[string]bool, error) {
	var calls []runtime.ToolCall
	var custom map[string]bool
	type need struct {
		index      int
		item       string // the item's type
		answer, id string // the answer it needs
	}
	var waiting []need
	answered := map[[2]string]bool{} // answer type and call id, of answers in the output
	for i, raw := range output {
		var it responsesItem
		if err := json.Unmarshal(raw, &it); err != nil {
			return nil, nil, fmt.Errorf("output item %d: %w", i, err)
		}
		answer, ok := clientAnswered[it.Type]
		if it.Type == "tool_search_call" && it.Execution == "client" {
			// A search the client runs (tool_search with "execution": "client"):
			// the API waits for its tool_search_output.
			answer, ok = "tool_search_output", true
		}
		if ok {
			id := it.CallID
			if id == "" {
				id = it.ID
			}
			waiting = append(waiting, need{index: i, item: it.Type, answer: answer, id: id})
			continue
		}
		if strings.HasSuffix(it.Type, "_output") || it.Type == "mcp_approval_response" {
			id := it.CallID
			if id == "" {
				id = it.ApprovalRequestID
			}
			answered[[2]string{it.Type, id}] = true
		}
		if it.Type != "function_call" && it.Type != "custom_tool_call" {
			continue
		}
		switch {
		case it.CallID == "":
			return nil, nil, fmt.Errorf("output item %d (%s %s) has no call_id", i, it.Type, it.ID)
		case it.Name == "":
			return nil, nil, fmt.Errorf("output item %d (%s %s) has no name", i, it.Type, it.CallID)
		case it.Status == "incomplete":
			return nil, nil, fmt.Errorf("output item %d (%s %s, %s) is incomplete: it is not taken", i, it.Type, it.Name, it.CallID)
		}
		call := runtime.ToolCall{ID: it.CallID, Name: it.Name}
		if it.Type == "custom_tool_call" {
			call.Arguments = customArguments(it.Input)
			if custom == nil {
				custom = map[string]bool{}
			}
			custom[it.CallID] = true
		} else {
			call.Arguments = rawArguments(it.Arguments)
		}
		calls = append(calls, call)
	}
	for _, w := range waiting {
		if !answered[[2]string{w.answer, w.id}] {
			// Echoed in the next request without its answer, it would make the API
			// refuse that request: refuse the response now, and say why.
			return nil, nil, fmt.Errorf("output item %d is a %s (%s), which the client must answer with a %s and a Toolset cannot: answer it yourself, or do not offer that tool", w.index, w.item, w.id, w.answer)
		}
	}
	if err := wire.UniqueIDs(calls); err != nil {
		return nil, nil, fmt.Errorf("the response's calls: %w", err)
	}
	return calls, custom, nil
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
