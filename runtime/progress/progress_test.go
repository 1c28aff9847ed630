package progress_test

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/progress"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// progressTools returns a Toolset of one tool, "work", whose function is run, taking no
// arguments.
func progressTools(run func(ctx context.Context) (*runtime.Result, error)) *runtime.Toolset {
	tools := []runtime.Tool{{Name: "work", InputSchema: []byte(`{"type":"object"}`)}}
	return runtime.NewToolset(tools, toolimpl.Direct(func(int, *toolimpl.Decoder) toolimpl.Invocation { return run }))
}

// recorder collects progress events.
type recorder struct {
	mu     sync.Mutex
	events []progress.Event
}

func (r *recorder) observe(_ context.Context, p progress.Event) {
	r.mu.Lock()
	r.events = append(r.events, p)
	r.mu.Unlock()
}

func (r *recorder) got() []progress.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]progress.Event(nil), r.events...)
}

func TestReportWithoutListener(t *testing.T) {
	// Outside a call, and in a call nobody listens to: nothing happens.
	progress.Report(context.Background(), 1, 2, "x")
	progress.Report(nil, 1, 2, "x") //nolint:staticcheck // a nil context is a no-op too
	ts := progressTools(func(ctx context.Context) (*runtime.Result, error) {
		for i := range 10 {
			progress.Report(ctx, float64(i), 10, "step")
		}
		return nil, nil
	})
	if res := ts.Call(context.Background(), "work", nil); res.IsError {
		t.Fatal(res.Text())
	}
}

func TestReportCostsNoAllocationWithoutListener(t *testing.T) {
	plain := progressTools(func(context.Context) (*runtime.Result, error) { return nil, nil })
	reporting := progressTools(func(ctx context.Context) (*runtime.Result, error) {
		progress.Report(ctx, 1, 2, "half")
		return nil, nil
	})
	ctx := context.Background()
	a := testing.AllocsPerRun(200, func() { plain.Call(ctx, "work", nil) })
	b := testing.AllocsPerRun(200, func() { reporting.Call(ctx, "work", nil) })
	if b != a {
		t.Errorf("a call that reports progress nobody listens to makes %v allocations, one that does not %v", b, a)
	}
}

func TestWithProgress(t *testing.T) {
	var rec recorder
	ts := progressTools(func(ctx context.Context) (*runtime.Result, error) {
		progress.Report(ctx, 1, 3, "first")
		progress.Report(ctx, 2, math.NaN(), "total unknown")
		progress.Report(ctx, math.Inf(1), 3, "dropped: not a number")
		progress.Report(ctx, 3, -1, "")
		return nil, nil
	}).WithProgress(rec.observe)
	ctx := runtime.ContextWithCall(context.Background(), runtime.CallInfo{ID: "call_1", Provider: "test"})
	if res := ts.Call(ctx, "work", nil); res.IsError {
		t.Fatal(res.Text())
	}
	got := rec.got()
	want := []progress.Event{
		{Done: 1, Total: 3, Message: "first"},
		{Done: 2, Total: 0, Message: "total unknown"},
		{Done: 3, Total: 0},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d events %+v, want %d", len(got), got, len(want))
	}
	for i, g := range got {
		w := want[i]
		if g.Tool != "work" || g.CallID != "call_1" || g.Provider != "test" || g.Time.IsZero() ||
			g.Done != w.Done || g.Total != w.Total || g.Message != w.Message {
			t.Errorf("event %d: %+v, want %+v of work, call_1, test", i, g, w)
		}
	}
}

