package generator

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen/toolgen/model"
)

// Warning is a problem that does not stop generation: a tool whose schema a provider's
// strict mode cannot take (the tool is then sent to that provider without strict mode),
// a schema a dialect can only approximate, a name a provider may reject, what Lint finds
// missing, and the parser's warnings about the source (model.Package.Warnings). It is
// model.Warning: toolgen has one kind of warning, wherever it is found.
type Warning = model.Warning

// SortWarnings sorts warnings by file, line, column and message, and drops duplicates.
func SortWarnings(ws []Warning) []Warning {
	slices.SortFunc(ws, compareWarnings)
	return slices.Compact(ws)
}

func compareWarnings(a, b Warning) int {
	return cmp.Or(
		strings.Compare(a.Pos.File, b.Pos.File),
		cmp.Compare(a.Pos.Line, b.Pos.Line),
		cmp.Compare(a.Pos.Col, b.Pos.Col),
		strings.Compare(a.Msg, b.Msg),
	)
}

// issue is one problem a dialect found in a tool's schema, before it becomes a Warning.
type issue struct {
	// field is the property the problem is in, nil for the tool as a whole.
	field *model.Field
	// path locates the node in the canonical input schema (a JSON Pointer), or "".
	path string
	// text says what is wrong, without the tool or the dialect.
	text string
}

// issueList collects the issues of one tool in one dialect, without duplicates.
type issueList []issue

func (l *issueList) add(f *model.Field, path, format string, args ...any) {
	is := issue{field: f, path: path, text: fmt.Sprintf(format, args...)}
	for _, old := range *l {
		if old.path == is.path && old.text == is.text {
			return
		}
	}
	*l = append(*l, is)
}

// warningSink turns the issues of a package's tools into warnings, merging the same
// issue found by several dialects into one warning.
type warningSink struct {
	entries []warningEntry
}

type warningEntry struct {
	tool     *model.Tool
	is       issue
	prefix   string // what happens, such as "not strict"
	dialects []string
}

// add records issues of tool found by dialect; prefix says what the dialect did about
// them ("no strict mode for").
func (w *warningSink) add(tool *model.Tool, dialect, prefix string, issues issueList) {
	for _, is := range issues {
		found := false
		for i := range w.entries {
			e := &w.entries[i]
			if e.tool == tool && e.prefix == prefix && e.is.path == is.path && e.is.text == is.text && e.is.field == is.field {
				if !slices.Contains(e.dialects, dialect) {
					e.dialects = append(e.dialects, dialect)
				}
				found = true
				break
			}
		}
		if !found {
			w.entries = append(w.entries, warningEntry{tool: tool, is: is, prefix: prefix, dialects: []string{dialect}})
		}
	}
}

// warnings returns the warnings, sorted.
func (w *warningSink) warnings() []Warning {
	var out []Warning
	for _, e := range w.entries {
		pos := e.tool.Pos
		if e.is.field != nil && e.is.field.Pos.File != "" {
			pos = e.is.field.Pos
		}
		msg := fmt.Sprintf("tool %s: %s %s: ", e.tool.Name, e.prefix, englishList(e.dialects))
		if e.is.path != "" {
			msg += e.is.path + ": "
		}
		msg += e.is.text
		out = append(out, Warning{Pos: pos, Msg: msg})
	}
	return SortWarnings(out)
}
