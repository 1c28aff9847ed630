package runtime

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime/internal/engine"
	"github.com/toolgen/toolgen/runtime/invalid"
)

// testTools is a hand-written stand-in for a generated package: tools that succeed,
// fail safely, fail internally, panic, hang and return structured values.
var testTools = [...]Tool{
	{Name: "echo", Description: "Echoes its text.", Groups: []string{"basic"}},
	{Name: "fail_internal"},
	{Name: "fail_safe"},
	{Name: "hang", Timeout: 20 * time.Millisecond},
	{Name: "list", Groups: []string{"data"}},
	{Name: "nothing"},
	{Name: "panic"},
}

func dispatchTest(i int, d *engine.Decoder) invocation {
	switch i {
	case 0:
		var text string
		if d.BeginObject() {
			var seen bool
			for d.NextField() {
				switch string(d.FieldName()) {
				case "text":
					seen = true
					d.Enter("text")
					if s, ok := d.String(); ok {
						text = s
					}
					d.Leave()
				default:
					d.Unknown("text")
				}
			}
			if !seen {
				d.Missing("text")
			}
		}
		if !d.Finish() {
			return nil
		}
		return func(context.Context) (*Result, error) { return TextResult(text), nil }
	}
	d.EmptyObject()
	if !d.Finish() {
		return nil
	}
	switch i {
	case 1:
		return func(context.Context) (*Result, error) {
			return nil, errors.New("database password=hunter2 rejected")
		}
	case 2:
		return func(context.Context) (*Result, error) {
			return nil, ToolErrorf("order %d not found", 42)
		}
	case 3:
		return func(ctx context.Context) (*Result, error) {
			time.Sleep(time.Second) // ignores its context
			return TextResult("late"), nil
		}
	case 4:
		return func(context.Context) (*Result, error) {
			return StructuredResult([]string{}, true)
		}
	case 5:
		return func(context.Context) (*Result, error) { return nil, nil }
	case 6:
		return func(context.Context) (*Result, error) { panic("secret internal state") }
	}
	return nil
}

func newTestSet() *Toolset { return NewToolset(testTools[:], runLater(dispatchTest)) }

func TestCall(t *testing.T) {
	ts := newTestSet()
	ctx := context.Background()
	for _, tc := range []struct {
		name, args string
		isError    bool
		text       string
	}{
		{"echo", `{"text":"hi"}`, false, "hi"},
		{"echo", `{"txt":"hi"}`, true, `invalid arguments for echo: /txt: unknown property; did you mean "text"?; /text: missing required property`},
		{"echo", `{"text":`, true, "invalid arguments for echo: /text: malformed JSON: unexpected end of input at offset 8"},
		{"fail_internal", ``, true, "fail_internal failed with an internal error"},
		{"fail_safe", `{}`, true, "order 42 not found"},
		{"list", `null`, false, `{"result":[]}`},
		{"nothing", ``, false, "ok"},
		{"nothing", `{"a":1}`, true, "invalid arguments for nothing: /a: unknown property: this object takes no properties"},
		{"panic", ``, true, "panic failed with an internal error"},
		{"ech", `{}`, true, `unknown tool "ech"; did you mean "echo"?; available tools: echo, fail_internal, fail_safe, hang, list, nothing, panic`},
	} {
		r := ts.Call(ctx, tc.name, []byte(tc.args))
		if r.IsError != tc.isError || r.Text() != tc.text {
			t.Errorf("Call(%s, %s) = %v %q, want %v %q", tc.name, tc.args, r.IsError, r.Text(), tc.isError, tc.text)
		}
		if strings.Contains(r.Text(), "hunter2") || strings.Contains(r.Text(), "secret") {
			t.Errorf("Call(%s) leaked an internal error: %q", tc.name, r.Text())
		}
	}
}

func TestCallKeepsInternalErrorsForLogs(t *testing.T) {
	ts := newTestSet()
	r := ts.Call(context.Background(), "fail_internal", nil)
	if r.Err == nil || !strings.Contains(r.Err.Error(), "hunter2") {
		t.Errorf("Err = %v, want the full internal error", r.Err)
	}
	r = ts.Call(context.Background(), "panic", nil)
	if r.Err == nil || !strings.Contains(r.Err.Error(), "secret internal state") || !strings.Contains(r.Err.Error(), "goroutine") {
		t.Errorf("Err = %v, want the panic value and its stack", r.Err)
	}
	r = ts.Call(context.Background(), "echo", []byte(`{}`))
	var ae *invalid.ArgumentError
	if !errors.As(r.Err, &ae) || len(ae.Violations) != 1 || ae.Violations[0].Code != invalid.Required {
		t.Errorf("Err = %#v, want an *ArgumentError with one required violation", r.Err)
	}
}

