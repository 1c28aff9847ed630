package toolimpl

import (
	"context"
	"regexp"
	"unsafe"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/argcheck"
	"github.com/toolgen/toolgen/runtime/internal/engine"
)

// Decoder reads one call's JSON arguments in a single pass, without reflection, and
// collects every violation of the tool's schema with its JSON Pointer path; generated
// decoders drive it. It is runtime/internal/engine's, which dynamic tools
// (runtime.NewTool) read their arguments over too.
type Decoder = engine.Decoder

// Limits bound what one call's arguments may cost, as runtime.Limits (of the same
// fields, which converts to it) does for a Toolset; a zero field means its default.
type Limits = engine.Limits

// NewDecoder returns a decoder for args within limits. Empty arguments (no bytes, or
// only white space) and null mean an empty object.
func NewDecoder(args []byte, limits Limits) *Decoder { return engine.NewDecoder(args, limits) }

// Invocation runs one call whose arguments were decoded and found valid. It returns
// the tool's result, or the error the tool returned.
type Invocation = func(ctx context.Context) (*runtime.Result, error)

// Dispatch decodes the arguments of the tool at index (in the slice given to
// runtime.NewToolset) with d, and returns the call to run, or nil when the arguments are
// invalid (d then holds the violations). A hand-written dispatch may implement it and
// give it to runtime.NewToolset through Direct; generated table-driven code uses Calls.
type Dispatch = func(index int, d *Decoder) Invocation

// DirectDispatch is what runtime.NewToolset takes: with a context, it decodes the
// arguments of the tool at index with d and, when they are valid, runs the tool with
// that context, its arguments still in the dispatch's frame, and returns what it
// returned; with a nil context it returns the call to run instead, as a Dispatch does.
// When the arguments are invalid it returns nothing (d then holds the violations, and
// d.Finished is false). Generated code of version 8 implements it with a switch.
type DirectDispatch = func(index int, d *Decoder, ctx context.Context) (Invocation, *runtime.Result, error)

// Direct returns the DirectDispatch of dispatch: with a context, it runs the call that
// dispatch returns at once, for a hand-written dispatch (table-driven generated code
// used it before Calls).
func Direct(dispatch Dispatch) DirectDispatch {
	return func(i int, d *Decoder, ctx context.Context) (Invocation, *runtime.Result, error) {
		run := dispatch(i, d)
		if run == nil || ctx == nil {
			return run, nil, nil
		}
		r, err := run(ctx)
		return nil, r, err
	}
}

// Call is the generated function of one tool of a table-driven package, for Calls.
// With a decoder d (ctx and p nil) it prepares the tool's arguments: it returns a new
// zero value of them for Decode to fill in with the tool's table, or, for a tool
// whose arguments have no table, reads them with d into a new value and returns that
// (nil for a tool without arguments, which it reads with d too). Without a decoder it
// runs the tool with ctx on the arguments at p and returns what it returned. recv is
// the receiver of a type's tools (struct{} for a package's).
type Call[R any] func(recv R, ctx context.Context, d *Decoder, p unsafe.Pointer) (unsafe.Pointer, *runtime.Result, error)

// Calls returns the DirectDispatch of the tools that call(i) returns, each with the
// index of the Object of tables its arguments are read with (-1: the Call reads them),
// and the receiver recv: a small function per tool, which the compiler compiles apart
// and in parallel, in place of a switch of a case per tool, and one closure for the
// call to run, this one, in place of one per tool. The dispatch prepares the
// arguments with the tool's Call, decodes them, checks them with Decoder.Finish, and
// runs the tool with the Call at once when given a context, else returns the call to
// run. call returns nil for an index past the tools; the dispatch then returns nothing.
func Calls[R any](recv R, tables *Tables, call func(i int) (Call[R], int)) DirectDispatch {
	return func(i int, d *Decoder, ctx context.Context) (Invocation, *runtime.Result, error) {
		f, table := call(i)
		if f == nil {
			return nil, nil, nil
		}
		p, _, _ := f(recv, nil, d, nil)
		if table >= 0 {
			Decode(d, tables, table, p)
		}
		if !d.Finish() {
			return nil, nil, nil
		}
		if ctx != nil {
			_, r, err := f(recv, ctx, nil, p)
			return nil, r, err
		}
		return func(ctx context.Context) (*runtime.Result, error) {
			_, r, err := f(recv, ctx, nil, p)
			return r, err
		}, nil, nil
	}
}

// Text returns runtime.TextResult(text), for the tools of table-driven packages
// that return a string. It is not inlined, so that the compiler does not copy the
// result's construction into each of thousands of tools' functions (0.6 s of the
// compiler's time on 5,000 tools; runtime.TextResult itself stays inlinable).
//
//go:noinline
func Text(text string) *runtime.Result { return runtime.TextResult(text) }

// PropertyFlags say how a property is read (Decoder.Property); combine them with |.
type PropertyFlags = argcheck.PropertyFlags

// The property flags.
const (
	// Required is the zero value: null is a value like any other.
	Required = argcheck.Required
	// Optional: null means the property is absent.
	Optional = argcheck.Optional
	// Sensitive: the property's values are never echoed in violations.
	Sensitive = argcheck.Sensitive
)

// Presence records what an object held for one of its properties.
type Presence = argcheck.Presence

// The presences of a property.
const (
	// Absent: the object did not hold the property.
	Absent = argcheck.Absent
	// Null: it held null for an optional property, which counts as absent.
	Null = argcheck.Null
	// Present: it held a value.
	Present = argcheck.Present
)

// Format is a string format the decoder checks (Decoder.Format), named as JSON Schema
// names it; its Valid method reports whether a string has it.
type Format = argcheck.Format

// The formats toolgen checks.
const (
	FormatDateTime = argcheck.FormatDateTime
	FormatDate     = argcheck.FormatDate
	FormatTime     = argcheck.FormatTime
	FormatDuration = argcheck.FormatDuration
	FormatEmail    = argcheck.FormatEmail
	FormatHostname = argcheck.FormatHostname
	FormatIPv4     = argcheck.FormatIPv4
	FormatIPv6     = argcheck.FormatIPv6
	FormatURI      = argcheck.FormatURI
	FormatUUID     = argcheck.FormatUUID
)

// MaxPatternSize is the largest program a pattern may compile to (see CompilePattern).
const MaxPatternSize = argcheck.MaxPatternSize

// CompilePattern compiles a JSON Schema pattern as toolgen enforces it everywhere
// (generated code, dynamic tools, the parser's pattern=), refusing one whose program
// exceeds MaxPatternSize.
func CompilePattern(src string) (*regexp.Regexp, error) { return argcheck.CompilePattern(src) }

// PatternMessage is the message of a value that does not match the pattern src.
func PatternMessage(src string) string { return argcheck.PatternMessage(src) }

// SimplePattern is a pattern that a greedy byte matcher decides exactly as regexp
// does: anchored at both ends, a sequence of ASCII literals and classes, each repeated
// (see CompileSimple). The generator writes a function for its Steps; dynamic tools
// match with its MatchString. One parser serves both, so a generated tool and a
// dynamic one take the fast path for the same patterns.
type SimplePattern = argcheck.SimplePattern

// SimpleStep is one step of a SimplePattern: from Min to Max (Max < 0: any number of)
// bytes of an ASCII class, a bit each; Tail, when positive, is the length of the
// steps of fixed length after the last step of variable length, which ends where
// they begin.
type SimpleStep = argcheck.SimpleStep

// CompileSimple returns the SimplePattern of src, or nil when regexp must decide it.
func CompileSimple(src string) *SimplePattern { return argcheck.CompileSimple(src) }
