package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
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
	if got := strings.Join(toolNames(t, wiretest.Fields(t, req)["tools"], true), ","); got != "user_tool,add,fail,get_weather,ping" {
		t.Errorf("tools = %s", got)
	}
	if c := string(wiretest.Fields(t, req)["tool_choice"]); c != `"auto"` {
		t.Errorf("tool_choice = %s", c)
	}
	// interop/runtimeopenai checks that the SDK reads the request, its tools function tools.

	// None keeps the tools listed and says "none".
	none, err := openai.Chat{}.Prepare(req, ts, loop.ChoiceNone)
	if err != nil {
		t.Fatal(err)
	}
	wiretest.SameJSON(t, "tools with none", wiretest.Fields(t, none)["tools"], wiretest.Fields(t, req)["tools"])
	if c := string(wiretest.Fields(t, none)["tool_choice"]); c != `"none"` {
		t.Errorf("tool_choice = %s", c)
	}
	req2, _ := openai.Chat{}.Prepare([]byte(chatRequest), ts, loop.ChoiceRequired)
	if c := string(wiretest.Fields(t, req2)["tool_choice"]); c != `"required"` {
		t.Errorf("tool_choice = %s", c)
	}

	// No tools at all: neither tools nor tool_choice is sent.
	empty := runtime.NewToolset(nil, nil)
	bare, err := openai.Chat{}.Prepare([]byte(`{"model":"m","messages":[],"tools":[],"tool_choice":"auto"}`), empty, loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	wiretest.SameJSON(t, "no tools", bare, []byte(`{"model":"m","messages":[]}`))

	for _, bad := range []struct {
		req    string
		choice loop.Choice
		want   string
	}{
		{chatRequest, "sometimes", `unknown tool choice "sometimes"`},
		{`[]`, loop.ChoiceAuto, "not a JSON object"},
		{`{"tools":{}}`, loop.ChoiceAuto, `"tools" is not an array`},
	} {
		if _, err := (openai.Chat{}).Prepare([]byte(bad.req), ts, bad.choice); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Prepare(%s, %s) = %v, want %q", bad.req, bad.choice, err, bad.want)
		}
	}
}

