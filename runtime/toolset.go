package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolgen/toolgen/runtime/internal/clientctx"
	"github.com/toolgen/toolgen/runtime/internal/engine"
	"github.com/toolgen/toolgen/runtime/internal/progressctx"
	"github.com/toolgen/toolgen/runtime/invalid"
)

// invocation runs one call whose arguments were decoded and found valid. It returns
// the tool's result, or the error the tool returned (toolimpl.invocation).
type invocation = func(ctx context.Context) (*Result, error)

// dispatchFunc decodes the arguments of the tool at index with d, and when they are
// valid, runs the tool at once with ctx and returns what it returned or, when ctx is
// nil, returns the call to run instead. When the arguments are invalid it returns
// nothing, and d holds the violations (d.Finished is false): toolimpl.DirectDispatch,
// what NewToolset takes.
type dispatchFunc = func(index int, d *engine.Decoder, ctx context.Context) (invocation, *Result, error)

// runLater makes a dispatchFunc of a dispatch that only returns the call to run, or nil
// when the arguments are invalid: with a context, the call is run at once. NewTool's
// dispatch is one (toolimpl.Direct is the same for generated table-driven code).
func runLater(dispatch func(index int, d *engine.Decoder) invocation) dispatchFunc {
	return func(i int, d *engine.Decoder, ctx context.Context) (invocation, *Result, error) {
		run := dispatch(i, d)
		if run == nil || ctx == nil {
			return run, nil, nil
		}
		r, err := run(ctx)
		return nil, r, err
	}
}

// Toolset is a set of tools that can be listed and called. The generated Tools and
// TTools functions return one; Group, Select and Join make others, and the With methods
// return the same tools with other settings. A Toolset is safe for concurrent use.
type Toolset struct {
	entries []entry // sorted by tool name
	cfg     config
	pool    *sync.Pool // of *engine.Decoder
	search  *lazyIndex // built at the first Search; shared by the With methods' copies
}

// config holds a Toolset's settings; the zero value is the default.
type config struct {
	limits       Limits
	timeout      time.Duration
	maxParallel  int
	approver     Approver
	policy       Policy
	observer     Observer
	progress     progressctx.Observer
	logArguments bool
	resultBudget int    // bytes; 0 is DefaultMaxResultBytes, negative none
	deferral     *Defer // nil: no tool is deferred
	inline       bool
	sharedOK     *Result // the "ok" result of WithReadOnlyResults, or nil
}

type entry struct {
	tool     *Tool
	dispatch dispatchFunc
	index    int
	// lowered caches what Lowered computes for the tools of one NewToolset, by tool
	// and key; the Toolsets made from it share it. One map for all the tools, not one
	// each: a package of a thousand tools is ready without a thousand allocations.
	lowered *sync.Map
}

// NewToolset returns the Toolset of tools, whose calls dispatch decodes and runs.
// Generated code calls it, with a dispatch of type toolimpl.DirectDispatch (its decoder
// is toolimpl.Decoder); tools must have unique names. With a context, dispatch decodes
// the arguments of the tool at index and, when they are valid, runs the tool with that
// context, on arguments still in its own frame, and returns its result; with a nil
// context it returns the call to run instead. When the arguments are invalid it
// returns nothing and d holds the violations. A call run on the caller's goroutine
// with nothing to approve (WithInlineCalls) then costs no closure.
func NewToolset(tools []Tool, dispatch func(index int, d *engine.Decoder, ctx context.Context) (func(ctx context.Context) (*Result, error), *Result, error)) *Toolset {
	entries := make([]entry, len(tools))
	lowered := new(sync.Map)
	for i := range tools {
		entries[i] = entry{tool: &tools[i], dispatch: dispatch, index: i, lowered: lowered}
	}
	return newToolset(entries, config{}, nil)
}

// later returns the call to run of the tool of e, decoded with d, or nil when its
// arguments are invalid.
func (e *entry) later(d *engine.Decoder) invocation {
	run, _, _ := e.dispatch(e.index, d, nil)
	return run
}

func newToolset(entries []entry, cfg config, pool *sync.Pool) *Toolset {
	if !slices.IsSortedFunc(entries, compareEntries) {
		slices.SortStableFunc(entries, compareEntries)
	}
	if pool == nil {
		pool = &sync.Pool{New: func() any { return new(callState) }}
	}
	return &Toolset{entries: entries, cfg: cfg, pool: pool, search: new(lazyIndex)}
}

