package openai_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
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

// sdkCompletion is a chat completion with two tool calls, as the SDK's types encode it
// (interop/runtimeopenai checks that the SDK builds exactly this fixture).
func sdkCompletion(t *testing.T) []byte {
	return wiretest.ReadFile(t, "testdata/sdk_completion.json")
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
		// function call, and fields this package does not know. The custom call is a
		// call too, its free text as the input argument: it is echoed, so it must be
		// answered.
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
		want: []runtime.ToolCall{call("call_1", "lookup", "{}"), call("call_2", "format", `{"input":"original"}`)},
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
	}, {
		// A text answer cut short has no call to take half written.
		name: "text cut by length",
		body: `{"choices":[{"index":0,"message":{"role":"assistant","content":"Once upon a"},"finish_reason":"length"}]}`,
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
		// interop/runtimeopenai checks that the SDK reads the same calls.
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
		{`{"choices":[{"message":{"tool_calls":"many"}}]}`, "message"},
		{`{"choices":[{"message":{"tool_calls":[{"id":"c","type":"custom","custom":{"input":"x"}}]}}]}`, "tool call 0 (c) has no custom tool name"},
		{`{"choices":[{"message":{"tool_calls":[{"id":"c","type":"computer","computer":{}}]}}]}`, `tool call 0 (c) is of type "computer", which this package cannot answer`},
		// Two calls with one id cannot both be answered.
		{`{"choices":[{"message":{"tool_calls":[
			{"id":"c","type":"function","function":{"name":"ping","arguments":"{}"}},
			{"id":"d","type":"function","function":{"name":"ping","arguments":"{}"}},
			{"id":"c","type":"custom","custom":{"name":"format","input":"x"}}]}}]}`, `calls 0 (ping) and 2 (format) have the same id "c"`},
		// A turn cut short is never taken, even when its arguments happen to be JSON.
		{`{"choices":[{"finish_reason":"length","message":{"tool_calls":[
			{"id":"c","type":"function","function":{"name":"ping","arguments":"{}"}},
			{"id":"d","type":"function","function":{"name":"add","arguments":"{\"a\":1}"}}]}}]}`,
			`the chat completion was cut short (finish_reason "length": it reached max_completion_tokens or the context window; raise max_completion_tokens) with 2 tool call(s), the last add (d) maybe incomplete: none is taken`},
		{`{"choices":[{"finish_reason":"content_filter","message":{"tool_calls":[{"id":"c","type":"custom","custom":{"name":"format","input":"x"}}]}}]}`,
			`finish_reason "content_filter": the content filter stopped it`},
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

// sdkResponse is a Responses body whose output items the SDK's types encode: a
// reasoning item, a message and two function calls (interop/runtimeopenai checks that
// the SDK builds exactly this fixture, and reads the same calls from it).
func sdkResponse(t *testing.T) []byte {
	return wiretest.ReadFile(t, "testdata/sdk_response.json")
}

func TestResponsesCallsFromSDKItems(t *testing.T) {
	body := sdkResponse(t)
	calls, err := openai.ResponsesCalls(body)
	if err != nil {
		t.Fatal(err)
	}
	want := []runtime.ToolCall{call("call_1", "get_weather", `{"city":"Paris"}`), call("call_2", "get_weather", `{"city":"Tokyo"}`)}
	sameCalls(t, "SDK-built response", calls, want...)
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
	}, {
		// A custom tool call's free text is its input argument.
		name: "custom tool call",
		body: `{"id":"resp_4","status":"completed","output":[{"type":"custom_tool_call","id":"ctc_1","call_id":"call_c","name":"code_exec","input":"print(\"hi\")\n"},
			{"type":"function_call","id":"fc_1","call_id":"call_f","name":"ping","arguments":"{}"}]}`,
		want: []runtime.ToolCall{call("call_c", "code_exec", `{"input":"print(\"hi\")\n"}`), call("call_f", "ping", "{}")},
	}, {
		// Arguments that are not a string go to the Toolset as they are.
		name: "arguments not a string",
		body: `{"id":"resp_5","output":[{"type":"function_call","call_id":"c1","name":"add","arguments":{"a":1}},{"type":"function_call","call_id":"c2","name":"add","arguments":[1,2]}]}`,
		want: []runtime.ToolCall{call("c1", "add", `{"a":1}`), call("c2", "add", `[1,2]`)},
	}, {
		// An incomplete response without calls has no call to take half written.
		name: "incomplete text",
		body: `{"id":"resp_6","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[{"type":"reasoning","id":"rs","summary":[]}]}`,
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
		{`{"output":[{"type":"custom_tool_call","id":"ctc","name":"x","input":"a"}]}`, "output item 0 (custom_tool_call ctc) has no call_id"},
		{`{"output":[{"type":"custom_tool_call","call_id":"c","input":"a"}]}`, "output item 0 (custom_tool_call c) has no name"},
		{`{"output":[{"type":"function_call","call_id":"c","name":"ping","arguments":"{}"},{"type":"custom_tool_call","call_id":"c","name":"format","input":"a"}]}`,
			`calls 0 (ping) and 1 (format) have the same id "c"`},
		// A response cut short is never taken, even when its arguments happen to be JSON.
		{`{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[{"type":"function_call","call_id":"c","name":"add","arguments":"{\"a\":1}","status":"completed"}]}`,
			"the response is incomplete (max_output_tokens) with 1 call(s), the last add (c) maybe cut: none is taken; for max_output_tokens, raise it"},
		{`{"status":"incomplete","incomplete_details":{"reason":"content_filter"},"output":[{"type":"custom_tool_call","call_id":"c","name":"format","input":"a"}]}`,
			"the response is incomplete (content_filter)"},
		{`{"status":"incomplete","output":[{"type":"function_call","call_id":"c","name":"add","arguments":"{}"}]}`, "incomplete (no reason given)"},
		{`{"output":[{"type":"function_call","call_id":"c","name":"add","arguments":"{\"a\":","status":"incomplete"}]}`, "output item 0 (function_call add, c) is incomplete"},
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
	for _, none := range []string{"", "null", " null "} {
		// As ArgumentsMap, and the Toolset, read them: no arguments.
		if m, err := openai.ArgumentsMap(call("c", "f", none)); err != nil || len(m) != 0 {
			t.Errorf("ArgumentsMap(%q) = %v, %v; want an empty map", none, m, err)
		}
	}
	for _, bad := range []string{`[1]`, `"x"`, `{"a":`} {
		if _, err := openai.ArgumentsMap(call("c", "f", bad)); err == nil {
			t.Errorf("ArgumentsMap(%s) did not fail", bad)
		}
		if _, ok := openai.Argument(call("c", "f", bad), "a"); ok {
			t.Errorf("Argument(%s, a) is present", bad)
		}
	}
}
