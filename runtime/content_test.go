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

// The shape (R, []runtime.Content, error): the generated code returns
// runtime.StructuredResult(out, wrap, content...).

type card struct {
	City string `json:"city"`
	High int    `json:"high"`
}

const cardText = "Paris: sunny, 12°C" // the block for the user

func TestStructuredResultWithContent(t *testing.T) {
	png := []byte{0x89, 'P', 'N', 'G'}
	userImage := runtime.ImageContent(png, "image/png")
	userImage.Audience = []runtime.Role{runtime.RoleUser}
	res, err := runtime.StructuredResult(card{"Paris", 12}, false, runtime.UserText(cardText), userImage)
	if err != nil {
		t.Fatal(err)
	}
	const js = `{"city":"Paris","high":12}`
	if string(res.Structured) != js || res.IsError || res.Outcome != runtime.OutcomeOK {
		t.Errorf("Structured = %s, IsError %v, Outcome %v", res.Structured, res.IsError, res.Outcome)
	}
	if len(res.Content) != 3 || res.Content[0].Text != js || !res.Content[0].ForModel() ||
		res.Content[1].Text != cardText || res.Content[1].ForModel() || res.Content[2].Type != runtime.ContentImage {
		t.Errorf("Content = %+v, want the JSON, then the blocks in order", res.Content)
	}
	if res.Text() != js {
		t.Errorf("Text() = %q, want the JSON alone: the blocks for the user are not the model's", res.Text())
	}

	// A block for the model adds to its text; wrap wraps the value only.
	res, err = runtime.StructuredResult([]int{1}, true, runtime.TextContent("a note"), runtime.UserText(cardText))
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Structured) != `{"result":[1]}` || res.Text() != "{\"result\":[1]}\na note" {
		t.Errorf("Structured %s, Text() %q", res.Structured, res.Text())
	}

	// No blocks: the result of (R, error), as before.
	res, err = runtime.StructuredResult(card{}, false)
	if err != nil || len(res.Content) != 1 {
		t.Errorf("no blocks: %+v, %v", res, err)
	}
}

// contentTools holds value_card, a structured value with a card for the user, and
// value_note, one with a card and a note for the model, under a result budget.
func contentTools(budget int, value any) *runtime.Toolset {
	tools := []runtime.Tool{
		{Name: "value_card", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "value_note", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object"}`)},
	}
	return runtime.NewToolset(tools, toolimpl.Direct(func(i int, d *toolimpl.Decoder) toolimpl.Invocation {
		d.EmptyObject()
		if !d.Finish() {
			return nil
		}
		blocks := []runtime.Content{runtime.UserText(cardText)}
		if i == 1 {
			blocks = append(blocks, runtime.TextContent("a note"))
		}
		return func(context.Context) (*runtime.Result, error) {
			return runtime.StructuredResult(value, false, blocks...)
		}
	})).WithResultBudget(budget)
}

// TestContentForTheUserAdapters checks that no adapter sends the model the block for
// the user, that every one sends a block for the model, and that Gemini gets the
// structured value when the model reads the JSON alone.
func TestContentForTheUserAdapters(t *testing.T) {
	ts := contentTools(0, card{"Paris", 12})
	ctx := context.Background()
	const js = `{"city":"Paris","high":12}`
	wantText := []string{js, js + "\na note"}
	calls := []runtime.ToolCall{{ID: "c1", Name: "value_card"}, {ID: "c2", Name: "value_note"}}
	results := ts.RunCalls(ctx, calls, 0)
	for i, r := range results {
		if r.Result.IsError || r.Result.Text() != wantText[i] || string(r.Result.Structured) != js {
			t.Fatalf("%s: %+v", calls[i].Name, r.Result)
		}
	}
	check := func(provider string, i int, got string) {
		t.Helper()
		if strings.Contains(got, cardText) {
			t.Errorf("%s, %s: the model got the block for the user: %q", provider, calls[i].Name, got)
		}
		if got != wantText[i] {
			t.Errorf("%s, %s: the model got %q, want %q", provider, calls[i].Name, got, wantText[i])
		}
	}

	body := `{"choices":[{"finish_reason":"tool_calls","message":{"role":"assistant","tool_calls":[
		{"id":"c1","type":"function","function":{"name":"value_card","arguments":"{}"}},
		{"id":"c2","type":"function","function":{"name":"value_note","arguments":"{}"}}]}}]}`
	msgs, err := openai.RunChat(ctx, ts, []byte(body))
	if err != nil || len(msgs) != 2 {
		t.Fatalf("RunChat = %v, %v", msgs, err)
	}
	for i, m := range msgs {
		check("openai chat", i, m.Content)
	}
	for i, out := range openai.ResponsesOutputs(results) {
		check("openai responses", i, out.Output)
	}
	for i, r := range anthropic.ToolResults(results).Content {
		s, ok := r.Content.(string)
		if !ok {
			t.Errorf("anthropic, %s: content %#v, want the text", calls[i].Name, r.Content)
		}
		check("anthropic", i, s)
	}
	parts := gemini.FunctionResponses(results).Parts
	if got := string(parts[0].FunctionResponse.Response["output"]); got != js {
		t.Errorf("gemini, value_card: output %s, want the structured value", got)
	}
	var s string
	if err := json.Unmarshal(parts[1].FunctionResponse.Response["output"], &s); err != nil {
		t.Errorf("gemini, value_note: output %s, want the model's text as a string", parts[1].FunctionResponse.Response["output"])
	}
	check("gemini", 1, s)
}

// TestContentForTheUserBudget checks that the result budget cuts the model's text
// only: the structured value and the block for the user stay whole.
func TestContentForTheUserBudget(t *testing.T) {
	items := make([]int, 3000)
	ts := contentTools(1000, map[string][]int{"items": items})
	res := ts.Call(context.Background(), "value_card", nil)
	n, cut := res.Truncated()
	if !cut || len(res.Text()) > 1000 || !strings.Contains(res.Text(), "[truncated: ") {
		t.Fatalf("Truncated() = %d, %v; Text() %d bytes", n, cut, len(res.Text()))
	}
	whole, _ := json.Marshal(map[string][]int{"items": items})
	if string(res.Structured) != string(whole) || n != len(whole) {
		t.Errorf("Structured %d bytes, Truncated %d; want %d, whole", len(res.Structured), n, len(whole))
	}
	if last := res.Content[len(res.Content)-1]; last.Text != cardText || last.ForModel() {
		t.Errorf("the last block = %+v, want the card for the user, whole", last)
	}
}