// Lowered returns lower(t) for t, a tool of ts, computed once per tool and key and
// kept with the tool's entry, which the Toolsets made from ts by Group, Select, Join and
// the With methods share; lower runs more than once only when first calls race. It is
// safe for concurrent use. Provider adapters use it to lower a tool's input schema to
// their dialect once (see runtime/dialect); key names the dialect (the adapter's import
// path), and lower must give the same for the same tool. For a tool not in ts, lower
// runs each time.
func Lowered[T any](ts *Toolset, t *Tool, key string, lower func(t *Tool) T) T {
	e, ok := ts.find(t.Name)
	if !ok || e.tool != t || e.lowered == nil {
		return lower(t)
	}
	k := loweredKey{t, key}
	if v, ok := e.lowered.Load(k); ok {
		return v.(T)
	}
	v, _ := e.lowered.LoadOrStore(k, lower(t))
	return v.(T)
}

// loweredKey keys the cache of Lowered: a tool and a dialect.
type loweredKey struct {
	tool *Tool
	key  string
}

func compareEntries(a, b entry) int { return strings.Compare(a.tool.Name, b.tool.Name) }

// Tools returns the set's tools, sorted by name. A nil Toolset has none.
func (ts *Toolset) Tools() []*Tool {
	if ts == nil {
		return nil
	}
	out := make([]*Tool, len(ts.entries))
	for i, e := range ts.entries {
		out[i] = e.tool
	}
	return out
}

// Len returns the number of tools in the set.
func (ts *Toolset) Len() int {
	if ts == nil {
		return 0
	}
	return len(ts.entries)
}

// Lookup returns the tool with the given name.
func (ts *Toolset) Lookup(name string) (*Tool, bool) {
	if e, ok := ts.find(name); ok {
		return e.tool, true
	}
	return nil, false
}

func (ts *Toolset) find(name string) (entry, bool) {
	if i := ts.index(name); i >= 0 {
		return ts.entries[i], true
	}
	return entry{}, false
}

// linearEntries is the most entries index scans one by one; past it, it searches them
// by halves. Up to it, comparing lengths first, most entries cost a load and a compare.
const linearEntries = 8

// index returns the index in ts.entries of the tool named name, or -1.
func (ts *Toolset) index(name string) int {
	if ts == nil {
		return -1
	}
	entries := ts.entries
	if len(entries) <= linearEntries {
		for i := range entries {
			if entries[i].tool.Name == name {
				return i
			}
		}
		return -1
	}
	lo, hi := 0, len(entries)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if entries[m].tool.Name < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(entries) && entries[lo].tool.Name == name {
		return lo
	}
	return -1
}

// Group returns the tools that belong to any of the named groups. Calls to other tools
// are refused as unknown: a view offers, and runs, only what it holds.
func (ts *Toolset) Group(names ...string) *Toolset {
	return ts.filter(func(t *Tool) bool { return t.InGroup(names...) })
}

// Select returns the named tools (names the set does not hold are ignored). Like Group,
// it refuses calls to the tools it leaves out.
func (ts *Toolset) Select(names ...string) *Toolset {
	return ts.filter(func(t *Tool) bool { return slices.Contains(names, t.Name) })
}

func (ts *Toolset) filter(keep func(*Tool) bool) *Toolset {
	if ts == nil {
		return &Toolset{}
	}
	var entries []entry
	for _, e := range ts.entries {
		if keep(e.tool) {
			entries = append(entries, e)
		}
	}
	return &Toolset{entries: entries, cfg: ts.cfg, pool: ts.pool, search: new(lazyIndex)}
}

// with returns the same tools with the settings change applied.
func (ts *Toolset) with(change func(*config)) *Toolset {
	var out Toolset
	if ts != nil {
		out = *ts
	}
	change(&out.cfg)
	return &out
}

// WithLimits returns the same tools with other limits on call arguments.
func (ts *Toolset) WithLimits(l Limits) *Toolset { return ts.with(func(c *config) { c.limits = l }) }

// WithTimeout returns the same tools with a default timeout for each call, for tools
// that do not set their own (the timeout= directive option).
func (ts *Toolset) WithTimeout(d time.Duration) *Toolset {
	return ts.with(func(c *config) { c.timeout = d })
}

