package difftest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/invalid"
	"github.com/toolgen/toolgen/runtime/jsonread"
)

// The check of the program's two readers: the emitted code and the interpreter. Both
// read one program: the generator compiles each tool's canonical input schema with the
// compiler runtime.NewTool uses (toolimpl.CompileSchema) and emits every check from the
// node it reaches, and the dynamic tool interprets the same nodes. So a keyword, a
// message, a default or a sensitive property cannot be read one way by one reader and
// another way by the other; what Pair.Check holds is that the two agree on the
// program's semantics: a tool's generated decoder, called through its package's
// generated Toolset, and the dynamic tool built from the same canonical schema must
// agree on every argument text, on accept or reject, on the model-facing text of a
// rejection and, for accepted arguments, on the value decoded.
//
// What may differ is what the program cannot say: the Go type behind a property, which
// the generated decoder reads as that type does and the interpreter cannot know. A
// Twin lists those properties in GoTyped, each with the reason; their violations are
// left out of the comparison, and so are their values. Every reason is a Go type:
//
//   - a float32 (a number past its range is refused; its value is rounded to it);
//   - an encoding.TextUnmarshaler such as netip.Addr (the type parses the text; its
//     value is its canonical form);
//   - a Go array [N]T (items past N are skipped, not checked);
//   - a json.RawMessage, free form as {} is (a dynamic tool reads {} as any is read:
//     two keys the same inside are a duplicate, numbers go through float64);
//   - a string with format date-time (a dynamic tool reads that schema as the
//     time.Time toolgen writes it for: another message for a value of another type,
//     and leap seconds refused);
//   - a time.Time with a Go layout (layout=): its schema is a string with the pattern
//     of the layout's form, which a dynamic tool checks as a pattern, while the
//     generated decoder has time.Parse read it (a month 13 refused, a one-digit hour
//     taken) and says the form it wants;
//   - an integer whose bounds do not say its Go type, such as a signed one with
//     minimum 0 and maximum 255 (read as uint8), or a narrow one whose enum or const
//     leaves its range out of the schema: the range checked first, and the wording of
//     a value past the 64-bit range, differ.
//
// The validate rules that no schema keyword says (required on a number, a duration or
// a time; unique on a map) are the model's, not the program's, and are excused the
// same way (generator's goTyped).
//
// Where no example or conformance tool goes, the Go type decides too: uniqueItems
// compares objects and nullable items as Go values in generated code (struct fields,
// zero values and all, and pointers by address) and as JSON values in the
// interpreter, and a generated []byte ignores minLength and maxLength beside
// contentEncoding base64, which the interpreter checks.
//
// The values compared are the JSON that run receives and the generated decoder's Go
// value marshaled by encoding/json, both parsed, modulo Go-type details that are not
// differences of validation: a property one side leaves out when the other has its
// zero value (encoding/json writes zero values a dynamic tool never saw, or omits
// them), date-times equal as instants (a date as the midnight UTC that a time.Time
// with format=date holds), a Go duration (nanoseconds) against its string, and numbers
// equal as float32 when one side is a float32.

// Twin is one generated tool and what the comparison with its dynamic twin needs of it.
type Twin struct {
	// Tools is the generated Toolset that holds the tool.
	Tools *runtime.Toolset
	// Tool names it.
	Tool string
	// Schema is its canonical input schema (toolschema/<tool>.json); nil means the
	// Tool's InputSchema.
	Schema []byte
	// Value, when set, returns the generated decoder's value of accepted arguments,
	// marshaled by encoding/json. Echo, when set instead, says the tool's structured
	// result is that value.
	Value func(args []byte) (json.RawMessage, error)
	Echo  bool
	// GoTyped lists the JSON Pointers of properties (or their parents, "*" for any item
	// or key) whose Go type the schema does not say, with why: their violations and
	// values are not compared.
	GoTyped map[string]string
}

// Pair is a generated tool and its dynamic twin.
type Pair struct {
	s   Twin
	dyn *runtime.Toolset
}

