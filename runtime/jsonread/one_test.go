package jsonread

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// copies are what a second JSON tokenizer or a second JSON Pointer escaping looks like
// in Go source: the escapes' literals, and functions with the names the copies this
// package replaced had.
var copies = regexp.MustCompile(`"~[01]"|'~', '[01]'|(?m)^func (skipSpace|skipString|skipValue|skipPlain|scanString|scanNumber|readEscaped|hex4|foldKey|depthOver|escapePointer)\(`)

// TestOneReader keeps this package the module's one JSON tokenizer and its one JSON
// Pointer escaping: no other source file of the module (tests aside; nested modules,
// such as bench with its hand-written floor, are their own) escapes a pointer or
// defines a lexical reader of its own.
func TestOneReader(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // a nested module
				}
			}
			switch d.Name() {
			case "testdata", "jsonread", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range copies.FindAll(b, -1) {
			t.Errorf("%s: %s: use runtime/jsonread", path, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
