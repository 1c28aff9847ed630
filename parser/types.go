package parser

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/toolgen/toolgen/model"
)

// mode says which way a type's values travel: into a tool (arguments, decoded from
// the model's JSON) or out of it (results, encoded as JSON).
type mode int

const (
	modeInput mode = iota
	modeOutput
)

// class is how encoding/json treats a type, given the methods it has.
type class int

const (
	classPlain     class = iota // by its structure
	classText                   // as a string, through UnmarshalText / MarshalText
	classMarshaler              // through MarshalJSON: free-form output
	classJSON                   // through UnmarshalJSON: unsupported as input
)

func (c class) String() string {
	switch c {
	case classText:
		return "text (UnmarshalText/MarshalText)"
	case classMarshaler:
		return "free-form JSON (MarshalJSON)"
	case classJSON:
		return "custom JSON (UnmarshalJSON)"
	}
	return "its structure"
}

// ifaces are the encoding interfaces that change how encoding/json treats a type.
type ifaces struct {
	jsonUnmarshaler, jsonMarshaler, textUnmarshaler, textMarshaler *types.Interface
}

func newIfaces() ifaces {
	bytes := types.NewSlice(types.Typ[types.Byte])
	errVar := types.NewVar(token.NoPos, nil, "", errorType)
	method := func(name string, params, results *types.Tuple) *types.Interface {
		sig := types.NewSignatureType(nil, nil, nil, params, results, false)
		it := types.NewInterfaceType([]*types.Func{types.NewFunc(token.NoPos, nil, name, sig)}, nil)
		return it.Complete()
	}
	in := types.NewTuple(types.NewVar(token.NoPos, nil, "b", bytes))
	outErr := types.NewTuple(errVar)
	outBytes := types.NewTuple(types.NewVar(token.NoPos, nil, "", bytes), errVar)
	return ifaces{
		jsonUnmarshaler: method("UnmarshalJSON", in, outErr),
		jsonMarshaler:   method("MarshalJSON", nil, outBytes),
		textUnmarshaler: method("UnmarshalText", in, outErr),
		textMarshaler:   method("MarshalText", nil, outBytes),
	}
}

// classify says how encoding/json treats values of t in mode m. Methods are looked up
// on *t, whose method set includes t's.
func (x ifaces) classify(t types.Type, m mode) class {
	p := types.NewPointer(t)
	if m == modeInput {
		switch {
		case types.Implements(p, x.jsonUnmarshaler):
			return classJSON
		case types.Implements(p, x.textUnmarshaler):
			return classText
		}
		return classPlain
	}
	switch {
	case types.Implements(p, x.jsonMarshaler):
		return classMarshaler
	case types.Implements(p, x.textMarshaler):
		return classText
	}
	return classPlain
}

// namedEntry is a defined type used by the package's tools.
type namedEntry struct {
	obj *types.TypeName
	nt  *model.NamedType
	// class is how the type is read or written; the same in both modes, or an error.
	class class
	// modes has bit 1<<mode set for each mode the type has been walked in.
	modes int
	// err is the reason the type cannot be mapped, reported at every use.
	err error
	// edges are the named types the type's underlying type refers to.
	edges []*namedEntry
}

// qualifier writes types of the package being mapped without their package name.
func (b *pkgBuilder) qualifier(p *types.Package) string {
	if p == b.pkg.Types {
		return ""
	}
	return p.Name()
}

func (b *pkgBuilder) typeString(t types.Type) string {
	return types.TypeString(t, b.qualifier)
}