// WithMaxParallel returns the same tools running at most n calls of a turn at once
// (see RunCalls); DefaultMaxParallel when n is zero.
func (ts *Toolset) WithMaxParallel(n int) *Toolset {
	return ts.with(func(c *config) { c.maxParallel = n })
}

// WithInlineCalls returns the same tools run, when on, on the goroutine that calls
// Call, whenever no deadline applies to the call (none from WithTimeout, the tool's
// timeout= option or the context). It saves the goroutine each call otherwise starts
// and hands over to (about half a microsecond, more on a busy machine): for callers
// that own their goroutine and make many small calls.
//
// What it gives up: a tool that calls runtime.Goexit (as a test's t.FailNow does)
// then ends the caller's goroutine, as any function it called would (no function can
// stop a Goexit once it started, or recover from it); the observer still hears of the
// call, as an internal error. Off, that ends the tool's own goroutine and the call
// gets an internal error result. A panic is
// still recovered into an internal error result, and a call with a deadline still
// runs on a goroutine of its own, so that the deadline holds even for a tool that
// ignores its context. RunCalls runs each of the parallel calls of a turn on a
// goroutine of its own already and runs them inline whatever this setting says: a
// Goexit there ends only that goroutine, and the call is answered with an internal
// error result.
//
// Inline, with nothing to approve, no progress to report and a context that cannot
// end, the generated dispatch calls the tool at once, its decoded arguments on its
// stack: a call costs the decode of its arguments and the tool, and allocates nothing
// for the arguments themselves (see docs/PERFORMANCE.md). The "ok" results of tools
// that return nothing come 16 to an allocation: each is the caller's alone (unless
// WithReadOnlyResults), but a result kept keeps the 4 KB of its batch.
func (ts *Toolset) WithInlineCalls(on bool) *Toolset {
	return ts.with(func(c *config) { c.inline = on })
}

// WithReadOnlyResults returns the same tools whose callers, when on, promise to treat
// every result Call returns as read-only: never to change its fields or its content
// blocks, or append to them. An inline call (WithInlineCalls) of a tool that returns
// nothing may then be answered with one "ok" result shared by all such calls of the
// Toolsets made from this one, instead of a new one: it saves the 256 bytes each such
// call otherwise takes, and the collector's work for them, which with the collector on
// is about as much CPU time as the rest of an inline call of a small tool (see
// docs/PERFORMANCE.md). Callers that convert each result at once (a provider adapter,
// an MCP handler) lose nothing. Off, the default, every result is the caller's own.
func (ts *Toolset) WithReadOnlyResults(on bool) *Toolset {
	return ts.with(func(c *config) {
		c.sharedOK = nil
		if on {
			c.sharedOK = new(okResult).set()
		}
	})
}

// WithApprover returns the same tools gated by a: every call to a tool whose effective
// annotations say destructive waits for its decision. See Approver.
func (ts *Toolset) WithApprover(a Approver) *Toolset {
	return ts.with(func(c *config) { c.approver = a })
}

// WithPolicy returns the same tools with another policy for calls that need approval
// when no Approver is set. The default, RunAll, runs them.
func (ts *Toolset) WithPolicy(p Policy) *Toolset { return ts.with(func(c *config) { c.policy = p }) }

// WithObserver returns the same tools reporting every call to o.
func (ts *Toolset) WithObserver(o Observer) *Toolset {
	return ts.with(func(c *config) { c.observer = o })
}

// WithArgumentLogging returns the same tools giving observers the arguments of each
// call, with the values of sensitive properties redacted (see Redact). Rejected
// arguments of a tool with sensitive properties are not given at all: where they do
// not fit the schema, no path says where a secret may be. By default observers never
// see argument values.
func (ts *Toolset) WithArgumentLogging(on bool) *Toolset {
	return ts.with(func(c *config) { c.logArguments = on })
}

// Join returns a Toolset holding the tools of all sets, with the settings of the first.
// A tool present in several sets (the same Tool of the same origin, as when a group is
// joined with its whole set) appears once. Join panics if two different tools share a
// name, as http.ServeMux does for conflicting patterns: that is a programming error
// to catch at start-up, not at run time.
func Join(sets ...*Toolset) *Toolset {
	var entries []entry
	var cfg config
	for i, s := range sets {
		if s == nil {
			continue // a nil Toolset holds no tools
		}
		if i == 0 {
			cfg = s.cfg
		}
		entries = append(entries, s.entries...)
	}
	slices.SortStableFunc(entries, compareEntries)
	out := entries[:0]
	for _, e := range entries {
		if n := len(out); n > 0 && out[n-1].tool.Name == e.tool.Name {
			if out[n-1].tool == e.tool {
				continue
			}
			panic(fmt.Sprintf("runtime.Join: two different tools are named %q", e.tool.Name))
		}
		out = append(out, e)
	}
	return newToolset(out, cfg, nil)
}

