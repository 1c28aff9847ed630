package generator

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/model"
)

// lintTool is a described, read-only tool without parameters at line 10 of t.go: one
// Lint has nothing to say about.
func lintTool(name string) *model.Tool {
	yes := true
	return &model.Tool{
		Name:        name,
		GoName:      "Tool",
		Description: "Tool does a thing.",
		Annotations: model.Annotations{ReadOnly: &yes},
		Input:       model.Input{Kind: model.InputNone},
		Output:      model.Output{Kind: model.OutputText},
		Pos:         model.Pos{File: "t.go", Line: 10, Col: 6},
	}
}

func lintStrings(ws []Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.String())
	}
	return out
}

// TestLintHints checks the warning about a tool that does not say whether it is
// read-only or destructive, for each combination of the two hints.
func TestLintHints(t *testing.T) {
	yes, no := true, false
	const neither = "t.go:10:6: warning: tool x: neither readonly nor destructive: clients will treat it as destructive; add readonly if it changes nothing, or destructive=false if it only adds or updates"
	const notReadOnly = "t.go:10:6: warning: tool x: readonly=false without destructive: clients will treat it as destructive; add destructive=false if it only adds or updates, or destructive to say so"
	for _, tc := range []struct {
		name string
		a    model.Annotations
		want string // "" for no warning
	}{
		{"no hints", model.Annotations{}, neither},
		{"only idempotent and openworld", model.Annotations{Idempotent: &yes, OpenWorld: &no}, neither},
		{"readonly=false", model.Annotations{ReadOnly: &no}, notReadOnly},
		{"readonly", model.Annotations{ReadOnly: &yes}, ""},
		{"destructive", model.Annotations{Destructive: &yes}, ""},
		{"destructive=false", model.Annotations{Destructive: &no}, ""},
		{"readonly=false destructive=false", model.Annotations{ReadOnly: &no, Destructive: &no}, ""},
	} {
		tool := lintTool("x")
		tool.Annotations = tc.a
		got := lintStrings(Lint(&model.Package{Tools: []*model.Tool{tool}}))
		var want []string
		if tc.want != "" {
			want = []string{tc.want}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: Lint = %q, want %q", tc.name, got, want)
		}
	}
}

// TestLintDescription checks the warning about a tool without a description.
func TestLintDescription(t *testing.T) {
	for _, desc := range []string{"", " \n\n "} {
		tool := lintTool("x")
		tool.Description = desc
		tool.GoName = "DoX"
		got := lintStrings(Lint(&model.Package{Tools: []*model.Tool{tool}}))
		want := []string{"t.go:10:6: warning: tool x: no description: write a doc comment on DoX saying what it does and when to use it"}
		if !slices.Equal(got, want) {
			t.Errorf("description %q: Lint = %q, want %q", desc, got, want)
		}
	}
}

// TestLintPlaceholders checks that a placeholder left in a doc comment is a warning
// whether or not the rest of the comment describes, and one without a fix.
func TestLintPlaceholders(t *testing.T) {
	for _, desc := range []string{"", "Does x."} {
		tool := lintTool("x")
		tool.Description, tool.Placeholder, tool.GoName = desc, true, "DoX"
		tool.Directive = model.Pos{File: "t.go", Line: 9, Col: 1}
		ws := Lint(&model.Package{Tools: []*model.Tool{tool}})
		want := []string{`t.go:10:6: warning: tool x: the doc comment of DoX holds a placeholder ("TODO: say what ..."), which toolgen leaves out of the description: replace it with what the tool does and when to use it`}
		if got := lintStrings(ws); !slices.Equal(got, want) || ws[0].Fix != nil {
			t.Errorf("description %q: Lint = %q (fix %v), want %q", desc, got, ws[0].Fix, want)
		}
	}
}

