// Command toolgen-vet reports what toolgen generate would say about packages (every
// error and warning, at its position, with suggested fixes) without generating
// anything. It runs the toolgen analyzer (package
// github.com/toolgen/toolgen/analysis) alone, as a vet tool:
//
//	go build -o toolgen-vet github.com/toolgen/toolgen/cmd/toolgen-vet
//	go vet -vettool=$PWD/toolgen-vet ./...
//
// With -warnings=false it reports the errors alone, and exits 0 when there are none
// (a CI gate for a package whose warnings are not all mended yet):
//
//	go vet -vettool=$PWD/toolgen-vet -warnings=false ./...
//
// or on its own, as any single-analyzer checker, with -fix to apply the suggested
// fixes:
//
//	toolgen-vet ./...
//	toolgen-vet -fix ./...
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/toolgen/toolgen/analysis"
)

func main() { singlechecker.Main(analysis.Analyzer) }
