package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp/syntax"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/difftest"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// hostileSchema is a family of input schemas that cost the most to compile for their
// size, made to about n units.
type hostileSchema struct {
	name string
	make func(n int) string
}

func repeatJoin(n int, f func(i int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = f(i)
	}
	return strings.Join(parts, ",")
}

var hostileSchemas = []hostileSchema{
	{"nested items", func(n int) string {
		n = min(n, (runtime.MaxSchemaDepth-4)/2)
		return `{"type":"object","properties":{"a":` + strings.Repeat(`{"type":"array","items":`, n) + `{"type":"string"}` + strings.Repeat("}", n) + `}}`
	}},
	{"ref chain", func(n int) string {
		defs := repeatJoin(n, func(i int) string { return fmt.Sprintf(`"D%d":{"$ref":"#/$defs/D%d"}`, i, i+1) })
		return `{"type":"object","properties":{"a":{"$ref":"#/$defs/D0"}},"$defs":{` + defs + fmt.Sprintf(`,"D%d":{"type":"string"}}}`, n)
	}},
	{"properties", func(n int) string {
		return `{"type":"object","properties":{` + repeatJoin(n, func(i int) string { return fmt.Sprintf(`"p%d":{"type":"integer"}`, i) }) + `},"additionalProperties":false}`
	}},
	{"refs into properties", func(n int) string {
		return `{"type":"object","properties":{` + repeatJoin(n, func(i int) string {
			return fmt.Sprintf(`"p%d":{"$ref":"#/properties/p%d"}`, i, i+1)
		}) + fmt.Sprintf(`,"p%d":{"type":"boolean"}}}`, n)
	}},
	{"long name above", func(n int) string {
		return `{"type":"object","properties":{"` + strings.Repeat("n", 10*n) + `":{"type":"object","properties":{` +
			repeatJoin(n, func(i int) string { return fmt.Sprintf(`"p%d":{"type":"string"}`, i) }) + `}}}}`
	}},
	{"enum", func(n int) string {
		return `{"type":"object","properties":{"e":{"type":"string","enum":[` + repeatJoin(n, func(i int) string { return fmt.Sprintf(`"v%d"`, i) }) + `]}}}`
	}},
	{"extensions", func(n int) string {
		return `{"type":"object",` + repeatJoin(n, func(i int) string { return fmt.Sprintf(`"x-%d":0`, i) }) + `}`
	}},
	{"union variants", func(n int) string {
		n /= 8 // a branch is about 140 bytes
		return `{"type":"object","properties":{"u":{"oneOf":[` + repeatJoin(n, func(i int) string {
			return fmt.Sprintf(`{"type":"object","properties":{"k":{"type":"string","const":"v%d"},"x":{"type":"integer"}},"required":["k"],"additionalProperties":false}`, i)
		}) + `]}}}`
	}},
	// The canonical union's shape but for its last branch, which is open: recognised
	// only at the end, then read by the general engine.
	{"union, last branch open", func(n int) string {
		n /= 8
		return `{"type":"object","properties":{"u":{"oneOf":[` + repeatJoin(n, func(i int) string {
			closed := `,"additionalProperties":false`
			if i == n-1 {
				closed = ""
			}
			return fmt.Sprintf(`{"type":"object","properties":{"k":{"type":"string","const":"v%d"}},"required":["k"]%s}`, i, closed)
		}) + `]}}}`
	}},
	{"nested unions", func(n int) string {
		n = min(n, (runtime.MaxSchemaDepth-4)/6)
		open := `{"oneOf":[{"type":"object","properties":{"k":{"type":"string","const":"a"},"in":`
		return `{"type":"object","properties":{"u":` + strings.Repeat(open, n) + `{"type":"string"}` +
			strings.Repeat(`},"required":["k"],"additionalProperties":false}]}`, n) + `}}`
	}},
	{"overlays", func(n int) string {
		return `{"type":"object","properties":{` + repeatJoin(n, func(i int) string {
			return fmt.Sprintf(`"p%d":{"$ref":"#/$defs/L","minItems":%d}`, i, i%5)
		}) + `},"$defs":{"L":{"$ref":"#/$defs/M"},"M":{"type":"array","items":{"$ref":"#/$defs/L","maxItems":3}}}}`
	}},
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	f()
	goruntime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// maxCompileBytesPerByte bounds what NewTool allocates for each byte of schema.
const maxCompileBytesPerByte = 200

// Compiling a schema costs in proportion to its length: each hostile family, at two
// sizes eight times apart, allocates at most maxCompileBytesPerByte for each byte
// (issue 19: 10,000 nested items took 957 MB, a 16,000-long $ref chain 14.5 GB and 78 s,
// 80,000 properties 15 s).
func TestNewToolCompileCost(t *testing.T) {
	for _, h := range hostileSchemas {
		for _, n := range []int{2000, 16000} {
			schema := h.make(n)
			var err error
			b := allocated(func() {
				_, err = runtime.NewTool(runtime.Tool{Name: "h", InputSchema: json.RawMessage(schema)}, echo)
			})
			if err != nil {
				t.Errorf("%s (%d bytes): %v", h.name, len(schema), err)
			}
			per := float64(b) / float64(len(schema))
			t.Logf("%-20s %8d bytes: %6.1f B/byte", h.name, len(schema), per)
			if per > maxCompileBytesPerByte && b > 1<<20 {
				t.Errorf("%s: compiling %d bytes allocated %d (%.0f a byte)", h.name, len(schema), b, per)
			}
		}
	}
}

// The limits of a schema's size, depth and patterns, each at the limit and past it.
func TestNewToolSchemaLimits(t *testing.T) {
	build := func(schema string) error {
		_, err := runtime.NewTool(runtime.Tool{Name: "l", InputSchema: json.RawMessage(schema)}, echo)
		return err
	}
	refused := func(what string, err error, want string) {
		t.Helper()
		var se *runtime.SchemaError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a *SchemaError naming %s", what, err, want)
		}
	}
	// Depth: each level of the schema's JSON counts, the root object being 1.
	deep := func(depth int) string {
		// The root, then an "x-" extension holding nested arrays: depth levels in all.
		return `{"type":"object","x-deep":` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + `}`
	}
	if err := build(deep(runtime.MaxSchemaDepth)); err != nil {
		t.Errorf("at MaxSchemaDepth: %v", err)
	}
	refused("past MaxSchemaDepth", build(deep(runtime.MaxSchemaDepth+1)), "MaxSchemaDepth")

	// Size: white space counts.
	body := `{"type":"object"}`
	if err := build(body + strings.Repeat(" ", runtime.MaxSchemaBytes-len(body))); err != nil {
		t.Errorf("at MaxSchemaBytes: %v", err)
	}
	refused("past MaxSchemaBytes", build(body+strings.Repeat(" ", runtime.MaxSchemaBytes-len(body)+1)), "MaxSchemaBytes")

	// Patterns: the largest x{k} under MaxPatternSize, and the next.
	at, past := patternsAroundLimit(t)
	if _, err := toolimpl.CompilePattern(at); err != nil {
		t.Errorf("%s at MaxPatternSize: %v", at, err)
	}
	if _, err := toolimpl.CompilePattern(past); err == nil || !strings.Contains(err.Error(), "MaxPatternSize") {
		t.Errorf("%s past MaxPatternSize: %v", past, err)
	}
	prop := func(p string) string {
		q, _ := json.Marshal(p)
		return `{"type":"object","properties":{"s":{"type":"string","pattern":` + string(q) + `}}}`
	}
	if err := build(prop(at)); err != nil {
		t.Errorf("a pattern at MaxPatternSize: %v", err)
	}
	refused("a pattern past MaxPatternSize", build(prop(past)), "MaxPatternSize")
	// The pattern, and a short one that would expand past any size.
	for _, p := range []string{`(?:a{0,1000}b)|(?:a{0,1000}c)`, `((((a{100}){100}){100}){100}){100}`, `(a{1000}){1000}`} {
		refused(p, build(prop(p)), "pattern")
	}
}