func TestCallTimeoutAndCancel(t *testing.T) {
	ts := newTestSet()
	start := time.Now()
	r := ts.Call(context.Background(), "hang", nil)
	if !r.IsError || r.Text() != "hang timed out after 20ms" {
		t.Errorf("hang: got %v %q", r.IsError, r.Text())
	}
	if !errors.Is(r.Err, context.DeadlineExceeded) {
		t.Errorf("hang: Err = %v, want context.DeadlineExceeded", r.Err)
	}
	if time.Since(start) > 500*time.Millisecond {
		t.Errorf("hang: Call waited for the tool instead of its timeout")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = ts.Call(ctx, "echo", []byte(`{"text":"x"}`))
	if !r.IsError || r.Text() != "echo was canceled" || !errors.Is(r.Err, context.Canceled) {
		t.Errorf("canceled: got %v %q %v", r.IsError, r.Text(), r.Err)
	}
}

func TestToolsetViews(t *testing.T) {
	ts := newTestSet()
	if got := len(ts.Tools()); got != len(testTools) {
		t.Fatalf("Tools() has %d tools, want %d", got, len(testTools))
	}
	if tool, ok := ts.Lookup("list"); !ok || tool.Name != "list" {
		t.Errorf("Lookup(list) = %v, %v", tool, ok)
	}
	if _, ok := ts.Lookup("missing"); ok {
		t.Errorf("Lookup(missing) found a tool")
	}
	g := ts.Group("data", "basic")
	var names []string
	for _, tool := range g.Tools() {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "echo,list" {
		t.Errorf("Group(data, basic) = %v", names)
	}
	if r := g.Call(context.Background(), "panic", nil); !r.IsError || !strings.HasPrefix(r.Text(), `unknown tool "panic"`) {
		t.Errorf("a group called a tool outside it: %q", r.Text())
	}
	j := Join(g, ts.Group("basic"), ts.Group("data"))
	if j.Len() != 2 {
		t.Errorf("Join of overlapping groups has %d tools, want 2", j.Len())
	}
	other := NewToolset([]Tool{{Name: "echo"}}, runLater(dispatchTest))
	defer func() {
		if recover() == nil {
			t.Errorf("Join of two different tools named echo did not panic")
		}
	}()
	Join(ts, other)
}

func TestEffectiveAnnotations(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		a    Annotations
		want EffectiveAnnotations
	}{
		{Annotations{}, EffectiveAnnotations{Destructive: true, OpenWorld: true}},
		{Annotations{ReadOnly: &yes}, EffectiveAnnotations{ReadOnly: true, Idempotent: true, OpenWorld: true}},
		{Annotations{Destructive: &no, OpenWorld: &no}, EffectiveAnnotations{}},
		{Annotations{Destructive: &yes, Idempotent: &yes}, EffectiveAnnotations{Destructive: true, Idempotent: true, OpenWorld: true}},
	} {
		if got := tc.a.Effective(); got != tc.want {
			t.Errorf("%+v.Effective() = %+v, want %+v", tc.a, got, tc.want)
		}
	}
}

func TestResultText(t *testing.T) {
	r := &Result{Content: []Content{TextContent("for all"), UserText("for the user"), {Type: ContentText, Text: "for the model", Audience: []Role{RoleAssistant}}}}
	if got := r.Text(); got != "for all\nfor the model" {
		t.Errorf("Text() = %q", got)
	}
	r, err := StructuredResult(map[string]string{"a": "<b>"}, false)
	if err != nil || r.Text() != `{"a":"<b>"}` || string(r.Structured) != `{"a":"<b>"}` {
		t.Errorf("StructuredResult = %q %s %v", r.Text(), r.Structured, err)
	}
}

func TestCallRecoversDecoderPanics(t *testing.T) {
	ts := NewToolset([]Tool{{Name: "buggy"}}, runLater(func(int, *engine.Decoder) invocation {
		var s []int
		_ = s[3] // a decoder bug
		return nil
	}))
	r := ts.Call(context.Background(), "buggy", []byte(`{}`))
	if !r.IsError || r.Text() != "buggy failed with an internal error" || !strings.Contains(r.Err.Error(), "index out of range") {
		t.Errorf("got %v %q %v", r.IsError, r.Text(), r.Err)
	}
}

func TestRunCalls(t *testing.T) {
	var mu sync.Mutex
	running, peak := 0, 0
	var order []string
	tools := []Tool{{Name: "par"}, {Name: "seq", Sequential: true}}
	ts := NewToolset(tools, runLater(func(i int, d *engine.Decoder) invocation {
		d.EmptyObject()
		if !d.Finish() {
			return nil
		}
		name := tools[i].Name
		return func(context.Context) (*Result, error) {
			mu.Lock()
			running++
			peak = max(peak, running)
			order = append(order, name)
			mu.Unlock()
			time.Sleep(5 * time.Millisecond)
			mu.Lock()
			running--
			mu.Unlock()
			return TextResult(name), nil
		}
	}))
	calls := []ToolCall{{ID: "1", Name: "seq"}, {ID: "2", Name: "par"}, {ID: "3", Name: "nope"}, {ID: "4", Name: "par"}, {ID: "5", Name: "par", Arguments: []byte("{")}, {ID: "6", Name: "par"}, {ID: "7", Name: "seq"}}
	got := ts.RunCalls(context.Background(), calls, 2)
	if len(got) != len(calls) {
		t.Fatalf("%d results for %d calls", len(got), len(calls))
	}
	for i, r := range got {
		if r.Call.ID != calls[i].ID || r.Result == nil {
			t.Errorf("result %d answers %q, want %q", i, r.Call.ID, calls[i].ID)
		}
	}
	if !got[2].Result.IsError || !got[4].Result.IsError || got[1].Result.IsError {
		t.Errorf("outcomes: %v %v %v", got[1].Result.Text(), got[2].Result.Text(), got[4].Result.Text())
	}
	if peak > 2 {
		t.Errorf("%d calls ran at once, want at most 2", peak)
	}
	if n := len(order); n != 5 || order[n-1] != "seq" || order[n-2] != "seq" {
		t.Errorf("sequential calls did not run last, alone: %v", order)
	}
}

func TestSelectView(t *testing.T) {
	ts := newTestSet().Select("echo", "list", "missing")
	var names []string
	for _, tool := range ts.Tools() {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "echo,list" {
		t.Errorf("Select = %v", names)
	}
	res := ts.RunCalls(context.Background(), []ToolCall{{ID: "1", Name: "echo", Arguments: []byte(`{"text":"a"}`)}, {ID: "2", Name: "panic"}}, 0)
	if res[0].Result.IsError || res[1].Result.Outcome != OutcomeUnknownTool {
		t.Errorf("a selection ran a tool outside it: %q %q", res[0].Result.Text(), res[1].Result.Text())
	}
}

// TestCheck: Check decodes arguments as Call does without running the tool: nil for
// valid ones, the violations for invalid ones, an error for an unknown tool.
func TestCheck(t *testing.T) {
	ts := newTestSet()
	if err := ts.Check("panic", nil); err != nil {
		t.Errorf("valid arguments of panic: %v (and the tool must not run)", err)
	}
	var ae *invalid.ArgumentError
	if err := ts.Check("echo", []byte(`{"txt":"hi"}`)); !errors.As(err, &ae) || len(ae.Violations) != 2 {
		t.Errorf("invalid arguments of echo: %v", err)
	}
	if err := ts.Check("ech", []byte(`{}`)); err == nil || errors.As(err, &ae) || !strings.Contains(err.Error(), `"ech"`) {
		t.Errorf("an unknown tool: %v", err)
	}
	if err := (*Toolset)(nil).Check("echo", nil); err == nil {
		t.Error("a nil Toolset has a tool")
	}
}

// TestFit: Fit cuts a result an application makes to the named tool's budget, as Call
// cuts the tool's own, at the budget and one byte past it; a name the set does not
// hold gets the set's budget.
func TestFit(t *testing.T) {
	ts := newTestSet().WithResultBudget(MinResultBytes)
	at := TextResult(strings.Repeat("a", MinResultBytes))
	if got := ts.Fit("echo", at); got != at {
		t.Errorf("a result at the budget was changed: %q", got.Text())
	}
	past := TextResult(strings.Repeat("a", MinResultBytes+1))
	got := ts.Fit("echo", past)
	if n, cut := got.Truncated(); !cut || n != MinResultBytes+1 || len(got.Text()) > MinResultBytes {
		t.Errorf("a result past the budget: truncated %d %v, %d bytes", n, cut, len(got.Text()))
	}
	if _, cut := ts.Fit("no_such_tool", past).Truncated(); !cut {
		t.Error("an unknown tool's result was not cut to the set's budget")
	}
	if got := (*Toolset)(nil).Fit("echo", at); got.Text() != at.Text() {
		t.Errorf("a nil Toolset: %q", got.Text())
	}
}
