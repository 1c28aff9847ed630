package openai_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wiretest"
	"github.com/toolgen/toolgen/runtime/openai"
)

func call(id, name, args string) runtime.ToolCall {
	return runtime.ToolCall{ID: id, Name: name, Arguments: []byte(args)}
}

func sameCalls(t *testing.T, what string, got []runtime.ToolCall, want ...runtime.ToolCall) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d calls %s, want %d", what, len(got), wiretest.CallsText(got), len(want))
	}
	for i := range got {
		if got[i].ID != want[i].ID || got[i].Name != want[i].Name || string(got[i].Arguments) != string(want[i].Arguments) {
			t.Errorf("%s: call %d is %s, want %s", what, i, wiretest.CallsText(got[i:i+1]), wiretest.CallsText(want[i:i+1]))
		}
	}
}

// sdkCompletion is a chat completion with two tool calls, built with the SDK's types.
func sdkCompletion(t *testing.T) []byte {
	return wiretest.MustMarshal(t, sdk.ChatCompletion{
		ID: "chatcmpl-1", Object: "chat.completion", Created: 1725392480, Model: "gpt-4o",
		Choices: []sdk.ChatCompletionChoice{{
			FinishReason: "tool_calls",
			Message: sdk.ChatCompletionMessage{Role: "assistant", ToolCalls: []sdk.ChatCompletionMessageToolCallUnion{
				{ID: "call_a", Type: "function", Function: sdk.ChatCompletionMessageFunctionToolCallFunction{Name: "get_weather", Arguments: `{"city":"Paris"}`}},
				{ID: "call_b", Type: "function", Function: sdk.ChatCompletionMessageFunctionToolCallFunction{Name: "add", Arguments: `{"a":1,"b":2.5}`}},
			}},
		}},
	})
}

func TestChatCallsFromSDKCompletion(t *testing.T) {
	body := sdkCompletion(t)
	calls, err := openai.ChatCalls(body)
	if err != nil {
		t.Fatal(err)
	}
	sameCalls(t, "SDK-built completion", calls,
		call("call_a", "get_weather", `{"city":"Paris"}`), call("call_b", "add", `{"a":1,"b":2.5}`))
	if !openai.HasToolCalls(body) {
		t.Error("HasToolCalls is false")
	}
}

func TestChatCallsRecorded(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
		want []runtime.ToolCall
	}{{
		// The documented shape: content null, finish_reason tool_calls.
		name: "docs",
		body: `{"id":"chatcmpl-abc123","object":"chat.completion","created":1699896916,"model":"gpt-4o-mini",
			"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[
				{"id":"call_abc123","type":"function","function":{"name":"get_weather","arguments":"{\n\"city\": \"Boston, MA\"\n}"}}]},
				"logprobs":null,"finish_reason":"tool_calls"}],
			"usage":{"prompt_tokens":82,"completion_tokens":17,"total_tokens":99}}`,
		want: []runtime.ToolCall{call("call_abc123", "get_weather", "{\n\"city\": \"Boston, MA\"\n}")},
	}, {
		// A forced function reports finish_reason "stop": the calls count, not the reason.
		name: "forced",
		body: `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[
				{"id":"call_1","type":"function","function":{"name":"ping","arguments":"{}"}}]},"finish_reason":"stop"}]}`,
		want: []runtime.ToolCall{call("call_1", "ping", "{}")},
	}, {
		// From the SDK's chatcompletion_helpers_test.go: a custom tool call beside a
		// function call, and fields this package does not know.
		name: "sdk message with custom call",
		body: `{"choices":[{"index":0,"finish_reason":"tool_calls","message":{
				"role":"assistant","content":"original","refusal":"no",
				"audio":{"id":"audio_1","data":"synthetic","expires_at":123,"transcript":"not copied"},
				"function_call":{"name":"legacy","arguments":"{}"},
				"tool_calls":[
					{"id":"call_1","type":"function","function":{"name":"lookup","arguments":"{}"}},
					{"id":"call_2","type":"custom","custom":{"name":"format","input":"original"}}],
				"annotations":[{"type":"url_citation","url_citation":{"start_index":0,"end_index":1,"title":"fixture","url":"https://example.com"}}],
				"extension":"not copied"}}]}`,
		want: []runtime.ToolCall{call("call_1", "lookup", "{}")},
	}, {
		// From the SDK's chatcompletion_helpers_test.go: null entries are skipped.
		name: "null entries",
		body: `{"choices":[{"index":0,"message":{"role":"assistant","tool_calls":[null,{"id":"known","type":"function","function":{"name":"lookup","arguments":"{}"}},null]}}]}`,
		want: []runtime.ToolCall{call("known", "lookup", "{}")},
	}, {
		name: "no calls",
		body: `{"choices":[{"index":0,"message":{"role":"assistant","content":"Hello.","tool_calls":null},"finish_reason":"stop"}]}`,
	}, {
		name: "empty arguments",
		body: `{"choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"ping","arguments":""}}]}}]}`,
		want: []runtime.ToolCall{call("c", "ping", "{}")},
	}} {
		calls, err := openai.ChatCalls([]byte(tc.body))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		sameCalls(t, tc.name, calls, tc.want...)
		if openai.HasToolCalls([]byte(tc.body)) != (len(tc.want) > 0) {
			t.Errorf("%s: HasToolCalls is %v", tc.name, !(len(tc.want) > 0))
		}
		// The SDK reads the same calls from the same body.
		var c sdk.ChatCompletion
		if err := json.Unmarshal([]byte(tc.body), &c); err != nil {
			t.Fatalf("%s: the SDK rejects the body: %v", tc.name, err)
		}
		var theirs []runtime.ToolCall
		for _, tcall := range c.Choices[0].Message.ToolCalls {
			if tcall.Type == "function" {
				theirs = append(theirs, runtime.ToolCall{ID: tcall.ID, Name: tcall.Function.Name, Arguments: []byte(tcall.Function.Arguments)})
			}
		}
		for i := range theirs {
			if string(theirs[i].Arguments) == "" {
				theirs[i].Arguments = []byte("{}")
			}
		}
		sameCalls(t, tc.name+" (as the SDK reads it)", calls, theirs...)
	}
}

