package generator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/model"
	"github.com/toolgen/toolgen/runtime/jsonread"
	"github.com/toolgen/toolgen/runtime/schematree"
)

// durationPattern matches exactly the strings time.ParseDuration accepts (ignoring
// overflow): an optional sign, then "0" or a sequence of decimal numbers with units.
const durationPattern = `^[-+]?(0|(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$`

// durationNote is added to the description of a time.Duration input value.
const durationNote = `A Go duration such as "1h30m" or "90s".`

// durationOutputNote is added to the description of a time.Duration output value, which
// encoding/json writes as an integer number of nanoseconds.
const durationOutputNote = "A duration in nanoseconds."

// layoutNote is added to the description of a time.Time input value with a layout:
// the layout's form, at model.LayoutExample, and the zone it is read in.
func layoutNote(layout string) string {
	return `Written like "` + model.LayoutExample.Format(layout) + `". ` + model.LayoutZone(layout)
}

// builder builds one schema: a tool's input or its output. It runs twice over the same
// types: a counting pass that finds how often each named type is referenced, then the
// real pass that puts the reused and recursive ones in "$defs".
type builder struct {
	pkg *model.Package
	// output selects the output mapping: what encoding/json writes (nil slices, maps
	// and pointers as null, a duration as nanoseconds, a time in RFC 3339 whatever its
	// layout), promising the type's enums, bounds, lengths, patterns and formats and
	// its closed objects, but no defaults.
	output bool
	// cyclic holds the IDs of named types that reach themselves.
	cyclic map[string]bool
	// counting is true during the first pass.
	counting bool
	// refs counts, in the first pass, the references to each named type that could go
	// in "$defs".
	refs map[string]int
	// defKey maps the IDs of the types that go in "$defs" to their key there.
	defKey map[string]string
	// defs holds the "$defs" bodies built so far, by ID; a nil entry is one being built.
	defs map[string]*schema
}

// place says where a type's schema sits and which of a property's constraints still
// have to be placed in it.
type place struct {
	// c are the property's constraints.
	c *model.Constraints
	// list is true until the list keywords (minItems, maxItems, uniqueItems) are placed
	// on the outermost slice, array or map.
	list bool
	// root marks the output's root value, where the runtime sends a nil slice or map as
	// [] or {}: it is not nullable.
	root bool
	// enum marks an enum type's underlying type: no implied integer bounds.
	enum bool
	// path locates the node for error messages, as a JSON Pointer into the schema.
	path string
}

// newBuilder returns a builder for one input (output false) or output schema.
func newBuilder(pkg *model.Package, cyclic map[string]bool, output bool) *builder {
	return &builder{pkg: pkg, output: output, cyclic: cyclic}
}

// build runs both passes of root and returns its schema with "$defs" attached.
func (b *builder) build(root func() (*schema, error)) (*schema, error) {
	b.counting, b.refs = true, map[string]int{}
	if _, err := root(); err != nil {
		return nil, err
	}
	var ids []string
	for id, n := range b.refs {
		if n > 1 || b.cyclic[id] {
			ids = append(ids, id)
		}
	}
	b.counting, b.defKey, b.defs = false, defKeys(ids), map[string]*schema{}
	s, err := root()
	if err != nil {
		return nil, err
	}
	for id, key := range b.defKey {
		if d := b.defs[id]; d != nil {
			s.Defs = append(s.Defs, namedSchema{Name: key, Schema: d})
		}
	}
	slices.SortFunc(s.Defs, func(a, b namedSchema) int { return strings.Compare(a.Name, b.Name) })
	return s, nil
}

// defKeys gives each named type ID its "$defs" key: the ID with characters outside
// [A-Za-z0-9_.-] replaced by "_", made unique by a numeric suffix.
func defKeys(ids []string) map[string]string {
	slices.Sort(ids)
	keys := make(map[string]string, len(ids))
	used := map[string]bool{}
	for _, id := range ids {
		base := strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '.', r == '-':
				return r
			}
			return '_'
		}, id)
		key := base
		for n := 2; used[key]; n++ {
			key = base + "_" + strconv.Itoa(n)
		}
		used[key] = true
		keys[id] = key
	}
	return keys
}

