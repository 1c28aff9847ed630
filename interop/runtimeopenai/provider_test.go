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
	"github.com/toolgen/toolgen/runtime"
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
	req := wiretest.Prepare(t, openai.Chat{}, ts, []byte(chatRequest), runtime.ChoiceAuto, "tools", "tool_choice")
	if got := strings.Join(toolNames(t, wiretest.Fields(t, req)["tools"], true), ","); got != "user_tool,add,fail,get_weather,ping" {
		t.Errorf("tools = %s", got)
	}
	if c := string(wiretest.Fields(t, req)["tool_choice"]); c != `"auto"` {
		t.Errorf("tool_choice = %s", c)
	}
	// The request is one the SDK accepts, its tools function tools.
	var p sdk.ChatCompletionNewParams
	if err := json.Unmarshal(req, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Tools) != 5 || p.Tools[3].OfFunction == nil || p.Tools[3].OfFunction.Function.Name != "get_weather" ||
		!p.Tools[3].OfFunction.Function.Strict.Value || p.ToolChoice.OfAuto.Value != "auto" {
		t.Errorf("the SDK reads the request otherwise: %s", req)
	}

	// None keeps the tools listed and says "none".
	none, err := openai.Chat{}.Prepare(req, ts, runtime.ChoiceNone)
	if err != nil {
		t.Fatal(err)
	}
	wiretest.SameJSON(t, "tools with none", wiretest.Fields(t, none)["tools"], wiretest.Fields(t, req)["tools"])
	if c := string(wiretest.Fields(t, none)["tool_choice"]); c != `"none"` {
		t.Errorf("tool_choice = %s", c)
	}
	req2, _ := openai.Chat{}.Prepare([]byte(chatRequest), ts, runtime.ChoiceRequired)
	if c := string(wiretest.Fields(t, req2)["tool_choice"]); c != `"required"` {
		t.Errorf("tool_choice = %s", c)
	}

	// No tools at all: neither tools nor tool_choice is sent.
	empty := runtime.NewToolset(nil, nil)
	bare, err := openai.Chat{}.Prepare([]byte(`{"model":"m","messages":[],"tools":[],"tool_choice":"auto"}`), empty, runtime.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	wiretest.SameJSON(t, "no tools", bare, []byte(`{"model":"m","messages":[]}`))

	for _, bad := range []struct {
		req    string
		choice runtime.Choice
		want   string
	}{
		{chatRequest, "sometimes", `unknown tool choice "sometimes"`},
		{`[]`, runtime.ChoiceAuto, "not a JSON object"},
		{`{"tools":{}}`, runtime.ChoiceAuto, `"tools" is not an array`},
	} {
		if _, err := (openai.Chat{}).Prepare([]byte(bad.req), ts, bad.choice); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Prepare(%s, %s) = %v, want %q", bad.req, bad.choice, err, bad.want)
		}
	}
}

func TestChatContinue(t *testing.T) {
	ts := testTools()
	req, _ := openai.Chat{}.Prepare([]byte(chatRequest), ts, runtime.ChoiceAuto)
	p := openai.Chat{}
	next, res := wiretest.Round(t, p, ts, req, []byte(threeCalls), "tools", "tool_choice", "messages")
	wiretest.SameJSON(t, "tools", wiretest.Fields(t, next)["tools"], wiretest.Fields(t, req)["tools"])

	var msgs []json.RawMessage
	json.Unmarshal(wiretest.Fields(t, next)["messages"], &msgs)
	if len(msgs) != 6 {
		t.Fatalf("got %d messages, want 2 + 1 + 3", len(msgs))
	}
	// The assistant message is exactly as received, fields unknown here included.
	var resp struct {
		Choices []struct {
			Message json.RawMessage `json:"message"`
		} `json:"choices"`
	}
	json.Unmarshal([]byte(threeCalls), &resp)
	wiretest.SameJSON(t, "assistant message", msgs[2], resp.Choices[0].Message)

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

	// Results in another order are put back in the calls' order.
	reversed := []runtime.CallResult{res[2], res[1], res[0]}
	next2, err := p.Continue(req, []byte(threeCalls), reversed)
	if err != nil {
		t.Fatal(err)
	}
	wiretest.SameJSON(t, "from reversed results", next2, next)

	// Every call needs exactly one answer.
	for _, bad := range []struct {
		results []runtime.CallResult
		want    string
	}{
		{res[:2], "call call_a (add) has no result"},
		{append(append([]runtime.CallResult{}, res...), res[0]), "two results answer call call_w"},
		{append(append([]runtime.CallResult{}, res...), runtime.CallResult{Call: call("call_x", "ping", "{}"), Result: runtime.TextResult("pong")}), "which the response did not make"},
	} {
		if _, err := p.Continue(req, []byte(threeCalls), bad.results); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Continue = %v, want %q", err, bad.want)
		}
	}
	if _, err := p.Continue([]byte(`{"messages":"hi"}`), []byte(threeCalls), res); err == nil {
		t.Error("Continue accepts messages that are not a list")
	}
	if _, err := p.Continue(req, []byte(`{"choices":[]}`), res); err == nil {
		t.Error("Continue accepts a response without choices")
	}
}

const responsesRequest = `{"model":"gpt-4.1","instructions":"Be brief.","input":"Weather in Paris and Tokyo?","store":false,"x_vendor":1,
	"tools":[{"type":"web_search"},{"type":"function","name":"get_weather","parameters":{},"strict":false}]}`

func TestResponsesPrepare(t *testing.T) {
	ts := testTools()
	req := wiretest.Prepare(t, openai.Responses{}, ts, []byte(responsesRequest), runtime.ChoiceRequired, "tools", "tool_choice")
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
	req, _ := p.Prepare([]byte(responsesRequest), ts, runtime.ChoiceAuto)
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