// TestLintProperties checks the warnings about properties without a description: at
// every depth of a tool's input, through pointers, slices, maps and named types, once
// per field however many tools share it, and for parameters without desc=.
func TestLintProperties(t *testing.T) {
	at := func(line int) model.Pos { return model.Pos{File: "p.go", Line: line, Col: 2} }
	str := &model.Type{Kind: model.String}
	named := func(id string) *model.Type { return &model.Type{Kind: model.Named, Ref: id} }
	field := func(name, goName, desc string, typ *model.Type, line int) *model.Field {
		return &model.Field{Name: name, GoPath: []string{goName}, Type: typ, Description: desc, Required: true, Pos: at(line)}
	}
	// Order{Item (described), Note (not), Ship *Address, Lines []Line, Tags map[string]Tag}
	// Address{Street (not)}; Line{SKU (described), Qty (not)}; Tag{Label (not)};
	// Node{Name (not), Kids []Node}: recursive.
	pkg := &model.Package{
		Types: []*model.NamedType{
			{ID: "Address", Name: "Address", Underlying: &model.Type{Kind: model.Struct, Fields: []*model.Field{
				field("street", "Street", "", str, 20),
			}}},
			{ID: "Line", Name: "Line", Underlying: &model.Type{Kind: model.Struct, Fields: []*model.Field{
				field("sku", "SKU", "The SKU.", str, 30),
				field("qty", "Qty", "", &model.Type{Kind: model.Int, Bits: 64}, 31),
			}}},
			{ID: "Node", Name: "Node", Underlying: &model.Type{Kind: model.Struct, Fields: []*model.Field{
				field("name", "Name", "", str, 40),
				field("kids", "Kids", "The children.", &model.Type{Kind: model.Slice, Elem: named("Node")}, 41),
			}}},
			{ID: "Order", Name: "Order", Underlying: &model.Type{Kind: model.Struct, Fields: []*model.Field{
				field("item", "Item", "The item.", str, 2),
				field("note", "Note", "", str, 3),
				field("ship", "Ship", "Where to ship.", &model.Type{Kind: model.Pointer, Elem: named("Address")}, 4),
				field("lines", "Lines", "The lines.", &model.Type{Kind: model.Slice, Elem: named("Line")}, 5),
				field("tags", "Tags", "The tags.", &model.Type{Kind: model.Map, Key: str, Elem: &model.Type{Kind: model.Struct, Fields: []*model.Field{
					field("label", "Label", "", str, 6),
				}}}, 7),
			}}},
		},
	}
	place := lintTool("place")
	place.Input = model.Input{Kind: model.InputStruct, Type: &model.Type{Kind: model.Pointer, Elem: named("Order")}}
	quote := lintTool("quote")
	quote.Input = model.Input{Kind: model.InputStruct, Type: named("Order")}
	tree := lintTool("tree")
	tree.Input = model.Input{Kind: model.InputParams, Params: []*model.Field{
		field("root", "root", "The root.", named("Node"), 50),
		field("depth", "depth", "", &model.Type{Kind: model.Int, Bits: 64}, 51),
		field("inline", "inline", "", &model.Type{Kind: model.Struct, Fields: []*model.Field{
			field("x", "X", "", str, 52),
		}}, 53),
	}}
	pkg.Tools = []*model.Tool{place, quote, tree}
	got := lintStrings(Lint(pkg))
	want := []string{
		`p.go:3:2: warning: property "note" has no description: write a doc comment on field Note`,
		`p.go:6:2: warning: property "label" has no description: write a doc comment on field Label`,
		`p.go:20:2: warning: property "street" has no description: write a doc comment on field Street`,
		`p.go:31:2: warning: property "qty" has no description: write a doc comment on field Qty`,
		`p.go:40:2: warning: property "name" has no description: write a doc comment on field Name`,
		`p.go:51:2: warning: tool tree: parameter "depth" has no description: add desc="..." to a //toolgen:param depth line`,
		`p.go:52:2: warning: property "x" has no description: write a doc comment on field X`,
		`p.go:53:2: warning: tool tree: parameter "inline" has no description: add desc="..." to a //toolgen:param inline line`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("Lint =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLintFieldsWithoutPositions checks that a model built by hand, without positions,
// still gets one warning per field, shared or not.
func TestLintFieldsWithoutPositions(t *testing.T) {
	shared := &model.Type{Kind: model.Struct, Fields: []*model.Field{
		{Name: "a", GoPath: []string{"A"}, Type: &model.Type{Kind: model.String}},
		{Name: "b", GoPath: []string{"B"}, Type: &model.Type{Kind: model.String}},
	}}
	one, two := lintTool("one"), lintTool("two")
	one.Input = model.Input{Kind: model.InputStruct, Type: shared}
	two.Input = model.Input{Kind: model.InputStruct, Type: shared}
	got := lintStrings(Lint(&model.Package{Tools: []*model.Tool{one, two}}))
	want := []string{
		`warning: property "a" has no description: write a doc comment on field A`,
		`warning: property "b" has no description: write a doc comment on field B`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("Lint = %q, want %q", got, want)
	}
}

// TestLintEnum checks the warning about an enum constant without a doc comment, at the
// constant.
func TestLintEnum(t *testing.T) {
	tool := lintTool("x")
	tool.Input = model.Input{Kind: model.InputParams, Params: []*model.Field{{
		Name: "unit", GoPath: []string{"unit"}, Description: "The unit.", Required: true,
		Type: &model.Type{Kind: model.Named, Ref: "Unit"}, Pos: model.Pos{File: "t.go", Line: 10, Col: 12},
	}}}
	pkg := &model.Package{
		Tools: []*model.Tool{tool},
		Types: []*model.NamedType{{
			ID: "Unit", Name: "Unit", Doc: "Unit is a unit.", Underlying: &model.Type{Kind: model.String},
			Enum: []*model.EnumValue{
				{GoName: "Celsius", Value: `"celsius"`, Doc: "Celsius is degrees Celsius.", Pos: model.Pos{File: "u.go", Line: 5, Col: 2}},
				{GoName: "Kelvin", Value: `"kelvin"`, Pos: model.Pos{File: "u.go", Line: 6, Col: 2}},
				{GoName: "Fahrenheit", Value: `"fahrenheit"`, Doc: " ", Pos: model.Pos{File: "u.go", Line: 7, Col: 2}},
			},
		}, {
			ID: "Level", Name: "Level", Underlying: &model.Type{Kind: model.Int, Bits: 64},
			Enum: []*model.EnumValue{{GoName: "Low", Value: "1", Pos: model.Pos{File: "u.go", Line: 12, Col: 2}}},
		}},
	}
	got := lintStrings(Lint(pkg))
	want := []string{
		`u.go:6:2: warning: enum value "kelvin" of type Unit (constant Kelvin) has no doc comment: write one saying what the value means`,
		`u.go:7:2: warning: enum value "fahrenheit" of type Unit (constant Fahrenheit) has no doc comment: write one saying what the value means`,
		`u.go:12:2: warning: enum value 1 of type Level (constant Low) has no doc comment: write one saying what the value means`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("Lint =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLintExternal checks that declarations outside the loaded modules (absolute
// positions) are not linted: their users cannot document them.
func TestLintExternal(t *testing.T) {
	tool := lintTool("x")
	tool.Input = model.Input{Kind: model.InputStruct, Type: &model.Type{Kind: model.Named, Ref: "dep.Args"}}
	pkg := &model.Package{
		Tools: []*model.Tool{tool},
		Types: []*model.NamedType{{
			ID: "dep.Args", Name: "Args", Underlying: &model.Type{Kind: model.Struct, Fields: []*model.Field{
				{Name: "a", GoPath: []string{"A"}, Type: &model.Type{Kind: model.Named, Ref: "dep.Kind"}, Pos: model.Pos{File: "/home/u/go/pkg/mod/dep@v1/dep.go", Line: 3, Col: 2}},
				{Name: "b", GoPath: []string{"B"}, Type: &model.Type{Kind: model.String}, Pos: model.Pos{File: "C:/Users/u/go/pkg/mod/dep@v1/dep.go", Line: 4, Col: 2}},
			}},
		}, {
			ID: "dep.Kind", Name: "Kind", Underlying: &model.Type{Kind: model.String},
			Enum: []*model.EnumValue{{GoName: "K", Value: `"k"`, Pos: model.Pos{File: "/home/u/go/pkg/mod/dep@v1/dep.go", Line: 9, Col: 2}}},
		}},
	}
	if got := Lint(pkg); len(got) != 0 {
		t.Errorf("Lint = %q, want nothing", lintStrings(got))
	}
}

// TestGenerateLints checks that Generate returns Lint's warnings with the dialects',
// sorted together.
func TestGenerateLints(t *testing.T) {
	pkg := sharedPackage()
	if len(Lint(pkg)) == 0 {
		t.Fatal("the shared case lints clean: the test needs a case with gaps")
	}
	_, warnings, err := Generate(pkg)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range Lint(pkg) {
		if !slices.Contains(warnings, w) {
			t.Errorf("Generate's warnings lack %q", w)
		}
	}
	set, err := buildSchemas(pkg)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range set.warnings {
		if !slices.Contains(warnings, w) {
			t.Errorf("Generate's warnings lack %q", w)
		}
	}
	if !slices.IsSortedFunc(warnings, compareWarnings) {
		t.Errorf("warnings are not sorted: %q", lintStrings(warnings))
	}
}
