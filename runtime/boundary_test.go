package runtime

import (
	"context"
	"fmt"
	"math/big"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime/internal/argcheck"
	"github.com/toolgen/toolgen/runtime/invalid"
)

// The tests of this file attack the boundary as a model would: arguments built to cost
// more than their size, to make sensitive values escape, or to break the promise that
// every call is answered.

// TestMultipleOfExact checks MultipleOf against exact arithmetic, extreme exponents
// included: they are decided from the text, in one pass.
func TestMultipleOfExact(t *testing.T) {
	for _, tc := range []struct {
		num, divisor string
		want         bool
	}{
		{"0.07", "0.01", true},
		{"0.3", "0.1", true},
		{"0.30000000000000004", "0.1", false},
		{"7", "0.01", true},
		{"7.001", "0.01", false},
		{"0", "0.01", true},
		{"-0.0e5", "3", true},
		{"1.5", "0.5", true},
		{"1.25", "0.5", false},
		{"0.75", "0.25", true},
		{"10", "2.5", true},
		{"12.5", "2.5", true},
		{"12.6", "2.5", false},
		{"15", "5", true},
		{"14", "5", false},
		{"1e2", "25", true},
		{"1e1", "4", false},
		{"1e2", "4", true},
		{"3e-1", "1e-1", true},
		{"1e-999999", "0.01", false},
		{"1e-999999", "1e-999999", true},
		{"1e999999", "0.01", true},
		{"1e999999", "3", false},
		{"3e999999", "3", true},
		{"1" + strings.Repeat("0", 1000) + "e-1000", "1", true},
		{"123456789012345678901234567890", "3", true},
		{"123456789012345678901234567891", "3", false},
		{"123456789012345678901234567890", "123456789012345678901234567890", true},
		{"246913578024691357802469135780", "123456789012345678901234567890", true},
		{"246913578024691357802469135781", "123456789012345678901234567890", false},
		{"1e30", "12345678901234567890", false},
		{"1e30", "10000000000000000000000", true},
	} {
		d := NewDecoder([]byte(tc.num), Limits{})
		if _, ok := d.Float(64); !ok && !strings.Contains(tc.num, "e999999") {
			t.Fatalf("Float(%s) failed: %v", tc.num, d.Violations())
		}
		d = NewDecoder([]byte(tc.num), Limits{})
		d.valStart, d.pos = 0, len(tc.num)
		d.MultipleOf(tc.divisor)
		if got := !d.Failed(); got != tc.want {
			t.Errorf("%s multipleOf %s = %v, want %v", tc.num, tc.divisor, got, tc.want)
		}
	}
}

// FuzzMultipleOf checks MultipleOf against big.Rat, and that its work is bounded by the
// size of the number: no allocation beyond a small constant, whatever the exponent.
func FuzzMultipleOf(f *testing.F) {
	for _, s := range []string{"0.07", "1e-999999", "1e999999", "12.5", "-3", "0", "1" + strings.Repeat("0", 300), "9.99e-5"} {
		f.Add(s, "0.01")
		f.Add(s, "2.5")
	}
	f.Fuzz(func(t *testing.T, num, divisor string) {
		if !jsonNumber.MatchString(num) || jsonNumber.FindString(num) != num ||
			!jsonNumber.MatchString(divisor) || jsonNumber.FindString(divisor) != divisor || len(divisor) > 40 {
			return
		}
		q, _ := parseDecimal([]byte(divisor))
		if q.zero() {
			return
		}
		d := NewDecoder([]byte(num), Limits{})
		d.valStart, d.pos = 0, len(num)
		allocs := testing.AllocsPerRun(3, func() {
			d.violations, d.omitted, d.textBytes = nil, 0, 0
			d.MultipleOf(divisor)
		})
		got := !d.Failed()
		if q.len() <= 19 && allocs > 8 { // the violation's text, when it fails; never the number's size
			t.Fatalf("%s multipleOf %s: %.0f allocations", num, divisor, allocs)
		}
		if exponentDigits(num) > 4 || exponentDigits(divisor) > 4 {
			return // big.Rat takes too long to be the reference
		}
		var x, y big.Rat
		x.SetString(num)
		y.SetString(divisor)
		if want := x.Quo(&x, &y).IsInt(); got != want {
			t.Fatalf("%s multipleOf %s = %v, want %v", num, divisor, got, want)
		}
	})
}

