package parser

import (
	"errors"
	"fmt"
	"go/ast"
	"go/scanner"
	"go/types"
	"slices"

	"golang.org/x/tools/go/packages"
)

// The load. go/packages, asked for the types of the matched packages, type-checks
// them from source but also runs go list -export on them, which compiles each one for
// export data that nothing reads: for a package of 5,000 tools, a third of the CPU
// of a generation. So Load asks go/packages for the matched packages' syntax and
// import graph only (sourceMode), type-checks them here from source as go/packages
// would (typeCheck), and asks the go command for the export data of the packages
// they import only (depsMode), which a build cache has already.

// sourceMode is what Load asks go/packages for about the matched packages: no types,
// so that the go command does not compile them.
const sourceMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedSyntax | packages.NeedImports | packages.NeedModule | packages.NeedTypesSizes

// depsMode is what Load asks go/packages for about the packages the matched ones
// import: their types, from export data, and their own imports, whose errors are
// reported with theirs.
const depsMode = packages.NeedName | packages.NeedTypes | packages.NeedImports

// loadPackages loads the packages matching patterns with pcfg (whose Mode it sets):
// the matched packages from source, type-checked, their dependencies from export
// data, as packages.Load does in loadMode. A matched package that another matched
// package imports only through packages outside the match is a case this cannot
// type-check alike (the dependency's export data would hold a second copy of its
// types), and for it the whole load falls back to loadMode.
func loadPackages(pcfg *packages.Config, patterns []string) ([]*packages.Package, error) {
	cfg := *pcfg
	cfg.Mode = sourceMode
	roots, err := packages.Load(&cfg, patterns...)
	if err != nil {
		return nil, err
	}
	byID := map[string]*packages.Package{}
	for _, p := range roots {
		byID[p.ID] = p
	}
	var paths []string // of the packages the roots import, but the roots
	for _, p := range roots {
		for _, ip := range p.Imports {
			if byID[ip.ID] == nil && ip.PkgPath != "unsafe" && !slices.Contains(paths, ip.ID) {
				paths = append(paths, ip.ID)
			}
		}
	}
	deps := map[string]*packages.Package{}
	if len(paths) > 0 {
		slices.Sort(paths)
		dcfg := *pcfg
		dcfg.Mode = depsMode
		dcfg.Overlay = nil
		loaded, err := packages.Load(&dcfg, paths...)
		if err != nil {
			return nil, err
		}
		through := false // a root imported through a dependency
		packages.Visit(loaded, nil, func(p *packages.Package) {
			if byID[p.ID] != nil {
				through = true
			}
		})
		if through {
			full := *pcfg
			full.Mode = loadMode
			return packages.Load(&full, patterns...)
		}
		for _, p := range loaded {
			deps[p.ID] = p
		}
	}
	for _, p := range roots {
		for path, ip := range p.Imports {
			if d := deps[ip.ID]; d != nil {
				p.Imports[path] = d
			}
		}
	}
	checked := map[string]bool{}
	var check func(p *packages.Package, stack []string)
	check = func(p *packages.Package, stack []string) {
		if checked[p.ID] || slices.Contains(stack, p.ID) {
			return // done, or an import cycle, which go list reports
		}
		stack = append(stack, p.ID)
		for _, ip := range p.Imports {
			if r := byID[ip.ID]; r != nil {
				check(r, stack)
			}
		}
		checked[p.ID] = true
		typeCheck(p, byID, &cfg)
	}
	for _, p := range roots {
		check(p, nil)
	}
	return roots, nil
}

// typeCheck type-checks a package loaded with its syntax, as go/packages does for a
// package it loads from source (Types, TypesInfo, IllTyped and the errors, with their
// positions, messages and kinds), importing the matched packages in roots as checked
// and any other from its export data.
func typeCheck(p *packages.Package, roots map[string]*packages.Package, cfg *packages.Config) {
	if p.PkgPath == "unsafe" {
		p.Types = types.Unsafe
		p.TypesInfo = newTypesInfo()
		return
	}
	p.Types = types.NewPackage(p.PkgPath, p.Name)
	p.TypesInfo = newTypesInfo()
	p.Fset = cfg.Fset
	imp := importerFunc(func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		ip := p.Imports[path]
		if ip == nil {
			return nil, fmt.Errorf("no metadata for %s", path)
		}
		if r := roots[ip.ID]; r != nil {
			ip = r
		}
		if ip.Types != nil && ip.Types.Complete() {
			return ip.Types, nil
		}
		for _, e := range slices.Backward(ip.Errors) {
			if e.Kind == packages.UnknownError {
				return nil, errors.New(e.Msg)
			}
		}
		return nil, fmt.Errorf("no export data for %s", ip.ID)
	})
	appendError := func(err error) {
		switch err := err.(type) {
		case types.Error:
			p.TypeErrors = append(p.TypeErrors, err)
			p.Errors = append(p.Errors, packages.Error{Pos: err.Fset.Position(err.Pos).String(), Msg: err.Msg, Kind: packages.TypeError})
		case scanner.ErrorList:
			for _, e := range err {
				p.Errors = append(p.Errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
		default:
			p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
		}
	}
	tc := &types.Config{Importer: imp, Error: appendError, Sizes: p.TypesSizes}
	if p.Module != nil && p.Module.GoVersion != "" {
		tc.GoVersion = "go" + p.Module.GoVersion
	}
	typErr := types.NewChecker(tc, cfg.Fset, p.Types, p.TypesInfo).Files(p.Syntax)
	if typErr != nil && len(p.Errors) == 0 {
		appendError(typErr)
	}
	p.IllTyped = len(p.Errors) > 0 || slices.ContainsFunc(mapValues(p.Imports), func(ip *packages.Package) bool { return ip.IllTyped })
}

// newTypesInfo is the types.Info go/packages fills for NeedTypesInfo.
func newTypesInfo() *types.Info {
	return &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
}

func mapValues(m map[string]*packages.Package) []*packages.Package {
	out := make([]*packages.Package, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// importerFunc is a types.Importer.
type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
