package generator

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/model"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// Decoders says how the generated code decodes the tools' arguments.
type Decoders int

// The ways of decoding.
const (
	// DecodersAuto lets the package's size decide: table-driven decoders for a
	// package of at least TableMinTools tools, specialised code for a smaller one.
	DecodersAuto Decoders = iota
	// DecodersSpecialised writes a decode function for each argument type, with its
	// checks inlined: the fastest decoding, and the most code to compile.
	DecodersSpecialised
	// DecodersTable writes each argument type as a table that toolimpl.Decode walks:
	// data rather than code, so that a package of thousands of tools builds in
	// seconds. Types the tables cannot describe (unions, arrays, anonymous structs,
	// encoding.TextUnmarshaler values, embedded pointers, defaults of other kinds than
	// numbers, strings, booleans and durations) keep specialised code.
	DecodersTable
)

// TableMinTools is the number of tools from which DecodersAuto chooses table-driven
// decoders. Below it, a package's toolgen.gen.go is what it was before tables existed.
const TableMinTools = 500

// Options are the choices Generate leaves to its defaults.
type Options struct {
	// Decoders says how to decode the arguments; DecodersAuto by default.
	Decoders Decoders
	// SchemaFiles, when not nil, receives the files under toolschema/ as soon as they
	// are rendered, while toolgen.gen.go still is, so that a caller may start writing
	// them: they are the files GenerateWith returns, whose data must not be modified.
	// GenerateWith calls it at most once, on a goroutine of its own, and only when
	// the schemas have no error; it can still fail afterwards (in the Go source), so
	// a caller that writes them early must be able to take them back.
	SchemaFiles func([]File)
}

// tables reports whether pkg gets table-driven decoders under opts.
func (o Options) tables(pkg *model.Package) bool {
	switch o.Decoders {
	case DecodersTable:
		return true
	case DecodersSpecialised:
		return false
	}
	return len(pkg.Tools) >= TableMinTools
}

const tablesVar = model.HelperPrefix + "Tables"

// tableGen holds the table-driven state of one file's generation.
type tableGen struct {
	objects []jen.Code // the elements of the Objects array, by index
	fields  []jen.Code // of the Fields array
	values  []jen.Code // of the Values array
	// valueIndex is the index of each Value in values, by its literal's text.
	valueIndex map[string]int
	keyBuf     bytes.Buffer   // valueKey's buffer, reused
	index      map[string]int // the index of a struct's Object, by tableKey
	able       map[string]int // tableable's memo: 1 yes, 2 no, 3 being decided
	funcs      []string       // named types read by a wrapper of their specialised decoder
	wrapped    map[string]string
	tools      []toolTable // the table of each tool's arguments
	calls      bool        // a toolimpl.Calls refers to the Tables, which must then be declared
}

// toolTable is the index of a tool's argument table, -1 when it has none.
type toolTable struct {
	tool  string
	index int
}

// tableName returns the name of the toolimpl.Tables variable, and tableArray that of
// one of its arrays.
func (g *goGen) tableName() string { return g.helper("tables", "", tablesVar) }

func (g *goGen) tableArray(name string) string {
	return g.helper("tables"+name, "", model.HelperPrefix+"Table"+name)
}

// tableDecodeCall returns the statement that reads the struct at addr (an expression of
// a pointer to it) with the Object at index i.
func (g *goGen) tableDecodeCall(i int, addr jen.Code) jen.Code {
	return jen.Qual(implPkg, "Decode").Call(jen.Id("d"), jen.Op("&").Id(g.tableName()), jen.Lit(i), jen.Qual("unsafe", "Pointer").Call(addr))
}

// toolDecodeCall is structDecodeCall for the argument struct id of the tool t.
func (g *goGen) toolDecodeCall(t *model.Tool, id string, addr jen.Code) jen.Code {
	call := g.structDecodeCall(id, addr)
	if g.tab != nil {
		i, ok := g.tab.index["type\x00"+id]
		if !ok {
			i = -1
		}
		g.tab.tools = append(g.tab.tools, toolTable{t.Name, i})
	}
	return call
}

// structDecodeCall returns the statement that reads the named struct (or union) id into
// addr: with its table when it has one, else with its specialised decoder.
func (g *goGen) structDecodeCall(id string, addr jen.Code) jen.Code {
	if g.tab != nil {
		if nt := g.pkg.Type(id); nt != nil && g.tableable(nt) {
			return g.tableDecodeCall(g.namedTable(nt), addr)
		}
	}
	return jen.Id(g.decoderName(id)).Call(jen.Id("d"), addr)
}

