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
	"unicode"
	"unicode/utf8"

	"github.com/toolgen/toolgen/model"
)

// The directives of tagged unions, lines of a type declaration's doc comment:
// //toolgen:union TAG on a sealed interface names its discriminator property, and
// //toolgen:variant VALUE on a struct type that implements one gives the value that
// names it.
const (
	unionDirective   = "union"
	variantDirective = "variant"
)

// typeDirective is a //toolgen:union or //toolgen:variant line and what it says.
type typeDirective struct {
	c     *ast.Comment
	value string // the tag or the variant's value, "" for a bare union line
	pos   model.Pos
}

// unionInfo is what the parser knows of a union's interface while mapping it.
type unionInfo struct {
	entry *namedEntry
	tag   string
}

// typeSpecs indexes a file's type declarations by the comment group that documents
// them, as go/doc reads it: a spec's own doc, or its declaration's when it declares
// one type alone.
func typeSpecs(f *ast.File) map[*ast.CommentGroup]*ast.TypeSpec {
	out := map[*ast.CommentGroup]*ast.TypeSpec{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			doc := ts.Doc
			if doc == nil && len(gd.Specs) == 1 {
				doc = gd.Doc
			}
			if doc != nil {
				out[doc] = ts
			}
		}
	}
	return out
}

// scanTypeDirectives reads the //toolgen:union and //toolgen:variant lines of a file,
// before any tool is mapped, since a union's variants may be declared in any file.
func (b *pkgBuilder) scanTypeDirectives(f *ast.File) {
	specs := typeSpecs(f)
	for _, cg := range f.Comments {
		var lines []*ast.Comment
		for _, c := range cg.List {
			if name, _, ok := directiveName(c.Text); ok && (name == unionDirective || name == variantDirective) {
				lines = append(lines, c)
			}
		}
		b.typeDirectives(cg, specs, lines)
	}
}

// typeDirectives reads the //toolgen:union and //toolgen:variant lines of one comment
// group, which specs says documents a type declaration, or none.
func (b *pkgBuilder) typeDirectives(cg *ast.CommentGroup, specs map[*ast.CommentGroup]*ast.TypeSpec, lines []*ast.Comment) {
	if len(lines) == 0 {
		return
	}
	ts := specs[cg]
	var first = map[string]*ast.Comment{}
	for _, c := range lines {
		name, rest, _ := directiveName(c.Text)
		at := b.commentPos(c, 0)
		if ts == nil {
			what := "an interface type"
			if name == variantDirective {
				what = "a struct type"
			}
			b.errorf(at, "%s%s must be in the doc comment of %s declaration", directivePrefix, name, what)
			continue
		}
		if prev := first[name]; prev != nil {
			b.errorf(at, "repeated %s%s directive (first at %s)", directivePrefix, name, formatPos(b.commentPos(prev, 0)))
			continue
		}
		first[name] = c
		obj, _ := b.info.Defs[ts.Name].(*types.TypeName)
		if obj == nil {
			continue
		}
		value, off, err := directiveWord(c.Text, rest)
		if err != "" {
			b.errorf(b.commentPos(c, off), "%s%s: %s", directivePrefix, name, err)
			continue
		}
		d := &typeDirective{c: c, value: value, pos: at}
		switch name {
		case unionDirective:
			if it, ok := obj.Type().Underlying().(*types.Interface); !ok || it.Empty() {
				b.errorf(at, "%s%s on %s, which is not an interface type: a union is a sealed interface whose variants are the package's struct types that implement it", directivePrefix, name, obj.Name())
				continue
			}
			if value != "" && !isValidTag(value) {
				b.errorf(b.commentPos(c, off), "%s%s: %q cannot be a JSON property name as encoding/json reads one", directivePrefix, name, value)
				continue
			}
			b.unionDirs[obj] = d
		case variantDirective:
			if _, ok := obj.Type().Underlying().(*types.Struct); !ok {
				b.errorf(at, "%s%s on %s, which is not a struct type: a variant is a struct type that implements a union's interface", directivePrefix, name, obj.Name())
				continue
			}
			if value == "" {
				b.errorf(at, "%s%s needs the value that names the variant (%s%s VALUE); without the line it is the type's name in snake_case", directivePrefix, name, directivePrefix, name)
				continue
			}
			b.variantDirs[obj] = d
		}
	}
}

