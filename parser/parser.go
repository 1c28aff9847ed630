// Package parser loads Go packages, finds the functions and methods marked with a
// //toolgen:tool directive and maps them, with the types they use, to toolgen's
// model.
//
// Everything it reports is positioned: a problem with a directive, a struct tag, a
// type or a function's shape becomes a Diagnostic at the exact file, line and column,
// and Load reports all of them at once. A comment that is almost a directive is an
// error too, with the fix. What does not stop generation (a struct tag of another
// library that toolgen does not read) is a model.Warning in model.Package.Warnings.
//
// The directives are //toolgen:tool and //toolgen:param in a function's doc comment and
// //toolgen:package in a package clause's, which names the generated constructors
// (tools=, typetools=) and keeps doc comments verbatim (descriptions=verbatim) instead
// of rewriting them for a model (see forModel).
package parser

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/toolgen/toolgen/model"
)

// Config says how to load packages.
type Config struct {
	// Dir is the directory to run in and to make positions relative to; "" means the
	// current directory.
	Dir string
	// Tags are build tags to load the packages with.
	Tags []string
}

// generatedFile is the base name of the Go file toolgen writes in every package with
// tools. Type errors inside it are ignored, so that a stale generated file never
// stops its regeneration.
const generatedFile = "toolgen.gen.go"

// loadMode is what Load asks go/packages for.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports |
	packages.NeedModule

// Load loads the packages matching patterns (default "."), finds every
// //toolgen:tool function and method, and maps them to the model.
//
// It returns every matched package, sorted by import path, including those with no
// tools. When anything is wrong it returns a nil slice and an ErrorList holding every
// problem found, sorted by file, line and column; package load and type errors are
// reported the same way. An error of another type means the packages could not be
// loaded at all (for example, the go command failed).
func Load(cfg Config, patterns ...string) ([]*model.Package, error) {
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	dir := cfg.Dir
	if dir == "" {
		dir = "."
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("parser: resolving directory %q: %w", cfg.Dir, err)
	}
	l := newLoader(dir)
	pcfg := &packages.Config{
		Mode: loadMode,
		Dir:  dir,
		Fset: l.fset,
	}
	if len(cfg.Tags) > 0 {
		pcfg.BuildFlags = []string{"-tags=" + strings.Join(cfg.Tags, ",")}
	}
	pcfg.Overlay = generatedStubs(pcfg, patterns)
	pkgs, err := loadPackages(pcfg, patterns)
	if err != nil {
		return nil, fmt.Errorf("parser: loading %s: %w", strings.Join(patterns, " "), err)
	}
	if len(pkgs) == 0 {
		return nil, ErrorList{{Msg: fmt.Sprintf("no packages match %s", strings.Join(patterns, " "))}}
	}
	slices.SortFunc(pkgs, func(a, b *packages.Package) int { return cmp.Compare(a.PkgPath, b.PkgPath) })
	for _, p := range pkgs {
		if p.Module != nil && p.Module.Dir != "" && !slices.Contains(l.roots, p.Module.Dir) {
			l.roots = append(l.roots, p.Module.Dir)
		}
	}

	l.planGenerated(pkgs)
	var out []*model.Package
	for _, p := range pkgs {
		if l.loadErrors(p) {
			continue
		}
		out = append(out, newPkgBuilder(l, p).build())
	}
	if len(l.diags) > 0 {
		return nil, sortDiagnostics(l.diags)
	}
	return out, nil
}

// loader holds what is shared by all the packages of one Load.
type loader struct {
	dir   string   // absolute directory positions are relative to
	roots []string // module directories whose files get relative positions
	fset  *token.FileSet
	docs  *docIndex
	diags []Diagnostic
	rel   map[string]string
	seen  map[string]bool // load errors already reported
	ifs   ifaces
	// generated holds the constructors that the generated file of each package
	// loaded from source declares, by import path
	generated map[string]map[string]bool
}

func newLoader(dir string) *loader {
	fset := token.NewFileSet()
	return &loader{
		dir:   dir,
		roots: []string{dir},
		fset:  fset,
		docs:  newDocIndex(fset, dir),
		rel:   map[string]string{},
		seen:  map[string]bool{},
		ifs:   newIfaces(),

		generated: map[string]map[string]bool{},
	}
}