// paramsDecodeCall returns the statement that reads the arguments of the ordinary
// function t into addr.
func (g *goGen) paramsDecodeCall(t *model.Tool, addr jen.Code) jen.Code {
	if g.tab != nil && g.fieldsTableable(t.Input.Params, g.toolNode(t)) {
		key := "args\x00" + t.Name
		if i, ok := g.tab.index[key]; ok {
			return g.tableDecodeCall(i, addr)
		}
		i := g.reserveTable(key)
		g.tab.objects[i] = g.objectTable(t.Input.Params, g.toolNode(t), jen.Id(g.paramsTypeName(t)))
		g.tab.tools = append(g.tab.tools, toolTable{t.Name, i})
		return g.tableDecodeCall(i, addr)
	}
	if g.tab != nil {
		g.tab.tools = append(g.tab.tools, toolTable{t.Name, -1})
	}
	return jen.Id(g.paramsDecoderName(t)).Call(jen.Id("d"), addr)
}

// paramsHasTable reports whether t's params struct is decoded by a table, so its
// specialised decoder is not written.
func (g *goGen) paramsHasTable(t *model.Tool) bool {
	return g.tab != nil && g.fieldsTableable(t.Input.Params, g.toolNode(t))
}

func (g *goGen) reserveTable(key string) int {
	i := len(g.tab.objects)
	g.tab.index[key] = i
	g.tab.objects = append(g.tab.objects, nil)
	return i
}

// namedTable returns the index of the Object of the tableable named struct nt, filling
// it in on first use (its fields may reach it again: recursion goes by index).
func (g *goGen) namedTable(nt *model.NamedType) int {
	key := "type\x00" + nt.ID
	if i, ok := g.tab.index[key]; ok {
		return i
	}
	i := g.reserveTable(key)
	n, err := g.typeNode(nt.ID)
	if err != nil {
		g.fail(err)
	}
	g.tab.objects[i] = g.objectTable(nt.Underlying.Fields, n, jen.Qual(nt.PkgPath, nt.Name))
	return i
}

// tableable reports whether the tables describe the named struct nt, every field of it.
func (g *goGen) tableable(nt *model.NamedType) bool {
	if nt.Underlying == nil || nt.Underlying.Kind != model.Struct {
		return false
	}
	switch g.tab.able[nt.ID] {
	case 1, 3: // 3: a recursion, tableable if the rest is
		return true
	case 2:
		return false
	}
	g.tab.able[nt.ID] = 3
	n, err := g.typeNode(nt.ID)
	ok := err == nil && g.fieldsTableable(nt.Underlying.Fields, n)
	g.tab.able[nt.ID] = 2
	if ok {
		g.tab.able[nt.ID] = 1
	}
	return ok
}

// fieldsTableable reports whether the tables describe every field of an object read by
// node n (a default only of the kinds a Field stores).
func (g *goGen) fieldsTableable(fields []*model.Field, n toolimpl.Node) bool {
	for _, f := range fields {
		for _, p := range f.EmbeddedPointers {
			if p {
				return false
			}
		}
		if p, _ := n.Property(f.Name); p.Default() != "" && !defaultTableable(g.resolveDefault(f.Type)) {
			return false
		}
		if !g.valueTableable(f.Type) {
			return false
		}
	}
	return true
}

// resolveDefault returns the kind a default is stored as: through one pointer.
func (g *goGen) resolveDefault(t *model.Type) resolved {
	if t.Kind == model.Pointer {
		t = t.Elem
	}
	return g.resolve(t)
}

func defaultTableable(r resolved) bool {
	switch r.Kind {
	case model.String, model.Bool, model.Int, model.Uint, model.Float, model.Duration:
		return true
	}
	return false
}

// valueTableable reports whether a Value describes t. A named struct or union that the
// tables do not describe is still a Value: its specialised decoder's (KFunc).
func (g *goGen) valueTableable(t *model.Type) bool {
	r := g.resolve(t)
	switch r.Kind {
	case model.String, model.Bool, model.Int, model.Uint, model.Float, model.Time, model.Duration,
		model.Bytes, model.Any, model.Raw:
		return true
	case model.Pointer:
		return r.named == nil && g.valueTableable(t.Elem)
	case model.Slice, model.Map:
		if r.Kind == model.Map && g.resolve(r.Key).Kind != model.String {
			return false
		}
		return g.valueTableable(r.Elem)
	case model.Struct, model.Union:
		return r.named != nil
	}
	return false
}

