package analysis_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/toolgen/toolgen/analysis"
)

// quiet is an analysistest.Testing that keeps the complaints about // want
// comments, which the golden archives do not have, to itself.
type quiet struct{}

func (quiet) Errorf(string, ...any) {}

// TestParity runs the analyzer over the golden error archives of the parser, as they
// are, and checks that it reports what Load reports (their want.errors sections): the
// same messages at the same lines and columns, but for the parse and type errors,
// which the analyzer leaves to the compiler. It does the same with the CLI script of
// the input examples an input schema refuses, which generation finds, not the parser:
// its stderr is what toolgen generate reports.
func TestParity(t *testing.T) {
	archives := map[string][2]string{"examples_invalid": {"script", "want/generate.stderr"}}
	for _, name := range []string{"errors", "tagerrors", "collisions", "regenerrors", "loaderrors", "schemaerrors", "exampleerrors"} {
		archives[name] = [2]string{"parser", "want.errors"}
	}
	for name, where := range archives {
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(filepath.Join("..", "testdata", where[0], name+".txtar"))
			if err != nil {
				t.Fatal(err)
			}
			gopath := t.TempDir()
			root := filepath.Join(gopath, "src", "example.com", "x")
			// A go.mod, which GOPATH mode ignores, makes positions relative to root, as
			// they are in the archive.
			write(t, filepath.Join(root, "go.mod"), "module example.com/x\n")
			var want []string
			for _, f := range ar.Files {
				if f.Name == where[1] {
					want = strings.Split(strings.TrimSuffix(string(f.Data), "\n"), "\n")
					continue
				}
				write(t, filepath.Join(root, filepath.FromSlash(f.Name)), string(f.Data))
			}
			var got, typeErrors []string
			for _, r := range analysistest.Run(quiet{}, gopath, analysis.Analyzer, "example.com/x/...") {
				if r.Pass == nil {
					continue
				}
				rel := func(pos string) string {
					p, _ := filepath.Rel(root, pos)
					return filepath.ToSlash(p)
				}
				for _, e := range r.Pass.TypeErrors {
					p := r.Pass.Fset.Position(e.Pos)
					typeErrors = append(typeErrors, fmt.Sprintf("%s:%d:%d: %s", rel(p.Filename), p.Line, p.Column, e.Msg))
				}
				if r.Action != nil && r.Action.Package != nil {
					for _, e := range r.Action.Package.Errors { // parse errors, the compiler's too
						typeErrors = append(typeErrors, rel(e.Pos)+": "+e.Msg)
					}
				}
				for _, d := range r.Diagnostics {
					p := r.Pass.Fset.Position(d.Pos)
					got = append(got, fmt.Sprintf("%s:%d:%d: %s", rel(p.Filename), p.Line, p.Column, d.Message))
				}
			}
			t.Logf("%d diagnostics, %d type errors", len(got), len(typeErrors))
			want = slices.DeleteFunc(want, func(s string) bool { return slices.Contains(typeErrors, s) })
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func write(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