// errorf records a diagnostic.
func (l *loader) errorf(pos model.Pos, format string, args ...any) {
	l.diags = append(l.diags, Diagnostic{Pos: pos, Msg: fmt.Sprintf(format, args...), Fix: wordFix(pos, args)})
}

// wordFix is the fix of the unknownWord among a message's args, written at pos; nil
// without one. Errors and warnings take it alike.
func wordFix(pos model.Pos, args []any) *model.Fix {
	var fix *model.Fix
	for _, a := range args {
		if u, ok := a.(unknownWord); ok {
			fix = u.fix(pos)
		}
	}
	return fix
}

// file returns the name to report a file by: relative to the run directory, with
// forward slashes, when the file is inside it or inside one of the loaded modules;
// absolute otherwise (for example, in the module cache).
func (l *loader) file(name string) string {
	if name == "" {
		return ""
	}
	if r, ok := l.rel[name]; ok {
		return r
	}
	r := name
	if filepath.IsAbs(name) {
		for _, root := range l.roots {
			if name == root || strings.HasPrefix(name, root+string(filepath.Separator)) {
				if rel, err := filepath.Rel(l.dir, name); err == nil {
					r = rel
				}
				break
			}
		}
	}
	r = filepath.ToSlash(r)
	l.rel[name] = r
	return r
}

// position converts a token position.
func (l *loader) position(p token.Position) model.Pos {
	return model.Pos{File: l.file(p.Filename), Line: p.Line, Col: p.Column}
}

// pos converts a token.Pos of the loader's file set.
func (l *loader) pos(p token.Pos) model.Pos {
	if !p.IsValid() {
		return model.Pos{}
	}
	return l.position(l.fset.Position(p))
}

// relDir is a package directory relative to the run directory.
func (l *loader) relDir(dir string) string {
	if dir == "" {
		return ""
	}
	r, err := filepath.Rel(l.dir, dir)
	if err != nil {
		return filepath.ToSlash(dir)
	}
	return filepath.ToSlash(r)
}

// loadErrors reports the load, parse and type errors of a package and of the
// packages it imports, each once. It reports whether the package itself cannot be
// analyzed. Errors that regenerating will fix (see regenerates) are ignored: inside a
// missing, stale or broken generated file, and uses of the names it declares.
func (l *loader) loadErrors(root *packages.Package) bool {
	broken := false
	packages.Visit([]*packages.Package{root}, nil, func(p *packages.Package) {
		compileErrors := slices.ContainsFunc(p.Errors, func(e packages.Error) bool { return e.Kind != packages.ListError })
		for _, e := range p.Errors {
			if l.regenerates(p, e) {
				continue
			}
			if e.Kind == packages.ListError && compileErrors && strings.HasPrefix(e.Msg, "# ") {
				// The go command's copy of a parse or type error also reported on its own.
				continue
			}
			if p == root {
				broken = true
			}
			// Messages of the go command may name files by absolute path.
			msg := strings.ReplaceAll(e.Msg, l.dir+string(filepath.Separator), "")
			d := Diagnostic{Pos: l.errorPos(e.Pos), Msg: msg}
			if key := d.String(); !l.seen[key] {
				l.seen[key] = true
				l.diags = append(l.diags, d)
			}
		}
	})
	return broken
}

// isGenerated reports whether a go/packages error position is in toolgen's generated
// file.
func isGenerated(pos string) bool {
	file, _, _ := splitErrorPos(pos)
	return filepath.Base(file) == generatedFile
}

// errorPos parses a go/packages error position: "file:line:col", "file:line", "" or
// "-".
func (l *loader) errorPos(pos string) model.Pos {
	file, line, col := splitErrorPos(pos)
	return model.Pos{File: l.file(file), Line: line, Col: col}
}

func splitErrorPos(pos string) (file string, line, col int) {
	if pos == "" || pos == "-" {
		return "", 0, 0
	}
	file = pos
	var nums []int
	for range 2 {
		i := strings.LastIndexByte(file, ':')
		if i < 0 {
			break
		}
		n, err := strconv.Atoi(file[i+1:])
		if err != nil {
			break
		}
		nums = append([]int{n}, nums...)
		file = file[:i]
	}
	switch len(nums) {
	case 1:
		line = nums[0]
	case 2:
		line, col = nums[0], nums[1]
	}
	return file, line, col
}

