// Command gensynth writes a synthetic package of annotated tools (see package synth)
// into a directory, removing the source files of an earlier run.
//
//	go run ./bench/internal/synth/gensynth -n 1000 -pkg thousand -compact -o bench/thousand
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgen/toolgen/bench/internal/synth"
)

func main() {
	n := flag.Int("n", 1000, "number of tools")
	pkg := flag.String("pkg", "synthetic", "package name")
	dir := flag.String("o", ".", "output directory")
	compact := flag.Bool("compact", false, "give every tool the same small shape")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	old, _ := filepath.Glob(filepath.Join(*dir, "tools[0-9]*.go"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			log.Fatal(err)
		}
	}
	files := synth.Files(*pkg, *n, *compact)
	for _, name := range synth.Names(files) {
		if strings.Contains(name, "/") {
			log.Fatalf("bad file name %q", name)
		}
		if err := os.WriteFile(filepath.Join(*dir, name), files[name], 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
