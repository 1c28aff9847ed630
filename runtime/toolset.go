package runtime

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
)

// Invocation runs one call whose arguments were decoded and found valid. It returns
// the tool's result, or the error the tool returned.
type Invocation func(ctx context.Context) (*Result, error)

// Dispatch decodes the arguments of the tool at index (in the slice given to
// NewToolset) with d, and returns the call to run, or nil when the arguments are
// invalid (d then holds the violations). Generated code implements it with a switch.
type Dispatch func(index int, d *Decoder) Invocation

// Toolset is a set of tools that can be listed and called. The generated Tools and
// TTools functions return one; Group, Join and WithLimits make others. A Toolset is safe
// for concurrent use.
type Toolset struct {
	entries []entry // sorted by tool name
	limits  Limits
	pool    *sync.Pool // of *Decoder
}

type entry struct {
	tool     *Tool
	dispatch Dispatch
	index    int
}

// NewToolset returns the Toolset of tools, whose calls dispatch decodes and runs.
// Generated code calls it; tools must have unique names.
func NewToolset(tools []Tool, dispatch Dispatch) *Toolset {
	entries := make([]entry, len(tools))
	for i := range tools {
		entries[i] = entry{tool: &tools[i], dispatch: dispatch, index: i}
	}
	return newToolset(entries, Limits{}, nil)
}

func newToolset(entries []entry, limits Limits, pool *sync.Pool) *Toolset {
	if !slices.IsSortedFunc(entries, compareEntries) {
		slices.SortStableFunc(entries, compareEntries)
	}
	if pool == nil {
		pool = &sync.Pool{New: func() any { return new(Decoder) }}
	}
	return &Toolset{entries: entries, limits: limits, pool: pool}
}

func compareEntries(a, b entry) int { return strings.Compare(a.tool.Name, b.tool.Name) }

// Tools returns the set's tools, sorted by name.
func (ts *Toolset) Tools() []*Tool {
	out := make([]*Tool, len(ts.entries))
	for i, e := range ts.entries {
		out[i] = e.tool
	}
	return out
}

// Len returns the number of tools in the set.
func (ts *Toolset) Len() int { return len(ts.entries) }

// Lookup returns the tool with the given name.
func (ts *Toolset) Lookup(name string) (*Tool, bool) {
	if e, ok := ts.find(name); ok {
		return e.tool, true
	}
	return nil, false
}

func (ts *Toolset) find(name string) (entry, bool) {
	i, ok := slices.BinarySearchFunc(ts.entries, name, func(e entry, name string) int {
		return strings.Compare(e.tool.Name, name)
	})
	if !ok {
		return entry{}, false
	}
	return ts.entries[i], true
}

// Group returns the tools that belong to any of the named groups.
func (ts *Toolset) Group(names ...string) *Toolset {
	var entries []entry
	for _, e := range ts.entries {
		if e.tool.InGroup(names...) {
			entries = append(entries, e)
		}
	}
	return &Toolset{entries: entries, limits: ts.limits, pool: ts.pool}
}

// WithLimits returns the same tools with other limits on call arguments.
func (ts *Toolset) WithLimits(l Limits) *Toolset {
	return &Toolset{entries: ts.entries, limits: l, pool: ts.pool}
}

