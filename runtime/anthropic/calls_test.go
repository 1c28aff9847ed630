package anthropic_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	tga "github.com/toolgen/toolgen/runtime/anthropic"
)

// TestCallsFromSDKMessage reads the calls of a response the SDK's Message type
// encodes (testdata/sdk_message.json): parallel tool_use blocks among text and
// thinking blocks, in order; a server tool's block is not a call.
func TestCallsFromSDKMessage(t *testing.T) {
	body := wiretest.ReadFile(t, "testdata/sdk_message.json")
	calls, err := tga.Calls(body)
	if err != nil {
		t.Fatal(err)
	}
	want := "toolu_01 get_weather {\"city\":\"Paris\"}\ntoolu_02 get_weather {\"city\":\"Tokyo\"}\ntoolu_03 report {}\n"
	if got := wiretest.CallsText(calls); got != want {
		t.Errorf("Calls = \n%s\nwant\n%s", got, want)
	}
	if !tga.HasToolCalls(body) {
		t.Errorf("HasToolCalls = false")
	}
	if city, ok := tga.Argument(calls[1], "city"); !ok || city != "Tokyo" {
		t.Errorf("Argument(city) = %q, %v", city, ok)
	}
	if m, err := tga.ArgumentsMap(calls[0]); err != nil || m["city"] != "Paris" || len(m) != 1 {
		t.Errorf("ArgumentsMap = %v, %v", m, err)
	}

	body = []byte(`{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5",
		"content":[{"type":"text","text":"It is sunny."}],"stop_reason":"end_turn"}`)
	if calls, err := tga.Calls(body); err != nil || len(calls) != 0 {
		t.Errorf("Calls of a text answer = %v, %v", calls, err)
	}
	if tga.HasToolCalls(body) {
		t.Errorf("HasToolCalls of a text answer = true")
	}
}

// TestCallsRecorded reads a response recorded by the SDK's tool runner tests.
func TestCallsRecorded(t *testing.T) {
	body := wiretest.ReadFile(t, "testdata/tool_runner_concurrent.json")
	calls, err := tga.Calls(body)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := wiretest.CallsText(calls), "toolu_019dfQh1VSo4ykF3MUFvGpMg get_weather {\"city\":\"San Francisco\"}\n"; got != want {
		t.Errorf("Calls = %s, want %s", got, want)
	}
	// interop/runtimeanthropic checks that the SDK reads the same call.
}

func TestCallsErrors(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "overloaded_error: Overloaded"},
		{`[1]`, "the response is not a JSON object"},
		{`null`, "the response is null"},
		{`{"type":"message"}`, `no "content"`},
		{`{"content":{}}`, `"content" is not an array`},
		{`{"content":[1]}`, "content[0] is not a content block"},
		{`{"content":[{"type":"tool_use","name":"f","input":{}}]}`, "without an id"},
		{`{"content":[{"type":"tool_use","id":"t","input":{}}]}`, "without a name"},
		{`{"content":[{"type":"tool_use","id":"t","name":"f","input":{"city":"Pa"}}],"stop_reason":"max_tokens"}`,
			"the response was cut off by max_tokens with 1 tool_use block(s), the last t (f) maybe incomplete: none is taken; retry with a higher max_tokens"},
		// Cut short after a tool_use block, the turn may still lack calls the model meant.
		{`{"content":[{"type":"tool_use","id":"t","name":"f","input":{}},{"type":"tool_use","id":"u","name":"g","input":{}},{"type":"text","text":"and"}],"stop_reason":"max_tokens"}`,
			"cut off by max_tokens with 2 tool_use block(s), the last u (g)"},
		{`{"content":[{"type":"tool_use","id":"t","name":"f","input":{}}],"stop_reason":"model_context_window_exceeded"}`, "cut off by model_context_window_exceeded"},
		{`{"content":[{"type":"tool_use","id":"t","name":"f","input":{}}],"stop_reason":"refusal"}`, "cut off by refusal"},
		// Two calls with one id cannot both be answered.
		{`{"content":[{"type":"tool_use","id":"t","name":"f","input":{}},{"type":"tool_use","id":"t","name":"g","input":{}}],"stop_reason":"tool_use"}`,
			`calls 0 (f) and 1 (g) have the same id "t"`},
	} {
		calls, err := tga.Calls([]byte(tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Calls(%s) = %v, %v; want an error containing %q", tc.body, calls, err, tc.want)
		}
		if tga.HasToolCalls([]byte(tc.body)) {
			t.Errorf("HasToolCalls(%s) = true", tc.body)
		}
	}
	// A tool_use whose input is null (a tool without parameters) has no arguments.
	calls, err := tga.Calls([]byte(`{"content":[{"type":"tool_use","id":"t","name":"f","input":null}]}`))
	if err != nil || len(calls) != 1 || string(calls[0].Arguments) != "{}" {
		t.Errorf("Calls with null input = %v, %v", calls, err)
	}
	// A text answer cut short has no call to take half written.
	if calls, err := tga.Calls([]byte(`{"content":[{"type":"text","text":"Once upon a"}],"stop_reason":"max_tokens"}`)); err != nil || len(calls) != 0 {
		t.Errorf("Calls of a text cut by max_tokens = %v, %v", calls, err)
	}
}

// TestMalformedInputAnswered: a tool_use whose input is not an object is a call like
// the others, which the Toolset answers with an argument error under its id, while
// the turn's other calls run.
func TestMalformedInputAnswered(t *testing.T) {
	body := []byte(`{"id":"msg","type":"message","role":"assistant","stop_reason":"tool_use","content":[
		{"type":"tool_use","id":"t1","name":"get_weather","input":{"city":"Paris"}},
		{"type":"tool_use","id":"t2","name":"get_weather","input":[1,2]},
		{"type":"tool_use","id":"t3","name":"get_weather","input":"Paris"},
		{"type":"tool_use","id":"t4","name":"get_weather","input":7}]}`)
	calls, err := tga.Calls(body)
	if err != nil || len(calls) != 4 {
		t.Fatalf("Calls = %s, %v", wiretest.CallsText(calls), err)
	}
	results := wiretest.Toolset().RunCalls(context.Background(), calls, 0)
	msg := tga.ToolResults(results)
	if len(msg.Content) != 4 || msg.Content[0].IsError || msg.Content[0].Content != "Sunny in Paris" {
		t.Fatalf("ToolResults = %+v", msg)
	}
	for i, b := range msg.Content[1:] {
		if b.ToolUseID != calls[i+1].ID || !b.IsError {
			t.Errorf("block %d = %+v, want an error for %s", i+1, b, calls[i+1].ID)
		}
	}
	next, err := tga.Messages{}.Continue([]byte(`{"messages":[{"role":"user","content":"Weather?"}]}`), body, results)
	if err != nil || strings.Count(string(next), `"tool_result"`) != 4 {
		t.Errorf("Continue = %s, %v", next, err)
	}
}
