package anthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
	tga "github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// parallelCalls are the calls of one turn: a tool that works, an unknown tool, a tool
// that panics, one that fails and one with a structured result.
var parallelCalls = wiretest.ParallelCalls("toolu_01", "toolu_02", "toolu_03", "toolu_04", "toolu_05")

// TestToolResults answers parallel calls, an unknown and a panicking tool among them:
// one user message, one tool_result per call in order (interop/runtimeanthropic
// checks that the SDK's MessageParam reads it so).
func TestToolResults(t *testing.T) {
	results := wiretest.Toolset().RunCalls(context.Background(), parallelCalls, 0)
	body := wiretest.MustMarshal(t, tga.ToolResults(results))
	var m struct {
		Role    string `json:"role"`
		Content []struct {
			Type      string `json:"type"`
			ToolUseID string `json:"tool_use_id"`
			IsError   bool   `json:"is_error"`
			Content   string `json:"content"`
		} `json:"content"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if m.Role != "user" || len(m.Content) != len(parallelCalls) {
		t.Fatalf("%s is not a user message with %d blocks", body, len(parallelCalls))
	}
	want := []struct {
		isError bool
		text    string
	}{
		{false, "Sunny in Paris"},
		{true, `unknown tool "get_wether"; did you mean "get_weather"?`},
		{true, "boom failed with an internal error"},
		{true, "city Atlantis not found"},
		{false, `{"days":3,"ok":true}`},
	}
	for i, tr := range m.Content {
		if tr.Type != "tool_result" {
			t.Fatalf("block %d is not a tool_result: %s", i, body)
		}
		if tr.ToolUseID != parallelCalls[i].ID || tr.IsError != want[i].isError {
			t.Errorf("block %d: id %s is_error %v, want %s %v", i, tr.ToolUseID, tr.IsError, parallelCalls[i].ID, want[i].isError)
		}
		if !strings.HasPrefix(tr.Content, want[i].text) {
			t.Errorf("block %d: content %q, want text %q", i, tr.Content, want[i].text)
		}
	}
	if strings.Contains(string(body), "secret") {
		t.Errorf("a panic's value reached the model: %s", body)
	}
	// The wire form: content is the text, is_error only on failures.
	var wire struct {
		Content []map[string]any `json:"content"`
	}
	_ = json.Unmarshal(body, &wire)
	if c := wire.Content[0]; c["content"] != "Sunny in Paris" || c["is_error"] != nil || c["type"] != "tool_result" {
		t.Errorf("block 0 on the wire: %v", c)
	}
}

func TestToolResultImages(t *testing.T) {
	res := &runtime.Result{Content: []runtime.Content{
		runtime.TextContent("Here is the chart."),
		runtime.ImageContent([]byte("\x89PNG"), "image/png"),
		runtime.UserText("for the user only"),
	}}
	body := wiretest.MustMarshal(t, tga.Result(runtime.CallResult{Call: runtime.ToolCall{ID: "toolu_01", Name: "chart"}, Result: res}))
	// interop/runtimeanthropic checks that the SDK's ToolResultBlockParam reads it so.
	wiretest.SameJSON(t, "text and image", body, []byte(`{"type":"tool_result","tool_use_id":"toolu_01","content":[
		{"type":"text","text":"Here is the chart."},
		{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw=="}}]}`))
	// Nothing for the model: no content at all, not an empty text block.
	empty := tga.Result(runtime.CallResult{Call: runtime.ToolCall{ID: "t"}, Result: &runtime.Result{Content: []runtime.Content{runtime.UserText("x")}}})
	if b := wiretest.MustMarshal(t, empty); string(b) != `{"type":"tool_result","tool_use_id":"t"}` {
		t.Errorf("empty result = %s", b)
	}
}

const request = `{"model":"claude-sonnet-4-5","max_tokens":1024,"metadata":{"user_id":"u1"},"x_future":[1,{"a":null}],
	"system":"Be brief <and> exact.",
	"tools":[{"type":"web_search_20250305","name":"web_search","max_uses":3},{"name":"get_weather","input_schema":{"type":"object"}}],
	"tool_choice":{"type":"auto","disable_parallel_tool_use":true},
	"messages":[{"role":"user","content":"Weather in Paris & Tokyo?"}]}`

func TestPrepare(t *testing.T) {
	p := tga.Messages{}
	ts := wiretest.Toolset()
	out := wiretest.Prepare(t, p, ts, []byte(request), loop.ChoiceAuto, "tools", "tool_choice")
	got := wiretest.Fields(t, out)
	if !strings.Contains(string(out), "<and>") {
		t.Errorf("Prepare escaped HTML characters: %s", got["system"])
	}
	var tools []map[string]any
	_ = json.Unmarshal(got["tools"], &tools)
	var names []string
	for _, tool := range tools {
		names = append(names, tool["name"].(string))
	}
	if strings.Join(names, ",") != "web_search,boom,fail,get_weather,report" {
		t.Errorf("tools = %v, want the server tool kept, then the toolset's", names)
	}
	if !wiretest.JSONEqual(t, got["tool_choice"], []byte(`{"type":"auto","disable_parallel_tool_use":true}`)) {
		t.Errorf("tool_choice = %s", got["tool_choice"])
	}
	// The server tool is kept as it came; the toolset's strict tool is strict
	// (interop/runtimeanthropic reads the request with the SDK's MessageNewParams).
	if len(tools) != 5 || tools[0]["type"] != "web_search_20250305" || tools[0]["max_uses"] != float64(3) || tools[3]["strict"] != true {
		t.Errorf("tools = %s", got["tools"])
	}
	none, err := p.Prepare(out, ts, loop.ChoiceNone)
	if err != nil || !wiretest.JSONEqual(t, wiretest.Fields(t, none)["tool_choice"], []byte(`{"type":"none"}`)) {
		t.Errorf("ChoiceNone: %s, %v", none, err)
	}
	req, err := p.Prepare(out, ts, loop.ChoiceRequired)
	if err != nil || !wiretest.JSONEqual(t, wiretest.Fields(t, req)["tool_choice"], []byte(`{"type":"any","disable_parallel_tool_use":true}`)) {
		t.Errorf("ChoiceRequired: %s, %v", req, err)
	}
	// An empty set keeps the request's own tools; without any tool, neither tools nor
	// tool_choice remain.
	empty := runtime.NewToolset(nil, nil)
	foreign, err := p.Prepare([]byte(`{"tools":[{"name":"lookup"}],"tool_choice":{"type":"any"},"messages":[]}`), empty, loop.ChoiceAuto)
	if err != nil || !wiretest.JSONEqual(t, foreign, []byte(`{"tools":[{"name":"lookup"}],"tool_choice":{"type":"auto"},"messages":[]}`)) {
		t.Errorf("Prepare with an empty set = %s, %v", foreign, err)
	}
	if out, err := p.Prepare([]byte(`{"tool_choice":{"type":"any"},"messages":[]}`), empty, loop.ChoiceAuto); err != nil || string(out) != `{"messages":[]}` {
		t.Errorf("Prepare without tools = %s, %v", out, err)
	}
	for _, bad := range []string{`[]`, `{"tools":{}}`} {
		if _, err := p.Prepare([]byte(bad), ts, loop.ChoiceAuto); err == nil {
			t.Errorf("Prepare(%s) succeeded", bad)
		}
	}
	if _, err := p.Prepare([]byte(request), ts, "maybe"); err == nil {
		t.Errorf("Prepare accepted an unknown choice")
	}
}

// response is a turn with a thinking block, whose signature must go back byte for
// byte, text, and two parallel calls.
const response = `{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5",
	"content":[{"type":"thinking","thinking":"Two cities <both>.","signature":"EqQBCkgIARABGAIiQL+/x9f/ZZ=="},
	{"type":"text","text":"Checking.","citations":null},
	{"type":"tool_use","id":"toolu_01","name":"get_weather","input":{"city":"Paris"}},
	{"type":"tool_use","id":"toolu_02","name":"get_weather","input":{"city":"Tokyo"}}],
	"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":20}}`

func TestContinue(t *testing.T) {
	p := tga.Messages{}
	out, results := wiretest.Round(t, p, wiretest.Toolset(), []byte(request), []byte(response), "messages")
	got := wiretest.Fields(t, out)
	var messages []map[string]json.RawMessage
	if err := json.Unmarshal(got["messages"], &messages); err != nil || len(messages) != 3 {
		t.Fatalf("messages = %s", got["messages"])
	}
	if string(messages[1]["role"]) != `"assistant"` || !wiretest.JSONEqual(t, messages[1]["content"], wiretest.Fields(t, []byte(response))["content"]) {
		t.Errorf("the assistant turn is not the response's content: %s", wiretest.MustMarshal(t, messages[1]))
	}
	if !strings.Contains(string(messages[1]["content"]), `"signature":"EqQBCkgIARABGAIiQL+/x9f/ZZ=="`) || !strings.Contains(string(messages[1]["content"]), "<both>") {
		t.Errorf("the thinking block changed: %s", messages[1]["content"])
	}
	if want := wiretest.MustMarshal(t, tga.ToolResults(results)); !wiretest.JSONEqual(t, wiretest.MustMarshal(t, messages[2]), want) {
		t.Errorf("the answers = %s, want %s", wiretest.MustMarshal(t, messages[2]), want)
	}
	// interop/runtimeanthropic reads both turns with the SDK's MessageNewParams.

	// Answers that do not follow the turn's calls are refused (Round checks the others).
	if _, err := p.Continue([]byte(request), []byte(response), []runtime.CallResult{results[1], results[0]}); err == nil {
		t.Errorf("Continue accepted results out of the calls' order")
	}
	for _, tc := range [][2]string{
		{`{"model":"m"}`, response},
		{`{"messages":{}}`, response},
		{request, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`},
		{request, `{"content":[{"type":"tool_use","id":"t","name":"f","input":[]}]}`},
	} {
		if _, err := p.Continue([]byte(tc[0]), []byte(tc[1]), results); err == nil {
			t.Errorf("Continue(%s, %s) succeeded", tc[0], tc[1])
		}
	}
	// A turn without calls goes back alone.
	text := `{"content":[{"type":"text","text":"Sunny."}],"stop_reason":"end_turn"}`
	out, err := p.Continue([]byte(`{"messages":[]}`), []byte(text), nil)
	if err != nil || string(out) != `{"messages":[{"content":[{"type":"text","text":"Sunny."}],"role":"assistant"}]}` {
		t.Errorf("Continue without calls = %s, %v", out, err)
	}
}

// TestLoopParallel runs a Loop whose model calls five tools at once, an unknown and a
// panicking one among them: every call is answered once, in order, and the lp ends
// with the model's answer.
func TestLoopParallel(t *testing.T) {
	var blocks []map[string]any
	for _, c := range parallelCalls {
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": json.RawMessage(c.Arguments)})
	}
	turn := wiretest.MustMarshal(t, map[string]any{"type": "message", "role": "assistant", "content": blocks, "stop_reason": "tool_use"})
	final := []byte(`{"type":"message","role":"assistant","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn"}`)
	var requests [][]byte
	var rounds []loop.Round
	lp := loop.Loop{
		Provider: tga.Messages{},
		Tools:    wiretest.Toolset(),
		Send:     wiretest.Scripted(t, &requests, turn, final),
		OnRound:  func(r loop.Round) { rounds = append(rounds, r) },
	}
	resp, conv, err := lp.Run(context.Background(), []byte(`{"model":"m","max_tokens":100,"messages":[{"role":"user","content":"Go."}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(resp) != string(final) || len(requests) != 2 || len(rounds) != 1 || len(rounds[0].Calls) != 5 {
		t.Fatalf("Run: %s after %d requests and %d rounds", resp, len(requests), len(rounds))
	}
	// interop/runtimeanthropic reads the conversation with the SDK's MessageNewParams.
	var params struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(conv, &params); err != nil {
		t.Fatal(err)
	}
	if len(params.Messages) != 3 {
		t.Fatalf("the conversation has %d messages, want 3", len(params.Messages))
	}
	var answers []struct {
		Type      string `json:"type"`
		ToolUseID string `json:"tool_use_id"`
		IsError   bool   `json:"is_error"`
	}
	if err := json.Unmarshal(params.Messages[2].Content, &answers); err != nil || params.Messages[2].Role != "user" {
		t.Fatalf("the answers are not a user message of blocks: %s (%v)", conv, err)
	}
	if len(answers) != len(parallelCalls) {
		t.Fatalf("%d answers for %d calls", len(answers), len(parallelCalls))
	}
	for i, a := range answers {
		if a.Type != "tool_result" || a.ToolUseID != parallelCalls[i].ID {
			t.Errorf("answer %d = %+v, want the answer to %s", i, a, parallelCalls[i].ID)
		}
		if wantErr := i == 1 || i == 2 || i == 3; a.IsError != wantErr {
			t.Errorf("answer %d: is_error %v", i, a.IsError)
		}
	}
}

// TestLoopRecorded replays a conversation the SDK's tool runner recorded, where the
// tool fails once and then succeeds: the Loop runs every recorded round, answering the
// failure as an error, and ends with the recorded answer. (interop/runtimeanthropic
// checks that it sends the recorded requests, compared through the SDK's types, which
// give both the same form.)
func TestLoopRecorded(t *testing.T) {
	data := wiretest.ReadFile(t, "testdata/tool_runner_tool_call_error.json")
	var recorded []struct{ Request, Response json.RawMessage }
	if err := json.Unmarshal(data, &recorded); err != nil {
		t.Fatal(err)
	}
	tools := []runtime.Tool{{
		Name:        "get_weather",
		Description: "Get weather",
		InputSchema: json.RawMessage(`{"properties":{"city":{"type":"string"},"units":{"enum":["celsius","fahrenheit"],"type":"string"}},"required":["city"],"type":"object"}`),
	}}
	calls := 0
	ts := runtime.NewToolset(tools, toolimpl.Direct(func(_ int, d *toolimpl.Decoder) toolimpl.Invocation {
		d.Raw()
		if !d.Finish() {
			return nil
		}
		return func(context.Context) (*runtime.Result, error) {
			if calls++; calls == 1 {
				return nil, runtime.ToolErrorf("Error: Unexpected error, try again")
			}
			return runtime.TextResult("Sunny 68°F"), nil
		}
	}))
	round := 0
	lp := loop.Loop{Provider: tga.Messages{}, Tools: ts, Send: func(_ context.Context, req []byte) ([]byte, error) {
		if got, want := lastMessage(t, req), lastMessage(t, recorded[round].Request); got != want {
			t.Errorf("round %d: the request ends with\n%s\nrecorded\n%s", round, got, want)
		}
		resp := recorded[round].Response
		round++
		return resp, nil
	}}
	first := wiretest.Fields(t, recorded[0].Request)
	delete(first, "tool_choice")
	resp, _, err := lp.Run(context.Background(), wiretest.MustMarshal(t, first))
	if err != nil {
		t.Fatal(err)
	}
	if round != len(recorded) || !wiretest.JSONEqual(t, resp, recorded[len(recorded)-1].Response) {
		t.Errorf("the lp ended after %d of %d rounds with %s", round, len(recorded), resp)
	}
}

// lastMessage sums up a request's last message: the number of messages, its role and
// its blocks' type, id, is_error and text, whether the text is a string or text
// blocks (the SDK's tool runner sends tool results as blocks, the adapter as a string).
func lastMessage(t *testing.T, request []byte) string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(request, &req); err != nil || len(req.Messages) == 0 {
		t.Fatalf("request %s: %v", request, err)
	}
	last := req.Messages[len(req.Messages)-1]
	var blocks []struct {
		Type      string          `json:"type"`
		ToolUseID string          `json:"tool_use_id"`
		IsError   bool            `json:"is_error"`
		Text      string          `json:"text"`
		Content   json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(last.Content, &blocks); err != nil {
		t.Fatalf("content %s: %v", last.Content, err)
	}
	out := fmt.Sprintf("%d messages, the last from %s:", len(req.Messages), last.Role)
	for _, b := range blocks {
		text := b.Text
		var s string
		var inner []struct{ Text string }
		if json.Unmarshal(b.Content, &s) == nil {
			text += s
		} else if json.Unmarshal(b.Content, &inner) == nil {
			for _, in := range inner {
				text += in.Text
			}
		}
		out += fmt.Sprintf(" [%s %s is_error=%v %q]", b.Type, b.ToolUseID, b.IsError, text)
	}
	return out
}

func TestAssistantMessage(t *testing.T) {
	turn, err := tga.AssistantMessage([]byte(response))
	if err != nil {
		t.Fatal(err)
	}
	if role := string(wiretest.Fields(t, turn)["role"]); role != `"assistant"` {
		t.Errorf("role = %s", role) // interop/runtimeanthropic reads it with the SDK's MessageParam
	}
	if !wiretest.JSONEqual(t, wiretest.Fields(t, turn)["content"], wiretest.Fields(t, []byte(response))["content"]) {
		t.Errorf("AssistantMessage changed the content: %s", turn)
	}
	if _, err := tga.AssistantMessage([]byte(`{"type":"error","error":{"message":"x"}}`)); err == nil {
		t.Errorf("AssistantMessage of an error body succeeded")
	}
}
