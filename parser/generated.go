package parser

import (
	"cmp"
	"go/ast"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/toolgen/toolgen/model"
)

// The names toolgen declares at package level in a package's generated file are the
// constructors (Tools, TTools or what //toolgen:package names them) and helpers whose
// names start with model.HelperPrefix and an upper-case letter. Two things follow:
//
//   - a package whose generated file is missing, stale or broken must still load:
//     its uses of those names are not errors (regenerating declares them);
//   - a declaration of the package's own with one of those names is an error, at
//     the declaration, rather than generated code that does not compile.

// plannedConstructors returns, from syntax alone, the names of the constructors the
// generated file of a package with these files declares: one for the package-level
// tools, one per receiver type with tools. It reads what type checking cannot, since a
// package that uses its own constructors has type errors until they are generated.
func plannedConstructors(files []*ast.File) map[string]bool {
	opts := optionsOf(files)
	names := &model.Package{ToolsFunc: opts.toolsFunc, TypeToolsFunc: opts.typeToolsFunc}
	out := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil || !slices.ContainsFunc(fd.Doc.List, isToolDirective) {
				continue
			}
			recv := ""
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				recv = recvTypeName(fd.Recv.List[0].Type)
			}
			out[names.Constructor(recv)] = true
		}
	}
	return out
}

func isToolDirective(c *ast.Comment) bool {
	name, _, ok := directiveName(c.Text)
	return ok && name == toolDirective
}

// recvTypeName is the name of a receiver's type: Service for s *Service.
func recvTypeName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.Ident:
			return t.Name
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		default:
			return ""
		}
	}
}

// generatedStubs returns the overlay that loads each matched package's generated file,
// if it has one, as a file that declares nothing: the file is never read (it is about
// to be replaced), and a package with its stale generated file present loads as one
// without it. Without the stub, the go command would compile the whole package,
// generated file and all, for its export data (go/packages asks for it when it loads
// types without dependencies), and the type checker would check the file: for a
// package of 1,000 tools that was a build of several seconds on every regeneration.
// Finding the files costs one go list -find, which neither resolves imports nor
// compiles. When it fails, the load goes on without an overlay and reports the error.
func generatedStubs(cfg *packages.Config, patterns []string) map[string][]byte {
	find := &packages.Config{
		Mode:       packages.NeedName | packages.NeedFiles,
		Dir:        cfg.Dir,
		BuildFlags: cfg.BuildFlags,
	}
	pkgs, err := packages.Load(find, patterns...)
	if err != nil {
		return nil
	}
	var overlay map[string][]byte
	for _, p := range pkgs {
		if p.Name == "" || len(p.Errors) > 0 {
			continue
		}
		for _, f := range p.GoFiles {
			if filepath.Base(f) != generatedFile {
				continue
			}
			if overlay == nil {
				overlay = map[string][]byte{}
			}
			overlay[f] = []byte("package " + p.Name + "\n")
		}
	}
	return overlay
}

// userFiles returns the syntax of a package's files but its generated file.
func (l *loader) userFiles(p *packages.Package) []*ast.File {
	var out []*ast.File
	for _, f := range p.Syntax {
		if filepath.Base(l.fset.File(f.Pos()).Name()) != generatedFile {
			out = append(out, f)
		}
	}
	return out
}

// planGenerated records the constructors each package loaded from source will have.
func (l *loader) planGenerated(pkgs []*packages.Package) {
	for _, p := range pkgs {
		if p.TypesInfo != nil {
			l.generated[p.PkgPath] = plannedConstructors(l.userFiles(p))
		}
	}
}

// generates reports whether the generated file of the package with import path path
// declares name.
func (l *loader) generates(path, name string) bool {
	ctors := l.generated[path]
	return len(ctors) > 0 && (ctors[name] || model.IsHelperName(name))
}

// regenerates reports whether a load error of p will go away when its generated file
// is written again: an error inside the generated file, a use of a name it declares
// (undefined: Tools, undefined: svc.ServiceTools) or a redeclaration of one (which
// checkGeneratedNames reports in its own words).
func (l *loader) regenerates(p *packages.Package, e packages.Error) bool {
	if _, ok := l.generated[p.PkgPath]; !ok {
		return false // not loaded from source: it has to compile as it is
	}
	if e.Kind != packages.TypeError && e.Kind != packages.ParseError {
		return false
	}
	if isGenerated(e.Pos) {
		return true
	}
	if e.Kind != packages.TypeError {
		return false
	}
	msg := strings.TrimSpace(e.Msg)
	if name, ok := strings.CutPrefix(msg, "undefined: "); ok {
		if q, sel, ok := strings.Cut(name, "."); ok {
			return l.generates(l.importPath(p, e.Pos, q), sel)
		}
		return l.generates(p.PkgPath, name)
	}
	if name, ok := strings.CutSuffix(msg, " redeclared in this block"); ok {
		return l.generates(p.PkgPath, name)
	}
	if name, ok := strings.CutPrefix(msg, "other declaration of "); ok {
		return l.generates(p.PkgPath, name)
	}
	return false
}