// exponentDigits counts the significant digits of a number's exponent.
func exponentDigits(num string) int {
	i := strings.IndexAny(num, "eE")
	if i < 0 {
		return 0
	}
	return len(strings.TrimLeft(num[i+1:], "+-0"))
}

// TestIntegralNumbers checks that every integral number is an integer, as JSON Schema
// says and the published schemas promise, with range checks on the value.
func TestIntegralNumbers(t *testing.T) {
	for _, tc := range []struct {
		num  string
		want int64
		code invalid. // "" when accepted
			Code
	}{
		{"2.0", 2, ""},
		{"1e1", 10, ""},
		{"1E+1", 10, ""},
		{"150e-1", 15, ""},
		{"-2.50e1", -25, ""},
		{"0.0", 0, ""},
		{"-0e-7", 0, ""},
		{"9.223372036854775807e18", 9223372036854775807, ""},
		{"2.5", 0, invalid.Type},
		{"1e-1", 0, invalid.Type},
		{"1.0000000000000000001", 0, invalid.Type},
		{"1e19", 0, invalid.Range},
		{"1e999999999999", 0, invalid.Range},
		{"1e-999999999999", 0, invalid.Type},
		{"1" + strings.Repeat("0", 100000) + "e-100000", 1, ""},
		{"15e-1", 0, invalid.Type},
		{"1.5e3", 0, invalid.Maximum}, // 1500 > 1000
	} {
		d := NewDecoder([]byte(tc.num), Limits{})
		got, ok := d.Int(-1000000000000000000*9, 1000)
		if tc.want > 1000 {
			d = NewDecoder([]byte(tc.num), Limits{})
			got, ok = d.Int(-1<<63, 1<<63-1)
		}
		var code invalid.Code
		if vs := d.Violations(); len(vs) > 0 {
			code = vs[0].Code
		}
		if ok != (tc.code == "") || code != tc.code || ok && got != tc.want {
			t.Errorf("Int(%.40s) = %d, %v (%s), want %d (%s)", tc.num, got, ok, code, tc.want, tc.code)
		}
	}
	for _, tc := range []struct {
		num  string
		want uint64
		ok   bool
	}{
		{"3.0", 3, true},
		{"1.8446744073709551615e19", 18446744073709551615, true},
		{"1.8446744073709551616e19", 0, false},
		{"-0.0", 0, true},
		{"-1e0", 0, false},
		{"0.5", 0, false},
	} {
		d := NewDecoder([]byte(tc.num), Limits{})
		got, ok := d.Uint(0, 1<<64-1)
		if ok != tc.ok || got != tc.want {
			t.Errorf("Uint(%s) = %d, %v, want %d, %v", tc.num, got, ok, tc.want, tc.ok)
		}
	}
}

// TestDateTimeCase checks the lowercase "t" and "z" RFC 3339 allows (section 5.6).
func TestDateTimeCase(t *testing.T) {
	for _, s := range []string{"2026-01-02t03:04:05z", "2026-01-02T03:04:05z", "2026-01-02t03:04:05.5+01:00"} {
		d := NewDecoder([]byte(strconv.Quote(s)), Limits{})
		got, ok := d.Time()
		want := strings.ToUpper(s)
		if !ok || got.Format("2006-01-02T15:04:05.999999999Z07:00") != want {
			t.Errorf("Time(%s) = %v, %v; want %s", s, got, ok, want)
		}
		if !argcheck.FormatDateTime.Valid(s) {
			t.Errorf("format date-time refuses %s", s)
		}
	}
	d := NewDecoder([]byte(`"2026-01-02x03:04:05z"`), Limits{})
	if _, ok := d.Time(); ok {
		t.Error("Time accepted an x between date and time")
	}
}