// pkgBuilder maps one package's tools and the types they use.
type pkgBuilder struct {
	l     *loader
	pkg   *packages.Package
	info  *types.Info
	tools []*toolSite
	// named types, by declaring object; list keeps creation order
	named map[*types.TypeName]*namedEntry
	list  []*namedEntry
	// refs maps every Named type node to its entry, to set Ref once IDs are known
	refs map[*model.Type]*namedEntry
	// jobs are the constraints to check once every type is mapped
	jobs []*fieldJob
	// opts are what the package's //toolgen:package line says
	opts packageOptions
	// warnings are the problems that do not stop generation
	warnings []model.Warning
	// unionDirs and variantDirs are the //toolgen:union and //toolgen:variant lines of
	// the package's type declarations
	unionDirs, variantDirs map[*types.TypeName]*typeDirective
	// variantOf maps each variant of a union the tools use to the union's entry
	variantOf map[*types.TypeName]*namedEntry
	// embeds are the embedded fields of named types met while mapping structs
	embeds []embeddedVariant
	// headers are where each field's header= stands (parser/header.go)
	headers map[*model.Field]model.Pos
}

func newPkgBuilder(l *loader, p *packages.Package) *pkgBuilder {
	return &pkgBuilder{
		l:     l,
		pkg:   p,
		info:  p.TypesInfo,
		named: map[*types.TypeName]*namedEntry{},
		refs:  map[*model.Type]*namedEntry{},

		unionDirs:   map[*types.TypeName]*typeDirective{},
		variantDirs: map[*types.TypeName]*typeDirective{},
		variantOf:   map[*types.TypeName]*namedEntry{},
	}
}

func (b *pkgBuilder) errorf(pos model.Pos, format string, args ...any) {
	b.l.errorf(pos, format, args...)
}

// errorFix records a diagnostic with the fix that resolves it (nil for none).
func (b *pkgBuilder) errorFix(pos model.Pos, fix *model.Fix, format string, args ...any) {
	b.l.diags = append(b.l.diags, Diagnostic{Pos: pos, Msg: fmt.Sprintf(format, args...), Fix: fix})
}

// warnf records a warning, unless pos is outside the loaded modules (an absolute
// path, such as the module cache): only the authors of that code could act on it.
func (b *pkgBuilder) warnf(pos model.Pos, format string, args ...any) {
	if filepath.IsAbs(filepath.FromSlash(pos.File)) || strings.HasPrefix(pos.File, "/") {
		return
	}
	b.warnings = append(b.warnings, model.Warning{Pos: pos, Msg: fmt.Sprintf(format, args...), Fix: wordFix(pos, args)})
}

// build maps the package.
func (b *pkgBuilder) build() *model.Package {
	p := b.pkg
	mp := &model.Package{
		Path:  p.PkgPath,
		Name:  p.Name,
		Dir:   b.l.relDir(p.Dir),
		Tools: []*model.Tool{},
	}
	if mp.Dir == "" && len(p.GoFiles) > 0 {
		mp.Dir = b.l.relDir(filepath.Dir(p.GoFiles[0]))
	}
	files := slices.Clone(p.Syntax)
	slices.SortFunc(files, func(x, y *ast.File) int {
		return cmp.Compare(b.l.fset.File(x.Pos()).Name(), b.l.fset.File(y.Pos()).Name())
	})
	for _, f := range files {
		b.l.docs.addSyntax(f)
	}
	// The generated file, stale or not, is never read: it is about to be replaced.
	files = slices.DeleteFunc(files, func(f *ast.File) bool {
		return filepath.Base(b.l.fset.File(f.Pos()).Name()) == generatedFile
	})
	b.readPackageOptions(files, mp)
	for _, f := range files {
		b.scanTypeDirectives(f)
	}
	for _, f := range files {
		b.scanFile(f)
	}
	b.recordDirectives(files)
	b.checkConstraints()
	b.checkEmbeddedVariants()
	mp.Types = b.finishTypes()
	for _, t := range b.tools {
		if t.tool != nil {
			mp.Tools = append(mp.Tools, t.tool)
		}
	}
	b.checkHeaders(mp)
	b.checkDuplicateNames()
	b.checkGeneratedNames(files, mp)
	b.checkHiddenText(mp)
	slices.SortFunc(mp.Tools, func(x, y *model.Tool) int {
		return cmp.Or(cmp.Compare(x.Name, y.Name), comparePos(x.Pos, y.Pos))
	})
	mp.Warnings = sortWarnings(b.warnings)
	return mp
}
