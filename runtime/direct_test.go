package runtime

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime/internal/engine"
	"github.com/toolgen/toolgen/runtime/invalid"
)

// directTools are tools whose dispatch is written as generated code of version 8
// writes it: the decoded arguments are a value in the dispatch's frame, and with a
// context the dispatch calls the tool at once, from there.
var directTools = [...]Tool{
	{Name: "count"},
	{Name: "decode_bug"},
	{Name: "goexit"},
	{Name: "greet"},
	{Name: "panics"},
	{Name: "slow_where", Timeout: time.Minute},
	{Name: "where"},
}

// directSet holds what the tools of directTools saw.
type directSet struct {
	total    int64  // the sum of count's times
	ranNow   bool   // the last dispatch of where ran it at once
	ranOn    string // the goroutine where last ran on
	ranTools int    // the tools that ran
}

// countArgs and greetArgs are the argument structs of count (and panics) and greet.
type countArgs struct{ times int64 }

type greetArgs struct {
	name  string
	times int64
}

func decodeTimes(d *engine.Decoder, times *int64) {
	d.Enter("times")
	if n, ok := d.Int(1, 3); ok {
		*times = n
	}
	d.Leave()
}

func decodeCount(d *engine.Decoder, in *countArgs) {
	if d.BeginObject() {
		seen := false
		for d.NextField() {
			switch string(d.FieldName()) {
			case "times":
				seen = true
				decodeTimes(d, &in.times)
			default:
				d.Unknown("times")
			}
		}
		if !seen {
			d.Missing("times")
		}
	}
}

func decodeGreet(d *engine.Decoder, in *greetArgs) {
	if d.BeginObject() {
		var seenName, seenTimes bool
		for d.NextField() {
			switch string(d.FieldName()) {
			case "name":
				seenName = true
				d.Enter("name")
				if s, ok := d.String(); ok {
					in.name = s
				}
				d.Leave()
			case "times":
				seenTimes = true
				decodeTimes(d, &in.times)
			default:
				d.Unknown("name", "times")
			}
		}
		if !seenName {
			d.Missing("name")
		}
		if !seenTimes {
			d.Missing("times")
		}
	}
}

func (s *directSet) count(in countArgs) { s.ranTools++; s.total += in.times }

func (s *directSet) panics(countArgs) { s.ranTools++; panic("tool bug") }

func (s *directSet) greet(in greetArgs) string {
	s.ranTools++
	return strings.TrimSpace(strings.Repeat(in.name+" ", int(in.times)))
}

func (s *directSet) where() {
	s.ranTools++
	buf := make([]byte, 64)
	s.ranOn = goroutineID(buf[:runtime.Stack(buf, false)])
}

// dispatch is the tools' dispatchFunc.
func (s *directSet) dispatch(i int, d *engine.Decoder, ctx context.Context) (invocation, *Result, error) {
	switch i {
	case 0: // count
		var in countArgs
		decodeCount(d, &in)
		if !d.Finish() {
			return nil, nil, nil
		}
		if ctx != nil {
			s.count(in)
			return nil, nil, nil
		}
		v := in
		return func(context.Context) (*Result, error) { s.count(v); return nil, nil }, nil, nil
	case 4: // panics
		var in countArgs
		decodeCount(d, &in)
		if !d.Finish() {
			return nil, nil, nil
		}
		if ctx != nil {
			s.panics(in)
		}
		v := in
		return func(context.Context) (*Result, error) { s.panics(v); return nil, nil }, nil, nil
	case 3: // greet
		var in greetArgs
		decodeGreet(d, &in)
		if !d.Finish() {
			return nil, nil, nil
		}
		if ctx != nil {
			return nil, TextResult(s.greet(in)), nil
		}
		v := in
		return func(context.Context) (*Result, error) { return TextResult(s.greet(v)), nil }, nil, nil
	}
	if i == 1 {
		var words []string
		_ = words[3] // a decoder bug
	}
	d.EmptyObject()
	if !d.Finish() {
		return nil, nil, nil
	}
	switch i {
	case 2: // goexit
		if ctx != nil {
			runtime.Goexit()
		}
		return func(context.Context) (*Result, error) { runtime.Goexit(); return nil, nil }, nil, nil
	default: // where, slow_where
		s.ranNow = ctx != nil
		if ctx != nil {
			s.where()
			return nil, nil, nil
		}
		return func(context.Context) (*Result, error) { s.where(); return nil, nil }, nil, nil
	}
}

func newDirectSet() (*directSet, *Toolset) {
	s := new(directSet)
	return s, NewToolset(directTools[:], s.dispatch)
}