// Call runs the named tool with the model's JSON arguments and returns its result. It
// never panics and always returns a result: an unknown tool, invalid arguments, a
// denied call, a tool error, a panic in the tool, a timeout and a canceled context are
// all error results, with text the model can act on and an Outcome. Internal errors and
// panics reach the model only as a generic message; Result.Err keeps the whole error
// for logs. The result's model-facing text is bounded by the tool's result budget
// (WithResultBudget), errors included. The call's id and provider, for the approver
// and observers, come from the context (ContextWithCall).
func (ts *Toolset) Call(ctx context.Context, name string, args []byte) *Result {
	return ts.callOn(ctx, name, args, ts != nil && ts.cfg.inline)
}

// callOn is Call, running the tool on the caller's goroutine when inline holds and no
// deadline applies (see WithInlineCalls).
//
// What a call needs beyond the decode and the tool is looked up only when something
// asks for it: the CallInfo of the context when an observer, an approver or a progress
// listener reads it, the clock when an observer does, the result budget when the result
// is not Call's own "ok" (see call).
func (ts *Toolset) callOn(ctx context.Context, name string, args []byte, inline bool) (res *Result) {
	if ctx == nil {
		ctx = context.Background()
	}
	if ts == nil {
		ts = &Toolset{}
	}
	var start time.Time
	if ts.cfg.observer != nil {
		start = time.Now() // only observers read it
		if inline {
			defer func() {
				if res == nil {
					// Call always returns a result: this goroutine is ending, as a
					// tool run on it called runtime.Goexit. The observer hears of it.
					ts.observeGoexit(ctx, name, args, start)
				}
			}()
		}
	}
	var tool *Tool
	fits := false
	if i := ts.index(name); i >= 0 {
		e := &ts.entries[i]
		tool = e.tool
		res, fits = ts.call(ctx, e, args, inline)
	} else {
		res = errorResult(OutcomeUnknownTool, ts.unknownToolMessage(name), fmt.Errorf("unknown tool %q", name))
	}
	textBytes := len(okText)
	if !fits {
		res, textBytes = applyBudget(res, ts.resultBudget(tool))
	}
	if ts.cfg.observer != nil {
		info, _ := CallFromContext(ctx)
		ts.observe(ctx, info, tool, name, args, start, res, textBytes)
	}
	return res
}

// goexitResult is the result of a call whose tool, run on the caller's goroutine,
// called runtime.Goexit: RunCalls answers the call with it, and observers hear of it.
func goexitResult(name string) *Result {
	return errorResult(OutcomeInternalError, "the call to "+name+" failed with an internal error", fmt.Errorf("%s called runtime.Goexit", name))
}

// observeGoexit tells the observer about a call whose tool, run inline, called
// runtime.Goexit, as its goroutine ends.
func (ts *Toolset) observeGoexit(ctx context.Context, name string, args []byte, start time.Time) {
	res := goexitResult(name)
	tool, _ := ts.Lookup(name)
	info, _ := CallFromContext(ctx)
	ts.observe(ctx, info, tool, name, args, start, res, len(res.Text()))
}

// maxToolNameBytes is the longest tool name an unknown-tool message quotes whole.
const maxToolNameBytes = 64

// call runs the call and returns its result; fits reports that the result is the one
// Call makes for a tool that returned nothing (a new result whose text is okText, valid
// UTF-8 and within every result budget, MinResultBytes and up), which applyBudget would
// return as it is.
func (ts *Toolset) call(ctx context.Context, e *entry, args []byte, inline bool) (res *Result, fits bool) {
	timeout := e.tool.Timeout
	if timeout <= 0 {
		timeout = ts.cfg.timeout
	}
	inline = inline && timeout <= 0 // a timeout needs a goroutine of its own
	if inline && ts.cfg.approver == nil && ts.cfg.policy == RunAll && ts.cfg.progress == nil &&
		ctx.Done() == nil && !progressctx.HasListener(ctx) {
		// Nothing to ask, no one to report progress to, and nothing can cancel the
		// call or give it a deadline (a context whose Done is nil has neither).
		res, fits = ts.callHere(ctx, e, args)
	} else {
		res, fits = ts.callOther(ctx, e, args, timeout, inline)
	}
	return res, fits
}

