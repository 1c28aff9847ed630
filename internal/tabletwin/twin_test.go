// Package tabletwin keeps the table twins of the packages whose differential tests
// run both decoding modes: generator.TableTwin's file (toolgen_table_test.go) beside
// their toolgen.gen.go, current with the generator.
//
//	go test ./internal/tabletwin -update   # rewrites the twins
package tabletwin

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgen/toolgen/generator"
	"github.com/toolgen/toolgen/parser"
)

var update = flag.Bool("update", false, "rewrite the table twins")

// Dirs are the package directories, from the module's root, that have a table twin.
var Dirs = []string{
	"examples/weather/forecast",
	"examples/bank/banking",
	"internal/unions",
	"internal/tablekinds",
}

func TestTwinsCurrent(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range Dirs {
		t.Run(dir, func(t *testing.T) {
			pkgs, err := parser.Load(parser.Config{Dir: root}, "./"+dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(pkgs) != 1 {
				t.Fatalf("%s: %d packages", dir, len(pkgs))
			}
			src, err := generator.TableTwin(pkgs[0])
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(root, dir, generator.TwinFile)
			if *update {
				if err := os.WriteFile(path, src, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			old, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/tabletwin -update)", err)
			}
			if !bytes.Equal(old, src) {
				t.Errorf("%s is stale: run go test ./internal/tabletwin -update", path)
			}
		})
	}
}