// objectTable returns the Object literal of a struct of type typ with these fields,
// read as the object node n says, after appending the fields to the Fields array
// (contiguous: the values of the fields, built first, may append the fields of other
// structs).
func (g *goGen) objectTable(fields []*model.Field, n toolimpl.Node, typ jen.Code) jen.Code {
	var elems []jen.Code
	for _, f := range fields {
		elems = append(elems, g.fieldTable(f, g.property(n, f), typ))
	}
	first := len(g.tab.fields)
	g.tab.fields = append(g.tab.fields, elems...)
	return jen.Values(kv("First", jen.Lit(first)), kv("Len", jen.Lit(len(elems))))
}

// fieldTable returns the Field literal of f, the property p, in a struct of type typ.
func (g *goGen) fieldTable(f *model.Field, p toolimpl.Prop, typ jen.Code) jen.Code {
	// The offset of an embedded struct's field adds up the offsets along the path.
	var offset *jen.Statement
	sel := jen.Add(typ).Values()
	for i, name := range f.GoPath {
		sel = sel.Clone().Dot(name)
		term := jen.Qual("unsafe", "Offsetof").Call(sel.Clone())
		if i == 0 {
			offset = term
		} else {
			offset = offset.Op("+").Add(term)
		}
	}
	elems := []jen.Code{
		kv("Name", jen.Lit(f.Name)),
		kv("Offset", offset),
	}
	if !p.Required() || p.Sensitive() {
		elems = append(elems, kv("Flags", flagsOf(!p.Required(), p.Sensitive())))
	}
	elems = append(elems, kv("Value", g.valueIndex(g.valueFields(f.Type, p.Node(), factsOf(&f.Constraints)))))
	if v := p.Default(); v != "" {
		elems = append(elems, g.defaultTable(f.Type, v)...)
	}
	return jen.Values(elems...)
}

// defaultTable returns the elements of a Field literal that store the default v (the
// program's JSON text) of a field of type t.
func (g *goGen) defaultTable(t *model.Type, v string) []jen.Code {
	r := g.resolveDefault(t)
	out := []jen.Code{jen.Id("HasDefault").Op(":").True()}
	switch r.Kind {
	case model.String:
		out = append(out, jen.Id("DefString").Op(":").Add(g.valueLiteral(v)))
	case model.Bool:
		out = append(out, jen.Id("DefBool").Op(":").Op(v))
	case model.Int:
		out = append(out, jen.Id("DefInt").Op(":").Op(v))
	case model.Uint:
		out = append(out, jen.Id("DefUint").Op(":").Op(v))
	case model.Float:
		if r.Bits == 32 {
			// Rounded to float32 as the specialised code's assignment rounds it.
			out = append(out, jen.Id("DefFloat").Op(":").Float64().Call(jen.Float32().Call(jen.Op(v))))
		} else {
			out = append(out, jen.Id("DefFloat").Op(":").Op(v))
		}
	case model.Duration:
		out = append(out, jen.Id("DefInt").Op(":").Int64().Call(g.durationConst(v)))
	}
	return out
}

func kv(name string, v jen.Code) jen.Code { return jen.Id(name).Op(":").Add(v) }

func kind(k string) jen.Code { return kv("Kind", jen.Qual(implPkg, k)) }

