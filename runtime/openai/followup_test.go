package openai_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wiretest"
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

func TestRunChatAnswersEveryCallInOrder(t *testing.T) {
	msgs, err := openai.RunChat(context.Background(), testTools(), []byte(threeCalls))
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 3 {
		t.Fatalf("got %d messages, want 3: %+v", len(msgs), msgs)
	}
	for i, want := range []struct{ id, content string }{
		{"call_w", "Sunny in Paris"},
		{"call_t", `unknown tool "teleport"`},
		{"call_a", "3"},
	} {
		m := msgs[i]
		if m.Role != "tool" || m.ToolCallID != want.id || !strings.Contains(m.Content, want.content) {
			t.Errorf("message %d = %+v, want tool call %s with %q", i, m, want.id, want.content)
		}
	}
	if msgs, err := openai.RunChat(context.Background(), testTools(), []byte(`{"choices":[{"message":{"role":"assistant","content":"Hi"}}]}`)); err != nil || msgs != nil {
		t.Errorf("RunChat without calls = %v, %v", msgs, err)
	}
	if _, err := openai.RunChat(context.Background(), testTools(), []byte(`{}`)); err == nil {
		t.Error("RunChat on a bad body does not fail")
	}
}

func TestRunResponses(t *testing.T) {
	outs, err := openai.RunResponses(context.Background(), testTools(), sdkResponse(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != 2 || outs[0].CallID != "call_1" || outs[0].Output != "Sunny in Paris" ||
		outs[1].CallID != "call_2" || outs[1].Output != "Sunny in Tokyo" || outs[0].Type != "function_call_output" {
		t.Errorf("RunResponses = %+v", outs)
	}
}

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
