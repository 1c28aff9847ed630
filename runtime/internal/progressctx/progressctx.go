// Package progressctx carries the progress of tool calls through their contexts, for
// package runtime, which makes a Sink for each call someone listens to, and package
// runtime/progress, which tools report through and listeners subscribe with. It holds
// what both need in one place, so that runtime/progress stays a leaf.
package progressctx

import (
	"context"
	"math"
	"sync"
	"time"
)

// Event is one report of a running call's progress, for an Observer
// (runtime/progress.Event).
type Event struct {
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

// Observer is told about each progress report of a call while it runs. It is
// called on the tool's goroutine, one report of a call at a time, and must return
// quickly (hand slow work, such as a network write, to a goroutine of its own); it
// must be safe for concurrent use, since calls run in parallel. It must not report
// progress itself.
type Observer func(ctx context.Context, p Event)

type listenerKey struct{}

// HasListener reports whether ctx carries a listener (WithListener) for the call run
// with it.
func HasListener(ctx context.Context) bool { return ctx.Value(listenerKey{}) != nil }

// WithListener returns ctx with o listening to the progress of the call run with
// it, beside the Toolset's own observer (WithProgress): a caller that serves one call,
// such as toolmcp for an MCP request with a progress token, listens to that call
// alone. The calls that call's tool makes in turn, with its context, do not reach o.
func WithListener(ctx context.Context, o Observer) context.Context {
	return context.WithValue(ctx, listenerKey{}, o)
}

// Report reports the progress of the call whose context ctx is (or derives
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
func Report(ctx context.Context, done, total float64, message string) {
	if ctx == nil {
		return
	}
	s, _ := ctx.Value(sinkKey{}).(*Sink)
	if s == nil || math.IsNaN(done) || math.IsInf(done, 0) {
		return
	}
	if total < 0 || math.IsNaN(total) || math.IsInf(total, 0) {
		total = 0
	}
	s.report(done, total, message)
}

type sinkKey struct{}

// Sink is the context of a call that someone listens to: the Toolset puts it
// in the call's context only when there is an observer, so a call that nobody listens
// to costs no allocation.
type Sink struct {
	context.Context // the call's context, given to the observers

	tool     string
	callID   string
	provider string
	observer Observer // the Toolset's, or nil
	listener Observer // the context's, or nil

	mu    sync.Mutex // held while the observers run, so that end waits for them
	ended bool
}

// NewSink returns the context of a call of tool, listened to by the Toolset's
// observer and the one in ctx, or nil when there is neither.
func NewSink(ctx context.Context, tool, callID, provider string, observer Observer) *Sink {
	listener, _ := ctx.Value(listenerKey{}).(Observer)
	if observer == nil && listener == nil {
		return nil
	}
	return &Sink{Context: ctx, tool: tool, callID: callID, provider: provider, observer: observer, listener: listener}
}

// Value answers for the sink, and hides the listener from calls nested in this one.
func (s *Sink) Value(key any) any {
	switch key {
	case sinkKey{}:
		return s
	case listenerKey{}:
		return nil
	}
	return s.Context.Value(key)
}

func (s *Sink) report(done, total float64, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	p := Event{
		Tool: s.tool, CallID: s.callID, Provider: s.provider,
		Done: done, Total: total, Message: message, Time: time.Now(),
	}
	notify(s.Context, s.observer, p)
	notify(s.Context, s.listener, p)
}

// notify calls o, if any; an observer that panics loses its report, never the call.
func notify(ctx context.Context, o Observer, p Event) {
	if o == nil {
		return
	}
	defer func() { _ = recover() }()
	o(ctx, p)
}

// End ends the call: once it returns, no observer runs for it any more.
func (s *Sink) End() {
	s.mu.Lock()
	s.ended = true
	s.mu.Unlock()
}