// ran is awaited for the result of a call whose tool ran: the result that waits for
// the client's input replaces Call's own "ok", which then no longer answers the call.
func ran(ctx context.Context, tool *Tool, res *Result, fits bool) (*Result, bool) {
	if res.Outcome != OutcomeInputRequired {
		if clientctx.From(ctx) != nil {
			if out := awaited(ctx, tool, res); out != res {
				return out, false
			}
		}
	}
	return res, fits
}

// callHere is callOther for a call with nothing to approve, no progress to report
// and no way to end early, run on the caller's goroutine: the dispatch decodes the
// arguments into its own frame and calls the tool from there, without a closure, under
// one deferred recover. The call's state is held until the tool returns; Decoder.Finished
// tells a panic of the decode (the decoder is then dropped) from one of the tool's.
func (ts *Toolset) callHere(ctx context.Context, e *entry, args []byte) (res *Result, fits bool) {
	st := ts.pool.Get().(*callState)
	d := &st.d
	defer func() {
		p := recover()
		switch {
		case p == nil:
		case !d.Finished():
			// The decoder may be inconsistent: do not reuse it.
			err := fmt.Errorf("decoding the arguments of %s panicked: %v\n%s", e.tool.Name, p, debug.Stack())
			res, fits = errorResult(OutcomeInternalError, internalMessage(e.tool), err), false
		default:
			ts.pool.Put(st)
			err := fmt.Errorf("%s panicked: %v\n%s", e.tool.Name, p, debug.Stack())
			res, fits = ran(ctx, e.tool, errorResult(OutcomeInternalError, internalMessage(e.tool), err), false)
		}
	}()
	d.Reset(args, decoderLimits(ts.cfg.limits))
	_, r, err := e.dispatch(e.index, d, ctx)
	if !d.Finished() {
		err := &invalid.ArgumentError{Tool: e.tool.Name, Violations: slices.Clone(d.Violations()), Omitted: d.Omitted()}
		ts.pool.Put(st)
		return errorResult(OutcomeInvalidArguments, err.Error(), err), false
	}
	if r == nil && err == nil {
		res := ts.cfg.sharedOK
		if res == nil {
			res = st.takeOK().set()
		}
		ts.pool.Put(st)
		return ran(ctx, e.tool, res, true)
	}
	ts.pool.Put(st)
	return ran(ctx, e.tool, outcome(ctx, e.tool, 0, r, err), false)
}

// callOther runs a call that needs more than callHere gives: an approval, progress
// reports, a goroutine of its own, or the checks of a context that may end.
func (ts *Toolset) callOther(ctx context.Context, e *entry, args []byte, timeout time.Duration, inline bool) (res *Result, fits bool) {
	// Room for the result of a tool that returns nothing, when it is to run inline: a
	// tool with an output schema returns its structured result instead, and a call
	// on a goroutine of its own has room for it there.
	run, ok, err := ts.decodeCall(e, args, inline && e.tool.OutputSchema == nil)
	if err != nil {
		if p, is := err.(*decodePanic); is {
			return errorResult(OutcomeInternalError, internalMessage(p.tool), p.err), false
		}
		return errorResult(OutcomeInvalidArguments, err.Error(), err), false
	}
	if ts.cfg.approver != nil || ts.cfg.policy != RunAll {
		// Without either, approve lets every call run.
		info, _ := CallFromContext(ctx)
		run, res = ts.approve(ctx, *e, info, args, run)
		if res != nil {
			return res, false
		}
	}
	switch {
	case ts.cfg.progress != nil || progressctx.HasListener(ctx):
		// Progress reports reach listeners through the call's context, which holds a
		// sink only when someone listens (progress.go).
		res, fits = ts.invokeReporting(ctx, e.tool, timeout, run, inline, ok)
	case inline && ctx.Done() == nil:
		// Nothing can cancel the call or give it a deadline (a context whose Done is
		// nil has neither): it runs here, without invoke's checks.
		res, fits = runInline(ctx, e.tool, run, ok)
	default:
		res, fits = invoke(ctx, e.tool, timeout, run, inline, ok)
	}
	return ran(ctx, e.tool, res, fits)
}

