package runtime

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime/internal/engine"
)

// workerTools is a Toolset whose tools tell the goroutine they ran on (through ids),
// end it (goexit), panic, or wait for release ignoring their context (blocks).
func workerTools(ids chan<- string, release <-chan struct{}) *Toolset {
	tools := [...]Tool{{Name: "blocks"}, {Name: "goexit"}, {Name: "id"}, {Name: "panics"}}
	dispatch := func(i int, d *engine.Decoder) invocation {
		d.EmptyObject()
		if !d.Finish() {
			return nil
		}
		switch tools[i].Name {
		case "blocks":
			return func(context.Context) (*Result, error) { <-release; return TextResult("late"), nil }
		case "goexit":
			return func(context.Context) (*Result, error) { runtime.Goexit(); return nil, nil }
		case "panics":
			return func(context.Context) (*Result, error) { panic("tool bug") }
		}
		return func(context.Context) (*Result, error) {
			buf := make([]byte, 64)
			ids <- goroutineID(buf[:runtime.Stack(buf, false)])
			return nil, nil
		}
	}
	return NewToolset(tools[:], runLater(dispatch))
}

// callID calls the tool id and returns the goroutine it ran on.
func callID(t *testing.T, ts *Toolset, ctx context.Context, ids <-chan string) string {
	t.Helper()
	if r := ts.Call(ctx, "id", nil); r.IsError || r.Text() != "ok" {
		t.Fatalf("id: %v %q", r.IsError, r.Text())
	}
	return <-ids
}

// TestWorkersReused checks that calls run their tools on a worker that the calls before
// them ran on (keeping its grown stack) rather than on a new goroutine each, and that
// a panic leaves the worker to the next call. Under the race detector sync.Pool drops
// some of what it is given, so there the test asks only for some reuse.
func TestWorkersReused(t *testing.T) {
	ids := make(chan string, 1)
	ts := workerTools(ids, nil)
	ctx, cancel := context.WithCancel(context.Background()) // a context that may end: no direct path
	defer cancel()
	buf := make([]byte, 64)
	here := goroutineID(buf[:runtime.Stack(buf, false)])
	seen := map[string]int{}
	const calls = 40
	for i := range calls {
		id := callID(t, ts, ctx, ids)
		if id == here {
			t.Fatalf("call %d ran on the caller's goroutine", i)
		}
		seen[id]++
		if i == calls/2 {
			if r := ts.Call(ctx, "panics", nil); r.Outcome != OutcomeInternalError || !strings.Contains(r.Err.Error(), "tool bug") {
				t.Fatalf("panics: %s %v", r.Outcome, r.Err)
			}
		}
	}
	// Without the race detector a collection between two calls may move the worker to
	// the pool's victim cache, not drop it: one goroutine, at most two.
	limit := 2
	if raceEnabled {
		limit = calls * 3 / 4
	}
	if len(seen) > limit {
		t.Errorf("%d calls ran on %d goroutines, want at most %d", calls, len(seen), limit)
	}
	// The Toolsets made from ts share its workers.
	if id := callID(t, ts.WithTimeout(time.Minute).Select("id"), ctx, ids); seen[id] == 0 && !raceEnabled {
		t.Errorf("a call of ts.WithTimeout(…).Select(…) ran on %s, none of ts's workers %v", id, seen)
	}
}

// TestWorkerGoexit checks that a tool's runtime.Goexit answers its call with an internal
// error and ends its worker, which no later call is handed, and that the next call works.
func TestWorkerGoexit(t *testing.T) {
	ids := make(chan string, 1)
	ts := workerTools(ids, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	before := callID(t, ts, ctx, ids)
	for range 3 {
		r := ts.Call(ctx, "goexit", nil)
		if !r.IsError || r.Outcome != OutcomeInternalError || r.Err == nil || !strings.Contains(r.Err.Error(), "Goexit") {
			t.Fatalf("goexit: %v %s %v", r.IsError, r.Outcome, r.Err)
		}
		after := callID(t, ts, ctx, ids)
		if after == before {
			t.Fatalf("the call after a Goexit ran on %s, the goroutine that ended", after)
		}
		before = after
	}
}

// TestWorkerTimeoutAndCancel checks that a call whose deadline passes, or whose context
// is canceled, is answered at once while its tool goes on; that its worker is not handed
// to a later call while the tool runs; and that its late result reaches no one.
func TestWorkerTimeoutAndCancel(t *testing.T) {
	ids := make(chan string, 1)
	release := make(chan struct{})
	ts := workerTools(ids, release)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	busy := callID(t, ts, ctx, ids) // the worker "blocks" takes next

	start := time.Now()
	if r := ts.WithTimeout(20*time.Millisecond).Call(ctx, "blocks", nil); r.Outcome != OutcomeTimeout {
		t.Fatalf("blocks with a timeout: %s %q", r.Outcome, r.Text())
	}
	long, stop := context.WithTimeout(ctx, time.Hour)
	go func() { time.Sleep(20 * time.Millisecond); stop() }()
	if r := ts.Call(long, "blocks", nil); r.Outcome != OutcomeCanceled {
		t.Fatalf("blocks, canceled: %s %q", r.Outcome, r.Text())
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the two calls took %v", d)
	}
	// Both tools still wait: the calls after them run elsewhere.
	for range 5 {
		if id := callID(t, ts, ctx, ids); id == busy {
			t.Fatalf("a call ran on %s, whose tool still runs", id)
		}
	}
	close(release)
	for range 5 {
		if r := ts.Call(ctx, "id", nil); r.Text() != "ok" {
			t.Fatalf("after the late results: %q", r.Text())
		}
		<-ids
	}
}

// TestWorkersDoNotLeak checks that the workers of a Toolset no longer used end: after
// calls from many goroutines at once, and calls that timed out, the number of
// goroutines comes back once the Toolset is dropped and collected.
func TestWorkersDoNotLeak(t *testing.T) {
	base := runtime.NumGoroutine()
	release := make(chan struct{})
	func() {
		ids := make(chan string, 64)
		ts := workerTools(ids, release)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan bool)
		for range 16 {
			go func() {
				for range 20 {
					ts.Call(ctx, "id", nil)
					<-ids
				}
				done <- true
			}()
		}
		for range 16 {
			<-done
		}
		if r := ts.WithTimeout(time.Millisecond).Call(ctx, "blocks", nil); r.Outcome != OutcomeTimeout {
			t.Errorf("blocks: %s", r.Outcome)
		}
	}()
	close(release) // the timed-out tool returns; its worker then ends too
	deadline := time.Now().Add(10 * time.Second)
	n := runtime.NumGoroutine()
	for n > base && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	if n > base {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines before, %d after the Toolset was dropped:\n%s", base, n, buf[:runtime.Stack(buf, true)])
	}
}
