package validator_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	playground "github.com/go-playground/validator/v10"

	"github.com/toolgen/toolgen/interop/validator"
	"github.com/toolgen/toolgen/runtime"
)

// The differential test: for each tool of package validator (one per validate rule or
// set of rules that toolgen reads) and each value of its corpus, sent as the property
// v or left out, the generated decoder accepts the arguments if and only if
// encoding/json and go-playground/validator's Struct accept them, but for the
// differences that differences lists with their reasons; and whatever the decoder
// accepts passes validator.Struct when the tool gets it, with no exception: a
// function never receives a value its own rules forbid.

// corpora are the JSON values sent as v, by the corpus a case names: the boundary
// values of every rule of the table, and the inputs each format check is known to get
// wrong.
var corpora = map[string][]string{
	"string": texts(
		// lengths, in characters
		"", "a", "ab", "abc", "abcd", "abcde", "é", "éé", "ééé", "éééé", "ééééé",
		// values
		"red", "green", "sky blue", "sky", "Red", "b", "c",
		// email
		"a@b.co", "@b.co", "a@", "a@b", "A@B.CO", "a.b@c.d", ".a@b.co", "a.@b.co", "a..b@c.d",
		`"a b"@c.d`, `""@b.co`, "a@[1.2.3.4]", "a@[IPv6:::1]", "a+b@c-d.e", "a@b_c.d", "a@-b.c",
		"a@b.c-", "josé@bücher.de", "a@b..c", "a b@c.d", "a@b.c.", "a@1.2.3.4",
		"a@"+strings.Repeat("b", 64)+".co", strings.Repeat("a", 65)+"@b.co", strings.Repeat("a", 64)+"@b.co",
		// uri and url
		"http://a.b", "https://a.b/c?d#e", "file:a b?q", "file:///a%20b", "file:///a b", "mailto:a@b.co",
		"/a/b", "a:b", "http://", "http:// a", "urn:isbn:0451450523", "http://[::1]:80/", "http://a b.c",
		"x", ":", "a:", "http://a.b/%zz", "http://a.b/c d", "HTTP://A.B", "1a:b", "a+b-c.d:e",
		"http://a.b#f#g", "http://[::1", "http://a.b/\u00e9", "ftp://a.b/c", "http:/a", "http:a.b",
		// uuid
		"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000",
		"123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400", "00000000-0000-0000-0000-000000000000",
		"{123e4567-e89b-12d3-a456-426614174000}", "urn:uuid:123e4567-e89b-12d3-a456-426614174000",
		"123e4567-e89b-12d3-a456-42661417400g",
		// ipv4
		"1.2.3.4", "+1.2.3.4", "1.+2.3.4", "01.2.3.4", "256.1.1.1", "1.2.3", "1.2.3.4.5", "0.0.0.0",
		" 1.2.3.4", "1.2.3.-0", "1.2.3.4/8", "1.2.3.00", "255.255.255.255", "1.2.3.4 ",
		// ipv6
		"::1", "::", "1::", "::ffff:1.2.3.4", "fe80::1%eth0", "[::1]", "2001:db8::1", "1:2:3:4:5:6:7:8",
		"1:2:3:4:5:6:7:8:9", "2001:DB8::1", ":::1", "1::2::3", "::ffff:01.2.3.4", "::1/128",
		// hostnames
		"a.b", "a-b.c", "-a.b", "a.b.", "1a.b", "123", "a_b", "a..b", ".a", "a-", "1-a", "localhost",
		"xn--bcher-kva.de", "bücher.de", "a.b-", "A.B", "1.2.3.4.com",
		strings.Repeat("a", 63)+".b", strings.Repeat("a", 64)+".b",
		strings.Repeat("a.", 126)+"a", strings.Repeat("a.", 126)+"ab", strings.Repeat("a.", 127)+"a",
		// date-times, dates, times
		"2024-01-31T09:30:00Z", "2024-01-31t09:30:00z", "2024-01-31T09:30:00+01:00", "2024-01-31T09:30:00.123Z",
		"2024-02-30T00:00:00Z", "2024-01-31 09:30:00Z", "2016-12-31T23:59:60Z", "2024-01-31T24:00:00Z",
		"2024-1-31T09:30:00Z", "2024-01-31T09:30:00", "2024-01-31T09:30Z", "2024-01-31T09:30:00+0100",
		"2024-01-31T09:30:00.Z", "0000-01-01T00:00:00Z", "2024-01-31T09:30:00+24:00",
		"2024-01-31", "2024-02-29", "2023-02-29", "2024-1-31", "20240131", "0000-01-01", "2024-01-31Z", "2024-13-01",
		"09:30:00Z", "09:30:00+01:00", "09:30:00.5Z", "9:30:00Z", "23:59:60Z", "09:30:00", "09:30:00z",
		"24:00:00Z", "09:30Z", "09:30:00-00:00",
	),
	"int": []string{
		"-200", "-129", "-128", "-6", "-5", "-4", "-1", "0", "1", "2", "3", "4", "5", "6", "9", "10", "11",
		"127", "128", "129", "130", "131", "200", "255", "256", "404", "-0", "2.0", "1e1", "2.5", "1E2",
		"9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551615",
		`"1"`, "true",
	},
	"float": []string{
		"0", "-0", "0.5", "0.49999", "1", "1.4999", "1.5", "1.5000001", "1.6", "-0.1", "1e-9", "2", "1e308", "-1",
		"5e-1", `"1"`,
	},
	"bool":     []string{"true", "false", "0", `"true"`},
	"time":     texts("2024-01-31T09:30:00Z", "0001-01-01T00:00:00Z", "0001-01-01T00:00:00+00:00", "0001-01-01T01:00:00+01:00", "0001-01-01T00:00:00.000Z", "2024-01-31T09:30:00+01:00", "2024-01-31"),
	"duration": []string{`"0s"`, `"1s"`, `"1h30m"`, `"-1s"`, `"0"`, "0", "1000000000"},
	"strings": []string{
		"[]", `[""]`, `["a"]`, `["b"]`, `["c"]`, `["ab"]`, `["ab","cd"]`, `["ab","ab"]`, `["a","a"]`, `["a","b"]`,
		`["ab","cd","ef"]`, `["ab","cd","ef","gh"]`, `["a@b.co"]`, `["a@b.co","x"]`, `["a@b.co","c@d.co","e@f.co"]`,
		`["ab",""]`, `[1]`, `"ab"`, `"[\"ab\"]"`, `"[]"`,
	},
	"times":  []string{"[]", `["2024-01-31T09:30:00Z"]`, `["0001-01-01T00:00:00Z"]`, `["2024-01-31T09:30:00Z","0001-01-01T00:00:00Z"]`, `["0001-01-01T01:00:00+01:00"]`},
	"ints":   []string{"[]", "[0]", "[1]", "[1,1]", "[1,2]", "[1,0]", "[2,2,3]", `["1"]`},
	"mapint": []string{`{}`, `{"a":1}`, `{"a":0}`, `{"a":1,"b":1}`, `{"a":1,"b":2}`, `{"a":1,"b":2,"c":3}`, `{"a":"1"}`, `[]`},
	"mapstr": []string{`{}`, `{"a":"x"}`, `{"a":"x","b":"x"}`, `{"a":"x","b":"y"}`, `{"a":"","b":""}`},
}

