package engine

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// TestDigestKeepsWhatReadersTellApart: arguments a reader may read as different values
// have different digests: numbers past a float64's precision, duplicate members in
// another order or merged,
// invalid UTF-8 and lone surrogates against a U+FFFD, an object against a string

// TestCanonicalNumber: the canonical text of a number is its value, written as
// json.Marshal writes the float64 of the same digits.
func TestCanonicalNumber(t *testing.T) {
	for in, want := range map[string]string{
		"0": "0", "-0": "0", "0.000": "0", "0e5": "0",
		"1": "1", "-1": "-1", "1.50": "1.5", "0012": "12", "12e3": "12000",
		"1e20": "100000000000000000000", "1e21": "1e+21", "12.5e20": "1.25e+21",
		"1e-6": "0.000001", "1e-7": "1e-7", "-1.5e-7": "-1.5e-7", "123e-9": "1.23e-7",
		"9007199254740993": "9007199254740993", "1e400": "1e+400", "1e-400": "1e-400",
		"1e99999999999999999999": "1e99999999999999999999", "-1E+099999999999999999999": "-1e+099999999999999999999",
	} {
		if got := canonicalNumber(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
	// Where the float64 of a number is exact and its shortest digits are the
	// number's, the canonical text is json.Marshal's: the digests of earlier
	// versions hold.
	for _, f := range []float64{1, 0.5, 3.25, 1e20, 1e21, 1.5e300, 1e-6, 1e-7, 2.5e-10, -7, 123456789} {
		b, _ := json.Marshal(f)
		if got := canonicalNumber(string(b)); got != string(b) {
			t.Errorf("%v: %s, want %s", f, got, b)
		}
	}
}

// FuzzCanonicalNumber: the canonical text of a number has the number's value, is its
// own canonical text, and is the canonical text of the number's other spellings.
func FuzzCanonicalNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "1", "1.5", "1e21", "1e-7", "9007199254740993", "0.000123e+45", "-12.3400E-3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) || strings.ContainsAny(strings.TrimSpace(s), "\"[{tfn") || strings.TrimSpace(s) != s {
			return // no number
		}
		c := canonicalNumber(s)
		if canonicalNumber(c) != c || !json.Valid([]byte(c)) {
			t.Fatalf("%s: canonical %s, and again %s", s, c, canonicalNumber(c))
		}
		mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
		var others []string
		if !hasExp {
			exp = "0"
			others = append(others, s+"e0", s+"E+00")
		}
		if n, err := strconv.Atoi(exp); err == nil && len(exp) <= 6 {
			if strings.Contains(mant, ".") {
				others = append(others, mant+"0e"+exp, mant+"000E"+strconv.Itoa(n))
			} else {
				// ×10 and ÷10, and ×100 and ÷100.
				others = append(others, mant+"0e"+strconv.Itoa(n-1), mant+"00E"+strconv.Itoa(n-2))
			}
		}
		for _, o := range others {
			if !json.Valid([]byte(o)) {
				continue
			}
			if got := canonicalNumber(o); got != c {
				t.Fatalf("%s is %s, and %s is %s", s, c, o, got)
			}
		}
		if hasExp && len(strings.TrimLeft(exp, "+-0")) > 4 {
			return // a value big.Rat would spell out
		}
		var a, b big.Rat
		if _, ok := a.SetString(s); !ok {
			t.Fatalf("big.Rat does not read %s", s)
		}
		if _, ok := b.SetString(c); !ok || a.Cmp(&b) != 0 {
			t.Fatalf("%s is %s, of another value", s, c)
		}
	})
}
