package runtime_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/runtime/openai"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// budgetTools holds a tool of long text and a tool of a long structured value, under a
// result budget of 1,000 bytes.
func budgetTools(t *testing.T) (ts *runtime.Toolset, text, structured string) {
	t.Helper()
	text = strings.Repeat("é", 5000)
	items := make([]int, 3000)
	res, err := runtime.StructuredResult(items, true)
	if err != nil {
		t.Fatal(err)
	}
	structured = string(res.Structured)
	tools := []runtime.Tool{
		{Name: "long_text", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "long_json", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object"}`)},
	}
	ts = runtime.NewToolset(tools, toolimpl.Direct(func(i int, d *toolimpl.Decoder) toolimpl.Invocation {
		d.EmptyObject()
		if !d.Finish() {
			return nil
		}
		if i == 0 {
			return func(context.Context) (*runtime.Result, error) { return runtime.TextResult(text), nil }
		}
		return func(context.Context) (*runtime.Result, error) { return res, nil }
	})).WithResultBudget(1000)
	return ts, text, structured
}

// checkSent checks that the text a provider gets is the cut of whole to the budget.
func checkSent(t *testing.T, provider, got, whole string) {
	t.Helper()
	i := strings.Index(got, "…\n[truncated: ")
	if len(got) > 1000 || i < 0 || !strings.HasPrefix(whole, got[:i]) {
		t.Errorf("%s got %d bytes: %q", provider, len(got), got[max(len(got)-150, 0):])
	}
}

// TestResultBudgetAdapters checks that every adapter sends the model what Call
// returns: the cut text, never the whole structured value.
func TestResultBudgetAdapters(t *testing.T) {
	ts, text, structured := budgetTools(t)
	ctx := context.Background()
	calls := []runtime.ToolCall{{ID: "c1", Name: "long_text"}, {ID: "c2", Name: "long_json"}}
	results := ts.RunCalls(ctx, calls, 0)
	for i, want := range []string{text, structured} {
		if n, cut := results[i].Result.Truncated(); !cut || n != len(want) {
			t.Errorf("%s: Truncated() = %d, %v; want %d, true", calls[i].Name, n, cut, len(want))
		}
	}
	if string(results[1].Result.Structured) != structured {
		t.Error("the structured value was cut")
	}

	body := `{"choices":[{"finish_reason":"tool_calls","message":{"role":"assistant","tool_calls":[
		{"id":"c1","type":"function","function":{"name":"long_text","arguments":"{}"}},
		{"id":"c2","type":"function","function":{"name":"long_json","arguments":"{}"}}]}}]}`
	msgs, err := openai.RunChat(ctx, ts, []byte(body))
	if err != nil || len(msgs) != 2 {
		t.Fatalf("RunChat = %v, %v", msgs, err)
	}
	checkSent(t, "openai chat", msgs[0].Content, text)
	checkSent(t, "openai chat", msgs[1].Content, structured)
	for i, out := range openai.ResponsesOutputs(results) {
		checkSent(t, "openai responses", out.Output, []string{text, structured}[i])
	}

	for i, r := range anthropic.ToolResults(results).Content {
		s, _ := r.Content.(string)
		checkSent(t, "anthropic", s, []string{text, structured}[i])
	}

	for i, p := range gemini.FunctionResponses(results).Parts {
		var s string
		if err := json.Unmarshal(p.FunctionResponse.Response["output"], &s); err != nil {
			t.Fatalf("gemini output %d is not the cut text: %s", i, p.FunctionResponse.Response["output"][:100])
		}
		checkSent(t, "gemini", s, []string{text, structured}[i])
	}
}

// TestResultBudgetAnthropicImages: the Anthropic adapter sends the model a result's
// images, so they count: an image past the budget is left out, and the model reads
// the marker that says so. It used to get a 200 KB image under a budget of 1,000 bytes.
func TestResultBudgetAnthropicImages(t *testing.T) {
	img := make([]byte, 200_000)
	ts, err := runtime.NewTool(runtime.Tool{Name: "shot", InputSchema: json.RawMessage(`{"type":"object"}`), MaxResultBytes: 1000},
		func(context.Context, json.RawMessage) (*runtime.Result, error) {
			return &runtime.Result{Content: []runtime.Content{
				runtime.TextContent("the screen:"),
				runtime.ImageContent(img, "image/png"),
				runtime.ImageContent([]byte("small"), "image/png"),
			}}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	results := ts.RunCalls(context.Background(), []runtime.ToolCall{{ID: "c1", Name: "shot"}}, 0)
	block := anthropic.Result(results[0])
	sent, err := json.Marshal(block)
	if err != nil {
		t.Fatal(err)
	}
	if len(sent) > 1000+200 {
		t.Fatalf("the tool_result is %d bytes: %.200s", len(sent), sent)
	}
	text := results[0].Result.Text()
	if !strings.HasPrefix(text, "the screen:\n…\n[truncated: ") || strings.Contains(string(sent), `"image"`) {
		t.Errorf("tool_result %s", sent)
	}
}