// patternsAroundLimit returns a pattern whose program has exactly MaxPatternSize
// instructions and one with more, the smallest of its family past it.
func patternsAroundLimit(t *testing.T) (at, past string) {
	size := func(p string) int {
		re, err := syntax.Parse(p, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := syntax.Compile(re.Simplify())
		if err != nil {
			t.Fatal(err)
		}
		return len(prog.Inst)
	}
	for k := 1; ; k++ {
		p := fmt.Sprintf("^[a-z]{%d}$", k)
		switch n := size(p); {
		case n == toolimpl.MaxPatternSize:
			at = p
		case n > toolimpl.MaxPatternSize:
			if at == "" {
				t.Fatalf("no ^[a-z]{k}$ has %d instructions", toolimpl.MaxPatternSize)
			}
			return at, p
		}
	}
}

// hostileCall is a schema NewTool accepts and arguments that cost the most for it.
type hostileCall struct {
	name   string
	schema string
	args   func(size int) []byte
}

var bigEnum = repeatJoin(10000, func(i int) string { return fmt.Sprintf(`"value-%d"`, i) })

var bigUnion = repeatJoin(5000, func(i int) string {
	return fmt.Sprintf(`{"type":"object","properties":{"k":{"type":"string","const":"value-%d"},"x":{"type":"integer"}},"required":["k"],"additionalProperties":false}`, i)
})

var hostileCalls = []hostileCall{
	// A tagged union of 5,000 variants, every item's tag last, of the last variant,
	// or of none: the variant is looked up in a set, and the messages naming the
	// variants are made once, when the tool is built.
	{"union of 5,000, tag last", `{"type":"object","properties":{"u":{"type":"array","items":{"oneOf":[` + bigUnion + `]}}}}`,
		func(n int) []byte { return difftest.Fill(`{"u":[`, `{"x":%d,"k":"value-4999"}`, `]}`, n) }},
	{"union of 5,000, no variant", `{"type":"object","properties":{"u":{"type":"array","items":{"oneOf":[` + bigUnion + `]}}}}`,
		func(n int) []byte { return difftest.Fill(`{"u":[`, `{"k":"value-x%d"}`, `]}`, n) }},
	{"union of 5,000, no tag", `{"type":"object","properties":{"u":{"type":"array","items":{"oneOf":[` + bigUnion + `]}}}}`,
		func(n int) []byte { return difftest.Fill(`{"u":[`, `{"x":%d}`, `]}`, n) }},
	{"union of 5,000, tag a number", `{"type":"object","properties":{"u":{"type":"array","items":{"oneOf":[` + bigUnion + `]}}}}`,
		func(n int) []byte { return difftest.Fill(`{"u":[`, `{"k":%d}`, `]}`, n) }},
	// Items that each hold an object before their tag, so that each look-ahead is
	// remembered: a lookup asks only the latest (7.9 s for 680 KB when it asked all).
	{"union items holding objects", `{"type":"object","properties":{"u":{"type":"array","items":{"oneOf":[` + bigUnion + `]}}}}`,
		func(n int) []byte { return difftest.Fill(`{"u":[`, `{"x":{"%d":{}},"k":"value-4999"}`, `]}`, n) }},
	{"enum of 10,000", `{"type":"object","properties":{"e":{"type":"array","items":{"type":"string","enum":[` + bigEnum + `]}}}}`,
		func(n int) []byte { return difftest.Fill(`{"e":[`, `"value-9999"`, `]}`, n) }},
	{"enum of 10,000 missed", `{"type":"object","properties":{"e":{"type":"array","items":{"type":"string","enum":[` + bigEnum + `]}}}}`,
		func(n int) []byte { return difftest.Fill(`{"e":[`, `"nope"`, `]}`, n) }},
	{"pattern at the limit", `{"type":"object","properties":{"s":{"type":"string","pattern":"` + strings.Repeat("(?:a?b?)", 30) + `c"}}}`,
		func(n int) []byte { return []byte(`{"s":"` + strings.Repeat("ab", (n-10)/2) + `"}`) }},
	{"alternation at the limit", `{"type":"object","properties":{"s":{"type":"string","pattern":"(?:a{0,61}b)|(?:a{0,61}c)"}}}`,
		func(n int) []byte { return []byte(`{"s":"` + strings.Repeat("a", n-10) + `"}`) }},
	{"30,000 properties", `{"type":"object","properties":{` + repeatJoin(30000, func(i int) string { return fmt.Sprintf(`"p%d":{"type":"integer"}`, i) }) + `},"additionalProperties":false}`,
		func(n int) []byte { return difftest.Fill(`{`, `"q%d":1`, `}`, n) }},
	{"unique arrays 60 deep", `{"type":"object","properties":{"a":` + strings.Repeat(`{"type":"array","uniqueItems":true,"items":`, 60) + `{}` + strings.Repeat(`}`, 60) + `}}`,
		func(n int) []byte {
			return difftest.Fill(`{"a":`+strings.Repeat("[", 60), `1`, strings.Repeat("]", 60)+`}`, n)
		}},
	{"unique objects 60 deep", `{"type":"object","properties":{"a":` + strings.Repeat(`{"type":"array","uniqueItems":true,"items":`, 60) + `{}` + strings.Repeat(`}`, 60) + `}}`,
		func(n int) []byte {
			return difftest.Fill(`{"a":`+strings.Repeat("[", 60), `{"b":%d,"a":-0}`, strings.Repeat("]", 60)+`}`, n)
		}},
	{"propertyNames of 10,000", `{"type":"object","propertyNames":{"enum":[` + bigEnum + `]}}`,
		func(n int) []byte { return difftest.Fill(`{`, `"valuu-%d":1`, `}`, n) }},
}

// A call's cost stays within difftest.CheckCost's bounds whatever the schema NewTool
// accepted: enums are sets, patterns are bounded, and the names an unknown property is
// compared with are bounded (issue 19: a 10,000-value enum cost 4.5 µs an argument byte,
// a pattern 52 µs).
func TestNewToolCallCost(t *testing.T) {
	for _, h := range hostileCalls {
		ts, err := runtime.NewTool(runtime.Tool{Name: "h", InputSchema: json.RawMessage(h.schema)}, echo)
		if err != nil {
			t.Fatalf("%s: %v", h.name, err)
		}
		for _, size := range []int{1 << 10, 64 << 10} {
			args := h.args(size)
			var res *runtime.Result
			c := difftest.CheckCost(t, h.name, args, func() { res = ts.Call(context.Background(), "h", args) })
			t.Logf("%-24s %7d bytes: %5.2f B/byte, %d bytes of text", h.name, len(args), float64(c.Bytes)/float64(len(args)), len(res.Text()))
			if res.IsError && len(res.Text()) > 2*runtime.DefaultMaxViolationBytes {
				t.Errorf("%s: the model's text is %d bytes", h.name, len(res.Text()))
			}
		}
	}
}

// BenchmarkNewToolHostile measures the cost of compiling each hostile family and of
// the hostile calls, per byte: flat figures across sizes mean linear cost.
func BenchmarkNewToolHostile(b *testing.B) {
	for _, h := range hostileSchemas {
		for _, n := range []int{2000, 16000} {
			schema := json.RawMessage(h.make(n))
			b.Run(fmt.Sprintf("compile/%s/%dKB", h.name, len(schema)>>10), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					runtime.NewTool(runtime.Tool{Name: "h", InputSchema: schema}, echo)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(schema)), "ns/byte")
			})
		}
	}
	for _, h := range hostileCalls {
		ts, err := runtime.NewTool(runtime.Tool{Name: "h", InputSchema: json.RawMessage(h.schema)}, echo)
		if err != nil {
			b.Fatal(err)
		}
		for _, size := range []int{1 << 10, 64 << 10} {
			args := h.args(size)
			b.Run(fmt.Sprintf("call/%s/%dKB", h.name, size>>10), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					ts.Call(context.Background(), "h", args)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(args)), "ns/byte")
			})
		}
	}
}