// valueFields returns the elements of the Value literal of t checked as node n says
// (x: what the model alone says), as value (gocode.go) reads it.
func (g *goGen) valueFields(t *model.Type, n toolimpl.Node, x goFacts) []jen.Code {
	r := g.resolve(t)
	var out []jen.Code
	if x.notZero {
		out = append(out, kv("NotZero", jen.True()))
	}
	switch r.Kind {
	case model.String:
		out = append(out, kind("KString"))
		if vals, code := enumOf(n); len(vals) > 0 {
			out = append(append(out, kv("Strings", jen.Index().String().Values(g.literals(vals)...))), g.enumFields(code, vals)...)
			return out
		}
		if v, ok := n.MinLength(); ok {
			out = append(out, kv("MinLength", jen.Lit(v)), kv("HasMinLength", jen.True()))
		}
		if v, ok := n.MaxLength(); ok {
			out = append(out, kv("MaxLength", jen.Lit(v)), kv("HasMaxLength", jen.True()))
		}
		if src := n.Pattern(); src != "" {
			if m, ok := g.matcher(src); ok {
				out = append(out, kv("Matcher", jen.Id(m)))
			} else {
				out = append(out, kv("PatternSource", jen.Lit(src)))
			}
			out = append(out, kv("PatternMessage", jen.Lit(toolimpl.PatternMessage(src))))
		}
		if f := n.Format(); f != "" {
			out = append(out, kv("Format", jen.Qual(implPkg, formatConst(f))))
		}
	case model.Bool:
		out = append(out, kind("KBool"))
		if vals, code := enumOf(n); code == "Const" {
			out = append(out, kv("Const", jen.Op(vals[0])), kv("HasConst", jen.True()), kv("EnumMessage", jen.Lit("must be "+vals[0])))
		}
	case model.Int, model.Uint:
		out = append(out, g.integerFields(r, n, x)...)
	case model.Float:
		out = append(out, kind("KFloat"), kv("Size", g.sizeOf(r)))
		bound := func(has, field, msgField, bound, msg string) {
			if bound != "" {
				out = append(out, kv(field, jen.Op(bound)), kv(has, jen.True()), kv(msgField, jen.Lit(msg+" "+bound)))
			}
		}
		b := n.Bounds()
		bound("HasFMin", "FMin", "FMinMsg", b.Minimum, "must be at least")
		bound("HasFMax", "FMax", "FMaxMsg", b.Maximum, "must be at most")
		bound("HasFExMin", "FExMin", "FExMinMsg", b.ExclusiveMinimum, "must be greater than")
		bound("HasFExMax", "FExMax", "FExMaxMsg", b.ExclusiveMaximum, "must be less than")
		if b.MultipleOf != "" {
			out = append(out, kv("MultipleOf", jen.Lit(b.MultipleOf)))
		}
		if vals, code := enumOf(n); len(vals) > 0 {
			out = append(append(out, kv("Floats", jen.Index().Float64().Values(g.literals(vals)...))), g.enumFields(code, vals)...)
		}
	case model.Time:
		out = append(out, kind("KTime"))
		switch {
		case x.layout != "":
			out = append(out, kv("Layout", jen.Lit(x.layout)))
		case n.Format() == "date":
			out = append(out, kv("Date", jen.True()))
		}
	case model.Duration:
		out = append(out, kind("KDuration"))
		if vals, code := enumOf(n); len(vals) > 0 {
			var list []jen.Code
			for _, v := range vals {
				list = append(list, jen.Int64().Call(g.durationConst(v)))
			}
			out = append(append(out, kv("Ints", jen.Index().Int64().Values(list...))), g.enumFields(code, vals)...)
		}
	case model.Bytes:
		out = append(out, kind("KBytes"))
	case model.Any:
		out = append(out, kind("KAny"))
	case model.Raw:
		out = append(out, kind("KRaw"))
	case model.Pointer:
		out = append(out, kind("KPointer"))
		if !n.Nullable() {
			out = append(out, kv("NotNull", jen.True()))
		}
		out = append(out,
			kv("Elem", g.elemValue(t.Elem, n, x)),
			kv("Ops", jen.Qual(implPkg, "PointerOps").Index(g.goType(t.Elem))),
		)
	case model.Slice:
		out = append(out, kind("KSlice"), kv("Ops", jen.Qual(implPkg, "SliceOps").Index(g.goType(t))))
		if n.UniqueItems() {
			out = append(out, kv("Unique", jen.Qual(implPkg, "UniqueOps").Index(g.goType(t))))
		}
		out = append(out, counts(n.MinItems, n.MaxItems)...)
		out = append(out, kv("Elem", g.elemValue(r.Elem, n.Items(), x.item())))
	case model.Map:
		out = append(out, kind("KMap"), kv("Ops", jen.Qual(implPkg, "MapOps").Index(g.goType(t))))
		if x.uniqueValues {
			out = append(out, kv("Unique", jen.Qual(implPkg, "UniqueValuesOps").Index(g.goType(t))))
		}
		if keys := n.PropertyNames(); len(keys) > 0 {
			var names []jen.Code
			for _, k := range keys {
				names = append(names, jen.Lit(k))
			}
			out = append(out, kv("Keys", jen.Index().String().Values(names...)))
		}
		out = append(out, counts(n.MinProperties, n.MaxProperties)...)
		out = append(out, kv("Elem", g.elemValue(r.Elem, n.Additional(), x.item())))
	case model.Struct, model.Union:
		if r.named == nil {
			g.fail(fmt.Errorf("a table cannot describe an anonymous %s", r.Kind))
			return out
		}
		if r.Kind == model.Struct && g.tableable(r.named) {
			out = append(out, kind("KObject"), kv("Ref", jen.Lit(g.namedTable(r.named))))
		} else {
			out = append(out, kind("KFunc"), kv("Func", jen.Id(g.tableFunc(r.named))))
		}
	default:
		g.fail(fmt.Errorf("a table cannot describe a value of kind %q", r.Kind))
	}
	return out
}