// cyclicTypes returns the IDs of the named types that refer to themselves, directly or
// not, whatever their Recursive flag says.
func cyclicTypes(pkg *model.Package) map[string]bool {
	cyclic := map[string]bool{}
	for _, nt := range pkg.Types {
		if nt.Recursive {
			cyclic[nt.ID] = true
			continue
		}
		seen := map[string]bool{}
		var reaches func(t *model.Type) bool
		reaches = func(t *model.Type) bool {
			if t == nil {
				return false
			}
			if t.Kind == model.Named {
				if t.Ref == nt.ID {
					return true
				}
				if seen[t.Ref] {
					return false
				}
				seen[t.Ref] = true
				if u := pkg.Type(t.Ref); u != nil {
					return reaches(u.Underlying)
				}
				return false
			}
			if reaches(t.Elem) || reaches(t.Key) {
				return true
			}
			for _, f := range t.Fields {
				if reaches(f.Type) {
					return true
				}
			}
			for _, v := range t.Variants {
				if reaches(v.Type) {
					return true
				}
			}
			return false
		}
		if reaches(nt.Underlying) {
			cyclic[nt.ID] = true
		}
	}
	return cyclic
}

// underlying follows t through named types to the first type that is not named.
func underlying(pkg *model.Package, t *model.Type) (*model.Type, error) {
	for range 100 {
		if t == nil {
			return nil, errors.New("missing type")
		}
		if t.Kind != model.Named {
			return t, nil
		}
		nt := pkg.Type(t.Ref)
		if nt == nil {
			return nil, fmt.Errorf("unknown named type %q", t.Ref)
		}
		t = nt.Underlying
	}
	return nil, errors.New("named types refer to each other without end")
}

// inputRoot builds the input schema's root object.
func (b *builder) inputRoot(t *model.Tool) (*schema, error) {
	switch t.Input.Kind {
	case model.InputNone, "":
		return b.object(nil, "")
	case model.InputParams:
		return b.object(t.Input.Params, "")
	case model.InputStruct:
		st := t.Input.Type
		if st != nil && st.Kind == model.Pointer {
			st = st.Elem
		}
		st, err := underlying(b.pkg, st)
		if err != nil {
			return nil, fmt.Errorf("input: %w", err)
		}
		if st.Kind != model.Struct {
			return nil, fmt.Errorf("input: a struct parameter is of kind %s", st.Kind)
		}
		return b.object(st.Fields, "")
	}
	return nil, fmt.Errorf("unknown input kind %q", t.Input.Kind)
}

// outputRoot builds the output schema's root: the value's object, or an object that
// wraps any other value as its "result" property.
func (b *builder) outputRoot(t *model.Type) (*schema, error) {
	if !wrapsOutput(b.pkg, t) {
		return b.typ(t, place{root: true})
	}
	s, err := b.typ(t, place{root: true, path: "/properties/result"})
	if err != nil {
		return nil, err
	}
	return &schema{
		Type:       typeList{"object"},
		Properties: &schemaMap{{Name: "result", Schema: s}},
		Required:   []string{"result"},
	}, nil
}

// wrapsOutput reports whether a value of type t is sent as {"result": value} because it
// is not a JSON object: only structs and maps are sent as they are.
func wrapsOutput(pkg *model.Package, t *model.Type) bool {
	u, err := underlying(pkg, t)
	if err != nil {
		return false
	}
	return u.Kind != model.Struct && u.Kind != model.Map
}

