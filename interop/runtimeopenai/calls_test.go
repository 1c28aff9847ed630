package runtimeopenai_test

// From runtime/openai's tests: calls read from bodies the SDK builds and reads.

import (
	"encoding/json"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

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
		// The SDK reads the same calls from the same body.
		var c sdk.ChatCompletion
		if err := json.Unmarshal([]byte(tc.body), &c); err != nil {
			t.Fatalf("%s: the SDK rejects the body: %v", tc.name, err)
		}
		var theirs []runtime.ToolCall
		for _, tcall := range c.Choices[0].Message.ToolCalls {
			switch tcall.Type {
			case "function":
				theirs = append(theirs, runtime.ToolCall{ID: tcall.ID, Name: tcall.Function.Name, Arguments: []byte(tcall.Function.Arguments)})
			case "custom":
				input := wiretest.MustMarshal(t, map[string]string{"input": tcall.Custom.Input})
				theirs = append(theirs, runtime.ToolCall{ID: tcall.ID, Name: tcall.Custom.Name, Arguments: input})
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

// TestSDKFixtures checks that runtime/openai's fixtures sdk_completion.json and
// sdk_response.json, which its tests read in place of sdkCompletion and sdkResponse,
// are what the SDK's types encode.
func TestSDKFixtures(t *testing.T) {
	for file, built := range map[string][]byte{
		"sdk_completion.json": sdkCompletion(t),
		"sdk_response.json":   sdkResponse(t),
	} {
		fixture := wiretest.ReadFile(t, "../../runtime/openai/testdata/"+file)
		if !wiretest.JSONEqual(t, fixture, built) {
			t.Errorf("runtime/openai/testdata/%s is not what the SDK builds:\n%s", file, built)
		}
	}
}