// invokeReporting is invoke with the progress of the call reported to the Toolset's
// progress observer and the context's listener, through a sink in the call's context.
func (ts *Toolset) invokeReporting(ctx context.Context, tool *Tool, timeout time.Duration, run invocation, inline bool, ok *okResult) (*Result, bool) {
	info, _ := CallFromContext(ctx)
	s := progressctx.NewSink(ctx, tool.Name, info.ID, info.Provider, ts.cfg.progress)
	if s == nil {
		return invoke(ctx, tool, timeout, run, inline, ok)
	}
	// Deferred: a tool run inline may end the goroutine (runtime.Goexit).
	defer s.End()
	return invoke(s, tool, timeout, run, inline, ok)
}

// awaited returns res, or, when the call's Client says the call's round ended asking it
// for input (client.InputAwaiter), the result of a call that waits for it: whatever the tool
// or its approver returned (the tool may have gone on past the error; the approver
// denies the call until the answer comes), the client gets the request instead. The
// reason of a denial stays, for observers: what the call waits for.
func awaited(ctx context.Context, tool *Tool, res *Result) *Result {
	if res.Outcome == OutcomeInputRequired {
		return res
	}
	if clientctx.AwaitsInput(ctx) {
		r := errorResult(OutcomeInputRequired, tool.Name+" waits for the client's input", fmt.Errorf("%s: %w", tool.Name, clientctx.ErrInputRequired))
		r.reason = res.reason
		return r
	}
	return res
}

// observe tells the observer about a call.
func (ts *Toolset) observe(ctx context.Context, info CallInfo, tool *Tool, name string, args []byte, start time.Time, res *Result, textBytes int) {
	if tool == nil {
		// An unknown tool's name is the model's text: cut, as the model's message cuts it.
		name = validText(cutName(name))
	}
	ev := Event{
		Tool:     name,
		CallID:   info.ID,
		Provider: info.Provider,
		Start:    start,
		Duration: time.Since(start),
		Outcome:  res.Outcome,
		Reason:   res.reason,

		ResultBytes: textBytes,
		Truncated:   res.textBytes > 0,
	}
	if tool != nil {
		ev.Groups = tool.Groups
	}
	var ae *invalid.ArgumentError
	switch {
	case errors.As(res.Err, &ae):
		// The violations' text holds values the model sent: keep only paths and rules.
		ev.Violations = withoutValues(ae.Violations)
		ev.OmittedViolations = ae.Omitted
	case res.Outcome != OutcomeUnknownTool:
		ev.Err = res.Err
	}
	switch {
	case !ts.cfg.logArguments || tool == nil:
	case res.Outcome == OutcomeInvalidArguments && len(tool.Sensitive) > 0:
		// Arguments that do not fit the schema may hold a sensitive value where no
		// path says so (under a misspelled name, say): not shown.
		ev.Arguments = json.RawMessage(`"[invalid arguments of a tool with sensitive properties, not shown]"`)
	default:
		ev.Arguments = Redact(tool, args)
	}
	// An observer that panics loses its event, never the call's result.
	defer func() { _ = recover() }()
	ts.cfg.observer(ctx, ev)
}

// Check reports whether args are valid arguments for the named tool of ts, decoded as
// Call decodes them, without running the tool or asking an approver: nil when they are,
// an *invalid.ArgumentError listing the violations when they are not, and an error naming
// the tool when ts has none of that name. A loop that stops at calls needing approval
// (loop.Loop.DeferApprovals) checks them so, before anyone is asked.
func (ts *Toolset) Check(name string, args []byte) error {
	e, ok := ts.find(name)
	if !ok {
		return fmt.Errorf("runtime: no tool named %q", cutName(name))
	}
	_, err := ts.decode(e, args)
	return err
}

// decode validates args and returns the call to run, or an *ArgumentError. A panic
// while decoding (a bug, never the input's fault) is an internal error.
func (ts *Toolset) decode(e entry, args []byte) (run invocation, err error) {
	run, _, err = ts.decodeCall(&e, args, false)
	return run, err
}