// object builds the schema of a struct (or of a parameter list).
func (b *builder) object(fields []*model.Field, path string) (*schema, error) {
	s := &schema{Type: typeList{"object"}, Properties: &schemaMap{}}
	for _, f := range fields {
		if f == nil {
			return nil, fmt.Errorf("%s: missing field", orRoot(path))
		}
		if s.Properties.Get(f.Name) != nil {
			return nil, fmt.Errorf("%s: two properties are named %q", orRoot(path), f.Name)
		}
		p, err := b.property(f, path+"/properties/"+jsonread.EscapeToken(f.Name))
		if err != nil {
			return nil, err
		}
		*s.Properties = append(*s.Properties, namedSchema{Name: f.Name, Schema: p})
		if b.output && !f.OmitEmpty || !b.output && f.Required {
			s.Required = append(s.Required, f.Name)
		}
	}
	// Closed in both senses: a call may send no other property, and encoding/json
	// writes none.
	s.AdditionalProperties = schematree.Bool[ext](false)
	return s, nil
}

// property builds a field's schema: its type's, with the field's constraints placed,
// and its description, title, deprecation and default.
func (b *builder) property(f *model.Field, path string) (*schema, error) {
	c := &f.Constraints
	p := place{list: true, path: path, c: c}
	s, err := b.typ(f.Type, p)
	if err != nil {
		return nil, err
	}
	// The description belongs to the property. A named type inlined here gives up its
	// own (the field's falls back to it) and its note joins the field's.
	desc := f.Description
	core := nonNull(s)
	switch {
	case core.Ref != "":
		if nt := b.pkg.Type(core.Ext.named); nt != nil && strings.TrimSpace(desc) == strings.TrimSpace(nt.Doc) {
			desc = "" // the definition says it already
		}
	case core.Ext.typeDoc != "" || core.Ext.note != "":
		if strings.TrimSpace(desc) == "" {
			desc = core.Ext.typeDoc
		}
		desc = schematree.JoinText(desc, core.Ext.note)
		core.Description = ""
	}
	s.Description = strings.TrimSpace(desc)
	s.Ext.field = f
	s.Title = c.Title
	s.Deprecated = c.Deprecated
	if !b.output && c.Header != "" {
		// MCP SEP-2243: the header's property has its one type beside the keyword.
		if len(s.Type) != 1 || s.Ref != "" {
			return nil, fmt.Errorf("%s: header %q on a property whose schema has not one type", path, c.Header)
		}
		s.XMCPHeader = c.Header
	}
	if !b.output && c.Default != "" {
		if s.Default, err = rawJSON(c.Default, "default", path); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// typ builds the schema of type t at place p.
func (b *builder) typ(t *model.Type, p place) (*schema, error) {
	if t == nil {
		return nil, fmt.Errorf("%s: missing type", orRoot(p.path))
	}
	switch t.Kind {
	case model.Pointer:
		inner := p
		inner.root = false
		e, err := b.typ(t.Elem, inner)
		if err != nil {
			return nil, err
		}
		if p.list && p.c != nil && p.c.NotNull && !b.output {
			return e, nil // the property's own pointer, which its validate rules say is not nil
		}
		return nullable(e), nil
	case model.Slice, model.Array:
		items, err := b.typ(t.Elem, place{c: p.c, path: p.path + "/items"})
		if err != nil {
			return nil, err
		}
		s := &schema{Type: typeList{"array"}, Items: items}
		if t.Kind == model.Array {
			s.MinItems, s.MaxItems = intPtr(t.Len), intPtr(t.Len)
		}
		if p.list && p.c != nil {
			s.MinItems = tighterInt(s.MinItems, p.c.MinItems, true)
			s.MaxItems = tighterInt(s.MaxItems, p.c.MaxItems, false)
			s.UniqueItems = p.c.UniqueItems
		}
		if b.output && t.Kind == model.Slice && !p.root {
			s = nullable(s)
		}
		return s, nil
	case model.Map:
		elem, err := b.typ(t.Elem, place{c: p.c, path: p.path + "/additionalProperties"})
		if err != nil {
			return nil, err
		}
		s := &schema{Type: typeList{"object"}, AdditionalProperties: elem}
		if s.PropertyNames, err = b.keyNames(t.Key, p.path); err != nil {
			return nil, err
		}
		if p.list && p.c != nil {
			s.MinProperties, s.MaxProperties = schematree.CloneInt(p.c.MinItems), schematree.CloneInt(p.c.MaxItems)
		}
		if b.output && !p.root {
			s = nullable(s)
		}
		return s, nil
	case model.Named:
		return b.named(t, p)
	case model.Struct:
		s, err := b.object(t.Fields, p.path)
		if err != nil {
			return nil, err
		}
		return s, b.constrain(s, p)
	case model.Union:
		return b.union(t, p)
	}
	return b.leaf(t, p)
}

// union builds the schema of a tagged union: {"oneOf": [variant, ...]}, each variant
// the object of its struct type with the discriminator first among its properties,
// required and the variant's const. In an output schema it is nullable, since a nil
// interface is written as null.
func (b *builder) union(t *model.Type, p place) (*schema, error) {
	if len(t.Variants) == 0 {
		return nil, fmt.Errorf("%s: union has no variants", orRoot(p.path))
	}
	if p.list && p.c != nil && (p.c.MinItems != nil || p.c.MaxItems != nil || p.c.UniqueItems) {
		return nil, fmt.Errorf("%s: minItems, maxItems and uniqueItems need a slice, array or map", orRoot(p.path))
	}
	s := &schema{}
	for i, v := range t.Variants {
		path := p.path + "/oneOf/" + strconv.Itoa(i)
		vt, err := underlying(b.pkg, v.Type)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if vt.Kind != model.Struct {
			return nil, fmt.Errorf("%s: variant %q is of kind %s, not a struct", path, v.Value, vt.Kind)
		}
		obj, err := b.object(vt.Fields, path)
		if err != nil {
			return nil, err
		}
		if obj.Properties.Get(t.Tag) != nil {
			return nil, fmt.Errorf("%s: variant %q has a property named %q, the union's discriminator", path, v.Value, t.Tag)
		}
		tag := &schema{Type: typeList{"string"}, Const: json.RawMessage(jsonText(v.Value))}
		*obj.Properties = append(schemaMap{{Name: t.Tag, Schema: tag}}, *obj.Properties...)
		obj.Required = append([]string{t.Tag}, obj.Required...)
		if v.Type.Kind == model.Named {
			if nt := b.pkg.Type(v.Type.Ref); nt != nil {
				obj.Description = strings.TrimSpace(nt.Doc)
			}
		}
		s.OneOf = append(s.OneOf, obj)
	}
	if err := b.constrain(s, p); err != nil {
		return nil, err
	}
	if b.output {
		s = nullable(s)
	}
	return s, nil
}

// keyNames returns the "propertyNames" schema of a map whose keys are of type key: the
// key type's values when it is an enum, else nil.
func (b *builder) keyNames(key *model.Type, path string) (*schema, error) {
	if key == nil || key.Kind != model.Named {
		return nil, nil
	}
	nt := b.pkg.Type(key.Ref)
	if nt == nil {
		return nil, fmt.Errorf("%s: unknown named type %q", orRoot(path), key.Ref)
	}
	if len(nt.Enum) == 0 {
		return nil, nil
	}
	s := &schema{}
	for _, v := range nt.Enum {
		raw, err := rawJSON(v.Value, "enum value "+v.GoName, path)
		if err != nil {
			return nil, err
		}
		if raw[0] != '"' { // an integer key is written as a string
			raw, _ = json.Marshal(string(raw))
		}
		s.Enum = append(s.Enum, raw)
	}
	return s, nil
}

// named builds the schema of a reference to a named type: a "$ref" to its definition,
// or its body inlined.
func (b *builder) named(t *model.Type, p place) (*schema, error) {
	nt := b.pkg.Type(t.Ref)
	if nt == nil {
		return nil, fmt.Errorf("%s: unknown named type %q", orRoot(p.path), t.Ref)
	}
	if nt.Underlying == nil {
		return nil, fmt.Errorf("%s: named type %q has no underlying type", orRoot(p.path), t.Ref)
	}
	isEnum := len(nt.Enum) > 0
	// An enum property restricted further gets its own copy of the type, with the
	// narrower list.
	restricted := isEnum && p.c != nil && (len(p.c.Enum) > 0 || p.c.Const != "")
	shareable := isEnum || nt.Underlying.Kind == model.Struct || nt.Underlying.Kind == model.Union || b.cyclic[nt.ID]
	if shareable && !restricted && !p.root {
		if b.counting {
			b.refs[nt.ID]++
			if b.refs[nt.ID] == 1 {
				if _, err := b.namedBody(nt, place{path: p.path}); err != nil {
					return nil, err
				}
			}
			return &schema{Ref: "#", Ext: ext{named: nt.ID}}, nil
		}
		if key, ok := b.defKey[nt.ID]; ok {
			if _, built := b.defs[nt.ID]; !built {
				b.defs[nt.ID] = nil
				d, err := b.namedBody(nt, place{path: "/$defs/" + jsonread.EscapeToken(key)})
				if err != nil {
					return nil, err
				}
				b.defs[nt.ID] = d
			}
			s := &schema{Ref: "#/$defs/" + key, Ext: ext{named: nt.ID}}
			// What is left of the property's constraints stands beside the $ref.
			if err := b.listBesideRef(s, nt, p); err != nil {
				return nil, err
			}
			return s, b.constrain(s, p)
		}
	}
	return b.namedBody(nt, p)
}

// listBesideRef places the list keywords of p beside a $ref to nt, when nt is a
// slice, array or map type (a recursive one: others are inlined).
func (b *builder) listBesideRef(s *schema, nt *model.NamedType, p place) error {
	if !p.list || p.c == nil || p.c.MinItems == nil && p.c.MaxItems == nil && !p.c.UniqueItems {
		return nil
	}
	u, err := underlying(b.pkg, nt.Underlying)
	if err != nil {
		return fmt.Errorf("%s: %w", orRoot(p.path), err)
	}
	switch u.Kind {
	case model.Slice, model.Array:
		s.MinItems, s.MaxItems, s.UniqueItems = schematree.CloneInt(p.c.MinItems), schematree.CloneInt(p.c.MaxItems), p.c.UniqueItems
	case model.Map:
		s.MinProperties, s.MaxProperties = schematree.CloneInt(p.c.MinItems), schematree.CloneInt(p.c.MaxItems)
	default:
		return fmt.Errorf("%s: minItems, maxItems and uniqueItems need a slice, array or map", orRoot(p.path))
	}
	return nil
}

// namedBody builds a named type's body at p: its underlying type's schema, with an
// enum's values, described by the type's doc and the enum's list of values. The parts
// of that description are also kept apart, for the property that holds the node.
func (b *builder) namedBody(nt *model.NamedType, p place) (*schema, error) {
	isEnum := len(nt.Enum) > 0
	p.enum = isEnum
	s, err := b.typ(nt.Underlying, p)
	if err != nil {
		return nil, err
	}
	inner := nonNull(s)
	if isEnum {
		all := make([]json.RawMessage, 0, len(nt.Enum))
		for _, v := range nt.Enum {
			raw, err := rawJSON(v.Value, "enum value "+v.GoName, p.path)
			if err != nil {
				return nil, err
			}
			all = append(all, raw)
		}
		listed := all
		switch {
		case inner.Const != nil:
			listed = []json.RawMessage{inner.Const}
		case inner.Enum != nil:
			listed = inner.Enum
		default:
			inner.Enum = all
		}
		inner.Ext.note = schematree.JoinText(inner.Ext.note, enumNote(nt, listed))
	}
	inner.Ext.named = nt.ID
	inner.Ext.typeDoc = strings.TrimSpace(nt.Doc)
	inner.Description = schematree.JoinText(inner.Ext.typeDoc, inner.Ext.note)
	return s, nil
}

// enumNote lists the enum values with their docs, for a description: only when some
// value has a doc.
func enumNote(nt *model.NamedType, values []json.RawMessage) string {
	docs := map[string]string{}
	for _, v := range nt.Enum {
		docs[compactJSON(v.Value)] = strings.Join(strings.Fields(v.Doc), " ")
	}
	var lines []string
	anyDoc := false
	for _, v := range values {
		line := "- " + string(v)
		if d := docs[compactJSON(string(v))]; d != "" {
			line += ": " + d
			anyDoc = true
		}
		lines = append(lines, line)
	}
	if !anyDoc {
		return ""
	}
	return strings.Join(lines, "\n")
}

// leaf builds the schema of a type without elements: scalars, times, durations, bytes,
// text and free-form values.
func (b *builder) leaf(t *model.Type, p place) (*schema, error) {
	s := &schema{}
	if b.output && p.c != nil {
		switch t.Kind {
		case model.Time, model.Duration, model.Bytes:
			// encoding/json writes these its own way (RFC 3339, nanoseconds, base64),
			// not in the form a layout, format=date or a duration's syntax reads.
			p.c = nil
		}
	}
	var lo, hi string // implied integer bounds
	switch t.Kind {
	case model.String, model.Text:
		s.Type = typeList{"string"}
	case model.Bool:
		s.Type = typeList{"boolean"}
	case model.Int:
		s.Type = typeList{"integer"}
		switch t.Bits {
		case 8, 16, 32:
			lo = "-" + new(big.Int).Lsh(big.NewInt(1), uint(t.Bits-1)).String()
			hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(t.Bits-1)), big.NewInt(1)).String()
		}
	case model.Uint:
		s.Type = typeList{"integer"}
		lo = "0"
		switch t.Bits {
		case 8, 16, 32:
			hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(t.Bits)), big.NewInt(1)).String()
		}
	case model.Float:
		s.Type = typeList{"number"}
	case model.Time:
		switch {
		case p.c != nil && p.c.Layout != "":
			// A pattern where one says the form exactly; an example always, for the
			// dialects that drop the pattern and for the model that reads it.
			s.Type = typeList{"string"}
			s.Pattern, _ = model.LayoutPattern(p.c.Layout)
			s.Ext.note = layoutNote(p.c.Layout)
		case p.c != nil && p.c.Format == "date":
			s.Type, s.Format = typeList{"string"}, "date"
		default:
			s.Type, s.Format = typeList{"string"}, "date-time"
		}
	case model.Duration:
		if b.output {
			s.Type, s.Ext.note = typeList{"integer"}, durationOutputNote
		} else {
			s.Type, s.Pattern, s.Ext.note = typeList{"string"}, durationPattern, durationNote
		}
	case model.Bytes:
		s.Type, s.ContentEncoding = typeList{"string"}, "base64"
	case model.Any, model.Raw:
	default:
		return nil, fmt.Errorf("%s: unknown type kind %q", orRoot(p.path), t.Kind)
	}
	if p.enum || p.c != nil && (len(p.c.Enum) > 0 || p.c.Const != "") {
		lo, hi = "", ""
	}
	if lo != "" {
		s.Minimum = json.RawMessage(lo)
	}
	if hi != "" {
		s.Maximum = json.RawMessage(hi)
	}
	if p.list && p.c != nil && (p.c.MinItems != nil || p.c.MaxItems != nil || p.c.UniqueItems) {
		return nil, fmt.Errorf("%s: minItems, maxItems and uniqueItems need a slice, array or map", orRoot(p.path))
	}
	if err := b.constrain(s, p); err != nil {
		return nil, err
	}
	if s.Ext.note != "" {
		s.Description = s.Ext.note
	}
	if b.output && t.Kind == model.Bytes {
		s = nullable(s) // encoding/json writes a nil []byte as null
	}
	return s, nil
}