// counts returns a list Value's MinItems and MaxItems elements: an array's item
// counts or a map's property counts (min and max read them from the node).
func counts(min, max func() (int, bool)) []jen.Code {
	var out []jen.Code
	if v, ok := min(); ok {
		out = append(out, kv("MinItems", jen.Lit(v)), kv("HasMinItems", jen.True()))
	}
	if v, ok := max(); ok {
		out = append(out, kv("MaxItems", jen.Lit(v)), kv("HasMaxItems", jen.True()))
	}
	return out
}

// elemValue returns the index in the Values array of the Value of t checked as node n
// says.
func (g *goGen) elemValue(t *model.Type, n toolimpl.Node, x goFacts) jen.Code {
	return g.valueIndex(g.valueFields(t, n, x))
}

// valueIndex returns the index in the Values array of the Value of these elements,
// appending it unless an identical Value is there already: the fields of a thousand
// tools hold a few dozen distinct Values, which they share, so that the tables are
// small data and few literals for the compiler.
func (g *goGen) valueIndex(elems []jen.Code) jen.Code {
	v := jen.Values(elems...)
	key := g.valueKey(v)
	i, ok := g.tab.valueIndex[key]
	if !ok {
		i = len(g.tab.values)
		g.tab.values = append(g.tab.values, v)
		g.tab.valueIndex[key] = i
	}
	return jen.Lit(i)
}

// valueKey returns the key of the Value literal v in valueIndex: jennifer's text of it,
// unformatted (fmt's %#v formats it with go/format, which cost a parse and a print
// for each of the thousands of fields of a big package). Two literals of the same
// text are the same Value; two of different texts are different ones, since
// valueFields builds each element the same way whatever its value, so that spacing
// never tells apart literals that go/format would print alike. The text includes the
// import block, so that types of two packages of the same name are told apart too.
func (g *goGen) valueKey(v jen.Code) string {
	f := jen.NewFile("k")
	f.NoFormat = true
	// The names jennifer would guess for the packages of nearly every Value, given:
	// its guess compiles a regular expression each time (a new File each Value).
	f.ImportName(implPkg, "toolimpl")
	f.ImportName(invalidPkg, "invalid")
	f.Add(v)
	g.tab.keyBuf.Reset()
	if err := f.Render(&g.tab.keyBuf); err != nil {
		g.fail(fmt.Errorf("rendering a table Value: %w", err))
	}
	return g.tab.keyBuf.String()
}

// enumFields returns a Value's enum violation.
func (g *goGen) enumFields(code string, vals []string) []jen.Code {
	return []jen.Code{
		kv("HasEnum", jen.True()),
		kv("EnumCode", jen.Qual(invalidPkg, code)),
		kv("EnumMessage", jen.Lit(oneOfMessage(vals))),
	}
}

// sizeOf returns the size of a number type in bytes, as a constant expression.
func (g *goGen) sizeOf(r resolved) jen.Code {
	if b := basicName(r.Type); r.Bits != 0 && b != "int" && b != "uint" && b != "uintptr" {
		return jen.Lit(r.Bits / 8)
	}
	return jen.Qual("unsafe", "Sizeof").Call(jen.Id(basicName(r.Type)).Call(jen.Lit(0)))
}

