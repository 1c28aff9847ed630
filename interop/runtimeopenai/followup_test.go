package runtimeopenai_test

// From runtime/openai's tests: answers as the SDK reads and builds them.

import (
	"context"
	"encoding/json"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/openai"
)

// threeCalls is a chat completion asking for two tools in parallel and a tool that
// does not exist, between them.
const threeCalls = `{"id":"chatcmpl-3","object":"chat.completion","created":1,"model":"gpt-4o","service_tier":"default",
	"choices":[{"index":0,"finish_reason":"tool_calls","logprobs":null,"message":{"role":"assistant","content":null,"refusal":null,"annotations":[],"x_extra":{"kept":true},
		"tool_calls":[
			{"id":"call_w","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},
			{"id":"call_t","type":"function","function":{"name":"teleport","arguments":"{\"to\":\"Mars\"}"}},
			{"id":"call_a","type":"function","function":{"name":"add","arguments":"{\"a\":1,\"b\":2}"}}]}}],
	"usage":{"prompt_tokens":50,"completion_tokens":40,"total_tokens":90}}`

// results runs calls and returns their results, an error result among them.
func results(t *testing.T) []runtime.CallResult {
	calls := []runtime.ToolCall{
		call("call_1", "get_weather", `{"city":"Lyon"}`),
		call("call_2", "fail", `{}`),
		call("call_3", "get_weather", `{"town":"Lyon"}`),
	}
	res := testTools().RunCalls(context.Background(), calls, 0)
	if !res[1].Result.IsError || !res[2].Result.IsError {
		t.Fatalf("the failing calls succeeded: %+v", res)
	}
	return res
}

// The tool messages are what the SDK sends: each unmarshals into the SDK's message
// union as a tool message with the call's id and the result's text, and marshals back
// the same.
func TestChatToolMessagesMatchSDK(t *testing.T) {
	res := results(t)
	for i, m := range openai.ChatToolMessages(res) {
		ours := wiretest.MustMarshal(t, m)
		var u sdk.ChatCompletionMessageParamUnion
		if err := json.Unmarshal(ours, &u); err != nil {
			t.Fatalf("the SDK rejects %s: %v", ours, err)
		}
		if u.OfTool == nil || u.OfTool.ToolCallID != res[i].Call.ID || u.OfTool.Content.OfString.Value != res[i].Result.Text() {
			t.Errorf("the SDK reads %s as %+v", ours, u)
		}
		wiretest.SameJSON(t, "tool message through the SDK", wiretest.MustMarshal(t, u), ours)
		theirs := sdk.ToolMessage(res[i].Result.Text(), res[i].Call.ID)
		wiretest.SameJSON(t, "tool message built by the SDK", ours, wiretest.MustMarshal(t, theirs))
	}
	if m := openai.ChatToolMessages(res)[1]; m.Content != "the service is down" {
		t.Errorf("the error result reads %q", m.Content)
	}
}

func TestResponsesOutputsMatchSDK(t *testing.T) {
	res := results(t)
	for i, o := range openai.ResponsesOutputs(res) {
		ours := wiretest.MustMarshal(t, o)
		var u responses.ResponseInputItemUnionParam
		if err := json.Unmarshal(ours, &u); err != nil {
			t.Fatalf("the SDK rejects %s: %v", ours, err)
		}
		f := u.OfFunctionCallOutput
		if f == nil || f.CallID.Value != res[i].Call.ID || f.Output.OfString.Value != res[i].Result.Text() {
			t.Errorf("the SDK reads %s as %+v", ours, u)
		}
		wiretest.SameJSON(t, "function_call_output through the SDK", wiretest.MustMarshal(t, u), ours)
		theirs := responses.ResponseInputItemParamOfFunctionCallOutput(res[i].Result.Text())
		theirs.OfFunctionCallOutput.CallID = param.NewOpt(res[i].Call.ID)
		wiretest.SameJSON(t, "function_call_output built by the SDK", ours, wiretest.MustMarshal(t, theirs))
	}
}
