package openai_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/openai"
)

// mixedCalls is a chat completion whose calls are a working one, calls whose
// arguments are not a JSON string (a number, an array, an object, a string of broken
// JSON) and a custom tool call of a tool the Toolset lacks.
const mixedCalls = `{"id":"chatcmpl-m","object":"chat.completion","created":1,"model":"gpt-5",
	"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[
		{"id":"call_w","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},
		{"id":"call_n","type":"function","function":{"name":"add","arguments":42}},
		{"id":"call_l","type":"function","function":{"name":"get_weather","arguments":["Paris"]}},
		{"id":"call_o","type":"function","function":{"name":"add","arguments":{"a":1,"b":2}}},
		{"id":"call_b","type":"function","function":{"name":"get_weather","arguments":"{\"city\":"}},
		{"id":"call_c","type":"custom","custom":{"name":"code_exec","input":"print(1)"}}]}}]}`

// TestChatEveryCallAnswered: a malformed call gets its own argument error, a custom
// call its unknown-tool error, each under its id, and the other calls run: no call is
// echoed unanswered, and no malformed call takes the turn down.
func TestChatEveryCallAnswered(t *testing.T) {
	msgs, err := openai.RunChat(context.Background(), testTools(), []byte(mixedCalls))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ id, text string }{
		{"call_w", "Sunny in Paris"},
		{"call_n", "invalid arguments for add"},
		{"call_l", "invalid arguments for get_weather"},
		{"call_o", "3"},
		{"call_b", "invalid arguments for get_weather"},
		{"call_c", `unknown tool "code_exec"`},
	}
	if len(msgs) != len(want) {
		t.Fatalf("RunChat = %d messages, want %d: %+v", len(msgs), len(want), msgs)
	}
	for i, w := range want {
		if msgs[i].ToolCallID != w.id || !strings.Contains(msgs[i].Content, w.text) {
			t.Errorf("message %d = %+v, want %s with %q", i, msgs[i], w.id, w.text)
		}
	}

	// Continue answers every call the assistant message echoes, custom one included
	// (interop/runtimeopenai reads the conversation with the SDK's types).
	ts := testTools()
	req, _ := openai.Chat{}.Prepare([]byte(chatRequest), ts, loop.ChoiceAuto)
	next, _ := wiretest.Round(t, openai.Chat{}, ts, req, []byte(mixedCalls), "tools", "tool_choice", "messages")
	var conv []struct {
		Role       string `json:"role"`
		ToolCallID string `json:"tool_call_id"`
		ToolCalls  []struct {
			ID string `json:"id"`
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal(wiretest.Fields(t, next)["messages"], &conv); err != nil {
		t.Fatal(err)
	}
	echoed := conv[2].ToolCalls
	if len(echoed) != len(want) || len(conv) != 3+len(want) {
		t.Fatalf("the conversation has %d messages and %d echoed calls", len(conv), len(echoed))
	}
	for i, c := range echoed {
		if m := conv[3+i]; m.Role != "tool" || m.ToolCallID != c.ID || c.ID != want[i].id {
			t.Errorf("echoed call %d (%s) is not answered by message %d", i, c.ID, 3+i)
		}
	}
}

// customResponse is a Responses body with a custom tool call beside a function call.
const customResponse = `{"id":"resp_c","object":"response","status":"completed","output":[
	{"type":"custom_tool_call","id":"ctc_1","call_id":"call_c","name":"code_exec","input":"print(1)","status":"completed"},
	{"type":"function_call","id":"fc_1","call_id":"call_f","name":"get_weather","arguments":"{\"city\":\"Oslo\"}","status":"completed"}]}`

// TestResponsesCustomCallAnswered: a custom_tool_call is run as a call with its text
// as the input argument and answered with a custom_tool_call_output item.
func TestResponsesCustomCallAnswered(t *testing.T) {
	ts := runtime.Join(wiretest.CustomTools(), testTools())
	outs, err := openai.RunResponses(context.Background(), ts, []byte(customResponse))
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != 2 || outs[0] != (openai.FunctionCallOutput{Type: "custom_tool_call_output", CallID: "call_c", Output: "ran print(1)"}) ||
		outs[1] != (openai.FunctionCallOutput{Type: "function_call_output", CallID: "call_f", Output: "Sunny in Oslo"}) {
		t.Errorf("RunResponses = %+v", outs)
	}
	calls, err := openai.ResponsesCalls([]byte(customResponse))
	if err != nil {
		t.Fatal(err)
	}
	res := ts.RunCalls(context.Background(), calls, 0)
	for name, got := range map[string][]openai.FunctionCallOutput{
		"ResponsesOutputsFor": must(openai.ResponsesOutputsFor([]byte(customResponse), res)),
		"reversed results":    must(openai.ResponsesOutputsFor([]byte(customResponse), []runtime.CallResult{res[1], res[0]})),
	} {
		if len(got) != 2 || got[0] != outs[0] || got[1] != outs[1] {
			t.Errorf("%s = %+v, want %+v", name, got, outs)
		}
	}
	if _, err := openai.ResponsesOutputsFor([]byte(customResponse), res[:1]); err == nil || !strings.Contains(err.Error(), "call call_f (get_weather) has no result") {
		t.Errorf("ResponsesOutputsFor with a call unanswered = %v", err)
	}

	// Continue answers the custom call with its own item type, which the SDK reads.
	next, _ := wiretest.Round(t, openai.Responses{}, ts, []byte(responsesRequest), []byte(customResponse), "input")
	var input []json.RawMessage
	if err := json.Unmarshal(wiretest.Fields(t, next)["input"], &input); err != nil || len(input) != 5 {
		t.Fatalf("input = %s (%v)", wiretest.Fields(t, next)["input"], err)
	}
	// interop/runtimeopenai reads the items with the SDK's types.
	var item struct {
		Type   string `json:"type"`
		CallID string `json:"call_id"`
		Output string `json:"output"`
	}
	if err := json.Unmarshal(input[3], &item); err != nil || item.Type != "custom_tool_call_output" || item.CallID != "call_c" || item.Output != "ran print(1)" {
		t.Errorf("the answer to the custom call is %s (%v)", input[3], err)
	}
	if err := json.Unmarshal(input[4], &item); err != nil || item.Type != "function_call_output" || item.CallID != "call_f" {
		t.Errorf("the answer to the function call is %s (%v)", input[4], err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