// integerFields returns the elements of an integer's Value, as integerValue and
// integerChecks decide them.
func (g *goGen) integerFields(r resolved, n toolimpl.Node, x goFacts) []jen.Code {
	signed := r.Kind == model.Int
	lo, hi := intRange(r.Type)
	b := n.Bounds()
	impliedLo, impliedHi := impliedRange(r.Type)
	if b.Minimum != "" && (b.Minimum != impliedLo || x.wroteMin) && tighter(r.Type, b.Minimum, true) {
		lo = jen.Op(b.Minimum)
	}
	if b.Maximum != "" && (b.Maximum != impliedHi || x.wroteMax) && tighter(r.Type, b.Maximum, false) {
		hi = jen.Op(b.Maximum)
	}
	out := []jen.Code{kind("KUint"), kv("Size", g.sizeOf(r)), kv("UMin", lo), kv("UMax", hi)}
	sfx, list := "Uint", jen.Index().Uint64()
	if signed {
		out = []jen.Code{kind("KInt"), kv("Size", g.sizeOf(r)), kv("Min", lo), kv("Max", hi)}
		sfx, list = "Int", jen.Index().Int64()
	}
	check := func(field, bound, msg string, up bool) {
		if bound == "" {
			return
		}
		switch side := outside(bound, signed); {
		case side == 0:
			out = append(out, kv(field, jen.Qual(implPkg, "CheckCompare")), kv(field+sfx, jen.Op(bound)))
		case side > 0 == up:
			out = append(out, kv(field, jen.Qual(implPkg, "CheckAlways")))
		default:
			return
		}
		out = append(out, kv(field+"Message", jen.Lit(msg+" "+bound)))
	}
	check("ExMin", b.ExclusiveMinimum, "must be greater than", true)
	check("ExMax", b.ExclusiveMaximum, "must be less than", false)
	if m := b.MultipleOf; m != "" {
		if outside(m, signed) == 0 {
			out = append(out, kv("Multiple", jen.Qual(implPkg, "CheckCompare")), kv("Multiple"+sfx, jen.Op(m)))
		} else {
			out = append(out, kv("Multiple", jen.Qual(implPkg, "CheckAlways")))
		}
		out = append(out, kv("MultipleMessage", jen.Lit("must be a multiple of "+m)))
	}
	if vals, code := enumOf(n); len(vals) > 0 {
		out = append(out, kv(sfx+"s", list.Values(g.literals(vals)...)))
		out = append(out, g.enumFields(code, vals)...)
	}
	return out
}

// tableFunc returns the name of the function that reads the named type nt with its
// specialised decoder, for a Value of kind KFunc, declaring it on first use.
func (g *goGen) tableFunc(nt *model.NamedType) string {
	if name, ok := g.tab.wrapped[nt.ID]; ok {
		return name
	}
	name := g.helper("tableFunc", nt.ID, "toolgenTableDecode"+identFromID(nt.ID))
	g.tab.wrapped[nt.ID] = name
	g.tab.funcs = append(g.tab.funcs, nt.ID)
	g.decoderName(nt.ID) // queues the specialised decoder
	return name
}

// emitTables writes the tables array and the wrappers of the specialised decoders the
// tables call.
func (g *goGen) emitTables(f *jen.File) {
	if g.tab == nil {
		return
	}
	for _, id := range g.tab.funcs {
		nt := g.pkg.Type(id)
		name := g.tab.wrapped[id]
		f.Commentf("%s reads a %s into the value at p, for the tables.", name, nt.Name)
		f.Func().Id(name).Params(jen.Id("d").Op("*").Qual(implPkg, "Decoder"), jen.Id("p").Qual("unsafe", "Pointer")).Block(
			jen.Id(g.decoderName(id)).Call(jen.Id("d"), jen.Parens(jen.Op("*").Qual(nt.PkgPath, nt.Name)).Parens(jen.Id("p"))),
		)
	}
	if len(g.tab.objects) == 0 {
		if g.tab.calls {
			f.Commentf("%s are empty: no tool's arguments have a table.", g.tableName())
			f.Var().Id(g.tableName()).Qual(implPkg, "Tables")
		}
		return
	}
	objects, fields, values := g.tableArray("Objects"), g.tableArray("Fields"), g.tableArray("Values")
	f.Commentf("%s describes the argument structs that toolimpl.Decode reads, by index.", g.tableName())
	f.Var().Id(g.tableName()).Op("=").Qual(implPkg, "Tables").Values(
		kv("Objects", jen.Id(objects).Index(jen.Op(":"))),
		kv("Fields", jen.Id(fields).Index(jen.Op(":"))),
		kv("Values", jen.Id(values).Index(jen.Op(":"))),
	)
	f.Commentf("%s are the structs, each a run of %s.", objects, fields)
	f.Var().Id(objects).Op("=").Index(jen.Op("...")).Qual(implPkg, "Object").Custom(multiline, g.tab.objects...)
	f.Commentf("%s are the structs' properties.", fields)
	f.Var().Id(fields).Op("=").Index(jen.Op("...")).Qual(implPkg, "Field").Custom(multiline, g.tab.fields...)
	f.Commentf("%s are the values of the fields and those that pointers, lists and maps hold, each once.", values)
	f.Var().Id(values).Op("=").Index(jen.Op("...")).Qual(implPkg, "Value").Custom(multiline, g.tab.values...)
}

