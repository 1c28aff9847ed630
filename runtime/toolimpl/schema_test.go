package toolimpl_test

import (
	"slices"
	"testing"

	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// viewSchema holds every keyword the generator reads back from a compiled program.
const viewSchema = `{
	"type": "object",
	"properties": {
		"name": {"type": "string", "minLength": 2, "maxLength": 40, "pattern": "^[a-z]+$", "default": "bob"},
		"mail": {"type": "string", "format": "email"},
		"color": {"$ref": "#/$defs/Color"},
		"again": {"anyOf": [{"$ref": "#/$defs/Color"}, {"type": "null"}]},
		"exact": {"type": "string", "const": "x"},
		"small": {"type": "integer", "minimum": -128, "maximum": 127, "exclusiveMaximum": 100, "multipleOf": 5},
		"ratio": {"type": ["number", "null"], "exclusiveMinimum": 0.5, "maximum": 1e3},
		"tags": {"type": "array", "items": {"type": "string", "enum": ["b", "a", "c"]}, "minItems": 1, "maxItems": 3, "uniqueItems": true},
		"free": {"type": "array"},
		"byDay": {"type": "object", "propertyNames": {"enum": ["mon", "tue"]}, "additionalProperties": {"type": "integer"}, "minProperties": 1, "maxProperties": 2},
		"pin": {"type": "string"},
		"pay": {"oneOf": [
			{"type": "object", "properties": {"kind": {"type": "string", "const": "card"}, "number": {"type": "string"}}, "required": ["kind", "number"], "additionalProperties": false},
			{"type": "object", "properties": {"kind": {"type": "string", "const": "bank"}}, "required": ["kind"], "additionalProperties": false}
		]}
	},
	"required": ["color", "small"],
	"additionalProperties": false,
	"$defs": {"Color": {"type": "string", "enum": ["red", "green", "blue"]}}
}`

// TestCompileSchemaView reads back every keyword and child of a compiled schema
// through the generator's view, as the generator emits checks from them.
func TestCompileSchemaView(t *testing.T) {
	p, err := toolimpl.CompileSchema("view", []byte(viewSchema), []string{"/pin"})
	if err != nil {
		t.Fatal(err)
	}
	root := p.Root()
	if root.Kind() != "object" || root.Nullable() || !root.Additional().IsZero() {
		t.Fatalf("root: kind %q, nullable %v, additional %v", root.Kind(), root.Nullable(), !root.Additional().IsZero())
	}
	var names []string
	for _, pr := range root.Properties() {
		names = append(names, pr.Name())
	}
	if want := []string{"name", "mail", "color", "again", "exact", "small", "ratio", "tags", "free", "byDay", "pin", "pay"}; !slices.Equal(names, want) {
		t.Errorf("properties %q, want %q", names, want)
	}
	prop := func(name string) toolimpl.Prop {
		t.Helper()
		pr, ok := root.Property(name)
		if !ok {
			t.Fatalf("no property %q", name)
		}
		return pr
	}
	if _, ok := root.Property("nope"); ok {
		t.Error("Property finds an undeclared name")
	}

	name := prop("name")
	if min, ok := name.Node().MinLength(); !ok || min != 2 {
		t.Errorf("minLength %d %v", min, ok)
	}
	if max, ok := name.Node().MaxLength(); !ok || max != 40 {
		t.Errorf("maxLength %d %v", max, ok)
	}
	if got := name.Node().Pattern(); got != "^[a-z]+$" {
		t.Errorf("pattern %q", got)
	}
	if got := name.Default(); got != `"bob"` || name.Required() || name.Sensitive() {
		t.Errorf("name: default %q, required %v, sensitive %v", got, name.Required(), name.Sensitive())
	}
	if _, ok := prop("mail").Node().MinLength(); ok || prop("mail").Node().Format() != "email" {
		t.Errorf("mail: format %q", prop("mail").Node().Format())
	}

	// A reference is looked through; the enum keeps its order; the nullable anyOf
	// names the same node.
	color, again := prop("color"), prop("again")
	if vals, kw := color.Node().Enum(); kw != "enum" || !slices.Equal(vals, []string{`"red"`, `"green"`, `"blue"`}) {
		t.Errorf("color: %s %q", kw, vals)
	}
	if !color.Required() || color.Node().Nullable() || !again.Node().Nullable() || !color.Node().Same(again.Node()) {
		t.Errorf("color and again: required %v, nullable %v and %v, same %v",
			color.Required(), color.Node().Nullable(), again.Node().Nullable(), color.Node().Same(again.Node()))
	}
	if vals, kw := prop("exact").Node().Enum(); kw != "const" || !slices.Equal(vals, []string{`"x"`}) {
		t.Errorf("exact: %s %q", kw, vals)
	}

	// Bounds as written.
	if got, want := prop("small").Node().Bounds(), (toolimpl.Bounds{Minimum: "-128", Maximum: "127", ExclusiveMaximum: "100", MultipleOf: "5"}); got != want {
		t.Errorf("small: %+v, want %+v", got, want)
	}
	ratio := prop("ratio").Node()
	if got, want := ratio.Bounds(), (toolimpl.Bounds{ExclusiveMinimum: "0.5", Maximum: "1e3"}); got != want || !ratio.Nullable() || ratio.Kind() != "number" {
		t.Errorf("ratio: %+v (want %+v), nullable %v, kind %q", got, want, ratio.Nullable(), ratio.Kind())
	}

	// Lists.
	tags := prop("tags").Node()
	min, hasMin := tags.MinItems()
	max, hasMax := tags.MaxItems()
	if min != 1 || max != 3 || !hasMin || !hasMax || !tags.UniqueItems() {
		t.Errorf("tags: minItems %d %v, maxItems %d %v, unique %v", min, hasMin, max, hasMax, tags.UniqueItems())
	}
	if vals, _ := tags.Items().Enum(); !slices.Equal(vals, []string{`"b"`, `"a"`, `"c"`}) {
		t.Errorf("tags' items: %q", vals)
	}
	free := prop("free").Node()
	if _, ok := free.MaxItems(); ok || free.UniqueItems() || free.Items().Kind() != "any" {
		t.Errorf("free: maxItems or unique set, items %q", free.Items().Kind())
	}

	// Maps.
	byDay := prop("byDay").Node()
	minP, okMin := byDay.MinProperties()
	maxP, okMax := byDay.MaxProperties()
	if !slices.Equal(byDay.PropertyNames(), []string{"mon", "tue"}) || byDay.Additional().Kind() != "integer" || minP != 1 || maxP != 2 || !okMin || !okMax {
		t.Errorf("byDay: names %q, values %q, counts %d %v %d %v", byDay.PropertyNames(), byDay.Additional().Kind(), minP, okMin, maxP, okMax)
	}

	// Sensitive paths mark the property.
	if !prop("pin").Sensitive() || !slices.Contains(p.Sensitive, "/pin") {
		t.Errorf("pin: sensitive %v, paths %q", prop("pin").Sensitive(), p.Sensitive)
	}

	// Unions: the tag, the values and the variants' properties, in order.
	pay := prop("pay").Node()
	variants, values := pay.Variants()
	if pay.Kind() != "union" || pay.Tag() != "kind" || !slices.Equal(values, []string{"card", "bank"}) || len(variants) != 2 {
		t.Fatalf("pay: kind %q, tag %q, values %q", pay.Kind(), pay.Tag(), values)
	}
	if num, ok := variants[0].Property("number"); !ok || !num.Required() || num.Node().Kind() != "string" {
		t.Errorf("card's number: %v", ok)
	}

	// The zero Node and Prop answer zero values.
	var zero toolimpl.Node
	if !zero.IsZero() || zero.Kind() != "" || zero.Items().Kind() != "" || zero.Pattern() != "" {
		t.Error("the zero Node reads as a schema")
	}
	if (toolimpl.Prop{}).Node().Kind() != "" || (toolimpl.Prop{}).Default() != "" {
		t.Error("the zero Prop reads as a property")
	}
}

// TestCompileSchemaRefuses checks that a schema only the general engine reads, which
// has no nodes to walk, and an invalid one are errors, not programs.
func TestCompileSchemaRefuses(t *testing.T) {
	for _, raw := range []string{
		`{"type": "object", "properties": {"a": {"not": {"type": "string"}}}}`,
		`{"type": "string"}`,
		`{"type": "object", "properties": {"a": {"type": "integer", "minimum": "x"}}}`,
	} {
		if p, err := toolimpl.CompileSchema("t", []byte(raw), nil); err == nil {
			t.Errorf("%s: compiled to %v", raw, p)
		}
	}
}
