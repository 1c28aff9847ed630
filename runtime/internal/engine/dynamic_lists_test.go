package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// The hot paths of dynamic tools' lists (issue 20: the interpreter within 3x of the
// generated decoder): what they skip must not change a verdict.

// engines returns a tool of the schema read by the toolgen engine and one read by the
// general engine (the same schema with "allOf": [true] at its root, which asserts
// nothing and takes it past the keywords toolgen writes).
func engines(t testing.TB, schema string) map[string]*Toolset {
	t.Helper()
	out := map[string]*Toolset{}
	for name, s := range map[string]string{"toolgen": schema, "general": strings.Replace(schema, `{`, `{"allOf":[true],`, 1)} {
		def := Tool{Name: "t", InputSchema: json.RawMessage(s)}
		if p, err := compileTool(&def); err != nil || (p.full != nil) != (name == "general") {
			t.Fatalf("%s engine: %v, or the other engine read the schema", name, err)
		}
		ts, err := NewTool(def, func(_ context.Context, args json.RawMessage) (*Result, error) {
			return TextResult(string(args)), nil
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = ts
	}
	return out
}

const stockSchema = `{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{` +
	`"sku":{"type":"string","pattern":"^[A-Z]{3}-[0-9]{4}$"},"quantity":{"type":"integer","minimum":1,"maximum":10000},` +
	`"price":{"type":"number","minimum":0,"maximum":100},"tags":{"type":"array","items":{"type":"string","enum":["a","b","c"]}}},` +
	`"required":["sku","quantity","price"],"additionalProperties":false}}},"required":["items"],"additionalProperties":false}`

// stockArgs returns arguments of stockSchema with n items.
func stockArgs(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"sku":"ABC-%04d","quantity":%d,"price":%d.25,"tags":["a","c"]}`, i%10000, 1+i%9999, i%100)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// A list's items cost no allocation each, on either engine: allocations for 400 items
// are those for 100 but for the output's growth and the decoder's string chunks, a few
// for each 8 KiB (issue 20: the toolgen engine allocated about 3.7 an item of the
// batch payload, uniqueness keys it did not use; the general engine one a member, its
// name).
func TestDynamicListItemsAllocate(t *testing.T) {
	for name, ts := range engines(t, stockSchema) {
		allocs := func(n int) float64 {
			args := stockArgs(n)
			if r := ts.Call(context.Background(), "t", args); r.IsError {
				t.Fatalf("%s: %s", name, r.Text())
			}
			return testing.AllocsPerRun(20, func() { ts.Call(context.Background(), "t", args) })
		}
		small, large := allocs(100), allocs(400)
		t.Logf("%s: %.1f allocations for 100 items, %.1f for 400", name, small, large)
		if per := (large - small) / 300; per > 0.05 {
			t.Errorf("%s: %.2f allocations an item (%.1f for 100 items, %.1f for 400)", name, per, small, large)
		}
	}
}

// Numbers at their bounds: a bound a float64 holds exactly decides a number whose
// float64 differs from it by the float64 alone; one that rounds to the bound, or a
// bound no float64 holds, is compared exactly (and as the float64 run gets).
func TestDynamicNumberBounds(t *testing.T) {
	schema := `{"type":"object","properties":{` +
		`"a":{"type":"number","minimum":0,"maximum":100},` +
		`"b":{"type":"number","exclusiveMinimum":0.1,"exclusiveMaximum":0.5},` +
		`"c":{"type":"integer","minimum":-5,"maximum":9007199254740993},` +
		`"d":{"type":"number","minimum":1e-400}}}`
	for _, tc := range []struct {
		args string
		ok   bool
	}{
		{`{"a":100}`, true},
		{`{"a":100.0}`, true},
		{`{"a":1e2}`, true},
		{`{"a":100.00000000000001}`, false}, // rounds to 100, and is above it
		{`{"a":99.999999999999999}`, true},  // rounds to 100, and is below it
		{`{"a":100.0000000001}`, false},
		{`{"a":0}`, true},
		{`{"a":-0}`, true},
		{`{"a":-1e-400}`, false}, // rounds to -0, and is below 0
		{`{"a":-0.0000000001}`, false},
		{`{"b":0.1}`, false},
		{`{"b":0.10000000000000001}`, false}, // above 0.1, but its float64 is 0.1's
		{`{"b":0.1000000000000001}`, true},
		{`{"b":0.5}`, false},
		{`{"b":0.49999999999999999}`, false}, // the float64 run gets is 0.5
		{`{"b":0.4999999999999999}`, true},
		{`{"c":9007199254740993}`, true},
		{`{"c":9007199254740994}`, false},
		{`{"c":-5}`, true},
		{`{"c":-6}`, false},
		{`{"d":1e-399}`, true},
		{`{"d":1e-400}`, true}, // the bound and its float64, 0, alike
	} {
		for name, ts := range engines(t, schema) {
			r := ts.Call(context.Background(), "t", []byte(tc.args))
			if r.IsError == tc.ok {
				if name == "general" && (tc.args == `{"b":0.49999999999999999}` || tc.args == `{"b":0.10000000000000001}`) {
					continue // the general engine passes run the text, compared exactly
				}
				t.Errorf("%s engine, %s: error %v (%s), want %v", name, tc.args, r.IsError, r.Text(), !tc.ok)
			}
		}
	}
}

// A bound of maxExactBound bytes is compared with its float64, one a byte longer by
// its text only; both decide alike.
func TestExactBoundLength(t *testing.T) {
	at := "1." + strings.Repeat("0", maxExactBound-3) + "5" // 1.000…05: no float64 holds it
	past := at[:len(at)-1] + "05"
	exact := "2." + strings.Repeat("0", maxExactBound-2) // 2 exactly
	exactPast := exact + "0"
	for _, s := range []string{at, exact} {
		if len(s) != maxExactBound {
			t.Fatalf("%s: %d bytes", s, len(s))
		}
	}
	for _, tc := range []struct {
		bound string
		want  bool
	}{{at, false}, {past, false}, {exact, true}, {exactPast, false}} {
		f, _ := strconv.ParseFloat(tc.bound, 64)
		x, _ := parseDecimal([]byte(tc.bound))
		if got := exactFloat(f, x, tc.bound); got != tc.want {
			t.Errorf("exactFloat(%s) = %v, want %v", tc.bound, got, tc.want)
		}
		bound, _ := new(big.Rat).SetString(tc.bound)
		schema := `{"type":"object","properties":{"n":{"type":"number","maximum":` + tc.bound + `}}}`
		for name, ts := range engines(t, schema) {
			for _, n := range []string{"1", "2", "2.0000000000000001", "2.5", "1.0000000000000001", "1.00000000000000000000005"} {
				r := ts.Call(context.Background(), "t", []byte(`{"n":`+n+`}`))
				v, _ := new(big.Rat).SetString(n)
				fv, _ := strconv.ParseFloat(n, 64)
				fb, _ := strconv.ParseFloat(tc.bound, 64)
				want := v.Cmp(bound) > 0 || name == "toolgen" && fv > fb // the toolgen engine holds the float64 to it too
				if r.IsError != want {
					t.Errorf("%s engine, maximum %s, %s: error %v, want %v", name, tc.bound, n, r.IsError, want)
				}
			}
		}
	}
}

// floatText holds appendFloat's form of the numbers it takes.
func TestFloatText(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"0", true}, {"-0", false}, {"0.0", false}, {"1", true}, {"-1", true}, {"87.5", true},
		{"87.50", false}, {"1e2", false}, {"1E2", false}, {"100", true}, {"0.000001", true},
		{"0.0000001", false}, {"0.0000015", true}, {"123456789012345", true},
		{"1234567890123456", false}, {"0.123456789012345", true}, {"0.1234567890123456", false},
		{"0.1", true}, {"0.30000000000000004", false}, {"", false}, {"-", false}, {"1.", false},
		{"100000000000000000000", false}, {"999999999999999", true},
	} {
		if got := floatText([]byte(tc.text)); got != tc.want {
			t.Errorf("floatText(%q) = %v, want %v", tc.text, got, tc.want)
		}
		checkFloatText(t, tc.text)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		var b []byte
		if r.IntN(4) == 0 {
			b = append(b, '-')
		}
		b = strconv.AppendInt(b, r.Int64N(int64(math.Pow10(r.IntN(16)))+1), 10)
		if r.IntN(2) == 0 {
			b = append(b, '.')
			for range 1 + r.IntN(16) {
				b = append(b, byte('0'+r.IntN(10)))
			}
		}
		checkFloatText(t, string(b))
	}
}

// checkFloatText fails when floatText takes text and appendFloat writes its float64
// otherwise.
func checkFloatText(t *testing.T, text string) {
	t.Helper()
	if !floatText([]byte(text)) {
		return
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		t.Fatalf("floatText(%q): %v", text, err)
	}
	if f == 0 {
		f = 0
	}
	if got := string(appendFloat(nil, f)); got != text {
		t.Errorf("floatText(%q) is true, but appendFloat writes %q", text, got)
	}
}

func FuzzFloatText(f *testing.F) {
	for _, s := range []string{"0", "87.5", "0.000001", "123456789012345", "-0.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !json.Valid([]byte(text)) {
			return
		}
		checkFloatText(t, text)
	})
}

// Objects of the arguments keep an index of their members from argIndexFrom of them:
// a duplicate is found, and properties are read, below, at and past it.
func TestDynamicArgIndexFrom(t *testing.T) {
	for _, n := range []int{argIndexFrom - 1, argIndexFrom, argIndexFrom + 1} {
		props := make([]string, n)
		members := make([]string, n)
		for i := range n {
			props[i] = fmt.Sprintf(`"p%d":{"type":"integer","minimum":%d}`, i, i)
			members[i] = fmt.Sprintf(`"p%d":%d`, i, i)
		}
		schema := `{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":["p0","p` + strconv.Itoa(n-1) + `"]}`
		for name, ts := range engines(t, schema) {
			valid := `{` + strings.Join(members, ",") + `}`
			if r := ts.Call(context.Background(), "t", []byte(valid)); r.IsError {
				t.Errorf("%s engine, %d members: %s", name, n, r.Text())
			}
			dup := `{` + strings.Join(members, ",") + `,"p0":0}`
			if r := ts.Call(context.Background(), "t", []byte(dup)); !r.IsError || !strings.Contains(r.Text(), "/p0") {
				t.Errorf("%s engine, %d members and p0 again: %s", name, n, r.Text())
			}
			low := `{` + strings.Join(members[:n-1], ",") + fmt.Sprintf(`,"p%d":%d}`, n-1, n-2)
			if r := ts.Call(context.Background(), "t", []byte(low)); !r.IsError || !strings.Contains(r.Text(), fmt.Sprintf("/p%d", n-1)) {
				t.Errorf("%s engine, %d members, the last below its minimum: %s", name, n, r.Text())
			}
		}
	}
}

// A $dynamicRef that applies, in place, a schema holding it is refused, through the
// hub of its anchor's name (checkCycles), wherever the schema stands.
func TestDynamicRefCycle(t *testing.T) {
	for _, tc := range []struct{ schema, path string }{
		{`{"type":"object","$dynamicAnchor":"n","allOf":[{"$dynamicRef":"#n"}]}`, ""},
		{`{"type":"object","$defs":{"a":{"$id":"https://example.com/a.json","$dynamicAnchor":"n","anyOf":[{"$ref":"b.json"}]},` +
			`"b":{"$id":"https://example.com/b.json","$defs":{"x":{"$dynamicAnchor":"n"}},"not":{"$dynamicRef":"#n"}}},"properties":{"p":{"$ref":"https://example.com/a.json"}}}`, "/$defs/a"},
	} {
		_, err := NewTool(Tool{Name: "t", InputSchema: json.RawMessage(tc.schema)}, func(context.Context, json.RawMessage) (*Result, error) { return nil, nil })
		var se *SchemaError
		if !errors.As(err, &se) || !strings.Contains(se.Reason, "without end") || se.Path != tc.path {
			t.Errorf("%s: %v, want a cycle at %q", tc.schema, err, tc.path)
		}
	}
	// Not a cycle: the reference reads an item.
	ok := `{"type":"object","$dynamicAnchor":"n","properties":{"p":{"items":{"$dynamicRef":"#n"}}}}`
	if _, err := NewTool(Tool{Name: "t", InputSchema: json.RawMessage(ok)}, func(context.Context, json.RawMessage) (*Result, error) { return nil, nil }); err != nil {
		t.Errorf("%s: %v", ok, err)
	}
}
