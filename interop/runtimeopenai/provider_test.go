package runtimeopenai_test

// From runtime/openai's tests: requests the Loop's provider writes, as the SDK reads them.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/openai"
)

const chatRequest = `{"model":"gpt-4o","temperature":0.2,"metadata":{"run":"t1"},"x_vendor":{"keep":[1,2]},
	"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Weather in Paris, and 1+2?"}],
	"tools":[{"type":"function","function":{"name":"user_tool","parameters":{"type":"object"}}}]}`

func toolNames(t *testing.T, tools json.RawMessage, chat bool) []string {
	t.Helper()
	var list []struct {
		Name     string `json:"name"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if err := json.Unmarshal(tools, &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, x := range list {
		if chat {
			names = append(names, x.Function.Name)
		} else {
			names = append(names, x.Name)
		}
	}
	return names
}

func TestChatPrepare(t *testing.T) {
	ts := testTools()
	req := wiretest.Prepare(t, openai.Chat{}, ts, []byte(chatRequest), loop.ChoiceAuto, "tools", "tool_choice")
	// runtime/openai's TestChatPrepare checks the request's fields; here the SDK reads it,
	// its tools function tools.
	var p sdk.ChatCompletionNewParams
	if err := json.Unmarshal(req, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Tools) != 5 || p.Tools[3].OfFunction == nil || p.Tools[3].OfFunction.Function.Name != "get_weather" ||
		!p.Tools[3].OfFunction.Function.Strict.Value || p.ToolChoice.OfAuto.Value != "auto" {
		t.Errorf("the SDK reads the request otherwise: %s", req)
	}
}

func TestChatContinue(t *testing.T) {
	ts := testTools()
	req, _ := openai.Chat{}.Prepare([]byte(chatRequest), ts, loop.ChoiceAuto)
	p := openai.Chat{}
	next, _ := wiretest.Round(t, p, ts, req, []byte(threeCalls), "tools", "tool_choice", "messages")
	// runtime/openai's TestChatContinue checks the messages' JSON, the order of answers and
	// the refusals; here the SDK reads the conversation.
	var msgs []json.RawMessage
	json.Unmarshal(wiretest.Fields(t, next)["messages"], &msgs)

	// The SDK reads the conversation: system, user, the assistant's three calls, then
	// one tool message per call, in order.
	var params []sdk.ChatCompletionMessageParamUnion
	if err := json.Unmarshal(wiretest.Fields(t, next)["messages"], &params); err != nil {
		t.Fatal(err)
	}
	if params[0].OfSystem == nil || params[1].OfUser == nil || params[2].OfAssistant == nil || len(params[2].OfAssistant.ToolCalls) != 3 {
		t.Fatalf("the SDK reads the messages otherwise: %s", wiretest.Fields(t, next)["messages"])
	}
	for i, want := range []struct{ id, text string }{
		{"call_w", "Sunny in Paris"}, {"call_t", `unknown tool "teleport"`}, {"call_a", "3"},
	} {
		m := params[3+i].OfTool
		if m == nil || m.ToolCallID != want.id || !strings.Contains(m.Content.OfString.Value, want.text) {
			t.Errorf("message %d: got %s, want a tool message for %s with %q", 3+i, msgs[3+i], want.id, want.text)
		}
		if params[2].OfAssistant.ToolCalls[i].OfFunction.ID != want.id {
			t.Errorf("assistant call %d is not %s", i, want.id)
		}
	}

}

const responsesRequest = `{"model":"gpt-4.1","instructions":"Be brief.","input":"Weather in Paris and Tokyo?","store":false,"x_vendor":1,
	"tools":[{"type":"web_search"},{"type":"function","name":"get_weather","parameters":{},"strict":false}]}`

func TestResponsesPrepare(t *testing.T) {
	ts := testTools()
	req := wiretest.Prepare(t, openai.Responses{}, ts, []byte(responsesRequest), loop.ChoiceRequired, "tools", "tool_choice")
	// The hosted tool stays; the stale get_weather is replaced by ts's.
	tools := wiretest.Fields(t, req)["tools"]
	if got := strings.Join(toolNames(t, tools, false), ","); got != ",add,fail,get_weather,ping" {
		t.Errorf("tools = %s", got)
	}
	var list []responses.ToolUnionParam
	if err := json.Unmarshal(tools, &list); err != nil {
		t.Fatal(err)
	}
	if list[0].OfWebSearch == nil || list[3].OfFunction == nil || !list[3].OfFunction.Strict.Value {
		t.Errorf("the SDK reads the tools otherwise: %s", tools)
	}
	if c := string(wiretest.Fields(t, req)["tool_choice"]); c != `"required"` {
		t.Errorf("tool_choice = %s", c)
	}
}

func TestResponsesContinue(t *testing.T) {
	ts := testTools()
	p := openai.Responses{}
	req, _ := p.Prepare([]byte(responsesRequest), ts, loop.ChoiceAuto)
	resp := sdkResponse(t)
	next, res := wiretest.Round(t, p, ts, req, resp, "tools", "tool_choice", "input")

	var input []json.RawMessage
	json.Unmarshal(wiretest.Fields(t, next)["input"], &input)
	if len(input) != 1+4+2 {
		t.Fatalf("input has %d items, want the user message, 4 output items and 2 outputs: %s", len(input), wiretest.Fields(t, next)["input"])
	}
	wiretest.SameJSON(t, "the string input", input[0], []byte(`{"role":"user","content":"Weather in Paris and Tokyo?"}`))
	// That is the SDK's own encoding of a user message (which its union cannot read back
	// without a type, so the SDK checks the other items below).
	wiretest.SameJSON(t, "the string input as the SDK writes it", input[0],
		wiretest.MustMarshal(t, responses.ResponseInputItemParamOfMessage("Weather in Paris and Tokyo?", responses.EasyInputMessageRoleUser)))
	var output []json.RawMessage
	json.Unmarshal(wiretest.Fields(t, resp)["output"], &output)
	for i, item := range output {
		wiretest.SameJSON(t, fmt.Sprintf("output item %d", i), input[1+i], item)
	}
	var items responses.ResponseInputParam
	if err := json.Unmarshal(wiretest.MustMarshal(t, input[1:]), &items); err != nil {
		t.Fatal(err)
	}
	items = append(responses.ResponseInputParam{{}}, items...)
	for i, want := range []struct{ id, text string }{{"call_1", "Sunny in Paris"}, {"call_2", "Sunny in Tokyo"}} {
		o := items[5+i].OfFunctionCallOutput
		if o == nil || o.CallID.Value != want.id || o.Output.OfString.Value != want.text {
			t.Errorf("input item %d: %s, want the output of %s", 5+i, input[5+i], want.id)
		}
	}
	if items[3].OfFunctionCall == nil || items[3].OfFunctionCall.CallID != "call_1" || items[1].OfReasoning == nil {
		t.Errorf("the SDK reads the echoed items otherwise: %s", wiretest.Fields(t, next)["input"])
	}

	// Continuing again keeps the list input and appends.
	next2, err := p.Continue(next, resp, res)
	if err != nil {
		t.Fatal(err)
	}
	var input2 []json.RawMessage
	json.Unmarshal(wiretest.Fields(t, next2)["input"], &input2)
	if len(input2) != len(input)+6 {
		t.Errorf("continued twice: %d items", len(input2))
	}
}