func TestChatCallsMalformed(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`not json`, "not a JSON object"},
		{`null`, "not a JSON object"},
		{`[]`, "not a JSON object"},
		{`{"object":"chat.completion"}`, `no "choices"`},
		{`{"choices":[]}`, "no choices"},
		{`{"choices":{}}`, "not an array"},
		{`{"choices":[{"index":0}]}`, "no message"},
		{`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`, "invalid_api_key: Incorrect API key provided"},
		{`{"choices":[{"message":{"tool_calls":[{"type":"function","function":{"name":"x","arguments":"{}"}}]}}]}`, "tool call 0 has no id"},
		{`{"choices":[{"message":{"tool_calls":[{"id":"c","type":"function","function":{"arguments":"{}"}}]}}]}`, "no function name"},
		{`{"choices":[{"message":{"tool_calls":[{"id":"c","type":"function","function":{"name":"x","arguments":42}}]}}]}`, "neither a JSON string nor an object"},
		{`{"choices":[{"message":{"tool_calls":"many"}}]}`, "message"},
	} {
		_, err := openai.ChatCalls([]byte(tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ChatCalls(%s) = %v, want an error with %q", tc.body, err, tc.want)
		}
		if openai.HasToolCalls([]byte(tc.body)) {
			t.Errorf("HasToolCalls(%s) is true", tc.body)
		}
	}
}

