package openai_test

import (
	"context"
	"strings"
	"testing"

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

// The answers on the wire: a tool message and a function_call_output item per call, in
// order, with the result's text, the error results' among them (interop/runtimeopenai
// checks that the SDK reads and builds the same).
func TestAnswersWire(t *testing.T) {
	res := results(t)
	invalid := `invalid arguments for get_weather: /town: unknown property; expected one of \"city\", \"unit\"; /city: missing required property`
	wiretest.SameJSON(t, "tool messages", wiretest.MustMarshal(t, openai.ChatToolMessages(res)), []byte(`[
		{"role":"tool","tool_call_id":"call_1","content":"Sunny in Lyon"},
		{"role":"tool","tool_call_id":"call_2","content":"the service is down"},
		{"role":"tool","tool_call_id":"call_3","content":"`+invalid+`"}]`))
	wiretest.SameJSON(t, "function_call_output items", wiretest.MustMarshal(t, openai.ResponsesOutputs(res)), []byte(`[
		{"type":"function_call_output","call_id":"call_1","output":"Sunny in Lyon"},
		{"type":"function_call_output","call_id":"call_2","output":"the service is down"},
		{"type":"function_call_output","call_id":"call_3","output":"`+invalid+`"}]`))
}
