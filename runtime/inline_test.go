package runtime

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime/internal/clientctx"
	"github.com/toolgen/toolgen/runtime/internal/engine"
	"github.com/toolgen/toolgen/runtime/progress"
)

// TestInlineCalls checks what WithInlineCalls keeps and what it gives up: a panic is
// still an internal error result, a deadline still holds for a tool that ignores its
// context, a Goexit ends the caller's goroutine (as any function's would), and the
// parallel calls of RunCalls are answered whatever their tools do.
func TestInlineCalls(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	tools := [...]Tool{{Name: "goexit"}, {Name: "ok"}, {Name: "panics"}, {Name: "ignores_context"}, {Name: "caller"}}
	var callerGoroutine []byte
	dispatch := func(i int, d *engine.Decoder) invocation {
		d.EmptyObject()
		if !d.Finish() {
			return nil
		}
		switch i {
		case 0:
			return func(context.Context) (*Result, error) { runtime.Goexit(); return nil, nil }
		case 1:
			return func(context.Context) (*Result, error) { return nil, nil }
		case 2:
			return func(context.Context) (*Result, error) { panic("tool bug") }
		case 3:
			return func(context.Context) (*Result, error) { <-block; return nil, nil }
		}
		return func(context.Context) (*Result, error) {
			buf := make([]byte, 64)
			callerGoroutine = buf[:runtime.Stack(buf, false)]
			return nil, nil
		}
	}
	ts := NewToolset(tools[:], runLater(dispatch)).WithInlineCalls(true)
	ctx := context.Background()

	if r := ts.Call(ctx, "ok", nil); r.IsError || r.Text() != "ok" || r.Outcome != OutcomeOK {
		t.Errorf("ok: %v %q %s", r.IsError, r.Text(), r.Outcome)
	}
	buf := make([]byte, 64)
	here := buf[:runtime.Stack(buf, false)]
	ts.Call(ctx, "caller", nil)
	if goroutineID(callerGoroutine) != goroutineID(here) {
		t.Errorf("the tool ran on %q, the caller is %q", goroutineID(callerGoroutine), goroutineID(here))
	}
	if r := ts.Call(ctx, "panics", nil); !r.IsError || r.Outcome != OutcomeInternalError || r.Err == nil || !strings.Contains(r.Err.Error(), "tool bug") {
		t.Errorf("panics: %v %s %v", r.IsError, r.Outcome, r.Err)
	}
	// A deadline still runs the tool on a goroutine of its own.
	short, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	if r := ts.Call(short, "ignores_context", nil); !r.IsError || r.Outcome != OutcomeTimeout {
		t.Errorf("ignores_context with a deadline: %v %s %q", r.IsError, r.Outcome, r.Text())
	}
	if r := ts.WithTimeout(10*time.Millisecond).Call(ctx, "ignores_context", nil); !r.IsError || r.Outcome != OutcomeTimeout {
		t.Errorf("ignores_context with WithTimeout: %v %s %q", r.IsError, r.Outcome, r.Text())
	}
	// A Goexit ends the caller's goroutine: Call does not return.
	ended := make(chan bool)
	go func() {
		returned := false
		defer func() { ended <- returned }()
		ts.Call(ctx, "goexit", nil)
		returned = true
	}()
	if <-ended {
		t.Error("Call returned from a tool that called runtime.Goexit, inline")
	}
	// Off, the same Goexit is an internal error result.
	if r := ts.WithInlineCalls(false).Call(ctx, "goexit", nil); !r.IsError || r.Err == nil || !strings.Contains(r.Err.Error(), "Goexit") {
		t.Errorf("goexit, not inline: %v %v", r.IsError, r.Err)
	}
}

// TestRunCallsGoexitInline checks that the parallel calls of a turn, which RunCalls runs
// inline on goroutines of its own, are each answered when a tool calls runtime.Goexit,
// and that the observer hears of every call.
func TestRunCallsGoexitInline(t *testing.T) {
	var events []Event
	ts := NewToolset(goexitTools[:], runLater(dispatchGoexit)).WithObserver(func(_ context.Context, e Event) { events = append(events, e) }).WithMaxParallel(1)
	calls := []ToolCall{{ID: "a", Name: "goexit"}, {ID: "b", Name: "ok"}, {ID: "c", Name: "goexit"}}
	results := ts.RunCalls(context.Background(), calls, 0)
	if err := checkResults(calls, results); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false, true} {
		r := results[i].Result
		if r.IsError != want || (want && (r.Outcome != OutcomeInternalError || r.Err == nil || !strings.Contains(r.Err.Error(), "Goexit"))) {
			t.Errorf("result %d: %v %s %v", i, r.IsError, r.Outcome, r.Err)
		}
	}
	if len(events) != 3 {
		t.Errorf("%d events, want 3: %+v", len(events), events)
	}
}