// texts returns the JSON texts of ss.
func texts(ss ...string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		b, err := json.Marshal(s)
		if err != nil {
			panic(err)
		}
		out[i] = string(b)
	}
	return out
}

// A call is one tool's arguments: v set to a JSON value, or left out (v == "").
type call struct {
	c validator.Case
	v string
}

func (k call) args() []byte {
	if k.v == "" {
		return []byte("{}")
	}
	return []byte(`{"v":` + k.v + `}`)
}

func (k call) String() string {
	return fmt.Sprintf("%s (validate:%q) %s", k.c.Type, k.c.Rules, k.args())
}

// An outcome is what both sides say of a call.
type outcome struct {
	toolgen   bool   // the decoder accepts the arguments
	message   string // the decoder's error, when it refuses them
	validator bool   // encoding/json and validator.Struct accept them
	why       string // what refused them on the validator's side
	// forbidden is what validator.Struct says of the value the tool got, when it
	// refuses it.
	forbidden string
}

// A harness calls the tools and the oracle.
type harness struct {
	rec   *validator.Recorder
	tools *runtime.Toolset
	v     *playground.Validate
}

func newHarness() *harness {
	rec := &validator.Recorder{}
	return &harness{rec: rec, tools: validator.RecorderTools(rec), v: playground.New()}
}

