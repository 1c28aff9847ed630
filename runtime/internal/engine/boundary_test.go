package engine

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime/internal/argcheck"
	"github.com/toolgen/toolgen/runtime/invalid"
)

// The decoder tests of the boundary (runtime/boundary_test.go has the rest): numbers
// and violations built to cost more than their size.

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