// goroutineID is the "goroutine N" of a runtime.Stack trace.
func goroutineID(stack []byte) string {
	s := string(stack)
	if i := strings.Index(s, " ["); i >= 0 {
		return s[:i]
	}
	return s
}

// TestInlineCallsAnswerAsCall checks that a call run inline, on either of its paths
// (the direct one, and the one with approvals, progress reports and a context that
// may end), is answered as one run on a goroutine of its own: the same result and the
// same event for observers, for each way a call ends.
func TestInlineCallsAnswerAsCall(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	live, stop := context.WithCancel(context.Background())
	defer stop()
	contexts := []struct {
		name string
		ctx  context.Context
	}{
		{"background", context.Background()},
		{"with a call's info", ContextWithCall(context.Background(), CallInfo{ID: "c1", Provider: "test"})},
		{"cancellable", live},
		{"canceled", canceled},
		{"with a progress listener", progress.NewContext(context.Background(), func(context.Context, progress.Event) {})},
		{"with a client awaiting input", clientctx.With(context.Background(), awaitingInput{})},
	}
	sets := []struct {
		name string
		ts   *Toolset
	}{
		{"default", newTestSet()},
		{"deny destructive", newTestSet().WithPolicy(DenyDestructive)},
		{"approver", newTestSet().WithApprover(func(context.Context, ApprovalRequest) Decision { return Allow() })},
		{"progress observer", newTestSet().WithProgress(func(context.Context, progress.Event) {})},
		{"small budget", newTestSet().WithResultBudget(MinResultBytes)},
	}
	calls := []struct{ name, args string }{
		{"echo", `{"text":"hi"}`},
		{"echo", `{"text":"` + strings.Repeat("long ", 100) + `"}`},
		{"echo", `{"txt":"hi"}`},
		{"echo", `{"text":`},
		{"fail_internal", ``},
		{"fail_safe", `{}`},
		{"list", `null`},
		{"nothing", ``},
		{"nothing", `{"a":1}`},
		{"panic", ``},
		{"ech", `{}`},
	}
	for _, set := range sets {
		for _, c := range contexts {
			var events [2][]Event
			observed := func(i int) *Toolset {
				return set.ts.WithObserver(func(_ context.Context, e Event) { events[i] = append(events[i], e) })
			}
			apart, inline := observed(0).WithInlineCalls(false), observed(1).WithInlineCalls(true)
			for _, call := range calls {
				want := apart.Call(c.ctx, call.name, []byte(call.args))
				got := inline.Call(c.ctx, call.name, []byte(call.args))
				if got.IsError != want.IsError || got.Text() != want.Text() || got.Outcome != want.Outcome || (got.Err == nil) != (want.Err == nil) {
					t.Errorf("%s, %s: Call(%s, %s) inline = %v %s %q, apart %v %s %q", set.name, c.name, call.name, call.args,
						got.IsError, got.Outcome, got.Text(), want.IsError, want.Outcome, want.Text())
				}
			}
			if len(events[0]) != len(calls) || len(events[1]) != len(calls) {
				t.Fatalf("%s, %s: %d and %d events, want %d", set.name, c.name, len(events[0]), len(events[1]), len(calls))
			}
			for i := range calls {
				w, g := events[0][i], events[1][i]
				if g.Tool != w.Tool || g.CallID != w.CallID || g.Provider != w.Provider || g.Outcome != w.Outcome ||
					g.ResultBytes != w.ResultBytes || g.Truncated != w.Truncated || g.Reason != w.Reason || len(g.Violations) != len(w.Violations) {
					t.Errorf("%s, %s: event %d inline %+v, apart %+v", set.name, c.name, i, g, w)
				}
			}
		}
	}
}

// awaitingInput is a client whose call's round ends asking it for input.
type awaitingInput struct{}

func (awaitingInput) AwaitsInput() bool { return true }

