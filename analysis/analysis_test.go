package analysis_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/toolgen/toolgen/analysis"
)

// TestErrors runs the analyzer over the error cases of the parser's golden tests
// (testdata/parser/errors.txtar, tagerrors.txtar and collisions.txtar), each error
// of their want.errors section turned into a // want comment on its line (or, for a
// line that is a comment itself, a // want +1 comment above it). TestParity checks
// the columns.
func TestErrors(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer,
		"errs", "tagerrs",
		"collisions/a", "collisions/b", "collisions/c", "collisions/d", "collisions/e", "collisions/f")
}

// TestOneLine checks that a message holding a newline from the source (a tag value)
// is reported on one line, the newline written as \n.
func TestOneLine(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "oneline")
}

// TestWarnings covers the warnings of the linter and of the dialects, a package whose generated file is missing, whose use of
// Tools is no error, and a test file, which is not read.
func TestWarnings(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "warnings", "regen")
}

// TestFixes checks the suggested fixes against the .golden files: the nearest known
// option, directive or constraint for a misspelt one, the directive a near miss (a
// space after //, a /* */ comment) was meant to be (none where the position is not
// the misspelt word's, none without a near one), destructive for a tool that states
// neither readonly nor destructive, and a doc comment placeholder for a tool, a field
// or an enum constant without one (none for a field of a one-line struct).
func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), analysis.Analyzer, "fixerrs", "fixlint", "fixdocs")
}

// TestPlaceholders checks that the placeholders toolgen-vet -fix writes are warned
// about until they are replaced, and that no fix is suggested for them: a second
// toolgen-vet -fix adds nothing.
func TestPlaceholders(t *testing.T) {
	for _, r := range analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "placeholders") {
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) > 0 {
				t.Errorf("%s: a fix for %q", r.Pass.Fset.Position(d.Pos), d.Message)
			}
		}
	}
}
