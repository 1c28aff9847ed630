package generator

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/model"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// TestSharedDecoderNodes checks, for every package of the parser's golden cases, that
// a named struct or union whose one decoder several tools (or several places of one
// tool) share reads the same checks in each of their programs: the decoder is emitted
// from the first tool's node, so any other must say nothing else.
func TestSharedDecoderNodes(t *testing.T) {
	shared := 0
	for _, c := range parserCases(t) {
		for _, pkg := range c.pkgs {
			schemas, err := canonicalSchemas(pkg)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			_, g, err := goSourceGen(pkg, schemas, Options{})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			for id, nodes := range g.typeNodes {
				want := checksOf(nodes[0])
				for _, n := range nodes[1:] {
					shared++
					if got := checksOf(n); got != want {
						t.Errorf("%s: type %s: two programs' nodes differ:\n%s\n%s", c.name, id, want, got)
					}
				}
			}
		}
	}
	if shared == 0 {
		t.Error("no type's decoder is shared by two programs' nodes: the test checks nothing")
	}
}

// checksOf writes what the generator reads of node n and below it (the keywords,
// defaults and sensitive properties; no annotation), each node once. Whether n itself
// is nullable is its place's, read where the type stands, not by its decoder.
func checksOf(n toolimpl.Node) string {
	var b strings.Builder
	ids := map[toolimpl.Node]int{}
	root := true
	var walk func(n toolimpl.Node)
	walk = func(n toolimpl.Node) {
		if n.IsZero() {
			b.WriteString("-")
			return
		}
		for k, i := range ids {
			if k.Same(n) {
				fmt.Fprintf(&b, "#%d", i)
				return
			}
		}
		ids[n] = len(ids)
		nullable := n.Nullable() && !root
		root = false
		minL, okMinL := n.MinLength()
		maxL, okMaxL := n.MaxLength()
		minI, okMinI := n.MinItems()
		maxI, okMaxI := n.MaxItems()
		minP, okMinP := n.MinProperties()
		maxP, okMaxP := n.MaxProperties()
		vals, kw := n.Enum()
		fmt.Fprintf(&b, "{%s null=%v len=%d,%v,%d,%v pat=%q fmt=%q %s=%q %+v items=%d,%v,%d,%v,%v props=%d,%v,%d,%v names=%q tag=%q",
			n.Kind(), nullable, minL, okMinL, maxL, okMaxL, n.Pattern(), n.Format(), kw, vals, n.Bounds(),
			minI, okMinI, maxI, okMaxI, n.UniqueItems(), minP, okMinP, maxP, okMaxP, n.PropertyNames(), n.Tag())
		for _, p := range n.Properties() {
			fmt.Fprintf(&b, " %q(req=%v def=%q sens=%v):", p.Name(), p.Required(), p.Default(), p.Sensitive())
			walk(p.Node())
		}
		b.WriteString(" items:")
		walk(n.Items())
		b.WriteString(" other:")
		walk(n.Additional())
		variants, _ := n.Variants()
		for _, v := range variants {
			b.WriteString(" variant:")
			walk(v)
		}
		b.WriteString("}")
	}
	walk(n)
	return b.String()
}

// TestSchemaSizeLimit checks that a tool whose canonical input schema is exactly
// runtime.MaxSchemaBytes long generates, and that one a byte longer is refused when
// generating, as runtime.NewTool would refuse it, rather than compiled differently.
func TestSchemaSizeLimit(t *testing.T) {
	pkgOf := func(pad int) *model.Package {
		vals := make([]string, 1000)
		for i := range vals {
			vals[i] = fmt.Sprintf(`"v%04d%s"`, i, strings.Repeat("x", 1000))
		}
		vals[0] = fmt.Sprintf(`"v0000%s"`, strings.Repeat("x", pad))
		return &model.Package{Name: "big", Path: "example.com/big", Dir: ".", Tools: []*model.Tool{{
			Name: "pick", GoName: "Pick", Description: "Picks one.",
			Input: model.Input{Kind: model.InputParams, Params: []*model.Field{{
				Name: "v", GoPath: []string{"v"}, Type: &model.Type{Kind: model.String}, Required: true,
				Constraints: model.Constraints{Enum: vals},
			}}},
			Output: model.Output{Kind: model.OutputNone},
		}}}
	}
	size := func(pad int) (int, error) {
		set, err := canonicalSchemas(pkgOf(pad))
		if err != nil {
			return 0, err
		}
		return len(set.tools[0].inputJSON), nil
	}
	n, err := size(0)
	if err != nil || n > runtime.MaxSchemaBytes {
		t.Fatalf("the base schema: %d bytes, %v", n, err)
	}
	pad := runtime.MaxSchemaBytes - n
	if n, err := size(pad); err != nil || n != runtime.MaxSchemaBytes {
		t.Fatalf("at MaxSchemaBytes: %d bytes, %v", n, err)
	}
	if _, err := size(pad + 1); err == nil || !strings.Contains(err.Error(), "MaxSchemaBytes") {
		t.Fatalf("past MaxSchemaBytes: %v", err)
	}
}