// TestOKResultsAreTheCallersOwn checks that the "ok" results Call makes for a tool that
// returns nothing, which come okBatch to an allocation, are each the caller's alone,
// across a batch's end: one changed in place, or appended to, changes no other, and a
// later call still answers "ok".
func TestOKResultsAreTheCallersOwn(t *testing.T) {
	for _, inline := range []bool{true, false} {
		ts := newTestSet().WithInlineCalls(inline)
		var results []*Result
		for range 2*okBatch + 1 {
			r := ts.Call(context.Background(), "nothing", nil)
			if r.IsError || r.Text() != "ok" || r.Outcome != OutcomeOK || len(r.Content) != 1 {
				t.Fatalf("inline %v: %v %s %q", inline, r.IsError, r.Outcome, r.Text())
			}
			results = append(results, r)
		}
		for i, r := range results {
			r.Content[0].Text = fmt.Sprint("changed ", i)
			r.Outcome = OutcomeToolError
		}
		for i, r := range results {
			r.Content = append(r.Content, TextContent(fmt.Sprint("appended ", i)))
		}
		for i, r := range results {
			if want := fmt.Sprintf("changed %d\nappended %d", i, i); r.Text() != want || r.Outcome != OutcomeToolError {
				t.Errorf("inline %v: result %d reads %q (%s), want %q", inline, i, r.Text(), r.Outcome, want)
			}
		}
		if r := ts.Call(context.Background(), "nothing", nil); r.Text() != "ok" || r.Outcome != OutcomeOK {
			t.Errorf("inline %v: a call after the changes reads %q (%s)", inline, r.Text(), r.Outcome)
		}
	}
}

// TestCallInlineOKAllocations checks that an inline call of a tool that returns nothing
// costs less than an allocation for its result: the "ok" results come okBatch to one.
func TestCallInlineOKAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ts := newTestSet().WithInlineCalls(true)
	ctx := context.Background()
	if n := testing.AllocsPerRun(10*okBatch, func() { ts.Call(ctx, "nothing", nil) }); n >= 1 {
		t.Errorf("Call of a tool that returns nothing allocates %v objects, want less than one", n)
	}
}

// TestLookupAtTheLinearLimit checks the tool's lookup with linearEntries tools, which it
// scans, and one more, which it searches by halves: every tool is found, names that
// differ in length or in their last byte are not.
func TestLookupAtTheLinearLimit(t *testing.T) {
	for _, n := range []int{0, 1, linearEntries, linearEntries + 1, 3 * linearEntries} {
		tools := make([]Tool, n)
		for i := range tools {
			tools[i].Name = fmt.Sprintf("tool_%02d", n-1-i) // given out of order
		}
		ts := NewToolset(tools, runLater(dispatchTest))
		for i := range n {
			name := fmt.Sprintf("tool_%02d", i)
			if tool, ok := ts.Lookup(name); !ok || tool.Name != name {
				t.Errorf("%d tools: Lookup(%s) = %v, %v", n, name, tool, ok)
			}
		}
		for _, name := range []string{"", "tool_", "tool_0", "tool_000", fmt.Sprintf("tool_%02d", n), "tool_0~", "a", "~"} {
			if tool, ok := ts.Lookup(name); ok {
				t.Errorf("%d tools: Lookup(%q) found %s", n, name, tool.Name)
			}
			if r := ts.Call(context.Background(), name, nil); r.Outcome != OutcomeUnknownTool {
				t.Errorf("%d tools: Call(%q) = %s", n, name, r.Outcome)
			}
		}
	}
}

// TestInlineDecoderPanic checks a decoder that panics on the direct inline path: an
// internal error result, and the calls after it are answered as usual.
func TestInlineDecoderPanic(t *testing.T) {
	tools := []Tool{{Name: "buggy"}, {Name: "fine"}}
	ts := NewToolset(tools, runLater(func(i int, d *engine.Decoder) invocation {
		if i == 0 {
			var s []int
			_ = s[3] // a decoder bug
		}
		d.EmptyObject()
		if !d.Finish() {
			return nil
		}
		return func(context.Context) (*Result, error) { return nil, nil }
	})).WithInlineCalls(true)
	for range 3 {
		if r := ts.Call(context.Background(), "buggy", []byte(`{}`)); !r.IsError || r.Outcome != OutcomeInternalError || !strings.Contains(r.Err.Error(), "index out of range") {
			t.Errorf("buggy: %v %s %v", r.IsError, r.Outcome, r.Err)
		}
		if r := ts.Call(context.Background(), "fine", []byte(`{}`)); r.IsError || r.Text() != "ok" {
			t.Errorf("fine: %v %q", r.IsError, r.Text())
		}
	}
}

// TestInlineGoexitObserved checks that the observer hears of a call whose tool, run
// inline, called runtime.Goexit, although the caller's goroutine ends with it: one
// internal_error event naming Goexit, with the call's id.
func TestInlineGoexitObserved(t *testing.T) {
	events := make(chan Event, 4)
	ts := NewToolset(goexitTools[:], runLater(dispatchGoexit)).WithInlineCalls(true).
		WithObserver(func(_ context.Context, e Event) { events <- e })
	ended := make(chan bool)
	go func() {
		returned := false
		defer func() { ended <- returned }()
		ts.Call(ContextWithCall(context.Background(), CallInfo{ID: "call_1"}), "goexit", nil)
		returned = true
	}()
	if <-ended {
		t.Fatal("Call returned from a tool that called runtime.Goexit, inline")
	}
	close(events)
	var got []Event
	for e := range events {
		got = append(got, e)
	}
	if len(got) != 1 || got[0].Tool != "goexit" || got[0].CallID != "call_1" || got[0].Outcome != OutcomeInternalError ||
		got[0].Err == nil || !strings.Contains(got[0].Err.Error(), "Goexit") || got[0].Start.IsZero() {
		t.Errorf("events %+v, want one internal_error of goexit, call_1, naming Goexit", got)
	}
}

// TestAwaitingInputOnlyAfterTheToolRan checks, inline and not, that a call whose round
// ends asking the client for input (client.InputAwaiter) waits for it only when its tool ran:
// an unknown tool and invalid arguments are answered as such.
func TestAwaitingInputOnlyAfterTheToolRan(t *testing.T) {
	ctx := clientctx.With(context.Background(), awaitingInput{})
	for _, inline := range []bool{false, true} {
		ts := newTestSet().WithInlineCalls(inline)
		for _, c := range []struct {
			name, args string
			want       Outcome
		}{
			{"nothing", ``, OutcomeInputRequired},
			{"fail_safe", ``, OutcomeInputRequired},
			{"nothing", `{"a":1}`, OutcomeInvalidArguments},
			{"echo", `{"text":`, OutcomeInvalidArguments},
			{"ech", ``, OutcomeUnknownTool},
		} {
			if r := ts.Call(ctx, c.name, []byte(c.args)); r.Outcome != c.want {
				t.Errorf("inline %v: Call(%s, %s) = %s, want %s", inline, c.name, c.args, r.Outcome, c.want)
			}
		}
	}
}

// TestReadOnlyResults checks WithReadOnlyResults: on, an inline call of a tool that
// returns nothing is answered with one "ok" result, shared by the Toolsets made from
// this one, and takes no memory for it; the other results, those of calls not inline,
// and those of a Toolset without the setting stay new ones.
func TestReadOnlyResults(t *testing.T) {
	ctx := context.Background()
	ts := newTestSet().WithInlineCalls(true).WithReadOnlyResults(true)
	first := ts.Call(ctx, "nothing", nil)
	if first.IsError || first.Text() != "ok" || first.Outcome != OutcomeOK || len(first.Content) != 1 {
		t.Fatalf("%v %s %q", first.IsError, first.Outcome, first.Text())
	}
	if r := ts.WithObserver(func(context.Context, Event) {}).Call(ctx, "nothing", nil); r != first {
		t.Errorf("a Toolset made from the read-only one answers a new result")
	}
	_, direct := newDirectSet()
	direct = direct.WithInlineCalls(true).WithReadOnlyResults(true)
	a, b := direct.Call(ctx, "count", []byte(`{"times":1}`)), direct.Call(ctx, "count", []byte(`{"times":2}`))
	if a != b || a.Text() != "ok" {
		t.Errorf("a tool with arguments, run at once: %p %p %q", a, b, a.Text())
	}
	if r := ts.Call(ctx, "echo", []byte(`{"text":"hi"}`)); r == first || r.Text() != "hi" {
		t.Errorf("echo answered %q", r.Text())
	}
	for _, c := range []struct {
		name string
		ts   *Toolset
	}{{"off", ts.WithReadOnlyResults(false)}, {"not inline", ts.WithInlineCalls(false)}, {"never set", newTestSet().WithInlineCalls(true)}} {
		if a, b := c.ts.Call(ctx, "nothing", nil), c.ts.Call(ctx, "nothing", nil); a == first || a == b || a.Text() != "ok" || b.Text() != "ok" {
			t.Errorf("%s: the results are shared", c.name)
		}
	}
	if raceEnabled {
		return // the race detector allocates
	}
	if n := testing.AllocsPerRun(1000, func() {
		if r := ts.Call(ctx, "nothing", nil); r != first {
			t.Fatalf("a new result %p, not the shared %p", r, first)
		}
	}); n != 0 {
		t.Errorf("%v allocations a call, want none", n)
	}
	const calls = 1000
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range calls {
		ts.Call(ctx, "nothing", nil)
	}
	runtime.ReadMemStats(&after)
	if perCall := (after.TotalAlloc - before.TotalAlloc) / calls; perCall >= 16 {
		t.Errorf("%d bytes a call, want none for the result", perCall)
	}
}