func TestChatContinue(t *testing.T) {
	ts := testTools()
	req, _ := openai.Chat{}.Prepare([]byte(chatRequest), ts, loop.ChoiceAuto)
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

	// One tool message per call, in order (interop/runtimeopenai reads the whole
	// conversation with the SDK's types).
	for i, want := range []struct{ id, text string }{
		{"call_w", "Sunny in Paris"}, {"call_t", `unknown tool "teleport"`}, {"call_a", "3"},
	} {
		var m struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			Content    string `json:"content"`
		}
		if err := json.Unmarshal(msgs[3+i], &m); err != nil || m.Role != "tool" || m.ToolCallID != want.id || !strings.Contains(m.Content, want.text) {
			t.Errorf("message %d: got %s, want a tool message for %s with %q", 3+i, msgs[3+i], want.id, want.text)
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
	req := wiretest.Prepare(t, openai.Responses{}, ts, []byte(responsesRequest), loop.ChoiceRequired, "tools", "tool_choice")
	// The hosted tool stays; the stale get_weather is replaced by ts's.
	tools := wiretest.Fields(t, req)["tools"]
	if got := strings.Join(toolNames(t, tools, false), ","); got != ",add,fail,get_weather,ping" {
		t.Errorf("tools = %s", got)
	}
	var list []struct {
		Type   string `json:"type"`
		Strict bool   `json:"strict"`
	}
	if err := json.Unmarshal(tools, &list); err != nil {
		t.Fatal(err)
	}
	if list[0].Type != "web_search" || list[3].Type != "function" || !list[3].Strict {
		t.Errorf("tools = %s", tools) // interop/runtimeopenai reads them with the SDK's types
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
	// (interop/runtimeopenai checks that it is the SDK's own encoding of a user message.)
	var output []json.RawMessage
	json.Unmarshal(wiretest.Fields(t, resp)["output"], &output)
	for i, item := range output {
		wiretest.SameJSON(t, fmt.Sprintf("output item %d", i), input[1+i], item)
	}
	// The outputs follow the echoed items, in the calls' order (interop/runtimeopenai
	// reads all the items with the SDK's types).
	for i, want := range []struct{ id, text string }{{"call_1", "Sunny in Paris"}, {"call_2", "Sunny in Tokyo"}} {
		wiretest.SameJSON(t, fmt.Sprintf("input item %d", 5+i), input[5+i],
			[]byte(fmt.Sprintf(`{"type":"function_call_output","call_id":%q,"output":%q}`, want.id, want.text)))
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

func TestResponsesContinueStored(t *testing.T) {
	ts := testTools()
	p := openai.Responses{}
	resp := sdkResponse(t)
	calls, _ := p.Calls(resp)
	res := ts.RunCalls(context.Background(), calls, 0)

	next, err := p.Continue([]byte(`{"model":"m","previous_response_id":"resp_0","input":[{"role":"user","content":"hi"}]}`), resp, res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"m","previous_response_id":"resp_1","input":[
		{"type":"function_call_output","call_id":"call_1","output":"Sunny in Paris"},
		{"type":"function_call_output","call_id":"call_2","output":"Sunny in Tokyo"}]}`
	wiretest.SameJSON(t, "stored continuation", next, []byte(want))

	conv, err := p.Continue([]byte(`{"model":"m","conversation":"conv_1","input":"hi"}`), resp, res)
	if err != nil {
		t.Fatal(err)
	}
	want = `{"model":"m","conversation":"conv_1","input":[
		{"type":"function_call_output","call_id":"call_1","output":"Sunny in Paris"},
		{"type":"function_call_output","call_id":"call_2","output":"Sunny in Tokyo"}]}`
	wiretest.SameJSON(t, "conversation continuation", conv, []byte(want))

	if _, err := p.Continue([]byte(`{"input":7}`), resp, res); err == nil {
		t.Error("Continue accepts a number as input")
	}
}

// scripted returns a SendFunc that answers with the given bodies in turn and records
// the requests.
func TestLoopChat(t *testing.T) {
	final := `{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Sunny, and 3."}}]}`
	var sent [][]byte
	var rounds []loop.Round
	lp := loop.Loop{Provider: openai.Chat{}, Tools: testTools(), Send: wiretest.Scripted(t, &sent, []byte(threeCalls), []byte(final)),
		OnRound: func(r loop.Round) { rounds = append(rounds, r) }}
	resp, conv, err := lp.Run(context.Background(), []byte(chatRequest))
	if err != nil {
		t.Fatal(err)
	}
	if string(resp) != final || len(sent) != 2 || len(rounds) != 1 || rounds[0].Provider != "openai" {
		t.Fatalf("got %s after %d requests and %d rounds", resp, len(sent), len(rounds))
	}
	var ids []string
	for _, c := range rounds[0].Calls {
		ids = append(ids, c.Call.ID)
	}
	if strings.Join(ids, ",") != "call_w,call_t,call_a" || !rounds[0].Calls[1].Result.IsError {
		t.Errorf("round calls %v", ids)
	}
	var msgs []map[string]any
	json.Unmarshal(wiretest.Fields(t, conv)["messages"], &msgs)
	if len(msgs) != 6 || msgs[3]["tool_call_id"] != "call_w" || msgs[5]["content"] != "3" {
		t.Errorf("conversation: %s", wiretest.Fields(t, conv)["messages"])
	}
}

func TestLoopResponsesMaxRounds(t *testing.T) {
	resp := string(sdkResponse(t))
	final := `{"id":"resp_9","output":[{"type":"message","id":"m","role":"assistant","content":[{"type":"output_text","text":"Done."}]}]}`
	var sent [][]byte
	lp := loop.Loop{Provider: openai.Responses{}, Tools: testTools(), Send: wiretest.Scripted(t, &sent, []byte(resp), []byte(final)), MaxRounds: 1}
	got, _, err := lp.Run(context.Background(), []byte(responsesRequest))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != final || len(sent) != 2 {
		t.Fatalf("got %s after %d requests", got, len(sent))
	}
	// The last request switches tools off but keeps them listed.
	if c := string(wiretest.Fields(t, sent[1])["tool_choice"]); c != `"none"` {
		t.Errorf("tool_choice of the last request = %s", c)
	}
	wiretest.SameJSON(t, "tools of the last request", wiretest.Fields(t, sent[1])["tools"], wiretest.Fields(t, sent[0])["tools"])
	var input []json.RawMessage
	json.Unmarshal(wiretest.Fields(t, sent[1])["input"], &input)
	if len(input) != 7 {
		t.Errorf("the last request's input has %d items", len(input))
	}
}
