package runtime

import (
	"context"
	"math"
	"sync"
	"time"
)

// ProgressEvent is one report of a running call's progress, for a ProgressObserver.
type ProgressEvent struct {
	Tool     string
	CallID   string
	Provider string
	// Done is the progress so far, in whatever unit the tool counts (items, bytes,
	// steps); it should grow with every report.
	Done float64
	// Total is what Done reaches at the end, 0 when the tool does not know.
	Total float64
	// Message says what the tool is doing, "" when it says nothing.
	Message string
	// Time is when the tool reported.
	Time time.Time
}

// ProgressObserver is told about each progress report of a call while it runs. It is
// called on the tool's goroutine, one report of a call at a time, and must return
// quickly (hand slow work, such as a network write, to a goroutine of its own); it
// must be safe for concurrent use, since calls run in parallel. It must not report
// progress itself.
type ProgressObserver func(ctx context.Context, p ProgressEvent)

// WithProgress returns the same tools telling o about the progress their calls report
// (ReportProgress). Without a progress observer, and without one in the call's
// context (ContextWithProgress), reports cost next to nothing.
func (ts *Toolset) WithProgress(o ProgressObserver) *Toolset {
	return ts.with(func(c *config) { c.progress = o })
}

type progressListenerKey struct{}

// ContextWithProgress returns ctx with o listening to the progress of the call run with
// it, beside the Toolset's own observer (WithProgress): a caller that serves one call,
// such as toolmcp for an MCP request with a progress token, listens to that call
// alone. The calls that call's tool makes in turn, with its context, do not reach o.
func ContextWithProgress(ctx context.Context, o ProgressObserver) context.Context {
	return context.WithValue(ctx, progressListenerKey{}, o)
}

// ReportProgress reports the progress of the call whose context ctx is (or derives
// from): done so far, of total (0 when unknown), with an optional message. A tool calls
// it as often as it likes; it is safe for concurrent use. It is a no-op when nothing
// listens, outside a call, after the call ended (the tool timed out, or a goroutine it
// started outlives it), and for a done that is not a finite number. A total that is
// negative or not finite counts as unknown. It never waits for more than the
// observers take, which must be little.
//
// Progress should grow with each report: MCP clients drop a report whose done is not
// more than the one before (toolmcp does not send it); an observer of the Toolset gets
// every report.
func ReportProgress(ctx context.Context, done, total float64, message string) {
	if ctx == nil {
		return
	}
	s, _ := ctx.Value(progressSinkKey{}).(*progressSink)
	if s == nil || math.IsNaN(done) || math.IsInf(done, 0) {
		return
	}
	if total < 0 || math.IsNaN(total) || math.IsInf(total, 0) {
		total = 0
	}
	s.report(done, total, message)
}

type progressSinkKey struct{}

// progressSink is the context of a call that someone listens to: the Toolset puts it
// in the call's context only when there is an observer, so a call that nobody listens
// to costs no allocation.
type progressSink struct {
	context.Context // the call's context, given to the observers

	tool     string
	info     CallInfo
	observer ProgressObserver // the Toolset's, or nil
	listener ProgressObserver // the context's, or nil

	mu    sync.Mutex // held while the observers run, so that end waits for them
	ended bool
}

// newProgressSink returns the context of a call of tool, listened to by the Toolset's
// observer and the one in ctx, or nil when there is neither.
func newProgressSink(ctx context.Context, tool string, info CallInfo, observer ProgressObserver) *progressSink {
	listener, _ := ctx.Value(progressListenerKey{}).(ProgressObserver)
	if observer == nil && listener == nil {
		return nil
	}
	return &progressSink{Context: ctx, tool: tool, info: info, observer: observer, listener: listener}
}

// Value answers for the sink, and hides the listener from calls nested in this one.
func (s *progressSink) Value(key any) any {
	switch key {
	case progressSinkKey{}:
		return s
	case progressListenerKey{}:
		return nil
	}
	return s.Context.Value(key)
}

func (s *progressSink) report(done, total float64, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	p := ProgressEvent{
		Tool: s.tool, CallID: s.info.ID, Provider: s.info.Provider,
		Done: done, Total: total, Message: message, Time: time.Now(),
	}
	notify(s.Context, s.observer, p)
	notify(s.Context, s.listener, p)
}

// notify calls o, if any; an observer that panics loses its report, never the call.
func notify(ctx context.Context, o ProgressObserver, p ProgressEvent) {
	if o == nil {
		return
	}
	defer func() { _ = recover() }()
	o(ctx, p)
}

// end ends the call: once it returns, no observer runs for it any more.
func (s *progressSink) end() {
	s.mu.Lock()
	s.ended = true
	s.mu.Unlock()
}
