package parser

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen/toolgen/model"
)

// Diagnostic is one problem found while loading packages or reading tools, at a source
// position.
type Diagnostic struct {
	// Pos is where the problem is. Its File is empty for problems with no position.
	Pos model.Pos
	// Msg describes the problem.
	Msg string
	// Fix is a change that resolves the problem, when one is obvious (the known word
	// nearest a misspelt one); nil otherwise.
	Fix *model.Fix
}

// String formats the diagnostic as "file.go:12:3: message", leaving out what the
// position does not have.
func (d Diagnostic) String() string {
	switch {
	case d.Pos.File == "":
		return d.Msg
	case d.Pos.Line == 0:
		return fmt.Sprintf("%s: %s", d.Pos.File, d.Msg)
	case d.Pos.Col == 0:
		return fmt.Sprintf("%s:%d: %s", d.Pos.File, d.Pos.Line, d.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", d.Pos.File, d.Pos.Line, d.Pos.Col, d.Msg)
}

// ErrorList is every problem Load found, sorted by file, line and column. It
// implements error, one diagnostic per line.
type ErrorList []Diagnostic

// Error returns the diagnostics, one per line.
func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, d := range l {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// comparePos orders positions by file, line and column.
func comparePos(a, b model.Pos) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Col, b.Col),
	)
}

// sortDiagnostics sorts diagnostics by position and message and drops exact
// duplicates (the same problem reached twice, for example through a type used both
// as input and as output).
func sortDiagnostics(ds []Diagnostic) ErrorList {
	ds = slices.Clone(ds)
	slices.SortFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(comparePos(a.Pos, b.Pos), cmp.Compare(a.Msg, b.Msg))
	})
	return ErrorList(slices.Compact(ds))
}

// sortWarnings sorts warnings by position and message and drops exact duplicates (a
// field of a type reached twice). It returns nil for none.
func sortWarnings(ws []model.Warning) []model.Warning {
	if len(ws) == 0 {
		return nil
	}
	ws = slices.Clone(ws)
	slices.SortFunc(ws, func(a, b model.Warning) int {
		return cmp.Or(comparePos(a.Pos, b.Pos), cmp.Compare(a.Msg, b.Msg))
	})
	return slices.Compact(ws)
}

// formatPos formats a position as "file:line:col" for use inside a message.
func formatPos(p model.Pos) string {
	return strings.TrimSuffix(Diagnostic{Pos: p}.String(), ": ")
}
