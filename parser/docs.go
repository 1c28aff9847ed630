package parser

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
)

// declInfo is what the parser needs from the syntax of one declared name: a type,
// a constant or a struct field.
type declInfo struct {
	// Doc is the doc comment text (for a type or constant alone in its declaration,
	// the declaration's doc comment when the spec has none).
	Doc string
	// Comment is the trailing line comment text.
	Comment string
	// Tag is a struct field's tag literal, or nil.
	Tag *ast.BasicLit
	// TagPos is the position of Tag.
	TagPos token.Position
	// Pos is the position of the name. Export data only records lines, so this is the
	// place to get the column of a declaration in a package loaded from it.
	Pos token.Position
}

// fileDocs indexes the declarations of one file by the line of their names.
type fileDocs map[int][]docEntry

// docEntry is one declared name of a line.
type docEntry struct {
	name string
	col  int
	info *declInfo
}

// docIndex finds doc comments and tags of declarations by position. Files of the
// loaded packages are indexed from their syntax; the files of other packages (which
// go/packages loads from export data, without syntax) are parsed lazily, once.
type docIndex struct {
	fset   *token.FileSet       // the loader's file set, for loaded syntax
	own    *token.FileSet       // for files parsed here
	syntax map[string]*ast.File // loaded syntax by file name
	files  map[string]fileDocs  // indexed files by name (nil: unreadable)
	dir    string               // where to run "go env GOROOT"
	goroot *string              // for file names starting with $GOROOT, once known
}

func newDocIndex(fset *token.FileSet, dir string) *docIndex {
	return &docIndex{
		dir:    dir,
		fset:   fset,
		own:    token.NewFileSet(),
		syntax: map[string]*ast.File{},
		files:  map[string]fileDocs{},
	}
}

// addSyntax registers a file the loader already parsed.
func (x *docIndex) addSyntax(f *ast.File) {
	x.syntax[x.fset.File(f.Pos()).Name()] = f
}

// lookup returns what is known about the declaration of name at pos, or nil.
func (x *docIndex) lookup(pos token.Pos, name string) *declInfo {
	if !pos.IsValid() {
		return nil
	}
	p := x.fset.Position(pos)
	fd := x.file(p.Filename)
	if fd == nil {
		return nil
	}
	// Positions from export data have no columns: match the line and the name.
	var found *declInfo
	for _, e := range fd[p.Line] {
		switch {
		case e.name != name:
		case e.col == p.Column:
			return e.info
		case found == nil:
			found = e.info
		}
	}
	return found
}

func (x *docIndex) file(name string) fileDocs {
	if fd, ok := x.files[name]; ok {
		return fd
	}
	var fd fileDocs
	if f := x.syntax[name]; f != nil {
		fd = indexFile(x.fset, f)
	} else if f, err := parser.ParseFile(x.own, x.expand(name), nil, parser.ParseComments|parser.SkipObjectResolution); err == nil {
		fd = indexFile(x.own, f)
	}
	x.files[name] = fd
	return fd
}

// expand resolves the $GOROOT prefix that the standard library's export data uses
// for its file names.
func (x *docIndex) expand(name string) string {
	rest, ok := strings.CutPrefix(name, "$GOROOT")
	if !ok {
		return name
	}
	if x.goroot == nil {
		cmd := exec.Command("go", "env", "GOROOT")
		cmd.Dir = x.dir
		out, _ := cmd.Output()
		root := strings.TrimSpace(string(out))
		x.goroot = &root
	}
	if *x.goroot == "" {
		return name
	}
	return filepath.Join(*x.goroot, filepath.FromSlash(rest))
}

// commentText is a comment group's text without its final newline.
func commentText(g *ast.CommentGroup) string {
	if g == nil {
		return ""
	}
	return strings.TrimRight(g.Text(), "\n")
}

// indexFile records the package-level types and constants of a file and the fields
// of every struct type literal in it.
func indexFile(fset *token.FileSet, f *ast.File) fileDocs {
	fd := fileDocs{}
	add := func(id *ast.Ident, d *declInfo) {
		if id == nil {
			return
		}
		p := fset.Position(id.Pos())
		d.Pos = p
		fd[p.Line] = append(fd[p.Line], docEntry{id.Name, p.Column, d})
	}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, spec := range gd.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				doc := s.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				add(s.Name, &declInfo{Doc: commentText(doc), Comment: commentText(s.Comment)})
			case *ast.ValueSpec:
				doc := s.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				for _, n := range s.Names {
					add(n, &declInfo{Doc: commentText(doc), Comment: commentText(s.Comment)})
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		st, ok := n.(*ast.StructType)
		if !ok || st.Fields == nil {
			return true
		}
		for _, field := range st.Fields.List {
			d := &declInfo{Doc: commentText(field.Doc), Comment: commentText(field.Comment), Tag: field.Tag}
			if field.Tag != nil {
				d.TagPos = fset.Position(field.Tag.Pos())
			}
			if len(field.Names) == 0 {
				add(embeddedName(field.Type), d)
			}
			for _, n := range field.Names {
				dn := *d
				add(n, &dn)
			}
		}
		return true
	})
	return fd
}

// embeddedName is the identifier go/types positions an embedded field at.
func embeddedName(e ast.Expr) *ast.Ident {
	for {
		switch t := e.(type) {
		case *ast.Ident:
			return t
		case *ast.StarExpr:
			e = t.X
		case *ast.SelectorExpr:
			return t.Sel
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		default:
			return nil
		}
	}
}