// Join returns a Toolset holding the tools of all sets, with the limits of the first.
// A tool present in several sets (the same Tool of the same origin, as when a group is
// joined with its whole set) appears once. Join panics if two different tools share a
// name, as http.ServeMux does for conflicting patterns: that is a programming error
// to catch at start-up, not at run time.
func Join(sets ...*Toolset) *Toolset {
	var entries []entry
	var limits Limits
	for i, s := range sets {
		if i == 0 {
			limits = s.limits
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
	return newToolset(out, limits, nil)
}

// Call runs the named tool with the model's JSON arguments and returns its result. It
// never panics and always returns a result: an unknown tool, invalid arguments, a tool
// error, a panic in the tool, a timeout and a canceled context are all error results,
// with text the model can act on. Internal errors and panics reach the model only as a
// generic message; Result.Err keeps the whole error for logs.
func (ts *Toolset) Call(ctx context.Context, name string, args []byte) *Result {
	e, ok := ts.find(name)
	if !ok {
		return ErrorResult(ts.unknownToolMessage(name), fmt.Errorf("unknown tool %q", name))
	}
	run, err := ts.decode(e, args)
	if p, ok := err.(*decodePanic); ok {
		return ErrorResult(internalMessage(p.tool), p.err)
	}
	if err != nil {
		return ErrorResult(err.Error(), err)
	}
	return invoke(ctx, e.tool, run)
}

// decode validates args and returns the call to run, or an *ArgumentError. A panic
// while decoding (a bug, never the input's fault) is an internal error.
func (ts *Toolset) decode(e entry, args []byte) (run Invocation, err error) {
	d := ts.pool.Get().(*Decoder)
	defer func() {
		if p := recover(); p != nil {
			run, err = nil, &decodePanic{tool: e.tool, err: fmt.Errorf("decoding the arguments of %s panicked: %v\n%s", e.tool.Name, p, debug.Stack())}
			return // d may be inconsistent: do not reuse it
		}
		ts.pool.Put(d)
	}()
	d.Reset(args, ts.limits)
	run = e.dispatch(e.index, d)
	if run == nil || d.Failed() {
		return nil, &ArgumentError{Tool: e.tool.Name, Violations: slices.Clone(d.violations)}
	}
	return run, nil
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
	fmt.Fprintf(&b, "unknown tool %q", name)
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
// into a result.
func invoke(ctx context.Context, tool *Tool, run Invocation) *Result {
	if tool.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, tool.Timeout)
		defer cancel()
	}
	if err := ctx.Err(); err != nil {
		return stopped(tool, ctx)
	}
	if _, ok := ctx.Deadline(); !ok {
		// No deadline to keep: run the call here, without a goroutine. A canceled
		// context reaches the tool, which stops as its own code decides.
		return finish(ctx, tool, run)
	}
	// A deadline must hold even for a tool that ignores its context.
	done := make(chan *Result, 1)
	go func() { done <- finish(ctx, tool, run) }()
	select {
	case r := <-done:
		return r
	case <-ctx.Done():
		// The tool may ignore its context: answer now and let it finish alone.
		select {
		case r := <-done:
			return r
		default:
			return stopped(tool, ctx)
		}
	}
}

// finish runs the call, recovering a panic, and turns its outcome into a result.
func finish(ctx context.Context, tool *Tool, run Invocation) (res *Result) {
	defer func() {
		if p := recover(); p != nil {
			err := fmt.Errorf("%s panicked: %v\n%s", tool.Name, p, debug.Stack())
			res = ErrorResult(internalMessage(tool), err)
		}
	}()
	r, err := run(ctx)
	switch {
	case err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return stopped(tool, ctx)
	case err != nil:
		if msg, ok := SafeMessage(err); ok {
			return ErrorResult(msg, err)
		}
		return ErrorResult(internalMessage(tool), err)
	case r == nil:
		return TextResult(okText)
	}
	return r
}

func internalMessage(tool *Tool) string {
	return tool.Name + " failed with an internal error"
}

// stopped is the result of a call whose context ended.
func stopped(tool *Tool, ctx context.Context) *Result {
	err := ctx.Err()
	if errors.Is(err, context.DeadlineExceeded) {
		msg := tool.Name + " timed out"
		if tool.Timeout > 0 {
			msg += " after " + tool.Timeout.String()
		}
		return ErrorResult(msg, fmt.Errorf("%s: %w", tool.Name, err))
	}
	return ErrorResult(tool.Name+" was canceled", fmt.Errorf("%s: %w", tool.Name, err))
}