// constrain places the value keywords of p's constraints on s. An explicit bound
// replaces an implied one it is at least as tight as; a looser one is dropped.
func (b *builder) constrain(s *schema, p place) error {
	c := p.c
	if c == nil {
		return nil
	}
	var err error
	if len(c.Enum) > 0 {
		s.Enum = nil
		for _, v := range c.Enum {
			raw, err := rawJSON(v, "enum value", p.path)
			if err != nil {
				return err
			}
			s.Enum = append(s.Enum, raw)
		}
	}
	if c.Const != "" {
		if s.Const, err = rawJSON(c.Const, "const", p.path); err != nil {
			return err
		}
	}
	if c.Format != "" {
		s.Format = c.Format
	}
	if c.Pattern != "" {
		s.Pattern = c.Pattern
	}
	if c.MinLength != nil {
		s.MinLength = schematree.CloneInt(c.MinLength)
	}
	if c.MaxLength != nil {
		s.MaxLength = schematree.CloneInt(c.MaxLength)
	}
	if s.Minimum, s.ExclusiveMinimum, err = bound(s.Minimum, c.Minimum, c.ExclusiveMinimum, 1, "minimum", p.path); err != nil {
		return err
	}
	if s.Maximum, s.ExclusiveMaximum, err = bound(s.Maximum, c.Maximum, c.ExclusiveMaximum, -1, "maximum", p.path); err != nil {
		return err
	}
	if c.MultipleOf != "" {
		if s.MultipleOf, err = number(c.MultipleOf, "multipleOf", p.path); err != nil {
			return err
		}
	}
	return nil
}

