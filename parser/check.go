package parser

import (
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/packages"

	"github.com/toolgen/toolgen/model"
)

// Source is one parsed and type-checked package, as a driver other than Load has it:
// an analysis pass (the analysis package), for example.
type Source struct {
	// Fset holds the positions of Files and of the objects of Pkg and its imports.
	Fset *token.FileSet
	// Files are the package's parsed files, comments included. The generated file,
	// when present, is read as Load reads it: its type errors are ignored and its
	// declarations are not.
	Files []*ast.File
	// Pkg and Info are the type checker's results. Info needs Types, Defs, Uses and
	// Selections.
	Pkg  *types.Package
	Info *types.Info
	// TypeErrors are the type checker's errors, if it went on despite them.
	TypeErrors []types.Error
	// Dir is the directory positions are made relative to; "" means the directory of
	// the first file.
	Dir string
}

// Check maps one package to the model with exactly the rules of Load: the same
// package builder, the same diagnostics and warnings at the same positions, relative
// to src.Dir. Type errors that regenerating the generated file mends are ignored, as
// Load ignores them; any other is returned alone, as Load returns it, and the package
// is not mapped.
//
// It returns the package when nothing is wrong, else nil and every problem found,
// sorted; the package's warnings are returned either way. Unlike Load, it never runs
// the go command (but to find GOROOT for the doc comments of the standard library).
func Check(src Source) (*model.Package, []model.Warning, ErrorList) {
	dir := src.Dir
	var names []string
	for _, f := range src.Files {
		if tf := src.Fset.File(f.Pos()); tf != nil {
			names = append(names, tf.Name())
		}
	}
	if dir == "" && len(names) > 0 {
		dir = filepath.Dir(names[0])
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	l := newLoader(dir)
	l.fset = src.Fset
	l.docs = newDocIndex(src.Fset, dir)
	if root := moduleRoot(dir); root != "" && root != dir {
		l.roots = append(l.roots, root)
	}
	p := &packages.Package{
		ID:              src.Pkg.Path(),
		Name:            src.Pkg.Name(),
		PkgPath:         src.Pkg.Path(),
		Dir:             dir,
		GoFiles:         names,
		CompiledGoFiles: names,
		Syntax:          src.Files,
		Types:           src.Pkg,
		TypesInfo:       src.Info,
		Fset:            src.Fset,
		Imports:         map[string]*packages.Package{},
	}
	for _, imp := range src.Pkg.Imports() {
		p.Imports[imp.Path()] = &packages.Package{ID: imp.Path(), Name: imp.Name(), PkgPath: imp.Path(), Types: imp}
	}
	for _, e := range src.TypeErrors {
		p.Errors = append(p.Errors, packages.Error{Pos: src.Fset.Position(e.Pos).String(), Msg: e.Msg, Kind: packages.TypeError})
	}
	l.planGenerated([]*packages.Package{p})
	if l.loadErrors(p) {
		return nil, nil, sortDiagnostics(l.diags)
	}
	mp := newPkgBuilder(l, p).build()
	if len(l.diags) > 0 {
		return nil, mp.Warnings, sortDiagnostics(l.diags)
	}
	return mp, mp.Warnings, nil
}

// moduleRoot is the directory of the go.mod file at or above dir, or "".
func moduleRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

// recordDirectives sets the Directive of each tool mapped from files: where its
// //toolgen:tool line is, which suggested fixes edit.
func (b *pkgBuilder) recordDirectives(files []*ast.File) {
	at := map[model.Pos]model.Pos{} // function name -> directive
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			if i := slices.IndexFunc(fd.Doc.List, isToolDirective); i >= 0 {
				at[b.l.pos(fd.Name.Pos())] = b.l.pos(fd.Doc.List[i].Slash)
			}
		}
	}
	for _, s := range b.tools {
		if s.tool != nil {
			s.tool.Directive = at[s.tool.Pos]
		}
	}
}
