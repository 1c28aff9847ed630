package runtimeopenai_test

// From runtime/openai's tests: every call answered, as the SDK reads the conversation.

import (
	"encoding/json"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

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
	// runtime/openai's TestChatEveryCallAnswered checks each answer; here the SDK reads
	// the conversation Continue writes: every call the assistant message echoes,
	// custom one included, answered by the tool message after it.
	ts := testTools()
	req, _ := openai.Chat{}.Prepare([]byte(chatRequest), ts, loop.ChoiceAuto)
	next, _ := wiretest.Round(t, openai.Chat{}, ts, req, []byte(mixedCalls), "tools", "tool_choice", "messages")
	var params []sdk.ChatCompletionMessageParamUnion
	if err := json.Unmarshal(wiretest.Fields(t, next)["messages"], &params); err != nil {
		t.Fatal(err)
	}
	echoed := params[2].OfAssistant.ToolCalls
	if len(echoed) != 6 || len(params) != 3+6 {
		t.Fatalf("the conversation has %d messages and %d echoed calls", len(params), len(echoed))
	}
	for i, c := range echoed {
		id := c.GetID()
		if id == nil || params[3+i].OfTool == nil || params[3+i].OfTool.ToolCallID != *id {
			t.Errorf("echoed call %d (%v) is not answered by message %d", i, id, 3+i)
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
	// runtime/openai's TestResponsesCustomCallAnswered checks the outputs; here the SDK
	// reads the answers Continue writes: the custom call's in its own item type.
	ts := runtime.Join(wiretest.CustomTools(), testTools())
	next, _ := wiretest.Round(t, openai.Responses{}, ts, []byte(responsesRequest), []byte(customResponse), "input")
	var input []json.RawMessage
	if err := json.Unmarshal(wiretest.Fields(t, next)["input"], &input); err != nil || len(input) != 5 {
		t.Fatalf("input = %s (%v)", wiretest.Fields(t, next)["input"], err)
	}
	var item responses.ResponseInputItemUnionParam
	if err := json.Unmarshal(input[3], &item); err != nil || item.OfCustomToolCallOutput == nil || item.OfCustomToolCallOutput.CallID != "call_c" ||
		item.OfCustomToolCallOutput.Output.OfString.Value != "ran print(1)" {
		t.Errorf("the answer to the custom call is %s (%v)", input[3], err)
	}
	if err := json.Unmarshal(input[4], &item); err != nil || item.OfFunctionCallOutput == nil || item.OfFunctionCallOutput.CallID.Value != "call_f" {
		t.Errorf("the answer to the function call is %s (%v)", input[4], err)
	}
}
