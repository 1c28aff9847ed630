package runtime

import (
	"context"
	"sync"
	"time"
)

// ToolCall is one call a model asked for, in any provider's format.
type ToolCall struct {
	// ID is the provider's id of the call, echoed in the answer; "" when the provider
	// gave none.
	ID string
	// Name is the tool's name.
	Name string
	// Arguments is the JSON text of the arguments.
	Arguments []byte
}

// CallResult is the answer to one ToolCall.
type CallResult struct {
	Call   ToolCall
	Result *Result
	// Duration is how long the call took, decoding included.
	Duration time.Duration
}

// DefaultMaxParallel is how many calls of one turn run at once by default.
const DefaultMaxParallel = 8

// RunCalls runs the calls of one model turn and returns exactly one result per call, in
// the calls' order, whatever happens: an unknown tool, invalid arguments, a denial, an
// error, a panic, a timeout or a canceled context each give an error result. Calls run
// in parallel, at most maxParallel at once (when zero or less, the Toolset's
// WithMaxParallel setting, else DefaultMaxParallel); calls to tools marked Sequential
// run one at a time, after the others. Each call's context carries its CallInfo: its
// id, and the provider named by ctx's CallInfo, if any.
func (ts *Toolset) RunCalls(ctx context.Context, calls []ToolCall, maxParallel int) []CallResult {
	if ts == nil {
		ts = &Toolset{} // no tools: every call is answered as unknown
	}
	if maxParallel <= 0 {
		maxParallel = ts.cfg.maxParallel
	}
	if maxParallel <= 0 {
		maxParallel = DefaultMaxParallel
	}
	if ctx == nil {
		ctx = context.Background()
	}
	base, _ := CallFromContext(ctx)
	out := make([]CallResult, len(calls))
	// run runs call i; on a goroutine of RunCalls' own (inline), the tool runs on it
	// too, and a Goexit ends only that goroutine: the call is answered below.
	run := func(i int, inline bool) {
		start := time.Now()
		info := base
		info.ID = calls[i].ID
		res := ts.callOn(ContextWithCall(ctx, info), calls[i].Name, calls[i].Arguments, inline || ts.cfg.inline)
		out[i] = CallResult{Call: calls[i], Result: res, Duration: time.Since(start)}
	}
	var sequential []int
	var wg sync.WaitGroup
	slots := make(chan struct{}, maxParallel)
	for i, c := range calls {
		if t, ok := ts.Lookup(c.Name); ok && t.Sequential {
			sequential = append(sequential, i)
			continue
		}
		if len(calls) == 1 {
			run(i, false) // nothing to run beside it
			continue
		}
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			run(i, true)
		}()
	}
	wg.Wait()
	for _, i := range sequential {
		run(i, false)
	}
	for i := range out {
		if out[i].Result == nil {
			// Call always returns a result, so the goroutine that ran the call
			// inline ended: the tool called runtime.Goexit. The call is still
			// answered, under its own id; the observer heard of it as the
			// goroutine ended.
			out[i] = CallResult{Call: calls[i], Result: goexitResult(calls[i].Name)}
		}
	}
	return out
}
