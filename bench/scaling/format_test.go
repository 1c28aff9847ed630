package scaling

import (
	"bytes"
	"go/format"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/generator"
	"github.com/toolgen/toolgen/parser"
)

// TestSyntheticTablesFormatted checks, on the synthetic package of bench/internal/synth
// (200 tools of its five shapes, generated table-driven), that toolgen.gen.go, whose
// decoding tables the generator prints without go/printer, is exactly what
// go/format.Source makes of it: the tables are in gofmt's form (the generator's
// TestFastFormat compares with go/format.Source on the goldens the same way).
func TestSyntheticTablesFormatted(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	writeModule(t, root, mod, 200)
	t.Setenv("GOFLAGS", "-mod=mod")
	pkgs, err := parser.Load(parser.Config{Dir: mod}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Tools) != 200 {
		t.Fatalf("loaded %d packages, want the synthetic one with 200 tools", len(pkgs))
	}
	files, _, err := generator.GenerateWith(pkgs[0], generator.Options{Decoders: generator.DecodersTable})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Path != generator.GoFile {
			continue
		}
		if !bytes.Contains(f.Data, []byte("\nvar toolgenTableFields = [...]toolimpl.Field{\n")) {
			t.Fatal("toolgen.gen.go has no tables")
		}
		want, err := format.Source(f.Data)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(f.Data, want) {
			got, wantLines := strings.Split(string(f.Data), "\n"), strings.Split(string(want), "\n")
			for i := range min(len(got), len(wantLines)) {
				if got[i] != wantLines[i] {
					t.Fatalf("line %d is not as go/format.Source has it:\n got %q\nwant %q", i+1, got[i], wantLines[i])
				}
			}
			t.Fatalf("toolgen.gen.go has %d lines, go/format.Source %d", len(got), len(wantLines))
		}
	}
}