// sdkResponse is a Responses body whose output items are built with the SDK's types: a
// reasoning item, a message and two function calls.
func sdkResponse(t *testing.T) []byte {
	items := []any{
		responses.ResponseReasoningItem{ID: "rs_1", Summary: []responses.ResponseReasoningItemSummary{{Text: "Two cities."}}},
		responses.ResponseOutputMessage{ID: "msg_1", Role: "assistant", Status: "completed",
			Content: []responses.ResponseOutputMessageContentUnion{{Type: "output_text", Text: "Checking."}}},
		responses.ResponseFunctionToolCall{ID: "fc_1", CallID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`, Status: "completed"},
		responses.ResponseFunctionToolCall{ID: "fc_2", CallID: "call_2", Name: "get_weather", Arguments: `{"city":"Tokyo"}`, Status: "completed"},
	}
	output := make([]json.RawMessage, len(items))
	for i, it := range items {
		output[i] = wiretest.MustMarshal(t, it)
	}
	return wiretest.MustMarshal(t, map[string]any{
		"id": "resp_1", "object": "response", "created_at": 1741476542, "status": "completed",
		"model": "gpt-4.1", "error": nil, "output": output, "x_unknown": map[string]int{"kept": 1},
	})
}

func TestResponsesCallsFromSDKItems(t *testing.T) {
	body := sdkResponse(t)
	calls, err := openai.ResponsesCalls(body)
	if err != nil {
		t.Fatal(err)
	}
	want := []runtime.ToolCall{call("call_1", "get_weather", `{"city":"Paris"}`), call("call_2", "get_weather", `{"city":"Tokyo"}`)}
	sameCalls(t, "SDK-built response", calls, want...)
	// The SDK reads the same calls from the body.
	var r responses.Response
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatal(err)
	}
	var theirs []runtime.ToolCall
	for _, item := range r.Output {
		if item.Type == "function_call" {
			fc := item.AsFunctionCall()
			theirs = append(theirs, runtime.ToolCall{ID: fc.CallID, Name: fc.Name, Arguments: []byte(fc.Arguments)})
		}
	}
	sameCalls(t, "SDK reading", theirs, want...)
	if !openai.HasToolCalls(body) {
		t.Error("HasToolCalls is false")
	}
}

func TestResponsesCallsRecorded(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
		want []runtime.ToolCall
	}{{
		// From the SDK's deferred_tools_test.go.
		name: "sdk fixture",
		body: `{"id":"resp_test","output":[{"type":"function_call","id":"fc_test","call_id":"call","name":"lookup_item","arguments":"{\"item_id\":\"A123\"}","status":"completed"}]}`,
		want: []runtime.ToolCall{call("call", "lookup_item", `{"item_id":"A123"}`)},
	}, {
		name: "text only",
		body: `{"id":"resp_2","object":"response","status":"completed","error":null,"output":[{"type":"message","id":"msg","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Hi","annotations":[]}]}]}`,
	}, {
		name: "empty output",
		body: `{"id":"resp_3","output":[]}`,
	}} {
		calls, err := openai.ResponsesCalls([]byte(tc.body))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		sameCalls(t, tc.name, calls, tc.want...)
		if openai.HasToolCalls([]byte(tc.body)) != (len(tc.want) > 0) {
			t.Errorf("%s: HasToolCalls is wrong", tc.name)
		}
	}
}

func TestResponsesCallsMalformed(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{`, "not a JSON object"},
		{`{"id":"resp"}`, `no "output"`},
		{`{"output":"text"}`, "not an array"},
		{`{"status":"failed","output":[],"error":{"code":"server_error","message":"The model failed."}}`, "server_error: The model failed."},
		{`{"output":[{"type":"function_call","id":"fc","name":"x","arguments":"{}"}]}`, "has no call_id"},
		{`{"output":[{"type":"function_call","id":"fc","call_id":"c","arguments":"{}"}]}`, "has no name"},
		{`{"output":[7]}`, "output item 0"},
	} {
		_, err := openai.ResponsesCalls([]byte(tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ResponsesCalls(%s) = %v, want an error with %q", tc.body, err, tc.want)
		}
	}
}

func TestArguments(t *testing.T) {
	c := call("c", "f", `{"city":"Paris","days":3,"tags":["a", "b"],"opt":null,"nested":{"x": true},"quote":"say \"hi\""}`)
	got, err := openai.ArgumentsMap(c)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"city": "Paris", "days": "3", "tags": `["a","b"]`, "opt": "null", "nested": `{"x":true}`, "quote": `say "hi"`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ArgumentsMap = %v, want %v", got, want)
	}
	if v, ok := openai.Argument(c, "city"); !ok || v != "Paris" {
		t.Errorf("Argument(city) = %q, %v", v, ok)
	}
	if v, ok := openai.Argument(c, "nested"); !ok || v != `{"x":true}` {
		t.Errorf("Argument(nested) = %q, %v", v, ok)
	}
	if _, ok := openai.Argument(c, "missing"); ok {
		t.Error("Argument(missing) is present")
	}
	if m, err := openai.ArgumentsMap(call("c", "f", "")); err != nil || len(m) != 0 {
		t.Errorf("ArgumentsMap of no arguments = %v, %v", m, err)
	}
	for _, bad := range []string{`[1]`, `"x"`, `{"a":`, `null`} {
		if _, err := openai.ArgumentsMap(call("c", "f", bad)); err == nil {
			t.Errorf("ArgumentsMap(%s) did not fail", bad)
		}
		if _, ok := openai.Argument(call("c", "f", bad), "a"); ok {
			t.Errorf("Argument(%s, a) is present", bad)
		}
	}
}