// decodeCall is decode, and with wantOK the room for the result Call makes when the
// tool returns nothing, taken from the batch of the call's state (see callState).
func (ts *Toolset) decodeCall(e *entry, args []byte, wantOK bool) (run invocation, ok *okResult, err error) {
	st := ts.pool.Get().(*callState)
	defer func() {
		if p := recover(); p != nil {
			run, ok, err = nil, nil, &decodePanic{tool: e.tool, err: fmt.Errorf("decoding the arguments of %s panicked: %v\n%s", e.tool.Name, p, debug.Stack())}
			return // the decoder may be inconsistent: do not reuse it
		}
		ts.pool.Put(st)
	}()
	d := &st.d
	d.Reset(args, decoderLimits(ts.cfg.limits))
	run = e.later(d)
	if run == nil || d.Failed() {
		return nil, nil, &invalid.ArgumentError{Tool: e.tool.Name, Violations: slices.Clone(d.Violations()), Omitted: d.Omitted()}
	}
	if wantOK {
		ok = st.takeOK()
	}
	return run, ok, nil
}

// okBatch is how many "ok" results (see okResult) one allocation holds. A batch is
// reachable while any of its results is, so a caller that keeps one result keeps
// okBatch of them (about 240 bytes each); in exchange the usual call of a tool that
// returns nothing costs 1/okBatch of an allocation for its result instead of one.
const okBatch = 16

// callState is what a call borrows from its Toolset's pool while its arguments are
// decoded: the decoder, and the batch of "ok" results not handed out yet. A result
// handed out is the caller's alone: the batch never gives it out again, and each is
// a result of its own, with its own content block.
type callState struct {
	d  engine.Decoder
	ok []okResult
}

// takeOK returns a new, zero okResult from the batch, allocating a batch when the last
// one is spent.
func (st *callState) takeOK() *okResult {
	if len(st.ok) == 0 {
		st.ok = make([]okResult, okBatch)
	}
	ok := &st.ok[0]
	st.ok = st.ok[1:]
	return ok
}

// decodePanic is a panic recovered while decoding arguments.
type decodePanic struct {
	tool *Tool
	err  error
}

func (p *decodePanic) Error() string { return p.err.Error() }

func (ts *Toolset) unknownToolMessage(name string) string {
	names := make([]string, len(ts.entries))
	for i, e := range ts.entries {
		names[i] = e.tool.Name
	}
	var b strings.Builder
	if len(name) > maxToolNameBytes {
		fmt.Fprintf(&b, "unknown tool %q (%d bytes)", cutText(name, maxToolNameBytes)+"…", len(name))
	} else {
		fmt.Fprintf(&b, "unknown tool %q", name)
	}
	if near := nearest(name, names); near != "" {
		fmt.Fprintf(&b, "; did you mean %q?", near)
	}
	if len(names) == 0 {
		b.WriteString("; no tools are available")
	} else {
		b.WriteString("; available tools: " + strings.Join(names, ", "))
	}
	return b.String()
}

// invoke runs a decoded call under the tool's timeout, turning every way it can end
// into a result; fits reports Call's own "ok" (see Toolset.call). ok, when not nil, is
// the room for that result inline.
func invoke(ctx context.Context, tool *Tool, timeout time.Duration, run invocation, inline bool, ok *okResult) (res *Result, fits bool) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	if err := ctx.Err(); err != nil {
		return stopped(tool, ctx, timeout), false
	}
	// The tool runs on a goroutine of its own, so that a tool that ends its goroutine
	// (runtime.Goexit, as a test's t.FailNow does) cannot take the caller's with it,
	// and a deadline holds even for a tool that ignores its context.
	_, deadline := ctx.Deadline()
	if !deadline && inline {
		return runInline(ctx, tool, run, ok)
	}
	c := &running{ctx: ctx, tool: tool, timeout: timeout, run: run}
	if !deadline {
		// No deadline to keep: a canceled context reaches the tool, which stops as
		// its own code decides.
		c.wg.Add(1)
		go c.finish()
		c.wg.Wait()
		return c.out, c.out == &c.ok
	}
	c.done = make(chan struct{})
	go c.finish()
	select {
	case <-c.done:
		return c.out, c.out == &c.ok
	case <-ctx.Done():
		// The tool may ignore its context: answer now and let it finish alone.
		select {
		case <-c.done:
			return c.out, c.out == &c.ok
		default:
			return stopped(tool, ctx, timeout), false
		}
	}
}

