package generator

import (
	"encoding/json"
	"fmt"

	"github.com/toolgen/toolgen/model"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// The generated decoders' checks are read from the program each tool's canonical input
// schema compiles to (toolimpl.CompileSchema, the compiler and nodes runtime.NewTool
// uses), not from the model: the model says the Go side (types, names, field paths,
// time layouts and the validate rules no schema keyword says: NotZero, unique map
// values), the program says every validation keyword, default and sensitive property.
// The emitters walk the Go type and the node of its schema side by side.

// goFacts are what the model alone says of a value, which no schema keyword says.
type goFacts struct {
	// notZero: validate's required on a number, a duration or a time (model.Constraints.NotZero).
	notZero bool
	// layout is the Go time layout of a time.Time (the schema has only its pattern).
	layout string
	// uniqueValues: validate's unique on a map, whose values must differ.
	uniqueValues bool
	// wroteMin and wroteMax say that the tag wrote an integer's minimum or maximum,
	// which the schema of a narrow type cannot tell from the type's own bound (int8's
	// -128): a bound it wrote is spelled as a number, the type's as its constant
	// (math.MinInt8). Only the spelling: the value is the program's.
	wroteMin, wroteMax bool
}

// factsOf returns the Go facts of a field's value.
func factsOf(c *model.Constraints) goFacts {
	return goFacts{notZero: c.NotZero, layout: c.Layout, uniqueValues: c.UniqueItems, wroteMin: c.Minimum != "", wroteMax: c.Maximum != ""}
}

// item returns the facts that hold for each item of a list or map: all but the list's own.
func (x goFacts) item() goFacts {
	x.uniqueValues = false
	return x
}

// noteNodes records, for every named struct type a tool's arguments reach, the node of
// its schema in the tool's program (the first tool's, in the package's order, is the
// one its decoder is emitted from: every tool's is the same, TestSharedDecoderNodes).
func (g *goGen) noteNodes() {
	g.typeNodes = map[string][]toolimpl.Node{}
	for _, t := range g.pkg.Tools {
		p := g.schemas.program(t.Name)
		if p == nil {
			g.fail(fmt.Errorf("tool %s: no compiled input schema", t.Name))
			return
		}
		seen := map[string]bool{}
		switch t.Input.Kind {
		case model.InputStruct:
			g.noteType(t.Input.Type, p.Root(), seen)
		case model.InputParams:
			g.noteFields(t.Input.Params, p.Root(), seen)
		}
	}
}

// noteFields records the nodes of what the fields of an object of node n reach.
func (g *goGen) noteFields(fields []*model.Field, n toolimpl.Node, seen map[string]bool) {
	for _, f := range fields {
		if p, ok := n.Property(f.Name); ok {
			g.noteType(f.Type, p.Node(), seen)
		}
	}
}

// noteType records the nodes of the named struct types that a value of type t, read
// by node n, reaches; seen holds the types met already in this tool.
func (g *goGen) noteType(t *model.Type, n toolimpl.Node, seen map[string]bool) {
	if t == nil || n.IsZero() {
		return
	}
	switch t.Kind {
	case model.Pointer:
		g.noteType(t.Elem, n, seen)
	case model.Slice, model.Array:
		g.noteType(t.Elem, n.Items(), seen)
	case model.Map:
		g.noteType(t.Elem, n.Additional(), seen)
	case model.Struct:
		g.noteFields(t.Fields, n, seen)
	case model.Union:
		nodes, _ := n.Variants()
		for i, v := range t.Variants {
			if i < len(nodes) {
				// A variant's node holds the discriminator besides the struct's
				// fields: the union's decoder reads it, not the struct's.
				if vt, err := underlying(g.pkg, v.Type); err == nil {
					g.noteFields(vt.Fields, nodes[i], seen)
				}
			}
		}
	case model.Named:
		nt := g.pkg.Type(t.Ref)
		if nt == nil || nt.Underlying == nil || seen[nt.ID] {
			return
		}
		seen[nt.ID] = true
		if k := nt.Underlying.Kind; k == model.Struct || k == model.Union {
			known := g.typeNodes[nt.ID]
			if len(known) == 0 || !known[len(known)-1].Same(n) {
				g.typeNodes[nt.ID] = append(known, n)
			}
		}
		g.noteType(nt.Underlying, n, seen)
	}
}

// typeNode returns the node a named struct's (or union's) decoder is emitted from.
func (g *goGen) typeNode(id string) (toolimpl.Node, error) {
	if nodes := g.typeNodes[id]; len(nodes) > 0 {
		return nodes[0], nil
	}
	return toolimpl.Node{}, fmt.Errorf("type %s: no tool's input schema reaches it", id)
}

// toolNode returns the node of tool t's arguments.
func (g *goGen) toolNode(t *model.Tool) toolimpl.Node {
	if p := g.schemas.program(t.Name); p != nil {
		return p.Root()
	}
	g.fail(fmt.Errorf("tool %s: no compiled input schema", t.Name))
	return toolimpl.Node{}
}

// property returns the property of object node n that field fld reads.
func (g *goGen) property(n toolimpl.Node, fld *model.Field) toolimpl.Prop {
	p, ok := n.Property(fld.Name)
	if !ok {
		g.fail(fmt.Errorf("property %q: not in the compiled schema (a %s)", fld.Name, n.Kind()))
	}
	return p
}

// enumOf returns the allowed values of node n (JSON texts, in schema order) and the
// violation code of a value outside them ("Enum" or "Const"), or nil.
func enumOf(n toolimpl.Node) (vals []string, code string) {
	vals, kw := n.Enum()
	switch kw {
	case "const":
		return vals, "Const"
	case "enum":
		return vals, "Enum"
	}
	return nil, ""
}

// sameJSON reports whether two JSON texts of a value are the same value as far as an
// enum's constants are concerned: equal strings, or equal compact texts.
func sameJSON(a, b string) bool {
	if a == b {
		return true
	}
	var x, y string
	if json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil {
		return x == y
	}
	return compactJSON(a) == compactJSON(b)
}