// oracle is encoding/json, then validator.Struct (a panic of the validator is a
// refusal).
func (h *harness) oracle(p any, data []byte) (why string) {
	if err := json.Unmarshal(data, p); err != nil {
		return "encoding/json: " + err.Error()
	}
	return h.check(p)
}

func (h *harness) check(p any) (why string) {
	defer func() {
		if r := recover(); r != nil {
			why = fmt.Sprintf("validator panics: %v", r)
		}
	}()
	if err := h.v.Struct(p); err != nil {
		return "validator: " + err.Error()
	}
	return ""
}

func (h *harness) run(k call) outcome {
	var o outcome
	h.rec.Got = nil
	res := h.tools.Call(context.Background(), k.c.Tool, k.args())
	o.toolgen = !res.IsError
	if res.IsError {
		o.message = res.Text()
	} else if h.rec.Got == nil {
		o.toolgen, o.message = false, "the tool did not run: "+res.Text()
	} else {
		o.forbidden = h.check(h.rec.Got)
	}
	o.why = h.oracle(k.c.New(), k.args())
	o.validator = o.why == ""
	return o
}

// calls returns every call of the table: each case with v left out, null, and each
// value of its corpus.
func calls(t testing.TB) []call {
	var out []call
	for _, c := range validator.Cases() {
		vals, ok := corpora[c.Corpus]
		if !ok {
			t.Fatalf("%s: no corpus %q", c.Type, c.Corpus)
		}
		out = append(out, call{c, ""}, call{c, "null"})
		for _, v := range vals {
			out = append(out, call{c, v})
		}
	}
	return out
}

