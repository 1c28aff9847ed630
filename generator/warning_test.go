package generator

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/model"
)

// TestWarningString checks the file:line:col: warning: msg form.
func TestWarningString(t *testing.T) {
	w := Warning{Pos: model.Pos{File: "a/b.go", Line: 3, Col: 7}, Msg: "tool x: something"}
	if got, want := w.String(), "a/b.go:3:7: warning: tool x: something"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := (Warning{Msg: "m"}).String(), "warning: m"; got != want {
		t.Errorf("String() without a position = %q, want %q", got, want)
	}
	ws := SortWarnings([]Warning{
		{Pos: model.Pos{File: "b.go", Line: 1, Col: 1}, Msg: "z"},
		{Pos: model.Pos{File: "a.go", Line: 10, Col: 1}, Msg: "y"},
		{Pos: model.Pos{File: "a.go", Line: 2, Col: 5}, Msg: "x"},
		{Pos: model.Pos{File: "a.go", Line: 2, Col: 5}, Msg: "x"},
	})
	var got []string
	for _, w := range ws {
		got = append(got, w.String())
	}
	want := []string{"a.go:2:5: warning: x", "a.go:10:1: warning: y", "b.go:1:1: warning: z"}
	if !slices.Equal(got, want) {
		t.Errorf("SortWarnings = %q, want %q", got, want)
	}
}

// TestGenerateWarnings checks that Generate returns the dialects' warnings with the
// files, and that each warning sits at the field it is about (or the tool), sorted, with
// the tool's strictness off for the providers concerned only.
func TestGenerateWarnings(t *testing.T) {
	// Generate passes on the schemas' warnings (the dialects case itself has types the
	// Go code cannot spell, so the shared case stands in).
	files, warnings, err := Generate(sharedPackage())
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 || len(warnings) == 0 {
		t.Fatalf("%d files, warnings %v", len(files), warnings)
	}
	set, err := buildSchemas(dialectsPackage())
	if err != nil {
		t.Fatal(err)
	}
	warnings = set.warnings
	if !slices.IsSortedFunc(warnings, compareWarnings) {
		t.Errorf("warnings are not sorted: %v", warnings)
	}
	find := func(part string) *Warning {
		for i := range warnings {
			if strings.Contains(warnings[i].Msg, part) {
				return &warnings[i]
			}
		}
		t.Errorf("no warning contains %q in %v", part, warnings)
		return nil
	}
	if w := find("tool tag_items: not strict for OpenAI and Anthropic: /properties/labels: a map"); w != nil && w.Pos.Line != 31 {
		t.Errorf("map warning at %v, want the field's line 31", w.Pos)
	}
	if w := find("tool deep: not strict for OpenAI: objects nested 11 deep"); w != nil && w.Pos.Line != 40 {
		t.Errorf("depth warning at %v, want the tool's line 40", w.Pos)
	}
	find("tool many_options: not strict for Anthropic: 17 union-typed values")
	find(`tool 9lives: name may be refused by Gemini`)
	find(`tool book_trip: name may be refused by Gemini: parameter "home-airport"`)

	for _, c := range []struct {
		tool              string
		openAI, anthropic bool
	}{
		{"book_trip", true, true},
		{"tag_items", false, false},
		{"deep", false, true},
		{"many_options", true, false},
		{"9lives", false, false}, // strict=false
	} {
		ts := set.lookup(c.tool)
		if ts.openAI.strict != c.openAI || ts.anthropic.strict != c.anthropic {
			t.Errorf("%s: strict for OpenAI %v, Anthropic %v; want %v, %v", c.tool, ts.openAI.strict, ts.anthropic.strict, c.openAI, c.anthropic)
		}
		if !ts.openAI.strict && string(ts.openAI.json) != string(ts.inputJSON) {
			t.Errorf("%s: not strict for OpenAI, but the parameters are not the canonical schema", c.tool)
		}
	}
}
