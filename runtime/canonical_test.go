package runtime

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// TestDigestIsTheValue: arguments have one digest if and only if they are equal as
// JSON values. A digest read through float64 gave an approval of account
// 9007199254740992 to account 9007199254740993 as well.
func TestDigestIsTheValue(t *testing.T) {
	same := [][]string{
		{`{"id":1}`, `{ "id" : 1 }`, `{"id":1.0}`, `{"id":10e-1}`, `{"id":0.1e1}`, `{"id":1E0}`, `{"id":1e+0}`, `{"\u0069d":1}`},
		{`{"a":1,"b":[true,null,"x"]}`, `{"b":[true,null,"x"],"a":1}`, "{\n\t\"b\" : [ true , null , \"\\u0078\" ] ,\"a\":1}"},
		{`{"n":0}`, `{"n":-0}`, `{"n":0.0}`, `{"n":0e99999999999999999999}`, `{"n":-0.000e-5}`},
		{`{"n":1e21}`, `{"n":1000000000000000000000}`, `{"n":10e20}`},
		{`{"n":0.000001}`, `{"n":1e-6}`, `{"n":100e-8}`},
		{`{"s":"<&>"}`, `{"s":"\u003c\u0026\u003e"}`},
		{`{"s":"a/b"}`, `{"s":"a\/b"}`},
		{``, `{}`},
	}
	distinct := []string{
		`{"id":9007199254740992}`, `{"id":9007199254740993}`, `{"id":9007199254740994}`,
		`{"id":1}`, `{"id":-1}`, `{"id":1.0000000000000001}`, `{"id":"1"}`, `{"id":[1]}`, `{"id":true}`, `{"id":null}`,
		`{"id":1e400}`, `{"id":1e401}`, `{"id":1e-400}`, `{"id":0.30000000000000001}`, `{"id":0.3}`,
		`{"id":123456789012345678901234567890}`, `{"id":123456789012345678901234567891}`,
		`{"id":1e99999999999999999999}`, `{"id":1e99999999999999999998}`,
		`{"Id":1}`, `{"id":1,"x":null}`, `{}`, `[]`, `null`,
		`{"id":1,"id":2}`, `{"id":2,"id":1}`, `{"id":2}`, `{"id":1} {"id":1}`, `{"id":`,
	}
	for _, group := range same {
		for _, a := range group[1:] {
			if Digest("t", []byte(a)) != Digest("t", []byte(group[0])) {
				t.Errorf("%s and %s: two digests", group[0], a)
			}
		}
	}
	seen := map[string]string{}
	for _, a := range distinct {
		d := Digest("t", []byte(a))
		if b, ok := seen[d]; ok {
			t.Errorf("%s and %s: one digest", a, b)
		}
		seen[d] = a
	}
	if Digest("t", []byte(`{}`)) == Digest("u", []byte(`{}`)) {
		t.Error("two tools: one digest")
	}
}

// TestCanonicalNumber: the canonical text of a number is its value, written as
// json.Marshal writes the float64 of the same digits.
func TestCanonicalNumber(t *testing.T) {
	for in, want := range map[string]string{
		"0": "0", "-0": "0", "0.000": "0", "0e5": "0",
		"1": "1", "-1": "-1", "1.50": "1.5", "0012": "12", "12e3": "12000",
		"1e20": "100000000000000000000", "1e21": "1e+21", "12.5e20": "1.25e+21",
		"1e-6": "0.000001", "1e-7": "1e-7", "-1.5e-7": "-1.5e-7", "123e-9": "1.23e-7",
		"9007199254740993": "9007199254740993", "1e400": "1e+400", "1e-400": "1e-400",
		"1e99999999999999999999": "1e+99999999999999999999",
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

// TestRedactKeepsNumbers: the redacted arguments people approve show each number as
// the model sent it: read through float64 they showed account 9007199254740992 for a
// call on 9007199254740993, and no arguments at all for a number past float64's range.
func TestRedactKeepsNumbers(t *testing.T) {
	tool := &Tool{Name: "wipe", Sensitive: []string{"/pin"}}
	for in, want := range map[string]string{
		`{"id":9007199254740993,"pin":1234}`: `{"id":9007199254740993,"pin":"[redacted]"}`,
		`{"n":1e400,"m":-0.10}`:              `{"m":-0.10,"n":1e400}`,
		`{"a":[1.0,2E5]}`:                    `{"a":[1.0,2E5]}`,
		`{"id":01}`:                          `"[malformed arguments, not shown]"`,
	} {
		if got := string(Redact(tool, []byte(in))); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}