// bigTables names the arrays of the tables that emitTables declared, which
// renderFile prints itself.
func (g *goGen) bigTables() []string {
	if g.tab == nil || len(g.tab.objects) == 0 {
		return nil
	}
	return []string{g.tableArray("Objects"), g.tableArray("Fields"), g.tableArray("Values")}
}

// tableHeader is the header line that says a file's decoders are tables.
func tableHeader(pkg *model.Package, opts Options) string {
	why := "as toolgen writes them for a package of at least " + strconv.Itoa(TableMinTools) + " tools (this one has " + strconv.Itoa(len(pkg.Tools)) + ")"
	if opts.Decoders == DecodersTable {
		why = "as asked (generator.DecodersTable)"
	}
	return "Decoders: table-driven, " + why + ": toolimpl.Decode walks the argument structs' tables, data rather than code, so that the package builds fast."
}

func newTableGen() *tableGen {
	return &tableGen{index: map[string]int{}, able: map[string]int{}, wrapped: map[string]string{}, valueIndex: map[string]int{}}
}

// tableToolSet is toolSet for a table-driven package: the constructor gives
// runtime.NewToolset a toolimpl.Calls of one small function per tool (a toolimpl.Call:
// it makes the tool's arguments and runs the tool on them), which a switch of returns
// picks by index with the index of the arguments' table (a switch, not an array: an
// array's initializer would refer to the tools, and a tool that calls the constructor
// would make an initialization cycle). toolimpl.Calls decodes, and makes the one
// closure of a call to run: the compiler compiles a small function per tool, apart and
// in parallel, where one switch of a case per tool, with a closure each, cost it time
// more than linear in the number of tools.
func (g *goGen) tableToolSet(f *jen.File, set toolSetInfo, ctor, defs string, names []string) error {
	pick := g.helper("calls", set.recv, "toolgenCall"+upperFirst(set.recv))
	recvType := jen.Struct()
	recvArg := jen.Struct().Values()
	recvParam := jen.Id("_").Struct()
	if set.recv != "" {
		recvType = jen.Op("*").Id(set.recv)
		recvArg = jen.Id("recv")
		recvParam = jen.Id("recv").Op("*").Id(set.recv)
	}
	g.tab.calls = true
	dispatch := jen.Qual(implPkg, "Calls").Call(recvArg, jen.Op("&").Id(g.tableName()), jen.Id(pick))
	if set.recv == "" {
		f.Commentf("%s returns the package's tools: %s.", ctor, englishList(names))
		f.Func().Id(ctor).Params().Op("*").Qual(runtimePkg, "Toolset").Block(
			jen.Return(jen.Qual(runtimePkg, "NewToolset").Call(jen.Id(defs).Index(jen.Op(":")), dispatch)),
		)
	} else {
		f.Commentf("%s returns the tools of recv's methods: %s.", ctor, englishList(names))
		f.Func().Id(ctor).Params(recvParam.Clone()).Op("*").Qual(runtimePkg, "Toolset").Block(
			jen.Return(jen.Qual(runtimePkg, "NewToolset").Call(jen.Id(defs).Index(jen.Op(":")), dispatch)),
		)
	}
	if err := g.toolDefs(f, set, ctor, defs); err != nil {
		return err
	}
	funcs := make([]string, len(set.tools))
	bodies := make([][]jen.Code, len(set.tools))
	tables := make([]int, len(set.tools))
	for i, t := range set.tools {
		funcs[i] = g.helper("call", set.recv+"\x00"+t.Name, pick+strconv.Itoa(i))
		body, table, err := g.tableCall(t)
		if err != nil {
			return err
		}
		bodies[i], tables[i] = body, table
	}
	f.Commentf("%s returns the function of the tool %s[i] and the index of its", pick, defs)
	f.Comment("arguments' table (-1: the function reads them), for toolimpl.Calls.")
	var cases []jen.Code
	for i := range set.tools {
		cases = append(cases, jen.Case(jen.Lit(i)).Block(jen.Return(jen.Id(funcs[i]), jen.Lit(tables[i]))))
	}
	f.Func().Id(pick).Params(jen.Id("i").Int()).Params(jen.Qual(implPkg, "Call").Types(recvType), jen.Int()).Block(
		jen.Switch(jen.Id("i")).Block(cases...),
		jen.Return(jen.Nil(), jen.Lit(-1)),
	)
	for i, t := range set.tools {
		f.Commentf("%s is the toolimpl.Call of %s.", funcs[i], t.Name)
		f.Func().Id(funcs[i]).Params(
			recvParam.Clone(),
			jen.Id("ctx").Qual("context", "Context"),
			jen.Id("d").Op("*").Qual(implPkg, "Decoder"),
			jen.Id("p").Qual("unsafe", "Pointer"),
		).Params(jen.Qual("unsafe", "Pointer"), jen.Op("*").Qual(runtimePkg, "Result"), jen.Error()).Block(bodies[i]...)
	}
	return nil
}