// mapType maps a Go type to the model. owner is the named type whose underlying
// type is being mapped, nil at the top of a parameter or result. Problems inside
// struct types are reported at their fields; a problem with t itself is returned,
// to be reported where t is used.
func (b *pkgBuilder) mapType(t types.Type, m mode, owner *namedEntry) (*model.Type, error) {
	switch t := types.Unalias(t).(type) {
	case *types.Basic:
		return mapBasic(t)
	case *types.Pointer:
		elem, err := b.mapType(t.Elem(), m, owner)
		if err != nil {
			return nil, err
		}
		return &model.Type{Kind: model.Pointer, Elem: elem}, nil
	case *types.Slice:
		if e, ok := t.Elem().Underlying().(*types.Basic); ok && e.Kind() == types.Uint8 {
			return &model.Type{Kind: model.Bytes}, nil
		}
		elem, err := b.mapType(t.Elem(), m, owner)
		if err != nil {
			return nil, err
		}
		return &model.Type{Kind: model.Slice, Elem: elem}, nil
	case *types.Array:
		elem, err := b.mapType(t.Elem(), m, owner)
		if err != nil {
			return nil, err
		}
		return &model.Type{Kind: model.Array, Len: int(t.Len()), Elem: elem}, nil
	case *types.Map:
		key, err := b.mapType(t.Key(), m, owner)
		if err == nil && !b.isStringKey(key) {
			err = fmt.Errorf("map key type %s is not a string type (JSON object keys are strings)", b.typeString(t.Key()))
		}
		if err != nil {
			return nil, err
		}
		elem, err := b.mapType(t.Elem(), m, owner)
		if err != nil {
			return nil, err
		}
		return &model.Type{Kind: model.Map, Key: key, Elem: elem}, nil
	case *types.Struct:
		if c := b.classify(t, m); c != classPlain {
			return nil, fmt.Errorf("unnamed struct type %s is encoded as %s through an embedded field's methods; give it a name or drop the embedding", b.typeString(t), c)
		}
		return &model.Type{Kind: model.Struct, Fields: b.mapStruct(t, m, owner)}, nil
	case *types.Named:
		return b.mapNamed(t, m, owner)
	case *types.Interface:
		if t.Empty() && !t.IsImplicit() {
			return &model.Type{Kind: model.Any}, nil
		}
		return nil, fmt.Errorf("unsupported type %s: interface types other than any have no JSON form", b.typeString(t))
	case *types.Chan:
		return nil, fmt.Errorf("unsupported type %s: channels have no JSON form", b.typeString(t))
	case *types.Signature:
		return nil, fmt.Errorf("unsupported type %s: functions have no JSON form", b.typeString(t))
	case *types.TypeParam:
		return nil, fmt.Errorf("unsupported type %s: type parameters are not supported", b.typeString(t))
	default:
		return nil, fmt.Errorf("unsupported type %s", b.typeString(t))
	}
}

// mapBasic maps a predeclared type.
func mapBasic(t *types.Basic) (*model.Type, error) {
	num := func(k model.Kind, bits int, basic string) (*model.Type, error) {
		return &model.Type{Kind: k, Bits: bits, Basic: basic}, nil
	}
	switch t.Kind() {
	case types.String:
		return &model.Type{Kind: model.String}, nil
	case types.Bool:
		return &model.Type{Kind: model.Bool}, nil
	case types.Int:
		return num(model.Int, 64, "int")
	case types.Int8:
		return num(model.Int, 8, "int8")
	case types.Int16:
		return num(model.Int, 16, "int16")
	case types.Int32:
		return num(model.Int, 32, "int32")
	case types.Int64:
		return num(model.Int, 64, "int64")
	case types.Uint:
		return num(model.Uint, 64, "uint")
	case types.Uint8:
		return num(model.Uint, 8, "uint8")
	case types.Uint16:
		return num(model.Uint, 16, "uint16")
	case types.Uint32:
		return num(model.Uint, 32, "uint32")
	case types.Uint64:
		return num(model.Uint, 64, "uint64")
	case types.Float32:
		return num(model.Float, 32, "float32")
	case types.Float64:
		return num(model.Float, 64, "float64")
	case types.Uintptr:
		return nil, errors.New("unsupported type uintptr: use an integer type")
	case types.Complex64, types.Complex128:
		return nil, fmt.Errorf("unsupported type %s: complex numbers have no JSON form", t.Name())
	case types.UnsafePointer:
		return nil, errors.New("unsupported type unsafe.Pointer")
	}
	return nil, fmt.Errorf("unsupported type %s", t.Name())
}

// isStringKey reports whether a mapped map key is a string or a named string type.
func (b *pkgBuilder) isStringKey(t *model.Type) bool {
	if t.Kind == model.String {
		return true
	}
	if t.Kind == model.Named {
		e := b.refs[t]
		if e.err != nil || e.class != classPlain {
			return false
		}
		u, ok := e.obj.Type().Underlying().(*types.Basic)
		return ok && u.Info()&types.IsString != 0
	}
	return false
}