// importPath returns the path of the package that the file of an error position
// imports under the name q, or "".
func (l *loader) importPath(p *packages.Package, pos, q string) string {
	file, _, _ := splitErrorPos(pos)
	for _, f := range p.Syntax {
		if l.fset.File(f.Pos()).Name() != file {
			continue
		}
		for _, spec := range f.Imports {
			path := strings.Trim(spec.Path.Value, "\"`")
			name := ""
			switch {
			case spec.Name != nil:
				name = spec.Name.Name
			case p.Imports[path] != nil:
				name = p.Imports[path].Name
			}
			if name == q {
				return path
			}
		}
	}
	return ""
}

// topLevelNames are the identifiers a file declares in the package block (and the
// names it gives its imports, which may not be declared there either).
func topLevelNames(f *ast.File) []*ast.Ident {
	var out []*ast.Ident
	add := func(id *ast.Ident) {
		if id != nil && id.Name != "_" {
			out = append(out, id)
		}
	}
	for _, spec := range f.Imports {
		if spec.Name != nil && spec.Name.Name != "." {
			add(spec.Name)
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name != "init" {
				add(d.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					add(s.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						add(n)
					}
				}
			}
		}
	}
	return out
}

// checkGeneratedNames reports the package's own declarations that have a name its
// generated file declares, and constructors that //toolgen:package names alike.
func (b *pkgBuilder) checkGeneratedNames(files []*ast.File, mp *model.Package) {
	if len(mp.Tools) == 0 {
		return
	}
	sets := map[string][]string{} // receiver ("" for none) -> tool names
	for _, t := range mp.Tools {
		sets[t.Receiver] = append(sets[t.Receiver], t.Name)
	}
	recvs := make([]string, 0, len(sets))
	for r := range sets {
		recvs = append(recvs, r)
		slices.Sort(sets[r])
	}
	slices.Sort(recvs)
	ctors := map[string]string{} // name -> receiver
	for _, recv := range recvs {
		name := mp.Constructor(recv)
		if other, dup := ctors[name]; dup && b.opts.toolsOff >= 0 {
			b.errorf(b.commentPos(b.opts.c, b.opts.toolsOff), "tools=%s gives the constructor of the package-level tools the name of the constructor of the tools of %s's methods; choose another name",
				name, cmp.Or(recv, other))
			continue
		}
		ctors[name] = recv
	}
	b.importNamesTaken(files, mp)
	for _, f := range files {
		for _, id := range topLevelNames(f) {
			at := b.l.pos(id.Pos())
			recv, ok := ctors[id.Name]
			switch {
			case ok:
				b.errorf(at, "%s", b.collision(mp, id.Name, recv, sets[recv]))
			case model.IsHelperName(id.Name):
				b.errorf(at, "%s is declared here, but names that start with %q and an upper-case letter are reserved for the helpers toolgen declares in %s (toolgenTools, toolgenDispatch, ...): rename it",
					id.Name, model.HelperPrefix, generatedFile)
			}
		}
	}
}

// importNamesTaken records the package-level names of the package that generated code
// would otherwise use for its imports.
func (b *pkgBuilder) importNamesTaken(files []*ast.File, mp *model.Package) {
	names := map[string]bool{}
	for _, path := range model.GeneratedImports {
		names[model.ImportName(path)] = true
	}
	for _, t := range mp.Types {
		if t.PkgPath != mp.Path {
			names[model.ImportName(t.PkgPath)] = true
		}
	}
	var taken []string
	for _, f := range files {
		for _, id := range topLevelNames(f) {
			if names[id.Name] && !isImportName(f, id) {
				taken = append(taken, id.Name)
			}
		}
	}
	slices.Sort(taken)
	mp.ImportNamesTaken = slices.Compact(taken)
}

// isImportName reports whether id names an import of f, which is in the file block.
func isImportName(f *ast.File, id *ast.Ident) bool {
	return slices.ContainsFunc(f.Imports, func(s *ast.ImportSpec) bool { return s.Name == id })
}

// collision describes a declaration named like the constructor of the tools of recv.
func (b *pkgBuilder) collision(mp *model.Package, name, recv string, tools []string) string {
	var sb strings.Builder
	sb.WriteString(name + " is declared here, but toolgen generates ")
	if recv == "" {
		sb.WriteString("func " + name + "() *runtime.Toolset")
	} else {
		sb.WriteString("func " + name + "(recv *" + recv + ") *runtime.Toolset")
	}
	sb.WriteString(" in " + generatedFile + ", returning ")
	if recv == "" {
		sb.WriteString("the package-level tools")
	} else {
		sb.WriteString("the tools of " + recv + "'s methods")
	}
	sb.WriteString(" (" + englishList(tools) + ")")
	key, off, example := "tools", b.opts.toolsOff, "tools=NAME"
	if recv != "" {
		key, off, example = "typetools", b.opts.typeToolsOff, "typetools=PATTERN, where * stands for the type's name"
	}
	if off >= 0 {
		sb.WriteString(", named by " + key + "=" + strings.TrimSpace(optionValue(b.opts.c.Text, off)) + " at " + formatPos(b.commentPos(b.opts.c, off)))
		sb.WriteString(": rename this declaration, or choose another " + key + "=")
		return sb.String()
	}
	sb.WriteString(": rename this declaration, or rename the constructor with //toolgen:package " + example)
	return sb.String()
}

// optionValue is the value of the option at offset off of a directive line, as
// written.
func optionValue(text string, off int) string {
	opt := tokenAt(text, off)
	_, v, _ := strings.Cut(opt, "=")
	return v
}

// englishList joins names as "a, b and c".
func englishList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