// manyMistakes decodes an object that must be empty, as EmptyObject does, so every
// property is a violation.
func manyMistakes(args []byte, limits Limits) *Decoder {
	d := NewDecoder(args, limits)
	d.EmptyObject()
	d.Finish()
	return d
}

func unknownKeys(n int) []byte {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":0`, i)
	}
	b.WriteByte('}')
	return []byte(b.String())
}

// TestViolationBudget checks that violations are reported up to the budget, at the
// limit and one past it, and counted after it.
func TestViolationBudget(t *testing.T) {
	for _, tc := range []struct {
		keys, kept, omitted int
		limits              Limits
	}{
		{DefaultMaxViolations, DefaultMaxViolations, 0, Limits{}},
		{DefaultMaxViolations + 1, DefaultMaxViolations, 1, Limits{}},
		{90000, DefaultMaxViolations, 90000 - DefaultMaxViolations, Limits{}},
		{5, 3, 2, Limits{MaxViolations: 3}},
		{3, 3, 0, Limits{MaxViolations: 3}},
	} {
		d := manyMistakes(unknownKeys(tc.keys), tc.limits)
		if len(d.Violations()) != tc.kept || d.Omitted() != tc.omitted || !d.Failed() {
			t.Errorf("%d unknown keys, %+v: kept %d, omitted %d; want %d, %d", tc.keys, tc.limits, len(d.Violations()), d.Omitted(), tc.kept, tc.omitted)
		}
	}
	// The byte budget: each violation here takes 46 bytes of text.
	one := len(manyMistakes([]byte(`{"k0":0}`), Limits{}).Violations()[0].Path) +
		len(manyMistakes([]byte(`{"k0":0}`), Limits{}).Violations()[0].Message)
	for _, tc := range []struct{ budget, kept int }{
		{2 * one, 2},   // at the limit: the third would start past it
		{2*one + 1, 3}, // one past: the third still starts within it
		{2*one - 1, 2}, // the second starts within it
		{one, 1},       //
		{one - 1, 1},   // the first always fits
	} {
		d := manyMistakes(unknownKeys(9), Limits{MaxViolationBytes: tc.budget})
		if len(d.Violations()) != tc.kept || d.Omitted() != 9-tc.kept {
			t.Errorf("byte budget %d (%d a violation): kept %d, omitted %d; want %d", tc.budget, one, len(d.Violations()), d.Omitted(), tc.kept)
		}
	}
	err := &invalid.ArgumentError{Tool: "t", Violations: manyMistakes(unknownKeys(90000), Limits{}).Violations(), Omitted: 89980}
	msg := err.Error()
	if len(msg) > DefaultMaxViolationBytes+512 || !strings.HasSuffix(msg, "; and 89980 more violations not listed") {
		t.Errorf("message of %d bytes ends %q", len(msg), msg[max(0, len(msg)-80):])
	}
}

// TestCallMemoryBoundedBySize checks that a call with ninety thousand mistakes
// costs memory in proportion to its size, for the model's text, the result and the
// observer's event alike.
func TestCallMemoryBoundedBySize(t *testing.T) {
	var events []Event
	ts := newTestSet().WithObserver(func(_ context.Context, e Event) { events = append(events, e) })
	args := unknownKeys(90000) // about 1 MiB
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := ts.Call(context.Background(), "nothing", args)
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(args)) {
		t.Errorf("a call of %d bytes allocated %d bytes", len(args), alloc)
	}
	if !r.IsError || len(r.Text()) > DefaultMaxViolationBytes+512 {
		t.Errorf("result of %d bytes", len(r.Text()))
	}
	if e := events[0]; len(e.Violations) != DefaultMaxViolations || e.OmittedViolations != 90000-DefaultMaxViolations {
		t.Errorf("event: %d violations, %d omitted", len(e.Violations), e.OmittedViolations)
	}
}