// mapNamed maps a defined type: to a special kind for the few the model knows, else
// to a reference to an entry of Package.Types.
func (b *pkgBuilder) mapNamed(t *types.Named, m mode, owner *namedEntry) (*model.Type, error) {
	obj := t.Obj()
	if obj.Pkg() == nil {
		return nil, fmt.Errorf("unsupported type %s: interface types other than any have no JSON form", obj.Name())
	}
	switch path, name := obj.Pkg().Path(), obj.Name(); {
	case path == "time" && name == "Time":
		return &model.Type{Kind: model.Time}, nil
	case path == "time" && name == "Duration":
		return &model.Type{Kind: model.Duration}, nil
	case path == "encoding/json" && name == "RawMessage":
		return &model.Type{Kind: model.Raw}, nil
	}
	if t.TypeArgs().Len() > 0 || t.TypeParams().Len() > 0 {
		return nil, fmt.Errorf("unsupported type %s: generic types are not supported", b.typeString(t))
	}
	c := b.classify(t, m)
	if c == classJSON {
		return nil, fmt.Errorf("unsupported type %s: it implements json.Unmarshaler, so its JSON form cannot be known at generate time", b.typeString(t))
	}
	e := b.named[obj]
	if e == nil {
		e = &namedEntry{
			obj:   obj,
			class: c,
			modes: 1 << m,
			nt: &model.NamedType{
				Name:    obj.Name(),
				PkgPath: obj.Pkg().Path(),
			},
		}
		if d := b.l.docs.lookup(obj.Pos(), obj.Name()); d != nil {
			e.nt.Doc, _ = b.describe(obj.Name(), d.Doc)
		}
		b.named[obj] = e
		b.list = append(b.list, e)
		if owner != nil {
			owner.edges = append(owner.edges, e)
		}
		switch c {
		case classText:
			e.nt.Underlying = &model.Type{Kind: model.Text}
		case classMarshaler:
			e.nt.Underlying = &model.Type{Kind: model.Any}
		default:
			var u *model.Type
			var err error
			if it, ok := t.Underlying().(*types.Interface); ok && !it.Empty() {
				u, err = b.mapUnion(t, it, m, e)
			} else {
				u, err = b.mapType(t.Underlying(), m, e)
			}
			e.nt.Underlying, e.err = u, err
			if err == nil {
				e.nt.Enum = b.enum(t)
			}
		}
	} else {
		if owner != nil {
			owner.edges = append(owner.edges, e)
		}
		if e.modes&(1<<m) == 0 {
			e.modes |= 1 << m
			if c != e.class {
				in, out := e.class, c
				if m == modeInput {
					in, out = c, e.class
				}
				return nil, fmt.Errorf("type %s is read as %s but written as %s; use it only as input or only as output", b.typeString(t), in, out)
			}
			if c == classPlain && e.err == nil {
				// Walk it again the other way, to find what only this direction rejects:
				// a union's variants, or the underlying type.
				if u := e.nt.Underlying; u != nil && u.Kind == model.Union {
					for _, v := range u.Variants {
						if vt, ok := b.refs[v.Type].obj.Type().(*types.Named); ok {
							_, _ = b.mapNamed(vt, m, nil)
						}
					}
				} else {
					_, _ = b.mapType(t.Underlying(), m, nil)
				}
			}
		}
	}
	if e.err != nil {
		return nil, e.err
	}
	ref := &model.Type{Kind: model.Named}
	b.refs[ref] = e
	return ref, nil
}