func TestNewContext(t *testing.T) {
	var own, outer, inner recorder
	nested := progressTools(func(ctx context.Context) (*runtime.Result, error) {
		progress.Report(ctx, 7, 7, "nested")
		return nil, nil
	}).WithProgress(inner.observe)
	ts := progressTools(func(ctx context.Context) (*runtime.Result, error) {
		progress.Report(ctx, 1, 2, "outer")
		// A call the tool makes in turn does not report to the outer call's listener.
		nested.Call(ctx, "work", nil)
		progress.Report(ctx, 2, 2, "outer")
		return nil, nil
	}).WithProgress(own.observe)
	ts.Call(progress.NewContext(context.Background(), outer.observe), "work", nil)
	for _, c := range []struct {
		name string
		r    *recorder
		want []float64
	}{{"the Toolset's observer", &own, []float64{1, 2}}, {"the context's listener", &outer, []float64{1, 2}}, {"the nested Toolset's observer", &inner, []float64{7}}} {
		got := c.r.got()
		var done []float64
		for _, e := range got {
			done = append(done, e.Done)
		}
		if len(done) != len(c.want) || (len(done) > 0 && done[0] != c.want[0]) || done[len(done)-1] != c.want[len(c.want)-1] {
			t.Errorf("%s got %v, want %v", c.name, done, c.want)
		}
	}
	// A listener alone, without the Toolset's observer, hears the call too.
	var alone recorder
	progressTools(func(ctx context.Context) (*runtime.Result, error) {
		progress.Report(ctx, 1, 0, "")
		return nil, nil
	}).Call(progress.NewContext(context.Background(), alone.observe), "work", nil)
	if n := len(alone.got()); n != 1 {
		t.Errorf("a listener in the context alone got %d events, want 1", n)
	}
}

func TestReportConcurrently(t *testing.T) {
	var n atomic.Int64
	var inObserver [4]atomic.Int32 // by call
	const goroutines, reports = 8, 200
	ts := progressTools(func(ctx context.Context) (*runtime.Result, error) {
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				for i := range reports {
					progress.Report(ctx, float64(g*reports+i), goroutines*reports, "")
				}
			})
		}
		wg.Wait()
		return nil, nil
	}).WithProgress(func(_ context.Context, p progress.Event) {
		c := &inObserver[p.CallID[0]-'0']
		if c.Add(1) != 1 {
			t.Error("two reports of one call observed at once")
		}
		n.Add(1)
		c.Add(-1)
	})
	var wg sync.WaitGroup
	for i := range 4 {
		ctx := runtime.ContextWithCall(context.Background(), runtime.CallInfo{ID: string(rune('0' + i))})
		wg.Go(func() { ts.Call(ctx, "work", nil) })
	}
	wg.Wait()
	if got := n.Load(); got != 4*goroutines*reports {
		t.Errorf("observed %d reports, want %d", got, 4*goroutines*reports)
	}
}

func TestReportAfterTheCallEnded(t *testing.T) {
	var rec recorder
	release := make(chan struct{})
	reported := make(chan struct{})
	ts := progressTools(func(ctx context.Context) (*runtime.Result, error) {
		progress.Report(ctx, 1, 0, "during")
		go func() {
			<-release
			progress.Report(ctx, 2, 0, "after: a goroutine that outlives the call")
			close(reported)
		}()
		return nil, nil
	}).WithProgress(rec.observe)
	ts.Call(context.Background(), "work", nil)
	close(release)
	<-reported

	// A tool that ignores its timeout runs on after Call answered: its reports are
	// dropped.
	stop := make(chan struct{})
	done := make(chan struct{})
	slow := progressTools(func(ctx context.Context) (*runtime.Result, error) {
		<-stop
		progress.Report(ctx, 3, 0, "after the timeout")
		close(done)
		return nil, nil
	}).WithProgress(rec.observe).WithTimeout(10 * time.Millisecond)
	if res := slow.Call(context.Background(), "work", nil); res.Outcome != runtime.OutcomeTimeout {
		t.Fatalf("outcome %s, want timeout", res.Outcome)
	}
	close(stop)
	<-done
	if got := rec.got(); len(got) != 1 || got[0].Done != 1 {
		t.Errorf("events %+v, want the one reported during the call", got)
	}
}

func TestObserverPanics(t *testing.T) {
	ts := progressTools(func(ctx context.Context) (*runtime.Result, error) {
		progress.Report(ctx, 1, 0, "")
		return runtime.TextResult("done"), nil
	}).WithProgress(func(context.Context, progress.Event) { panic("observer bug") })
	if res := ts.Call(context.Background(), "work", nil); res.IsError || res.Text() != "done" {
		t.Errorf("result %q (error %v), want done", res.Text(), res.IsError)
	}
}