func TestDifferential(t *testing.T) {
	h := newHarness()
	all := calls(t)
	disagree, forbidden, documented := 0, 0, map[string]int{}
	for _, k := range all {
		o := h.run(k)
		reason := difference(k, o)
		if o.toolgen && o.forbidden != "" {
			forbidden++
			if reason == "" {
				t.Errorf("%s: the tool got a value its rules forbid: %s", k, o.forbidden)
			}
		}
		if o.toolgen == o.validator {
			continue
		}
		disagree++
		if reason != "" {
			documented[reason]++
			continue
		}
		if o.toolgen {
			t.Errorf("%s: toolgen accepts, the validator refuses: %s", k, o.why)
		} else {
			t.Errorf("%s: toolgen refuses (%s), the validator accepts", k, o.message)
		}
	}
	t.Logf("%d calls, %d disagreements (%d giving the tool a value its rules forbid), all but %d documented", len(all), disagree, forbidden, disagree-sum(documented))
	reasons := make([]string, 0, len(documented))
	for r := range documented {
		reasons = append(reasons, r)
	}
	slices.Sort(reasons)
	for _, r := range reasons {
		t.Logf("%4d  %s", documented[r], r)
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// difference returns why toolgen differs from the validator on a call, by design, or
// "" when it should not. Each reason is a row of the table of differences in docs/reference.md.
func difference(k call, o outcome) string {
	rules := k.c.Rules
	switch {
	case !o.toolgen && k.c.Options == "" && !strings.HasPrefix(k.c.GoType, "*") && (k.v == "" || k.v == "null"):
		return "json tag: a property without omitempty (or omitzero) is required, and not null, even where the validator would take its zero value"
	case strings.HasPrefix(rules, "omitempty,") || strings.HasPrefix(rules, "omitzero,"):
		if !o.toolgen && isZero(k.v) {
			return "omitempty: an explicit zero value (\"\", 0) must keep the other rules, which the validator skips"
		}
	case strings.HasSuffix(rules, "required") && strings.HasPrefix(k.c.Corpus, "time") && !o.toolgen:
		return "required on a time.Time: the decoder refuses the zero instant in any zone, the validator only the zero struct (an offset makes it non-zero)"
	case rules == "uri" || rules == "ip":
		return "uri and ip: not read (warned at generate time)"
	}
	if o.toolgen && doubleEncoded(k.v) && (strings.Contains(k.c.GoType, "[]") || strings.Contains(k.c.GoType, "map[")) {
		return "an object or array sent as a JSON string holding it is decoded from it (some clients double-encode)"
	}
	if !o.toolgen && strings.Contains(o.message, ": duplicate property") {
		return "duplicate keys are refused (encoding/json keeps the last)"
	}
	if k.c.Corpus == "duration" {
		return "time.Duration: a string such as \"1h30m\" (encoding/json reads nanoseconds)"
	}
	if o.toolgen && strings.Contains(o.why, "cannot unmarshal number") {
		if n, err := strconv.ParseFloat(k.v, 64); err == nil && n == float64(int64(n)) {
			return "integers: any integral JSON number is an integer (2.0, 1e1, -0), as JSON Schema says; encoding/json takes digits only"
		}
	}
	for _, f := range []string{"email", "url", "ipv4", "ipv6", "hostname", "hostname_rfc1123", "datetime=2006-01-02T15:04:05Z07:00", "datetime=15:04:05Z07:00"} {
		if strings.HasSuffix(rules, f) || strings.Contains(rules, f+",") {
			return "validate rule " + strings.SplitN(f, "=", 2)[0] + " read as a format that is near it, not the same (warned at generate time)"
		}
	}
	return ""
}

// doubleEncoded reports whether a JSON value is a string holding a JSON object or
// array.
func doubleEncoded(v string) bool {
	var s string
	if json.Unmarshal([]byte(v), &s) != nil {
		return false
	}
	s = strings.TrimSpace(s)
	return json.Valid([]byte(s)) && (strings.HasPrefix(s, "[") || strings.HasPrefix(s, "{"))
}

// isZero reports whether a JSON value is a zero value: "" or a number equal to 0.
func isZero(v string) bool {
	if v == `""` {
		return true
	}
	n, err := strconv.ParseFloat(v, 64)
	return err == nil && n == 0 && v != "" && (v[0] == '-' || '0' <= v[0] && v[0] <= '9')
}

// FuzzDifferential sends any JSON value as v to any tool of the table: the decoder and
// the validator agree but for the listed differences, and the tool never gets a value
// its rules forbid but for those.
func FuzzDifferential(f *testing.F) {
	cases := validator.Cases()
	for i, c := range cases {
		for _, v := range corpora[c.Corpus][:min(4, len(corpora[c.Corpus]))] {
			f.Add(uint16(i), []byte(v))
		}
	}
	h := newHarness()
	f.Fuzz(func(t *testing.T, i uint16, v []byte) {
		if len(v) == 0 || !json.Valid(v) || len(v) > 1<<12 {
			return // not a value: both refuse the arguments
		}
		var b bytes.Buffer
		if err := json.Compact(&b, v); err != nil {
			return
		}
		k := call{cases[int(i)%len(cases)], b.String()}
		o := h.run(k)
		reason := difference(k, o)
		if o.toolgen && o.forbidden != "" && reason == "" {
			t.Errorf("%s: the tool got a value its rules forbid: %s", k, o.forbidden)
		}
		if o.toolgen != o.validator && reason == "" {
			t.Errorf("%s: toolgen accepts %v (%s), the validator %v (%s)", k, o.toolgen, o.message, o.validator, o.why)
		}
	})
}