// generalSchemas are families of schemas the general engine compiles (each beyond the
// keywords toolgen writes), made to about n units: the applicators, references of
// every kind, and the keywords whose compiling builds a set or a program.
var generalSchemas = []hostileSchema{
	{"anyOf", func(n int) string {
		return `{"type":"object","properties":{"a":{"anyOf":[` + repeatJoin(n, func(i int) string { return fmt.Sprintf(`{"type":"string","minLength":%d}`, i) }) + `]}}}`
	}},
	{"oneOf of variants", func(n int) string {
		return `{"type":"object","properties":{"a":{"oneOf":[` + repeatJoin(n, func(i int) string {
			return fmt.Sprintf(`{"type":"object","properties":{"kind":{"const":"k%d"},"v":{"type":"integer"}},"required":["kind"]}`, i)
		}) + `],"discriminator":{"propertyName":"kind"}}}}`
	}},
	{"allOf chain", func(n int) string {
		defs := repeatJoin(n, func(i int) string {
			return fmt.Sprintf(`"D%d":{"allOf":[{"$ref":"#/$defs/D%d"},{"maximum":%d}]}`, i, i+1, i)
		})
		return `{"type":"object","properties":{"a":{"$ref":"#/$defs/D0"}},"$defs":{` + defs + fmt.Sprintf(`,"D%d":{"type":"number"}}}`, n)
	}},
	{"anchors", func(n int) string {
		defs := repeatJoin(n, func(i int) string { return fmt.Sprintf(`"D%d":{"$anchor":"a%d","items":{"$ref":"#a%d"}}`, i, i, i+1) })
		return `{"type":"object","properties":{"a":{"$ref":"#a0"}},"$defs":{` + defs + fmt.Sprintf(`,"D%d":{"$anchor":"a%d"}}}`, n, n)
	}},
	{"resources", func(n int) string {
		defs := repeatJoin(n, func(i int) string {
			return fmt.Sprintf(`"D%d":{"$id":"https://example.com/d%d.json","$dynamicAnchor":"node","properties":{"next":{"$ref":"d%d.json"},"self":{"$dynamicRef":"#node"}}}`, i, i, i+1)
		})
		return `{"$id":"https://example.com/root.json","type":"object","properties":{"a":{"$ref":"d0.json"}},"$defs":{` + defs +
			fmt.Sprintf(`,"D%d":{"$id":"https://example.com/d%d.json"}}}`, n, n)
	}},
	{"if then else", func(n int) string {
		defs := repeatJoin(n, func(i int) string {
			return fmt.Sprintf(`"D%d":{"if":{"minimum":%d},"then":{"$ref":"#/$defs/D%d"},"else":{"not":{"const":%d}}}`, i, i, i+1, i)
		})
		return `{"type":"object","properties":{"a":{"$ref":"#/$defs/D0"}},"$defs":{` + defs + fmt.Sprintf(`,"D%d":true}}`, n)
	}},
	{"patternProperties", func(n int) string {
		return `{"type":"object","patternProperties":{` + repeatJoin(n, func(i int) string { return fmt.Sprintf(`"^p%d_[a-z]+$":{"type":"integer"}`, i) }) + `}}`
	}},
	{"prefixItems", func(n int) string {
		return `{"type":"object","properties":{"t":{"type":"array","prefixItems":[` + repeatJoin(n, func(i int) string { return fmt.Sprintf(`{"type":"integer","minimum":%d}`, i) }) + `],"items":false}}}`
	}},
	{"dependencies", func(n int) string {
		return `{"type":"object","dependentRequired":{` + repeatJoin(n, func(i int) string { return fmt.Sprintf(`"p%d":["q%d","r%d"]`, i, i, i) }) +
			`},"dependentSchemas":{` + repeatJoin(n, func(i int) string { return fmt.Sprintf(`"s%d":{"required":["t%d"]}`, i, i) }) + `}}`
	}},
	{"enum of objects", func(n int) string {
		return `{"type":"object","properties":{"e":{"enum":[` + repeatJoin(n, func(i int) string { return fmt.Sprintf(`{"k":%d,"v":[%d,"x"]}`, i, i) }) + `]}}}`
	}},
	{"unevaluated", func(n int) string {
		return `{"type":"object","allOf":[` + repeatJoin(n, func(i int) string { return fmt.Sprintf(`{"properties":{"p%d":{"type":"string"}}}`, i) }) + `],"unevaluatedProperties":false}`
	}},
}

