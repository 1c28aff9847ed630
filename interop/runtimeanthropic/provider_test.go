package runtimeanthropic_test

// From runtime/anthropic's tests: requests and answers the Loop's provider writes, as the SDK reads them.

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
	tga "github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// parallelCalls are the calls of one turn: a tool that works, an unknown tool, a tool
// that panics, one that fails and one with a structured result.
var parallelCalls = wiretest.ParallelCalls("toolu_01", "toolu_02", "toolu_03", "toolu_04", "toolu_05")

// TestToolResultsMatchSDK answers parallel calls, an unknown and a panicking tool
// among them: one user message, one tool_result per call in order, as the SDK's
// MessageParam reads it.
func TestToolResultsMatchSDK(t *testing.T) {
	results := wiretest.Toolset().RunCalls(context.Background(), parallelCalls, 0)
	body := wiretest.MustMarshal(t, tga.ToolResults(results))
	var m anthropic.MessageParam
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if m.OfUser == nil || len(m.OfUser.Content) != len(parallelCalls) {
		t.Fatalf("the SDK does not read %s as a user message with %d blocks", body, len(parallelCalls))
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
	for i, block := range m.OfUser.Content {
		tr := block.OfToolResult
		if tr == nil {
			t.Fatalf("block %d is not a tool_result: %s", i, body)
		}
		if tr.ToolUseID != parallelCalls[i].ID || tr.IsError.Value != want[i].isError {
			t.Errorf("block %d: id %s is_error %v, want %s %v", i, tr.ToolUseID, tr.IsError.Value, parallelCalls[i].ID, want[i].isError)
		}
		if len(tr.Content) != 1 || tr.Content[0].OfText == nil || !strings.HasPrefix(tr.Content[0].OfText.Text, want[i].text) {
			t.Errorf("block %d: content %s, want text %q", i, wiretest.MustMarshal(t, tr.Content), want[i].text)
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
	var tr anthropic.ToolResultBlockParam
	if err := json.Unmarshal(body, &tr); err != nil {
		t.Fatal(err)
	}
	if len(tr.Content) != 2 || tr.Content[0].OfText == nil || tr.Content[0].OfText.Text != "Here is the chart." ||
		tr.Content[1].OfImage == nil || tr.Content[1].OfImage.Source.OfBase64 == nil ||
		tr.Content[1].OfImage.Source.OfBase64.Data != "iVBORw==" || tr.Content[1].OfImage.Source.OfBase64.MediaType != "image/png" {
		t.Errorf("the SDK reads %s as %s", body, wiretest.MustMarshal(t, tr))
	}
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
	ts := wiretest.Toolset()
	out := wiretest.Prepare(t, tga.Messages{}, ts, []byte(request), loop.ChoiceAuto, "tools", "tool_choice")
	// runtime/anthropic's TestPrepare checks the request's fields, the choices and the
	// refusals; here the SDK reads the tools.
	var params anthropic.MessageNewParams
	if err := json.Unmarshal(out, &params); err != nil {
		t.Fatal(err)
	}
	if len(params.Tools) != 5 || params.Tools[0].OfWebSearchTool20250305 == nil || params.Tools[3].OfTool == nil || !params.Tools[3].OfTool.Strict.Value {
		t.Errorf("the SDK reads the tools as %s", wiretest.MustMarshal(t, params.Tools))
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
	out, _ := wiretest.Round(t, tga.Messages{}, wiretest.Toolset(), []byte(request), []byte(response), "messages")
	// runtime/anthropic's TestContinue checks the turns' JSON and the refusals; here the
	// SDK reads both turns.
	var params anthropic.MessageNewParams
	if err := json.Unmarshal(out, &params); err != nil {
		t.Fatal(err)
	}
	asst, user := params.Messages[1], params.Messages[2]
	if asst.OfAssistant == nil || len(asst.OfAssistant.Content) != 4 || asst.OfAssistant.Content[0].OfThinking == nil ||
		asst.OfAssistant.Content[0].OfThinking.Signature != "EqQBCkgIARABGAIiQL+/x9f/ZZ==" || asst.OfAssistant.Content[2].OfToolUse == nil {
		t.Errorf("the SDK reads the assistant turn as %s", wiretest.MustMarshal(t, asst))
	}
	if user.OfUser == nil || len(user.OfUser.Content) != 2 ||
		user.OfUser.Content[0].OfToolResult.ToolUseID != "toolu_01" || user.OfUser.Content[1].OfToolResult.ToolUseID != "toolu_02" {
		t.Errorf("the SDK reads the answers as %s", wiretest.MustMarshal(t, user))
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
	var params anthropic.MessageNewParams
	if err := json.Unmarshal(conv, &params); err != nil {
		t.Fatal(err)
	}
	if len(params.Messages) != 3 {
		t.Fatalf("the conversation has %d messages, want 3", len(params.Messages))
	}
	if params.Messages[2].OfUser == nil {
		t.Fatalf("the answers are not a user message: %s", wiretest.MustMarshal(t, params.Messages[2]))
	}
	answers := params.Messages[2].OfUser.Content
	if len(answers) != len(parallelCalls) {
		t.Fatalf("%d answers for %d calls", len(answers), len(parallelCalls))
	}
	for i, a := range answers {
		if a.OfToolResult == nil || a.OfToolResult.ToolUseID != parallelCalls[i].ID {
			t.Errorf("answer %d = %s, want the answer to %s", i, wiretest.MustMarshal(t, a), parallelCalls[i].ID)
		}
		if wantErr := i == 1 || i == 2 || i == 3; a.OfToolResult.IsError.Value != wantErr {
			t.Errorf("answer %d: is_error %v", i, a.OfToolResult.IsError.Value)
		}
	}
}

// TestLoopRecorded replays a conversation the SDK's tool runner recorded, where the
// tool fails once and then succeeds: the Loop sends the recorded conversation.
func TestLoopRecorded(t *testing.T) {
	data := wiretest.ReadFile(t, "../../runtime/anthropic/testdata/tool_runner_tool_call_error.json")
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
		want := recorded[round].Request
		// The SDK's request types give both the same form: content strings become
		// text blocks, fields take their order.
		var got, rec anthropic.MessageNewParams
		if err := json.Unmarshal(req, &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want, &rec); err != nil {
			t.Fatal(err)
		}
		if g, w := wiretest.MustMarshal(t, got.Messages), wiretest.MustMarshal(t, rec.Messages); !wiretest.JSONEqual(t, g, w) {
			t.Errorf("round %d: messages\n%s\nrecorded\n%s", round, g, w)
		}
		if g, w := wiretest.MustMarshal(t, got.Tools), wiretest.MustMarshal(t, rec.Tools); !wiretest.JSONEqual(t, g, w) {
			t.Errorf("round %d: tools\n%s\nrecorded\n%s", round, g, w)
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

func TestAssistantMessage(t *testing.T) {
	turn, err := tga.AssistantMessage([]byte(response))
	if err != nil {
		t.Fatal(err)
	}
	var m anthropic.MessageParam
	if err := json.Unmarshal(turn, &m); err != nil || m.OfAssistant == nil || len(m.OfAssistant.Content) != 4 {
		t.Errorf("the SDK reads %s as %s (%v)", turn, wiretest.MustMarshal(t, m), err)
	}
	if !wiretest.JSONEqual(t, wiretest.Fields(t, turn)["content"], wiretest.Fields(t, []byte(response))["content"]) {
		t.Errorf("AssistantMessage changed the content: %s", turn)
	}
	if _, err := tga.AssistantMessage([]byte(`{"type":"error","error":{"message":"x"}}`)); err == nil {
		t.Errorf("AssistantMessage of an error body succeeded")
	}
}