// TestDirectCallRunsAtOnce checks which calls the dispatch runs at once, on the
// caller's goroutine: an inline call with nothing to approve and a context that cannot
// end. A call with a deadline (the context's, the Toolset's or the tool's timeout), a
// call not inline, and an inline call whose context may be canceled, get the call to
// run instead; the first two run it on a goroutine of their own.
func TestDirectCallRunsAtOnce(t *testing.T) {
	s, ts := newDirectSet()
	buf := make([]byte, 64)
	here := goroutineID(buf[:runtime.Stack(buf, false)])
	deadline, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cancellable, stop := context.WithCancel(context.Background())
	defer stop()
	inline := ts.WithInlineCalls(true)
	for _, c := range []struct {
		name              string
		ts                *Toolset
		ctx               context.Context
		tool              string
		now, onTheCallers bool
	}{
		{"inline", inline, context.Background(), "where", true, true},
		{"inline, with a call's info", inline, ContextWithCall(context.Background(), CallInfo{ID: "c"}), "where", true, true},
		{"not inline", ts, context.Background(), "where", false, false},
		{"inline, a context's deadline", inline, deadline, "where", false, false},
		{"inline, the Toolset's timeout", inline.WithTimeout(time.Minute), context.Background(), "where", false, false},
		{"inline, the tool's timeout", inline, context.Background(), "slow_where", false, false},
		{"inline, a context that may be canceled", inline, cancellable, "where", false, true},
		{"inline, an approver", inline.WithApprover(func(context.Context, ApprovalRequest) Decision { return Allow() }), context.Background(), "where", false, true},
	} {
		s.ranOn, s.ranNow = "", false
		if r := c.ts.Call(c.ctx, c.tool, nil); r.IsError || r.Text() != "ok" {
			t.Errorf("%s: %v %q", c.name, r.IsError, r.Text())
		}
		if s.ranNow != c.now {
			t.Errorf("%s: the dispatch ran the tool at once: %v, want %v", c.name, s.ranNow, c.now)
		}
		if on := s.ranOn == here; on != c.onTheCallers {
			t.Errorf("%s: the tool ran on %q, the caller is %q", c.name, s.ranOn, here)
		}
	}
}

// TestDirectToolPanic checks a tool that panics after its arguments were decoded,
// called at once by the dispatch: an internal error result that names the tool, not
// the decode, and the calls after it, which reuse the call's state, decode their own
// arguments and no one else's.
func TestDirectToolPanic(t *testing.T) {
	s, ts := newDirectSet()
	ts = ts.WithInlineCalls(true).WithMaxParallel(1)
	ctx := context.Background()
	for i := range 3 {
		r := ts.Call(ctx, "panics", []byte(`{"times":2}`))
		if !r.IsError || r.Outcome != OutcomeInternalError || r.Err == nil || !strings.HasPrefix(r.Err.Error(), "panics panicked: tool bug") {
			t.Fatalf("panics: %v %s %v", r.IsError, r.Outcome, r.Err)
		}
		if r.Text() != "panics failed with an internal error" {
			t.Errorf("panics: the model reads %q", r.Text())
		}
		if r := ts.Call(ctx, "greet", []byte(`{"name":"ada","times":2}`)); r.IsError || r.Text() != "ada ada" {
			t.Errorf("greet after the panic: %v %q", r.IsError, r.Text())
		}
		r = ts.Call(ctx, "count", []byte(`{"times":9}`))
		var ae *invalid.ArgumentError
		if !errors.As(r.Err, &ae) || len(ae.Violations) != 1 || ae.Violations[0].Path != "/times" || ae.Violations[0].Got != "9" {
			t.Errorf("count after the panic: %s %v", r.Outcome, r.Err)
		}
		if r := ts.Call(ctx, "count", []byte(`{"times":1}`)); r.IsError || s.total != int64(i+1) {
			t.Errorf("count after the panic: %v %q, total %d", r.IsError, r.Text(), s.total)
		}
	}
}

// TestDirectDecodePanic checks a decoder that panics on the direct path: an internal
// error result that says the decode panicked, the tool not run, and the calls after it
// answered as usual.
func TestDirectDecodePanic(t *testing.T) {
	s, ts := newDirectSet()
	ts = ts.WithInlineCalls(true)
	for range 3 {
		r := ts.Call(context.Background(), "decode_bug", nil)
		if !r.IsError || r.Outcome != OutcomeInternalError || r.Err == nil ||
			!strings.HasPrefix(r.Err.Error(), "decoding the arguments of decode_bug panicked: ") || !strings.Contains(r.Err.Error(), "index out of range") {
			t.Errorf("decode_bug: %v %s %v", r.IsError, r.Outcome, r.Err)
		}
		if r := ts.Call(context.Background(), "greet", []byte(`{"name":"bo","times":1}`)); r.IsError || r.Text() != "bo" {
			t.Errorf("greet after the panic: %v %q", r.IsError, r.Text())
		}
	}
	if s.ranTools != 3 {
		t.Errorf("%d tools ran, want the 3 greets", s.ranTools)
	}
}

