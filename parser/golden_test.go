package parser

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected sections of testdata/parser/*.txtar")

// TestGolden loads each testdata/parser/*.txtar archive as a module and compares
// what Load returns with its want.json (the packages) or want.errors (the
// ErrorList) section. Load gets the patterns of a "load:" line of the archive's
// comment, else "./...", and the build tags of a "tags:" line.
func TestGolden(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	archives, err := filepath.Glob(filepath.Join(root, "testdata", "parser", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(archives) == 0 {
		t.Fatal("no golden archives")
	}
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOWORK", "off")
	for _, file := range archives {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			gomod := "module example.com/x\n\ngo 1.26\n\nrequire github.com/toolgen/toolgen v0.0.0\n\nreplace github.com/toolgen/toolgen => " + root + "\n"
			writeFile(t, filepath.Join(dir, "go.mod"), []byte(gomod))
			writeFile(t, filepath.Join(dir, "go.sum"), gosum)
			want, section := "", ""
			for _, f := range ar.Files {
				switch f.Name {
				case "want.json", "want.errors":
					want, section = string(f.Data), f.Name
				default:
					writeFile(t, filepath.Join(dir, filepath.FromSlash(f.Name)), f.Data)
				}
			}
			patterns := []string{"./..."}
			cfg := Config{Dir: dir}
			for line := range strings.Lines(string(ar.Comment)) {
				if rest, ok := strings.CutPrefix(line, "load:"); ok {
					patterns = strings.Fields(rest)
				}
				if rest, ok := strings.CutPrefix(line, "tags:"); ok {
					cfg.Tags = strings.Fields(rest)
				}
			}
			pkgs, err := Load(cfg, patterns...)
			var got, gotSection string
			if err != nil {
				if _, ok := err.(ErrorList); !ok {
					t.Fatalf("Load: %v (not an ErrorList)", err)
				}
				got, gotSection = err.Error()+"\n", "want.errors"
			} else {
				data, err := json.MarshalIndent(pkgs, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				got, gotSection = string(data)+"\n", "want.json"
			}
			if *update {
				if got != want || gotSection != section {
					rewrite(t, file, ar, gotSection, got)
				}
				return
			}
			if gotSection != section {
				t.Fatalf("Load gave %s, archive expects %s:\n%s", gotSection, section, got)
			}
			if got != want {
				t.Errorf("%s mismatch\n%s", section, lineDiff(want, got))
			}
		})
	}
}

func writeFile(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// rewrite replaces the archive's expected section.
func rewrite(t *testing.T, file string, ar *txtar.Archive, section, data string) {
	t.Helper()
	var files []txtar.File
	for _, f := range ar.Files {
		if f.Name != "want.json" && f.Name != "want.errors" {
			files = append(files, f)
		}
	}
	ar.Files = append(files, txtar.File{Name: section, Data: []byte(data)})
	if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("updated %s", section)
}

// lineDiff shows the lines that differ, marked - (want) and + (got).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var buf bytes.Buffer
	// Longest common subsequence, small inputs only.
	n, m := len(w), len(g)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if w[i] == g[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && w[i] == g[j]:
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			buf.WriteString("+ " + g[j] + "\n")
			j++
		default:
			buf.WriteString("- " + w[i] + "\n")
			i++
		}
	}
	return buf.String()
}
