package generator

import (
	"fmt"
	"strings"
	"testing"

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
