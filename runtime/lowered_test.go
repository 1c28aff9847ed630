package runtime_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// Lowered computes once per tool and key, for every Toolset made from the one that
// holds the tool, and for a tool of no Toolset each time.
func TestLowered(t *testing.T) {
	ts := runtime.NewToolset([]runtime.Tool{{Name: "a", Groups: []string{"g"}}, {Name: "b"}}, nil)
	var calls atomic.Int32
	lower := func(t *runtime.Tool) string { calls.Add(1); return "lowered " + t.Name }
	a, _ := ts.Lookup("a")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for _, set := range []*runtime.Toolset{ts, ts.Group("g"), runtime.Join(ts.Select("a")), ts.WithMaxParallel(1)} {
				if got := runtime.Lowered(set, a, "k", lower); got != "lowered a" {
					t.Errorf("Lowered = %q", got)
				}
			}
		})
	}
	wg.Wait()
	if n := calls.Load(); n < 1 || n > 8 {
		t.Errorf("lower ran %d times for one tool, want once (or once per racing call)", n)
	}
	calls.Store(0)
	runtime.Lowered(ts, a, "other", lower)
	b, _ := ts.Lookup("b")
	runtime.Lowered(ts, b, "k", lower)
	if n := calls.Load(); n != 2 {
		t.Errorf("another key and another tool: lower ran %d times, want 2", n)
	}
	calls.Store(0)
	stray := &runtime.Tool{Name: "a"}
	runtime.Lowered(ts, stray, "k", lower)
	runtime.Lowered(ts, stray, "k", lower)
	runtime.Lowered(nil, stray, "k", lower)
	if n := calls.Load(); n != 3 {
		t.Errorf("a tool of no Toolset: lower ran %d times, want 3", n)
	}
}