// bound merges an implied inclusive bound with the explicit inclusive and exclusive
// ones. dir is 1 for a minimum (greater is tighter) and -1 for a maximum. The explicit
// inclusive bound wins when it is at least as tight as the implied one; the implied one
// is dropped when an explicit exclusive bound is at least as tight.
func bound(implied json.RawMessage, incl, excl string, dir int, name, path string) (json.RawMessage, json.RawMessage, error) {
	out := implied
	isImplied := implied != nil
	if incl != "" {
		v, err := number(incl, name, path)
		if err != nil {
			return nil, nil, err
		}
		if !isImplied || compareNumbers(string(v), string(implied))*dir >= 0 {
			out, isImplied = v, false
		}
	}
	var ex json.RawMessage
	if excl != "" {
		var err error
		if ex, err = number(excl, "exclusive"+strings.ToUpper(name[:1])+name[1:], path); err != nil {
			return nil, nil, err
		}
		if isImplied && compareNumbers(string(ex), string(out))*dir >= 0 {
			out = nil
		}
	}
	return out, ex, nil
}

// tighterInt returns the tighter of an implied and an explicit count: the greater for a
// lower bound (min true), the smaller for an upper one.
func tighterInt(implied, explicit *int, min bool) *int {
	switch {
	case explicit == nil:
		return implied
	case implied == nil:
		return schematree.CloneInt(explicit)
	case min == (*explicit > *implied):
		return schematree.CloneInt(explicit)
	}
	return implied
}