// enum returns the typed constants of a string or integer type, in declaration
// order. Constants of types declared outside the loaded packages count only when
// exported: export data may not hold the others, and generated code cannot name them.
func (b *pkgBuilder) enum(t *types.Named) []*model.EnumValue {
	basic, ok := t.Underlying().(*types.Basic)
	if !ok || basic.Info()&(types.IsString|types.IsInteger) == 0 {
		return nil
	}
	obj := t.Obj()
	local := obj.Pkg() == b.pkg.Types
	type cst struct {
		c   *types.Const
		pos token.Position
	}
	var consts []cst
	scope := obj.Pkg().Scope()
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok || c.Name() == "_" || !types.Identical(c.Type(), t) || (!local && !c.Exported()) {
			continue
		}
		consts = append(consts, cst{c, b.l.fset.Position(c.Pos())})
	}
	slices.SortFunc(consts, func(x, y cst) int {
		return cmp.Or(cmp.Compare(x.pos.Filename, y.pos.Filename), cmp.Compare(x.pos.Line, y.pos.Line),
			cmp.Compare(x.pos.Column, y.pos.Column), cmp.Compare(x.c.Name(), y.c.Name()))
	})
	var out []*model.EnumValue
	seen := map[string]bool{}
	for _, c := range consts {
		var v string
		if c.c.Val().Kind() == constant.String {
			str := constant.StringVal(c.c.Val())
			if !utf8.ValidString(str) {
				pos, _ := b.declPos(c.c)
				b.errorf(pos, "constant %s of enum type %s is not valid UTF-8: a schema, and the model, hold text only", c.c.Name(), obj.Name())
				continue
			}
			v = jsonString(str)
		} else {
			v = c.c.Val().ExactString()
		}
		if seen[v] { // an alias of an earlier constant
			continue
		}
		seen[v] = true
		pos, d := b.declPos(c.c)
		ev := &model.EnumValue{GoName: c.c.Name(), Value: v, Pos: pos}
		if d != nil {
			ev.Doc, ev.Placeholder = b.describe(c.c.Name(), d.Doc, d.Comment)
		}
		out = append(out, ev)
	}
	return out
}

// jsonString quotes s as a JSON string, without escaping HTML characters.
func jsonString(s string) string {
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(sb.String(), "\n")
}

// typeDoc is the doc comment of a (pointer to a) named type, for properties whose
// own comments say nothing.
func (b *pkgBuilder) typeDoc(t *model.Type) string {
	for t != nil && t.Kind == model.Pointer {
		t = t.Elem
	}
	if t == nil || t.Kind != model.Named {
		return ""
	}
	return b.refs[t].nt.Doc
}

// isStructParam reports whether a single parameter's type makes the function
// struct-shaped: a struct, or a pointer to one, that encoding/json reads field by
// field.
func (b *pkgBuilder) isStructParam(t types.Type) bool {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	switch t := t.(type) {
	case *types.Struct:
		return true
	case *types.Named:
		if _, ok := t.Underlying().(*types.Struct); !ok || isNamed(t, "time", "Time") {
			return false
		}
		return b.classify(t, modeInput) != classText
	}
	return false
}

// structField is a candidate property found by walking a struct type and its embedded
// structs, as encoding/json's typeFields does.
type structField struct {
	name   string
	tagged bool
	index  []int
	path   []string
	ptrs   []bool
	v      *types.Var
	tag    string
	opts   string // json tag options
}

// embedded is an embedded struct to walk at the next depth.
type embedded struct {
	typ   types.Type // the struct type (named or not), pointer removed
	index []int
	path  []string
	ptrs  []bool
}