// running is a call being run on a goroutine of its own, with room for the result of
// a tool that returns nothing: the usual call costs one allocation for both.
type running struct {
	ctx     context.Context
	tool    *Tool
	timeout time.Duration
	run     invocation

	wg   sync.WaitGroup // done, without a deadline
	done chan struct{}  // closed when done, with a deadline
	out  *Result

	ok     Result
	okText [1]Content
}

// finish runs the call and sets c.out, whatever happens: a panic is recovered, and a
// tool that calls runtime.Goexit still gets a result, set by the deferred function as
// its goroutine ends.
func (c *running) finish() {
	defer func() {
		if p := recover(); p != nil {
			err := fmt.Errorf("%s panicked: %v\n%s", c.tool.Name, p, debug.Stack())
			c.out = errorResult(OutcomeInternalError, internalMessage(c.tool), err)
		} else if c.out == nil {
			c.out = errorResult(OutcomeInternalError, internalMessage(c.tool), fmt.Errorf("%s called runtime.Goexit", c.tool.Name))
		}
		if c.done != nil {
			close(c.done)
		} else {
			c.wg.Done()
		}
	}()
	r, err := c.run(c.ctx)
	if r == nil && err == nil {
		// TextResult(okText), in place.
		c.okText[0] = TextContent(okText)
		c.ok = Result{Content: c.okText[:], Outcome: OutcomeOK}
		c.out = &c.ok
	} else {
		c.out = outcome(c.ctx, c.tool, c.timeout, r, err)
	}
	// The result may hold c: let it not hold the call's context and arguments.
	c.ctx, c.run = nil, nil
}

// runInline runs a call on the caller's goroutine (WithInlineCalls): a panic is
// recovered into an internal error result; a runtime.Goexit goes on ending the
// goroutine, as it would from any function. fits reports Call's own "ok", made in ok
// when it is not nil.
func runInline(ctx context.Context, tool *Tool, run invocation, ok *okResult) (out *Result, fits bool) {
	defer func() {
		if p := recover(); p != nil {
			err := fmt.Errorf("%s panicked: %v\n%s", tool.Name, p, debug.Stack())
			out, fits = errorResult(OutcomeInternalError, internalMessage(tool), err), false
		}
	}()
	r, err := run(ctx)
	if r == nil && err == nil {
		if ok == nil {
			ok = new(okResult)
		}
		return ok.set(), true
	}
	return outcome(ctx, tool, 0, r, err), false
}

// okResult is TextResult(okText) in one object.
type okResult struct {
	r    Result
	text [1]Content
}

// set makes ok, which must be zero, TextResult(okText) and returns it: only the fields
// that are not zero are written.
func (ok *okResult) set() *Result {
	ok.text[0].Type = ContentText
	ok.text[0].Text = okText
	ok.r.Content = ok.text[:]
	ok.r.Outcome = OutcomeOK
	return &ok.r
}

// outcome turns what a tool returned into its result.
func outcome(ctx context.Context, tool *Tool, timeout time.Duration, r *Result, err error) *Result {
	switch {
	case err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return stopped(tool, ctx, timeout)
	case errors.Is(err, clientctx.ErrInputRequired):
		return errorResult(OutcomeInputRequired, tool.Name+" waits for the client's input", err)
	case err != nil:
		if msg, ok := safeMessage(err); ok {
			return errorResult(OutcomeToolError, msg, err)
		}
		return errorResult(OutcomeInternalError, internalMessage(tool), err)
	case r == nil:
		return TextResult(okText)
	}
	if r.Outcome == "" {
		r.Outcome = OutcomeOK
		if r.IsError {
			r.Outcome = OutcomeToolError // a runtime.Result the tool marked failed
		}
	}
	return r
}

func internalMessage(tool *Tool) string {
	return tool.Name + " failed with an internal error"
}

// stopped is the result of a call whose context ended; timeout is the call's own
// timeout, if it had one.
func stopped(tool *Tool, ctx context.Context, timeout time.Duration) *Result {
	err := ctx.Err()
	if errors.Is(err, context.DeadlineExceeded) {
		msg := tool.Name + " timed out"
		if timeout > 0 {
			msg += " after " + timeout.String()
		}
		return errorResult(OutcomeTimeout, msg, fmt.Errorf("%s: %w", tool.Name, err))
	}
	return errorResult(OutcomeCanceled, tool.Name+" was canceled", fmt.Errorf("%s: %w", tool.Name, err))
}