// TestLongNamesCostLittle checks that a very long unknown property or tool name is cut
// in the text and not compared with the known names character by character.
func TestLongNamesCostLittle(t *testing.T) {
	long := strings.Repeat("x", 1<<20-10)
	args := []byte(`{"` + long + `":1}`)
	var r *Result
	allocs := testing.AllocsPerRun(2, func() { r = newTestSet().Call(context.Background(), "echo", args) })
	if allocs > 40 || len(r.Text()) > 300 || !strings.Contains(r.Text(), "/xxxx") {
		t.Errorf("%.0f allocations, text %q", allocs, r.Text())
	}
	allocs = testing.AllocsPerRun(2, func() { r = newTestSet().Call(context.Background(), long, nil) })
	if allocs > 40 || len(r.Text()) > 400 || !strings.Contains(r.Text(), "bytes)") {
		t.Errorf("%.0f allocations, text %q", allocs, r.Text())
	}
}

// secretText is a TextUnmarshaler whose parse error quotes its input, as netip.Addr's
// and many custom types' do.
type secretText struct{ s string }

func (s *secretText) UnmarshalText(b []byte) error {
	if !strings.HasPrefix(string(b), "ok") {
		return fmt.Errorf("bad token %q", b)
	}
	s.s = string(b)
	return nil
}

// TestSensitiveTextErrors checks that a sensitive value that fails to parse itself is
// not quoted by its own error, nor by the value got, nor through map keys.
func TestSensitiveTextErrors(t *testing.T) {
	for _, sensitive := range []bool{true, false} {
		d := NewDecoder([]byte(`{"token":"hunter2","keys":{"hunter3":"hunter4"}}`), Limits{})
		d.BeginObject()
		for d.NextField() {
			name := string(d.FieldName())
			if sensitive {
				d.EnterSensitive(name)
			} else {
				d.Enter(name)
			}
			switch name {
			case "token":
				var v secretText
				d.Text(&v)
			case "keys":
				d.BeginObject()
				for d.NextField() {
					d.Enter(string(d.FieldName()))
					var v secretText
					s, _ := d.String()
					d.SetText(&v, s)
					d.Leave()
				}
			}
			d.Leave()
		}
		d.Finish()
		var text []string
		for _, v := range d.Violations() {
			text = append(text, v.String())
		}
		all := strings.Join(text, "; ")
		if got := strings.Contains(all, "hunter"); got == sensitive {
			t.Errorf("sensitive=%v: %s", sensitive, all)
		}
		if sensitive && all != "/token: is not valid; /keys/*: is not valid" {
			t.Errorf("sensitive violations: %s", all)
		}
	}
	// Long parse errors are cut.
	d := NewDecoder([]byte(strconv.Quote(strings.Repeat("y", 5000))), Limits{})
	var v secretText
	d.Text(&v)
	if msg := d.Violations()[0].Message; len(msg) > maxTextErrorBytes+20 {
		t.Errorf("a parse error of %d bytes", len(msg))
	}
}

// TestRedactEveryForm checks that Redact hides sensitive values however they arrive:
// in an object sent as a string, in arguments encoded twice, or in a value of another
// type than the schema's.
func TestRedactEveryForm(t *testing.T) {
	tool := &Tool{Sensitive: []string{"/password", "/card/number", "/users/*/token"}}
	for _, args := range []string{
		`{"password":"s3cr3t","card":{"number":"4111"},"users":[{"token":"tk1"}]}`,
		`{"password":"s3cr3t","card":"{\"number\":\"4111\"}","users":"[{\"token\":\"tk1\"}]"}`,
		`"{\"password\":\"s3cr3t\",\"card\":{\"number\":\"4111\"},\"users\":[{\"token\":\"tk1\"}]}"`,
		`{"password":{"x":"s3cr3t"},"card":"4111","users":["tk1"]}`,
		`{"password":"s3cr3t","card":"{\"number\":\"4111\"","users":[4111]}`,
		`{"card":4111,"users":{"0":{"token":"tk1"}}}`,
		`{"c\u0061rd":{"n\u0075mber":"4111"}}`,
	} {
		out := string(Redact(tool, []byte(args)))
		for _, secret := range []string{"s3cr3t", "4111", "tk1"} {
			if strings.Contains(out, secret) {
				t.Errorf("Redact(%s) = %s", args, out)
			}
		}
		if !strings.Contains(out, Redacted) {
			t.Errorf("Redact(%s) = %s, redacting nothing", args, out)
		}
	}
	if out := string(Redact(tool, []byte(`{"other":"visible","card":{"brand":"visa"}}`))); out != `{"card":{"brand":"visa"},"other":"visible"}` {
		t.Errorf("Redact hid what is not sensitive: %s", out)
	}
}