// compileCost is what compiling one schema cost: the bytes and the allocations.
type compileCost struct{ bytes, allocs float64 }

// compileCostOf compiles schema and returns its cost per byte of schema.
func compileCostOf(t *testing.T, name, schema string) compileCost {
	t.Helper()
	var err error
	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	_, err = runtime.NewTool(runtime.Tool{Name: "h", InputSchema: json.RawMessage(schema)}, echo)
	goruntime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("%s (%d bytes): %v", name, len(schema), err)
	}
	n := float64(len(schema))
	return compileCost{float64(after.TotalAlloc-before.TotalAlloc) / n, float64(after.Mallocs-before.Mallocs) / n}
}

// maxCompileGrowth bounds how much the cost of a byte of schema may grow when the
// schema is sixteen times longer: a cost linear in the schema's length stays flat
// (a map or a slice that doubles as it grows makes it wander, by up to 2x), a cost of
// n log n grows by some 1.4x, and a quadratic one by 16x.
const maxCompileGrowth = 3

// Compiling a schema costs in proportion to its length, with either engine: for each
// family (the toolgen engine's hostile ones, the same through the general engine, and
// the general engine's own), the bytes and the allocations a byte of schema costs at a
// size sixteen times as large are within maxCompileGrowth of those at the smaller one
// (issue 20: the in-place edges of a $dynamicRef went to every resource's schema of
// its anchor, so that 4,000 resources, 589 KB, allocated 767 bytes a byte, 1.2 GB). A
// pattern costs its regexp program: patternProperties take some 265 bytes a byte, which
// MaxSchemaBytes bounds.
func TestNewToolCompileLinear(t *testing.T) {
	families := slices.Clone(generalSchemas)
	for _, h := range hostileSchemas {
		families = append(families, h, hostileSchema{h.name + " (general engine)", func(n int) string {
			return strings.Replace(h.make(n), `{`, `{"allOf":[true],`, 1)
		}})
	}
	for _, h := range families {
		small, large := h.make(250), h.make(4000)
		if len(large) > runtime.MaxSchemaBytes {
			t.Fatalf("%s: %d bytes, past MaxSchemaBytes", h.name, len(large))
		}
		a, b := compileCostOf(t, h.name, small), compileCostOf(t, h.name, large)
		t.Logf("%-36s %7d bytes: %6.1f B/byte %5.3f allocs/byte; %7d bytes: %6.1f B/byte %5.3f allocs/byte",
			h.name, len(small), a.bytes, a.allocs, len(large), b.bytes, b.allocs)
		if b.bytes > maxCompileGrowth*a.bytes || b.allocs > maxCompileGrowth*a.allocs {
			t.Errorf("%s: compiling grows faster than the schema: %.1f B and %.3f allocations a byte for %d bytes, %.1f and %.3f for %d",
				h.name, a.bytes, a.allocs, len(small), b.bytes, b.allocs, len(large))
		}
	}
}