// compareNumbers compares two JSON numbers, already checked, as exact rationals.
func compareNumbers(a, b string) int {
	x, okx := new(big.Rat).SetString(a)
	y, oky := new(big.Rat).SetString(b)
	if !okx || !oky {
		return 0
	}
	return x.Cmp(y)
}

// rawJSON checks that text is one JSON value and returns it.
func rawJSON(text, what, path string) (json.RawMessage, error) {
	if !json.Valid([]byte(text)) {
		return nil, fmt.Errorf("%s: %s %q is not JSON", orRoot(path), what, text)
	}
	return json.RawMessage(compactJSON(text)), nil
}

// number checks that text is a JSON number and returns it.
func number(text, what, path string) (json.RawMessage, error) {
	raw, err := rawJSON(text, what, path)
	if err != nil {
		return nil, err
	}
	if _, ok := new(big.Rat).SetString(string(raw)); !ok || raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return nil, fmt.Errorf("%s: %s %q is not a number", orRoot(path), what, text)
	}
	return raw, nil
}

// compactJSON returns JSON text without insignificant white space (or text itself if
// it is not JSON).
func compactJSON(text string) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(text)); err != nil {
		return text
	}
	return buf.String()
}

// orRoot names the schema root in an error message when path is empty.
func orRoot(path string) string {
	if path == "" {
		return "/"
	}
	return path
}

// intPtr returns a pointer to n.
func intPtr(n int) *int {
	return &n
}