// TestModelTextIsValidUTF8 checks that invalid bytes in a value are never echoed raw.
func TestModelTextIsValidUTF8(t *testing.T) {
	for _, args := range []string{
		"{\"x\":\"\xff\xfe\",\"name\":\"ab\"}",
		"{\"x\":\"" + strings.Repeat("é", 23) + "\xe9\xff" + "\",\"name\":\"ab\"}",
		"{\"\xff\xfe\":1}",
		"{\"x\":1,\"name\":\"ab\",\"tags\":\"\xc3\"}",
	} {
		_, msgs := decode(args, Limits{})
		for _, m := range msgs {
			if !utf8.ValidString(m) {
				t.Errorf("%q: violation %q is not valid UTF-8", args, m)
			}
		}
		if len(msgs) == 0 {
			t.Errorf("%q: no violation", args)
		}
	}
}

// goexitTools: a tool that ends its goroutine, as a test helper's t.FailNow does.
var goexitTools = [...]Tool{{Name: "goexit"}, {Name: "ok"}}

func dispatchGoexit(i int, d *Decoder) invocation {
	d.EmptyObject()
	if !d.Finish() {
		return nil
	}
	if i == 0 {
		return func(context.Context) (*Result, error) {
			runtime.Goexit()
			return nil, nil
		}
	}
	return func(context.Context) (*Result, error) { return TextResult("fine"), nil }
}

// TestCallAlwaysAnswers checks the promise that Call returns a result, and RunCalls one
// per call under its id, whatever the tool does and whatever the caller passes.
func TestCallAlwaysAnswers(t *testing.T) {
	ts := NewToolset(goexitTools[:], dispatchGoexit)
	done := make(chan *Result, 1)
	go func() { done <- ts.Call(context.Background(), "goexit", nil) }()
	r := <-done
	if !r.IsError || r.Outcome != OutcomeInternalError || r.Text() != "goexit failed with an internal error" ||
		r.Err == nil || !strings.Contains(r.Err.Error(), "Goexit") {
		t.Errorf("goexit: %v %q %v", r.IsError, r.Text(), r.Err)
	}
	calls := []ToolCall{{ID: "a", Name: "goexit"}, {ID: "b", Name: "ok"}, {ID: "c", Name: "goexit"}}
	results := ts.RunCalls(context.Background(), calls, 0)
	if err := checkResults(calls, results); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false, true} {
		if results[i].Call.ID != calls[i].ID || results[i].Result == nil || results[i].Result.IsError != want {
			t.Errorf("result %d: %+v", i, results[i])
		}
	}
	//lint:ignore SA1012 a nil context is what this checks
	if r := ts.Call(nil, "ok", nil); r.IsError || r.Text() != "fine" { //nolint:staticcheck
		t.Errorf("nil context: %v %q", r.IsError, r.Text())
	}
	if r := (*Toolset)(nil).Call(context.Background(), "ok", nil); !r.IsError || r.Outcome != OutcomeUnknownTool {
		t.Errorf("nil Toolset: %v %q", r.IsError, r.Text())
	}
	panicky := ts.WithObserver(func(context.Context, Event) { panic("observer bug") })
	if r := panicky.Call(context.Background(), "ok", nil); r.IsError || r.Text() != "fine" {
		t.Errorf("panicking observer: %v %q", r.IsError, r.Text())
	}
}