// directiveWord reads the one word after a directive's name at rest: a bare word or a
// Go string literal. It returns the word, its offset in text and a problem, if any.
func directiveWord(text string, rest int) (word string, off int, problem string) {
	s := text[rest:]
	trimmed := strings.TrimLeft(s, " \t")
	off = rest + len(s) - len(trimmed)
	trimmed = strings.TrimRight(trimmed, " \t")
	if trimmed == "" {
		return "", off, ""
	}
	if trimmed[0] == '"' || trimmed[0] == '`' {
		v, err := strconv.Unquote(trimmed)
		if err != nil {
			return "", off, fmt.Sprintf("%s is not one Go string literal", trimmed)
		}
		word = v
	} else {
		if i := strings.IndexAny(trimmed, " \t"); i >= 0 {
			return "", off + i, fmt.Sprintf("takes one value, got %q (quote a value that holds spaces)", trimmed)
		}
		word = trimmed
	}
	switch {
	case word == "":
		return "", off, "the value is empty"
	case !utf8.ValidString(word):
		return "", off, "the value is not valid UTF-8"
	case strings.ContainsFunc(word, func(r rune) bool { return !unicode.IsPrint(r) }):
		return "", off, fmt.Sprintf("the value %q holds a character that is not printable", word)
	}
	return word, off, ""
}

// isSealed reports whether an interface has an unexported method, which only types of
// its package can implement.
func isSealed(it *types.Interface) bool {
	for m := range it.Methods() {
		if !m.Exported() {
			return true
		}
	}
	return false
}

// mapUnion maps a named interface type, whose entry is e, to a union: its tag and its
// variants, the package's named struct types that implement it, in declaration order.
// A problem with the interface itself is returned, to be reported where it is used;
// problems with its variants are reported at them.
func (b *pkgBuilder) mapUnion(t *types.Named, it *types.Interface, m mode, e *namedEntry) (*model.Type, error) {
	obj := t.Obj()
	declared := formatPos(b.l.pos(obj.Pos()))
	if obj.Pkg() != b.pkg.Types {
		return nil, fmt.Errorf("unsupported type %s: a union's interface must be declared in the tool's package, with its variants; interface types other than any have no JSON form otherwise", b.typeString(t))
	}
	if !isSealed(it) {
		return nil, fmt.Errorf("interface type %s (%s) is not sealed: give it an unexported method, such as is%s(), so that it is a union whose variants are this package's struct types that implement it", obj.Name(), declared, obj.Name())
	}
	tag := model.DefaultUnionTag
	if d := b.unionDirs[obj]; d != nil && d.value != "" {
		tag = d.value
	}
	u := &model.Type{Kind: model.Union, Tag: tag}
	type candidate struct {
		tn  *types.TypeName
		pos token.Position
	}
	var found []candidate
	scope := b.pkg.Types.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if _, isIface := tn.Type().Underlying().(*types.Interface); isIface {
			continue
		}
		if !types.Implements(tn.Type(), it) && !types.Implements(types.NewPointer(tn.Type()), it) {
			continue
		}
		found = append(found, candidate{tn, b.l.fset.Position(tn.Pos())})
	}
	slices.SortFunc(found, func(x, y candidate) int {
		return cmp.Or(cmp.Compare(x.pos.Filename, y.pos.Filename), cmp.Compare(x.pos.Line, y.pos.Line), cmp.Compare(x.pos.Column, y.pos.Column))
	})
	values := map[string]*types.TypeName{}
	for _, cand := range found {
		tn := cand.tn
		at, _ := b.declPos(tn)
		vt, _ := tn.Type().(*types.Named)
		switch {
		case vt == nil || vt.TypeParams().Len() > 0:
			b.errorf(at, "type %s implements union %s but is generic: a variant is a struct type without type parameters", tn.Name(), obj.Name())
			continue
		case !isStruct(vt):
			b.errorf(at, "type %s implements union %s but is not a struct type: a variant is a struct type, whose fields are the variant's properties", tn.Name(), obj.Name())
			continue
		case !types.Implements(vt, it):
			b.errorf(at, "type %s implements union %s only through a pointer (*%s): declare its methods on the value receiver, since the tool gets the variant's value in the interface", tn.Name(), obj.Name(), tn.Name())
			continue
		}
		if mj := b.userMethod(vt, "MarshalJSON"); mj != nil {
			b.errorf(at, "variant %s of union %s declares MarshalJSON (%s): toolgen generates a variant's MarshalJSON, which writes its %q property; drop it", tn.Name(), obj.Name(), formatPos(b.l.pos(mj.Pos())), tag)
			continue
		}
		value := snakeCase(tn.Name())
		valueAt := at
		if d := b.variantDirs[tn]; d != nil {
			value, valueAt = d.value, d.pos
		}
		if prev := values[value]; prev != nil {
			b.errorf(valueAt, "variant %s of union %s has the value %q, as %s (%s) has: give one of them another with %s%s VALUE", tn.Name(), obj.Name(), value, prev.Name(), formatPos(b.l.pos(prev.Pos())), directivePrefix, variantDirective)
			continue
		}
		values[value] = tn
		ref, err := b.mapNamed(vt, m, e)
		if err != nil {
			b.errorf(at, "variant %s of union %s: %v", tn.Name(), obj.Name(), err)
			continue
		}
		ve := b.refs[ref]
		if ve.class != classPlain {
			b.errorf(at, "variant %s of union %s is encoded as %s: a variant is encoded by its fields", tn.Name(), obj.Name(), ve.class)
			continue
		}
		if other := b.variantOf[tn]; other != nil && other != e {
			b.errorf(at, "type %s is a variant of both %s and %s: a struct type can be a variant of one union the tools use, whose discriminator its generated MarshalJSON writes", tn.Name(), other.obj.Name(), obj.Name())
			continue
		}
		b.variantOf[tn] = e
		if ve.nt.Underlying != nil {
			for _, f := range ve.nt.Underlying.Fields {
				if f.Name == tag {
					b.errorf(f.Pos, "field %s of variant %s has the JSON name %q, which is union %s's discriminator: rename the field, or name another discriminator with %s%s NAME on %s", strings.Join(f.GoPath, "."), tn.Name(), tag, obj.Name(), directivePrefix, unionDirective, obj.Name())
				}
			}
		}
		u.Variants = append(u.Variants, &model.Variant{Value: value, Type: ref, Pos: at})
	}
	if len(found) == 0 {
		b.errorf(b.l.pos(obj.Pos()), "union %s has no variants: declare struct types in package %s that implement it", obj.Name(), obj.Pkg().Name())
	}
	return u, nil
}