// mapStruct maps a struct type's fields to properties the way encoding/json sees them:
// unexported and "-" fields are left out, embedded structs are flattened, and of the
// fields sharing a name the shallowest wins, a tagged one over untagged ones, and a
// tie drops them all.
func (b *pkgBuilder) mapStruct(st *types.Struct, m mode, owner *namedEntry) []*model.Field {
	var found []structField
	var next []embedded
	cur := []embedded{{typ: st}}
	count, nextCount := new(typeutil.Map), new(typeutil.Map)
	visited := new(typeutil.Map)
	for len(cur) > 0 {
		count, nextCount = nextCount, new(typeutil.Map)
		for _, f := range cur {
			if visited.At(f.typ) != nil {
				continue
			}
			visited.Set(f.typ, true)
			s := f.typ.Underlying().(*types.Struct)
			for i := range s.NumFields() {
				sf := s.Field(i)
				tag := s.Tag(i)
				if off, msg, ok := checkStructTag(tag); !ok {
					at, info := b.declPos(sf)
					b.errorf(b.tagPos(info, off, at), "field %s: malformed struct tag, which reflect.StructTag cannot read and go vet rejects: %s", sf.Name(), msg)
				}
				jsonTag, hasJSON := reflect.StructTag(tag).Lookup("json")
				_, hasTool := lookupTag(tag, "tool")
				ft := types.Unalias(sf.Type())
				if p, ok := ft.(*types.Pointer); ok {
					ft = types.Unalias(p.Elem())
				}
				_, isStruct := ft.Underlying().(*types.Struct)
				if sf.Embedded() {
					if !sf.Exported() && !isStruct {
						b.unexportedTagged(sf, hasJSON, hasTool)
						continue
					}
					if !sf.Exported() && (hasTool || (hasJSON && jsonTag != "-" && jsonName(jsonTag) != "")) {
						b.unexportedTagged(sf, hasJSON, hasTool)
						continue
					}
				} else if !sf.Exported() {
					b.unexportedTagged(sf, hasJSON, hasTool)
					continue
				}
				if jsonTag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(jsonTag, ",")
				if !isValidTag(name) {
					name = ""
				}
				index := append(slices.Clone(f.index), i)
				path := append(slices.Clone(f.path), sf.Name())
				if name != "" || !sf.Embedded() || !isStruct {
					sfd := structField{
						name: cmp.Or(name, sf.Name()), tagged: name != "",
						index: index, path: path, ptrs: f.ptrs, v: sf, tag: tag, opts: opts,
					}
					found = append(found, sfd)
					if n, _ := count.At(f.typ).(int); n > 1 {
						// Twice, so that the dominance step sees the conflict.
						found = append(found, sfd)
					}
					continue
				}
				if tn, ok := ft.(*types.Named); ok {
					b.embeds = append(b.embeds, embeddedVariant{field: sf, typ: tn.Obj()})
				}
				n, _ := nextCount.At(ft).(int)
				nextCount.Set(ft, n+1)
				if n == 0 {
					ptr := isPointer(sf.Type())
					if ptr && !sf.Exported() {
						if tn, ok := ft.(*types.Named); ok && tn.Obj().Pkg() != b.pkg.Types {
							at, _ := b.declPos(sf)
							b.errorf(at, "embedded field %s: a pointer to an unexported struct type of another package cannot be allocated", sf.Name())
							continue
						}
					}
					next = append(next, embedded{typ: ft, index: index, path: path, ptrs: append(slices.Clone(f.ptrs), ptr)})
				}
			}
		}
		cur, next = next, cur[:0]
	}

	slices.SortStableFunc(found, func(x, y structField) int {
		return cmp.Or(
			cmp.Compare(x.name, y.name),
			cmp.Compare(len(x.index), len(y.index)),
			-compareBool(x.tagged, y.tagged),
			slices.Compare(x.index, y.index),
		)
	})
	var fields []structField
	for i := 0; i < len(found); {
		j := i + 1
		for j < len(found) && found[j].name == found[i].name {
			j++
		}
		group := found[i:j]
		if len(group) == 1 || len(group[0].index) != len(group[1].index) || group[0].tagged != group[1].tagged {
			fields = append(fields, group[0])
		}
		i = j
	}
	slices.SortFunc(fields, func(x, y structField) int { return slices.Compare(x.index, y.index) })

	var out []*model.Field
	for _, sf := range fields {
		if f := b.field(sf, m, owner); f != nil {
			out = append(out, f)
		}
	}
	return out
}

func compareBool(x, y bool) int {
	switch {
	case x == y:
		return 0
	case x:
		return 1
	}
	return -1
}

// unexportedTagged reports an unexported field that has a json or tool tag:
// encoding/json ignores it, so the tag is a mistake.
func (b *pkgBuilder) unexportedTagged(v *types.Var, hasJSON, hasTool bool) {
	var keys []string
	if hasJSON {
		keys = append(keys, "json")
	}
	if hasTool {
		keys = append(keys, "tool")
	}
	if len(keys) == 0 {
		return
	}
	at, _ := b.declPos(v)
	b.errorf(at, "unexported field %s has a %s tag, but encoding/json ignores unexported fields", v.Name(), strings.Join(keys, " and "))
}

// jsonName is the name part of a json tag.
func jsonName(tag string) string {
	name, _, _ := strings.Cut(tag, ",")
	return name
}

// isValidTag is encoding/json's test of a json tag name.
func isValidTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !isLetterOrDigit(c):
			return false
		}
	}
	return true
}

func isLetterOrDigit(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }
