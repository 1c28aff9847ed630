package runtime

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
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
	dispatch := func(i int, d *Decoder) invocation {
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
	ts := NewToolset(tools[:], dispatch).WithInlineCalls(true)
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
	ts := NewToolset(goexitTools[:], dispatchGoexit).WithObserver(func(_ context.Context, e Event) { events = append(events, e) }).WithMaxParallel(1)
	calls := []ToolCall{{ID: "a", Name: "goexit"}, {ID: "b", Name: "ok"}, {ID: "c", Name: "goexit"}}
	results := ts.RunCalls(context.Background(), calls, 0)
	if err := CheckResults(calls, results); err != nil {
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