// NewPair builds the dynamic twin of s's tool from its canonical schema.
func NewPair(t testing.TB, s Twin) *Pair {
	t.Helper()
	gen, ok := s.Tools.Lookup(s.Tool)
	if !ok {
		t.Fatalf("the generated Toolset has no %s", s.Tool)
	}
	def := *gen
	if s.Schema != nil {
		def.InputSchema = s.Schema
	}
	dyn, err := runtime.NewTool(def, func(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
		return runtime.TextResult(string(args)), nil
	})
	if err != nil {
		t.Fatalf("%s: NewTool refuses the canonical schema: %v", s.Tool, err)
	}
	return &Pair{s: s, dyn: dyn}
}

var (
	pairsMu sync.Mutex
	pairs   = map[string]*Pair{}
)

// CachedPair returns NewPair(t, s), built once per tool name for the process.
func CachedPair(t testing.TB, s Twin) *Pair {
	pairsMu.Lock()
	defer pairsMu.Unlock()
	if p, ok := pairs[s.Tool]; ok {
		return p
	}
	p := NewPair(t, s)
	pairs[s.Tool] = p
	return p
}

// Dynamic returns the dynamic Toolset.
func (p *Pair) Dynamic() *runtime.Toolset { return p.dyn }

// PairStats counts what Check saw.
type PairStats struct {
	Accepted, Rejected, Excused int
}

// Check calls the tool both ways with args and reports every difference on t. The
// dynamic decoding is also held to CheckCost's bounds. It reports whether
// both accepted, both rejected, or differed only where GoTyped excuses it.
func (p *Pair) Check(t testing.TB, args []byte) (accepted, excused bool) {
	t.Helper()
	ctx := context.Background()
	gen := p.s.Tools.Call(ctx, p.s.Tool, args)
	var dyn *runtime.Result
	CheckCost(t, p.s.Tool+" (dynamic)", args, func() { dyn = p.dyn.Call(ctx, p.s.Tool, args) })
	genBad := gen.Outcome == runtime.OutcomeInvalidArguments
	dynBad := dyn.Outcome == runtime.OutcomeInvalidArguments
	if !dynBad && dyn.Outcome != runtime.OutcomeOK {
		t.Fatalf("%s: %s: dynamic outcome %s: %s", p.s.Tool, Quote(args), dyn.Outcome, dyn.Text())
	}
	gv, dv := violations(gen), violations(dyn)
	if genBad || dynBad {
		if genBad && dynBad && gen.Text() == dyn.Text() {
			return false, false
		}
		// A difference, unless it lies only in Go-typed properties.
		gk, dk := p.keep(gv), p.keep(dv)
		filtered := len(gk) < len(gv) || len(dk) < len(dv)
		if filtered && sameViolations(gk, dk) && (genBad && dynBad || len(gk) == 0) {
			if os.Getenv("DYNTEST_SHOW") != "" {
				t.Logf("excused %s\n  gen %s\n  dyn %s", Quote(args), gen.Text(), dyn.Text())
			}
			return false, true
		}
		t.Errorf("%s: generated and dynamic differ\n  input:     %s\n  generated: %s %s\n  dynamic:   %s %s",
			p.s.Tool, Quote(args), gen.Outcome, gen.Text(), dyn.Outcome, dyn.Text())
		return false, false
	}
	var want json.RawMessage
	switch {
	case p.s.Value != nil:
		v, err := p.s.Value(args)
		if err != nil {
			t.Fatalf("%s: %s: the generated decoder's value: %v", p.s.Tool, Quote(args), err)
		}
		want = v
	case p.s.Echo:
		want = gen.Structured
	default:
		return true, false
	}
	var g, d any
	if err := json.Unmarshal(want, &g); err != nil {
		t.Fatalf("%s: generated value %s: %v", p.s.Tool, want, err)
	}
	if err := json.Unmarshal([]byte(dyn.Text()), &d); err != nil {
		t.Fatalf("%s: %s: run received arguments that are not JSON: %s: %v", p.s.Tool, Quote(args), dyn.Text(), err)
	}
	if diff := p.compare("", g, d); diff != "" {
		t.Errorf("%s: the values differ at %s\n  input:     %s\n  generated: %s\n  dynamic:   %s", p.s.Tool, diff, Quote(args), want, dyn.Text())
	}
	return true, false
}

func violations(r *runtime.Result) []invalid.Violation {
	var ae *invalid.ArgumentError
	if errors.As(r.Err, &ae) {
		return ae.Violations
	}
	return nil
}