// TestRedactWrongShapes checks that Redact hides what stands where a sensitive path
// goes on in another shape than the schema's, and that an observer is given no
// rejected arguments of a tool with sensitive properties.
func TestRedactWrongShapes(t *testing.T) {
	tool := &Tool{Name: "vault", Sensitive: []string{"/password", "/login/pin"}}
	for _, args := range []string{
		`[{"password":"s3cr3t"}]`,
		`{"login":[{"pin":"s3cr3t"}]}`,
		`{"login":[["s3cr3t"]]}`,
		`"[{\"password\":\"s3cr3t\"}]"`,
	} {
		if out := string(Redact(tool, []byte(args))); strings.Contains(out, "s3cr3t") {
			t.Errorf("Redact(%s) = %s", args, out)
		}
	}
	var got []Event
	tools := [...]Tool{{Name: "vault", Sensitive: []string{"/password"}}}
	ts := NewToolset(tools[:], func(int, *Decoder) invocation { return nil }).
		WithArgumentLogging(true).
		WithObserver(func(_ context.Context, e Event) { got = append(got, e) })
	ts.Call(context.Background(), "vault", []byte(`{"pasword":"s3cr3t"}`))
	if len(got) != 1 || strings.Contains(string(got[0].Arguments), "s3cr3t") || got[0].Arguments == nil {
		t.Errorf("event arguments: %s", got[0].Arguments)
	}
}

// TestApproverGoexit checks that an approver that ends its goroutine denies the call
// instead of leaving Call without an answer.
func TestApproverGoexit(t *testing.T) {
	ts := NewToolset(goexitTools[:], dispatchGoexit).
		WithApprover(func(context.Context, ApprovalRequest) Decision { runtime.Goexit(); return Allow() })
	done := make(chan *Result, 1)
	go func() { done <- ts.Call(context.Background(), "ok", nil) }()
	r := <-done
	if !r.IsError || r.Outcome != OutcomeDenied || r.Err == nil || !strings.Contains(r.Err.Error(), "Goexit") {
		t.Errorf("got %v %s %q %v", r.IsError, r.Outcome, r.Text(), r.Err)
	}
}

// TestUnknownToolEventCut checks that an unknown tool's name reaches observers cut and
// valid UTF-8, as the model's message has it.
func TestUnknownToolEventCut(t *testing.T) {
	var got Event
	ts := newTestSet().WithObserver(func(_ context.Context, e Event) { got = e })
	ts.Call(context.Background(), strings.Repeat("n", 1<<20)+"\xff", nil)
	if len(got.Tool) > 2*maxNameBytes || !utf8.ValidString(got.Tool) || got.Outcome != OutcomeUnknownTool {
		t.Errorf("event tool of %d bytes, outcome %s", len(got.Tool), got.Outcome)
	}
}

// TestRedactCaseFolded checks that a sensitive property sent under another casing, which
// the decoder refuses, is redacted all the same.
func TestRedactCaseFolded(t *testing.T) {
	tool := &Tool{Sensitive: []string{"/secret", "/login/password"}}
	out := string(Redact(tool, []byte(`{"SECRET":"s3cr3t","Login":{"passWord":"pw-s3cr3t"}}`)))
	if strings.Contains(out, "s3cr3t") {
		t.Errorf("Redact = %s", out)
	}
}

// TestNilToolset checks that a nil *Toolset reads as an empty one, for the adapters
// that list its tools.
func TestNilToolset(t *testing.T) {
	var ts *Toolset
	if ts.Tools() != nil || ts.Len() != 0 {
		t.Error("a nil Toolset has tools")
	}
	if _, ok := ts.Lookup("x"); ok {
		t.Error("a nil Toolset looks a tool up")
	}
	calls := []ToolCall{{ID: "a", Name: "x"}, {ID: "b", Name: "y"}}
	results := ts.RunCalls(context.Background(), calls, 0)
	if err := checkResults(calls, results); err != nil || results[0].Result.Outcome != OutcomeUnknownTool {
		t.Errorf("RunCalls on a nil Toolset: %v", err)
	}
	if ts.Group("g").Len() != 0 || ts.Select("x").Len() != 0 || ts.WithTimeout(time.Second).Len() != 0 {
		t.Error("a view of a nil Toolset has tools")
	}
	if n := Join(nil, newTestSet(), nil).Len(); n != newTestSet().Len() {
		t.Errorf("Join with nil sets: %d tools", n)
	}
}
