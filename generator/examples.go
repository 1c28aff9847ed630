package generator

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen/toolgen/model"
	"github.com/toolgen/toolgen/runtime"
)

// SourceError is a problem of a tool's source that only generation finds, at its
// position: an input example (model.Tool.Examples) that the tool's input schema
// refuses.
type SourceError struct {
	Pos model.Pos
	Msg string
}

// String formats the error as file:line:col: message, leaving out what the position
// does not have.
func (e SourceError) String() string {
	switch {
	case e.Pos.File == "":
		return e.Msg
	case e.Pos.Line == 0:
		return fmt.Sprintf("%s: %s", e.Pos.File, e.Msg)
	case e.Pos.Col == 0:
		return fmt.Sprintf("%s:%d: %s", e.Pos.File, e.Pos.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Pos.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// SourceErrors are every SourceError of a package, sorted by position. Generate returns
// them as its error, not wrapped, so that a command can print each at its position.
type SourceErrors []SourceError

// Error returns the errors, one a line.
func (l SourceErrors) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.String()
	}
	return strings.Join(lines, "\n")
}

func (l SourceErrors) sort() {
	slices.SortFunc(l, func(a, b SourceError) int {
		return cmp.Or(
			strings.Compare(a.Pos.File, b.Pos.File),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
			strings.Compare(a.Msg, b.Msg),
		)
	})
}

// exampleValues returns the JSON of t's input examples, for the input schema's
// "examples" and runtime.Tool.Examples; nil for none.
func exampleValues(t *model.Tool) []json.RawMessage {
	var out []json.RawMessage
	for _, ex := range t.Examples {
		out = append(out, json.RawMessage(ex.JSON))
	}
	return out
}

// checkExamples checks t's input examples against its canonical input schema, input,
// as runtime.NewTool checks a dynamic tool's, and returns an error at each example
// the schema refuses, saying what it breaks.
func checkExamples(t *model.Tool, input []byte) ([]SourceError, error) {
	if len(t.Examples) == 0 {
		return nil, nil
	}
	def := runtime.Tool{Name: t.Name, InputSchema: input, Examples: exampleValues(t)}
	_, err := runtime.NewTool(def, func(context.Context, json.RawMessage) (*runtime.Result, error) {
		return nil, errors.New("not run")
	})
	var ee *runtime.ExampleError
	if !errors.As(err, &ee) {
		if err != nil {
			return nil, fmt.Errorf("checking the input examples: %w", err)
		}
		return nil, nil
	}
	var out []SourceError
	for _, x := range ee.Invalid {
		out = append(out, SourceError{
			Pos: t.Examples[x.Index].Pos,
			Msg: fmt.Sprintf("input example of %s breaks its input schema: %s", t.Name, x.Message()),
		})
	}
	return out, nil
}