// isStruct reports whether a named type's underlying type is a struct.
func isStruct(t *types.Named) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// userMethod returns the method name of *t declared in the package's own files (not
// in its generated file), or nil.
func (b *pkgBuilder) userMethod(t *types.Named, name string) *types.Func {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, t.Obj().Pkg(), name)
	fn, ok := obj.(*types.Func)
	if !ok || b.inGenerated(fn) {
		return nil
	}
	return fn
}

// inGenerated reports whether obj is declared in the package's generated file, which
// is about to be replaced and so is never read.
func (b *pkgBuilder) inGenerated(obj types.Object) bool {
	p := b.l.fset.Position(obj.Pos())
	return p.Filename != "" && filepath.Base(p.Filename) == generatedFile
}

// classify is ifaces.classify, but a MarshalJSON that toolgen generated (a union
// variant's) does not count: the type is read as it will be once the file is
// generated again, the same whether it exists or not.
func (b *pkgBuilder) classify(t types.Type, m mode) class {
	c := b.l.ifs.classify(t, m)
	if c != classMarshaler {
		return c
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, b.pkg.Types, "MarshalJSON")
	if fn, ok := obj.(*types.Func); !ok || !b.inGenerated(fn) {
		return c
	}
	if types.Implements(types.NewPointer(t), b.l.ifs.textMarshaler) {
		return classText
	}
	return classPlain
}

// embeddedVariant is a struct type's embedded field of a named struct type, which
// must not be a union's variant.
type embeddedVariant struct {
	field *types.Var
	typ   *types.TypeName
}

// checkEmbeddedVariants reports each embedded field whose type is a union's variant:
// the variant's generated MarshalJSON would be promoted to the struct that embeds it,
// which encoding/json would then write as the variant alone.
func (b *pkgBuilder) checkEmbeddedVariants() {
	for _, ev := range b.embeds {
		u := b.variantOf[ev.typ]
		if u == nil {
			continue
		}
		at, _ := b.declPos(ev.field)
		b.errorf(at, "embedded field %s is a variant of union %s: its generated MarshalJSON would be promoted and write the whole struct as the variant %s alone; give the field a name", ev.field.Name(), u.obj.Name(), ev.typ.Name())
	}
}
