// Package generator turns a model.Package into files: the JSON Schemas under toolschema/
// and the Go source toolgen.gen.go.
//
// It is pure: model in, files out. It never reads or writes the disk, so the same model
// always gives byte-identical files.
package generator

import (
	"fmt"
	"path"
	"slices"

	"github.com/toolgen/toolgen/model"
)

// GoFile is the name of the generated Go file in each package directory.
const GoFile = "toolgen.gen.go"

// SchemaDir is the directory, inside each package directory, that holds the schemas.
const SchemaDir = "toolschema"

// File is one generated file.
type File struct {
	// Path is relative to the package directory, with forward slashes
	// ("toolgen.gen.go", "toolschema/get_weather.json").
	Path string
	// Data is the file's whole content.
	Data []byte
}

// Generate returns the files for pkg, sorted by Path, and the warnings about them and
// about its source (pkg.Warnings), sorted by position. A package without tools gets no
// files, only its source's warnings. An input example that its tool's input schema
// refuses is an error of the source: Generate then returns SourceErrors, not wrapped.
//
// Warnings do not stop generation: they report, for example, a tool whose schema a
// provider's strict mode cannot take (the tool is then sent without strict mode to that
// provider), a schema a provider's dialect can only approximate, or what Lint finds
// missing (descriptions, hints).
func Generate(pkg *model.Package) ([]File, []Warning, error) {
	return GenerateWith(pkg, Options{})
}

// GenerateWith is Generate with options: how to decode the arguments (Options).
func GenerateWith(pkg *model.Package, opts Options) ([]File, []Warning, error) {
	if len(pkg.Tools) == 0 {
		return nil, SortWarnings(slices.Clone(pkg.Warnings)), nil
	}
	if err := checkText(pkg); err != nil {
		return nil, nil, fmt.Errorf("generate %s: %w", pkg.Path, err)
	}
	schemas, err := canonicalSchemas(pkg)
	if err != nil {
		return nil, nil, fmt.Errorf("generate schemas for %s: %w", pkg.Path, err)
	}
	// Lowering to the dialects and writing toolgen.gen.go read only the canonical
	// schemas: they run at the same time. Their errors come in the order they did
	// when one ran after the other.
	lowered := make(chan error, 1)
	var files []File
	go func() {
		err := schemas.lowerAll()
		if err == nil && len(schemas.errors) == 0 {
			files = schemas.files()
			if opts.SchemaFiles != nil {
				opts.SchemaFiles(slices.Clone(files))
			}
		}
		lowered <- err
	}()
	src, srcErr := goSource(pkg, schemas, opts)
	if err := <-lowered; err != nil {
		return nil, nil, fmt.Errorf("generate schemas for %s: %w", pkg.Path, err)
	}
	if len(schemas.errors) > 0 {
		return nil, nil, schemas.errors
	}
	if srcErr != nil {
		return nil, nil, fmt.Errorf("generate Go code for %s: %w", pkg.Path, srcErr)
	}
	files = append(files, File{Path: GoFile, Data: src})
	sortFiles(files)
	warnings := slices.Concat(pkg.Warnings, schemas.warnings, Lint(pkg))
	return files, SortWarnings(warnings), nil
}

// Owned reports whether a file path, relative to a package directory, is one toolgen
// writes, so the CLI can find orphaned files.
func Owned(rel string) bool {
	if rel == GoFile {
		return true
	}
	dir, file := path.Split(rel)
	return dir == SchemaDir+"/" && path.Ext(file) == ".json"
}