// tableCall returns the body of t's toolimpl.Call and the index of the table that
// reads its arguments, -1 when the Call reads them.
func (g *goGen) tableCall(t *model.Tool) ([]jen.Code, int, error) {
	var args []jen.Code
	if t.Context {
		args = append(args, jen.Id("ctx"))
	}
	var prepare []jen.Code
	table := -1
	// decoded makes the statements of a tool with arguments of type typ, which decode
	// (the call that reads them into in, registered in g.tab.tools) reads unless they
	// have a table.
	decoded := func(typ, decode jen.Code) {
		table = g.tab.tools[len(g.tab.tools)-1].index
		if table >= 0 {
			prepare = []jen.Code{jen.Return(jen.Qual("unsafe", "Pointer").Call(jen.New(typ)), jen.Nil(), jen.Nil())}
		} else {
			prepare = []jen.Code{
				jen.Id("in").Op(":=").New(typ),
				decode,
				jen.Return(jen.Qual("unsafe", "Pointer").Call(jen.Id("in")), jen.Nil(), jen.Nil()),
			}
		}
	}
	var stmts []jen.Code
	switch t.Input.Kind {
	case model.InputNone:
		prepare = []jen.Code{jen.Id("d").Dot("EmptyObject").Call(), jen.Return(jen.Nil(), jen.Nil(), jen.Nil())}
	case model.InputStruct:
		typ, ptr := t.Input.Type, false
		if typ.Kind == model.Pointer {
			typ, ptr = typ.Elem, true
		}
		if typ.Kind != model.Named {
			return nil, 0, fmt.Errorf("tool %s: the argument struct must be a named type", t.Name)
		}
		decoded(g.goType(typ), g.toolDecodeCall(t, typ.Ref, jen.Id("in")))
		stmts = append(stmts, jen.Id("in").Op(":=").Parens(jen.Op("*").Add(g.goType(typ))).Parens(jen.Id("p")))
		if ptr {
			args = append(args, jen.Id("in"))
		} else {
			args = append(args, jen.Op("*").Id("in"))
		}
	case model.InputParams:
		decoded(jen.Id(g.paramsTypeName(t)), g.paramsDecodeCall(t, jen.Id("in")))
		if len(t.Input.Params) > 0 {
			stmts = append(stmts, jen.Id("in").Op(":=").Parens(jen.Op("*").Id(g.paramsTypeName(t))).Parens(jen.Id("p")))
		}
		for _, p := range t.Input.Params {
			args = append(args, jen.Id("in").Dot(paramField(p)))
		}
	default:
		return nil, 0, fmt.Errorf("tool %s: unknown input kind %q", t.Name, t.Input.Kind)
	}
	run, err := g.runBody(t, g.toolCall(t, args), returnDirect)
	if err != nil {
		return nil, 0, err
	}
	return append(append([]jen.Code{jen.If(jen.Id("d").Op("!=").Nil()).Block(prepare...)}, stmts...), run...), table, nil
}