// keep returns the violations outside the Go-typed properties.
func (p *Pair) keep(vs []invalid.Violation) []invalid.Violation {
	var out []invalid.Violation
	for _, v := range vs {
		if !p.goTyped(v.Path) {
			out = append(out, v)
		}
	}
	return out
}

func sameViolations(a, b []invalid.Violation) bool {
	return slices.EqualFunc(a, b, func(x, y invalid.Violation) bool { return x.String() == y.String() && x.Code == y.Code })
}

// goTyped reports whether the pointer is, or is below, a Go-typed property.
func (p *Pair) goTyped(ptr string) bool {
	toks := strings.Split(ptr, "/")
	for pat := range p.s.GoTyped {
		pt := strings.Split(pat, "/")
		if len(pt) > len(toks) {
			continue
		}
		match := true
		for i := range pt {
			if pt[i] != "*" && pt[i] != toks[i] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// compare returns the pointer of the first difference between the generated value g
// and the dynamic value d, or "".
func (p *Pair) compare(at string, g, d any) string {
	if p.goTyped(at) && at != "" {
		return ""
	}
	switch gv := g.(type) {
	case map[string]any:
		dv, ok := d.(map[string]any)
		if !ok {
			return orRoot(at)
		}
		for k, x := range gv {
			y, ok := dv[k]
			if !ok {
				if !zero(x) && !p.goTyped(at+"/"+jsonread.EscapeToken(k)) {
					return at + "/" + jsonread.EscapeToken(k) + " (missing from the dynamic value)"
				}
				continue
			}
			if diff := p.compare(at+"/"+jsonread.EscapeToken(k), x, y); diff != "" {
				return diff
			}
		}
		for k, y := range dv {
			if _, ok := gv[k]; !ok && !zero(y) && !p.goTyped(at+"/"+jsonread.EscapeToken(k)) {
				return at + "/" + jsonread.EscapeToken(k) + " (missing from the generated value)"
			}
		}
		return ""
	case []any:
		dv, ok := d.([]any)
		if !ok {
			if gv == nil || len(gv) == 0 && d == nil {
				return ""
			}
			return orRoot(at)
		}
		if len(gv) != len(dv) {
			return orRoot(at) + fmt.Sprintf(" (%d items against %d)", len(gv), len(dv))
		}
		for i := range gv {
			if diff := p.compare(fmt.Sprintf("%s/%d", at, i), gv[i], dv[i]); diff != "" {
				return diff
			}
		}
		return ""
	case float64:
		switch dv := d.(type) {
		case float64:
			if gv == dv || float32(gv) == float32(dv) {
				return ""
			}
		case string:
			if x, err := time.ParseDuration(dv); err == nil && float64(x) == gv {
				return "" // a Go duration, in nanoseconds
			}
		}
		return orRoot(at)
	case string:
		dv, ok := d.(string)
		if !ok {
			return orRoot(at)
		}
		if gv == dv || sameInstant(gv, dv) {
			return ""
		}
		return orRoot(at)
	case nil:
		if d == nil || zero(d) {
			return ""
		}
		return orRoot(at)
	default:
		if g != d {
			return orRoot(at)
		}
		return ""
	}
}

// sameInstant reports whether two date-times are the same instant, or whether b is a
// date (a time.Time with format=date, which a dynamic tool keeps as a string) and a
// is the midnight UTC the generated decoder reads it as.
func sameInstant(a, b string) bool {
	x, err1 := time.Parse(time.RFC3339Nano, strings.ToUpper(a))
	y, err2 := time.Parse(time.RFC3339Nano, strings.ToUpper(b))
	if err1 == nil && err2 != nil && x.Location() == time.UTC {
		y, err2 = time.Parse(time.DateOnly, b)
	}
	return err1 == nil && err2 == nil && x.Equal(y)
}

// zero reports whether v is what encoding/json writes for a Go zero value.
func zero(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return !x
	case float64:
		return x == 0
	case string:
		return x == "" || x == "0001-01-01T00:00:00Z"
	case []any:
		for _, it := range x {
			if !zero(it) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, it := range x {
			if !zero(it) {
				return false
			}
		}
		return true
	}
	return false
}

func orRoot(p string) string {
	if p == "" {
		return "the root"
	}
	return p
}

// InputSchemaOf returns the inputSchema of a canonical file's text (toolschema/<tool>.json).
func InputSchemaOf(t testing.TB, file []byte) []byte {
	t.Helper()
	var f struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal(file, &f); err != nil {
		t.Fatal(err)
	}
	return f.InputSchema
}

// RunPair checks every case of a corpus both ways, as one subtest per case, and logs the
// counts.
func RunPair(t *testing.T, p *Pair, cases []Case) {
	t.Helper()
	var st PairStats
	for _, c := range cases {
		accepted, excused := p.Check(t, []byte(c.Args))
		switch {
		case excused:
			st.Excused++
		case accepted:
			st.Accepted++
		default:
			st.Rejected++
		}
	}
	t.Logf("%s: %d cases: %d accepted both ways, %d rejected both ways with the same text, %d differing only in Go-typed properties",
		p.s.Tool, len(cases), st.Accepted, st.Rejected, st.Excused)
}

// FromSubject returns the Value of a Twin from the Subject of the oracle check: its generated decoder's value, marshaled by encoding/json.
func FromSubject[T any](s Subject[T]) func([]byte) (json.RawMessage, error) {
	return func(args []byte) (json.RawMessage, error) {
		v, viols, ok := s.Decode(args)
		if !ok {
			return nil, fmt.Errorf("the generated decoder refuses what its Toolset accepted: %v", viols)
		}
		return json.Marshal(v)
	}
}

// Values are JSON values of every JSON type and shape, for every property of a tool.
var Values = []string{
	`null`, `true`, `false`, `0`, `-0`, `1`, `-1`, `2.0`, `1e1`, `1.5`, `-128`, `255`, `256`, `65536`,
	`4294967296`, `9223372036854775807`, `9223372036854775808`, `18446744073709551616`, `-9223372036854775809`,
	`1e39`, `1e400`, `1e-400`, `0.1`, `100`, `101`, `""`, `"x"`, `"red"`, `"green"`, `"Red"`, `"a"`, `"c d"`,
	`"fixed"`, `"1h30m"`, `"90 minutes"`, `"aGk="`, `"!!"`, `"2026-11-30T12:00:00Z"`, `"2026-11-30t12:00:00z"`,
	`"2016-12-31T23:59:60Z"`, `"2026-11-30"`, `"192.0.2.1"`, `"{}"`, `"[]"`, `"{\"name\":\"n\"}"`, `"[1,2]"`,
	`[]`, `[1]`, `[1,2]`, `[1,2,3]`, `["a","a"]`, `["a",1,"a"]`, `["",1]`, `[null]`, `[{}]`, `[[1],["x"]]`,
	`{}`, `{"a":1}`, `{"a":1,"a":2}`, `{"red":1,"pink":2}`, `{"name":"n","children":[{"name":1}]}`,
	`{"key":""}`, `{"x":1}`, `{"x":"1"}`, `"12345678"`, `"hunter2"`, `"AB1"`, `"a,b"`, `0.35`, `0.3`, `-15`, `7`,
}

// Matrix returns, for each property of a tool, the valid base arguments with that
// property set to each of Values.
func Matrix(base string, props []string) []Case {
	var out []Case
	body := strings.TrimSuffix(strings.TrimPrefix(base, "{"), "}")
	for _, p := range props {
		for _, v := range Values {
			args := `{"` + p + `":` + v + `}`
			if body != "" {
				args = `{` + body + `,"` + p + `":` + v + `}`
			}
			out = append(out, Case{Name: p + "=" + v, Args: args})
		}
	}
	return out
}

// PropertyNames returns the names of the properties of a schema's root.
func PropertyNames(t testing.TB, schema []byte) []string {
	dec := json.NewDecoder(strings.NewReader(string(schema)))
	var s struct {
		Properties json.RawMessage `json:"properties"`
	}
	if err := dec.Decode(&s); err != nil {
		t.Fatal(err)
	}
	var names []string
	d := json.NewDecoder(strings.NewReader(string(s.Properties)))
	depth := 0
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch x := tok.(type) {
		case json.Delim:
			if x == '{' || x == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 {
				names = append(names, x)
				// Skip the value.
				var skip json.RawMessage
				if err := d.Decode(&skip); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return names
}