// TestDirectInvalidArguments checks that invalid arguments on the direct path are
// answered with every violation, as on a goroutine of the call's own, and that the tool
// does not run.
func TestDirectInvalidArguments(t *testing.T) {
	s, ts := newDirectSet()
	args := []byte(`{"times":7,"nme":"x"}`)
	want := []invalid.Violation{
		{Path: "/times", Code: invalid.Maximum},
		{Path: "/nme", Code: invalid.UnknownProperty},
		{Path: "/name", Code: invalid.Required},
	}
	for _, inline := range []bool{true, false} {
		r := ts.WithInlineCalls(inline).Call(context.Background(), "greet", args)
		var ae *invalid.ArgumentError
		if !r.IsError || r.Outcome != OutcomeInvalidArguments || !errors.As(r.Err, &ae) || ae.Tool != "greet" {
			t.Fatalf("inline %v: %v %s %v", inline, r.IsError, r.Outcome, r.Err)
		}
		got := make([]invalid.Violation, len(ae.Violations))
		for i, v := range ae.Violations {
			got[i] = invalid.Violation{Path: v.Path, Code: v.Code}
		}
		if !slices.Equal(got, want) {
			t.Errorf("inline %v: violations %+v, want %+v", inline, got, want)
		}
		for _, w := range []string{"times", "nme", "name"} {
			if !strings.Contains(r.Text(), w) {
				t.Errorf("inline %v: the model's text %q does not name %s", inline, r.Text(), w)
			}
		}
	}
	if s.ranTools != 0 {
		t.Errorf("%d tools ran on invalid arguments", s.ranTools)
	}
}

// TestDirectGoexitObserved is TestInlineGoexitObserved for a tool that the dispatch
// calls at once: the caller's goroutine ends, and the observer hears of the call once.
func TestDirectGoexitObserved(t *testing.T) {
	events := make(chan Event, 4)
	_, ts := newDirectSet()
	ts = ts.WithInlineCalls(true).WithObserver(func(_ context.Context, e Event) { events <- e })
	ended := make(chan bool)
	go func() {
		returned := false
		defer func() { ended <- returned }()
		ts.Call(ContextWithCall(context.Background(), CallInfo{ID: "call_7"}), "goexit", nil)
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
	if len(got) != 1 || got[0].Tool != "goexit" || got[0].CallID != "call_7" || got[0].Outcome != OutcomeInternalError ||
		got[0].Err == nil || !strings.Contains(got[0].Err.Error(), "Goexit") {
		t.Errorf("events %+v, want one internal_error of goexit, call_7, naming Goexit", got)
	}
	// The Toolset goes on answering.
	if r := ts.Call(context.Background(), "greet", []byte(`{"name":"cy","times":1}`)); r.IsError || r.Text() != "cy" {
		t.Errorf("greet after the Goexit: %v %q", r.IsError, r.Text())
	}
}

// TestDirectOKResultsAreTheCallersOwn checks that a tool the dispatch runs at once and
// that returns nothing is answered "ok", with a result of the caller's own.
func TestDirectOKResultsAreTheCallersOwn(t *testing.T) {
	_, ts := newDirectSet()
	ts = ts.WithInlineCalls(true)
	var results []*Result
	for range okBatch + 2 {
		r := ts.Call(context.Background(), "count", []byte(`{"times":1}`))
		if r.IsError || r.Text() != "ok" || r.Outcome != OutcomeOK {
			t.Fatalf("%v %s %q", r.IsError, r.Outcome, r.Text())
		}
		if slices.Contains(results, r) {
			t.Fatal("two calls answered with the same result")
		}
		results = append(results, r)
	}
	results[0].Content[0].Text = "changed"
	for _, r := range results[1:] {
		if r.Text() != "ok" {
			t.Fatalf("a change to one result changed another: %q", r.Text())
		}
	}
}

// TestDirectCallAllocations checks what the direct dispatch saves: an inline call of a
// tool with arguments that returns nothing allocates less than one object (its "ok"
// result comes okBatch to one), where the same dispatch made to return the call to run
// allocates it, a closure that holds the decoded arguments.
func TestDirectCallAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	s, direct := newDirectSet()
	later := NewToolset(directTools[:], runLater(func(i int, d *engine.Decoder) invocation {
		run, _, _ := s.dispatch(i, d, nil)
		return run
	}))
	ctx := context.Background()
	args := []byte(`{"times":2}`)
	for _, c := range []struct {
		name     string
		ts       *Toolset
		min, max float64
	}{{"direct", direct, 0, 0.5}, {"run later", later, 1, 2}} {
		ts := c.ts.WithInlineCalls(true)
		n := testing.AllocsPerRun(10*okBatch, func() {
			if r := ts.Call(ctx, "count", args); r.IsError {
				t.Fatal(r.Text())
			}
		})
		if n < c.min || n > c.max {
			t.Errorf("%s: an inline call allocates %v objects, want %v to %v", c.name, n, c.min, c.max)
		}
	}
}
