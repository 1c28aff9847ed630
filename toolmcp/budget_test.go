package toolmcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// TestResultBudget checks that an MCP client gets the text content cut to the result
// budget and the structuredContent whole, and that the observer sees the original
// size.
func TestResultBudget(t *testing.T) {
	items := make([]string, 2000)
	for i := range items {
		items[i] = "€ item"
	}
	res, err := runtime.StructuredResult(items, true)
	if err != nil {
		t.Fatal(err)
	}
	whole := string(res.Structured)
	tools := []runtime.Tool{{
		Name:           "long",
		InputSchema:    json.RawMessage(emptyObject),
		OutputSchema:   json.RawMessage(`{"type":"object","properties":{"result":{"type":"array","items":{"type":"string"}}},"required":["result"]}`),
		MaxResultBytes: 2000,
	}}
	var events []runtime.Event
	ts := runtime.NewToolset(tools, func(i int, d *runtime.Decoder) runtime.Invocation {
		d.EmptyObject()
		if !d.Finish() {
			return nil
		}
		return func(context.Context) (*runtime.Result, error) { return res, nil }
	}).WithObserver(func(_ context.Context, e runtime.Event) { events = append(events, e) })
	got := call(t, serve(t, ts), "long", map[string]any{})
	if got.IsError {
		t.Fatalf("error result: %s", text(got))
	}
	sent := text(got)
	i := strings.Index(sent, "…\n[truncated: ")
	if len(sent) > 2000 || i < 0 || !strings.HasPrefix(whole, sent[:i]) || !strings.Contains(sent, " bytes of JSON cut ") {
		t.Errorf("text content: %d bytes, ending %q", len(sent), sent[max(len(sent)-150, 0):])
	}
	if s := jsonOf(t, got.StructuredContent); s != whole {
		t.Errorf("structuredContent is %d bytes, want the whole %d", len(s), len(whole))
	}
	if len(events) != 1 || events[0].ResultBytes != len(whole) || !events[0].Truncated || events[0].Provider != "mcp" {
		t.Errorf("events = %+v", events)
	}
}
