package engine

import (
	"context"
	"encoding/json"

	"github.com/toolgen/toolgen/runtime/invalid"
)

// A dynamic tool as the tests of this package call it: runtime's NewTool, Toolset.Call
// and Result cut down to what reaches the engine (the program's Decode over a reused
// Decoder, the violations as an *invalid.ArgumentError's text), so that tests written
// against runtime's API read the same here.

// Result is a call's answer: the run's text, or the violations.
type Result struct {
	IsError bool
	text    string
}

// Text returns the result's text.
func (r *Result) Text() string { return r.text }

// TextResult returns a result of text s.
func TextResult(s string) *Result { return &Result{text: s} }

// Toolset is one dynamic tool.
type Toolset struct {
	def Tool
	p   *Program
	run func(ctx context.Context, args json.RawMessage) (*Result, error)
	d   Decoder
}

// NewTool compiles def's input schema, as runtime.NewTool does.
func NewTool(def Tool, run func(ctx context.Context, args json.RawMessage) (*Result, error)) (*Toolset, error) {
	p, err := Compile(&def)
	if err != nil {
		return nil, err
	}
	return &Toolset{def: def, p: p, run: run}, nil
}

// Call decodes args with the tool's program and runs the tool when they are valid.
func (ts *Toolset) Call(ctx context.Context, _ string, args []byte) *Result {
	ts.d.Reset(args, Limits{})
	out, ok := ts.p.Decode(&ts.d)
	if !ok {
		err := &invalid.ArgumentError{Tool: ts.def.Name, Violations: ts.d.Violations(), Omitted: ts.d.Omitted()}
		return &Result{IsError: true, text: err.Error()}
	}
	r, err := ts.run(ctx, out)
	if err != nil {
		return &Result{IsError: true, text: err.Error()}
	}
	return r
}
