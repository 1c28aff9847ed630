package openai

import (
	"context"

	"github.com/toolgen/toolgen/runtime"
)

// ChatToolMessage is the Chat Completions message that answers one tool call:
// {"role":"tool","tool_call_id":..,"content":..}.
type ChatToolMessage struct {
	// Role is always "tool".
	Role string `json:"role"`
	// ToolCallID is the id of the call answered.
	ToolCallID string `json:"tool_call_id"`
	// Content is the text the model reads. OpenAI has no error flag: a failed call's
	// content is its error message.
	Content string `json:"content"`
}

// FunctionCallOutput is the Responses input item that answers one function call:
// {"type":"function_call_output","call_id":..,"output":..}, or one custom tool call,
// of the same shape but for its type.
type FunctionCallOutput struct {
	// Type is "function_call_output", or "custom_tool_call_output" for a custom tool
	// call.
	Type string `json:"type"`
	// CallID is the call_id of the call answered.
	CallID string `json:"call_id"`
	// Output is the text the model reads; a failed call's output is its error message.
	Output string `json:"output"`
}

// ChatToolMessages returns one tool message per result, in order, to append to the
// conversation after the assistant message that made the calls. Each holds the
// result's Text: what it says for the model, or its error message.
func ChatToolMessages(results []runtime.CallResult) []ChatToolMessage {
	out := make([]ChatToolMessage, len(results))
	for i, r := range results {
		out[i] = ChatToolMessage{Role: "tool", ToolCallID: r.Call.ID, Content: text(r.Result)}
	}
	return out
}

// ResponsesOutputs returns one function_call_output item per result, in order, to
// append to the input after the response's output items. A custom tool call needs a
// custom_tool_call_output item instead, which ResponsesOutputsFor gives.
func ResponsesOutputs(results []runtime.CallResult) []FunctionCallOutput {
	return responsesOutputs(results, nil)
}

// ResponsesOutputsFor returns the items that answer the calls of a whole Responses
// body with results, one per call, in the calls' order: function_call_output for a
// function call, custom_tool_call_output for a custom tool call. results must answer
// every call of the response once, matched by call_id, as RunCalls gives them; anything
// else is an error, as is a body ResponsesCalls refuses.
func ResponsesOutputsFor(response []byte, results []runtime.CallResult) ([]FunctionCallOutput, error) {
	_, calls, custom, err := responsesTurn(response)
	if err != nil {
		return nil, err
	}
	answers, err := match(calls, results)
	if err != nil {
		return nil, err
	}
	return responsesOutputs(answers, custom), nil
}

// responsesOutputs returns the items that answer results, custom naming the call_ids
// of custom tool calls.
func responsesOutputs(results []runtime.CallResult, custom map[string]bool) []FunctionCallOutput {
	out := make([]FunctionCallOutput, len(results))
	for i, r := range results {
		typ := "function_call_output"
		if custom[r.Call.ID] {
			typ = "custom_tool_call_output"
		}
		out[i] = FunctionCallOutput{Type: typ, CallID: r.Call.ID, Output: text(r.Result)}
	}
	return out
}

func text(r *runtime.Result) string {
	if r == nil {
		return ""
	}
	return r.Text()
}

// RunChat runs the tool calls of a whole Chat Completions response body with ts (see
// runtime.Toolset.RunCalls: in parallel, every call answered once, in order) and
// returns the tool messages that answer them; none when the model called no tool.
// Observers and approvers see the calls as from provider "openai".
// The error is about the body only: failed calls are answered with their error.
func RunChat(ctx context.Context, ts *runtime.Toolset, body []byte) ([]ChatToolMessage, error) {
	calls, err := ChatCalls(body)
	if err != nil || len(calls) == 0 {
		return nil, err
	}
	ctx = runtime.ContextWithCall(ctx, runtime.CallInfo{Provider: Chat{}.Name()})
	return ChatToolMessages(ts.RunCalls(ctx, calls, 0)), nil
}

// RunResponses runs the calls of a whole Responses body with ts, as RunChat does, and
// returns the items that answer them: function_call_output, or custom_tool_call_output
// for a custom tool call.
func RunResponses(ctx context.Context, ts *runtime.Toolset, body []byte) ([]FunctionCallOutput, error) {
	_, calls, custom, err := responsesTurn(body)
	if err != nil || len(calls) == 0 {
		return nil, err
	}
	ctx = runtime.ContextWithCall(ctx, runtime.CallInfo{Provider: Responses{}.Name()})
	return responsesOutputs(ts.RunCalls(ctx, calls, 0), custom), nil
}
