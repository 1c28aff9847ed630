package engine

import (
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/internal/argcheck"
)

// point is decoded by decodePoint, written as the generator writes decoders.
type point struct {
	X    int64
	Name string
	Tags []string
	Next *point
}

func decodePoint(d *Decoder, v *point) {
	if !d.BeginObject() {
		return
	}
	var seen [4]bool
	for d.NextField() {
		switch string(d.FieldName()) {
		case "x":
			if seen[0] {
				d.Duplicate()
				continue
			}
			seen[0] = true
			d.Enter("x")
			if n, ok := d.Int(-10, 10); ok {
				v.X = n
			}
			d.Leave()
		case "name":
			if d.Null() {
				continue
			}
			if seen[1] {
				d.Duplicate()
				continue
			}
			seen[1] = true
			d.EnterSensitive("name")
			if s, ok := d.String(); ok {
				d.MinLength(s, 2)
				v.Name = s
			}
			d.Leave()
		case "tags":
			if d.Null() {
				continue
			}
			if seen[2] {
				d.Duplicate()
				continue
			}
			seen[2] = true
			d.Enter("tags")
			if d.BeginArray() {
				v.Tags = []string{}
				for d.NextItem() {
					s, _ := d.String()
					v.Tags = append(v.Tags, s)
				}
				d.MaxItems(len(v.Tags), 2)
			}
			d.Leave()
		case "next":
			if d.Null() {
				continue
			}
			if seen[3] {
				d.Duplicate()
				continue
			}
			seen[3] = true
			d.Enter("next")
			v.Next = new(point)
			decodePoint(d, v.Next)
			d.Leave()
		default:
			d.Unknown("x", "name", "tags", "next")
		}
	}
	if !seen[0] {
		d.Missing("x")
	}
}

func decode(args string, limits Limits) (point, []string) {
	var p point
	d := NewDecoder([]byte(args), limits)
	decodePoint(d, &p)
	d.Finish()
	var msgs []string
	for _, v := range d.Violations() {
		msgs = append(msgs, v.String())
	}
	return p, msgs
}

func TestDecoderAccepts(t *testing.T) {
	for _, tc := range []struct {
		args string
		want point
	}{
		{`{"x":1}`, point{X: 1}},
		{` {"x" : -10 , "name":"ab"} `, point{X: -10, Name: "ab"}},
		{`{"x":1,"name":null,"tags":null}`, point{X: 1}},
		{`{"x":1,"tags":[]}`, point{X: 1, Tags: []string{}}},
		{`{"x":1,"tags":["a","b"]}`, point{X: 1, Tags: []string{"a", "b"}}},
		{`{"x":1,"tags":"[\"a\"]"}`, point{X: 1, Tags: []string{"a"}}}, // double-encoded array
		{`"{\"x\":2}"`, point{X: 2}},                                   // double-encoded arguments
		{`{"x":1,"next":{"x":2,"next":"{\"x\":3}"}}`, point{X: 1, Next: &point{X: 2, Next: &point{X: 3}}}},
		{`{"x":1,"name":"\u00e9\u00e9"}`, point{X: 1, Name: "éé"}},
		{`{"x":1,"name":"\ud83d\ude00!"}`, point{X: 1, Name: "😀!"}},
		{`{"x":1,"name":"a\"\\\/\b\f\n\r\t"}`, point{X: 1, Name: "a\"\\/\b\f\n\r\t"}},
		{"{\"x\":1,\"name\":\"\xff\xfe\"}", point{X: 1, Name: "\ufffd\ufffd"}}, // invalid UTF-8, as encoding/json
		{`{"x":0}`, point{}},
		{`{"x":-0}`, point{}},
	} {
		got, msgs := decode(tc.args, Limits{})
		if len(msgs) > 0 || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v %q, want %+v", tc.args, got, msgs, tc.want)
		}
	}
}

func TestDecoderEmptyArguments(t *testing.T) {
	for _, args := range []string{"", "  \n", "null", " null "} {
		_, msgs := decode(args, Limits{})
		if want := []string{"/x: missing required property"}; !reflect.DeepEqual(msgs, want) {
			t.Errorf("%q: got %q, want %q (empty arguments mean {})", args, msgs, want)
		}
	}
}

func TestDecoderReportsEveryViolation(t *testing.T) {
	for _, tc := range []struct {
		args string
		want []string
	}{
		{`{"x":11,"name":"a","tags":["a",1,"c"],"extra":1,"nmae":2}`, []string{
			"/x: must be at most 10 (got 11)",
			"/name: must be at least 2 characters long", // sensitive: the value is not echoed
			"/tags/1: must be a string (got 1)",
			"/tags: must have at most 2 items (got 3)",
			`/extra: unknown property; expected one of "x", "name", "tags", "next"`,
			`/nmae: unknown property; did you mean "name"?`,
		}},
		{`{"name":"ab"}`, []string{"/x: missing required property"}},
		{`{"x":1,"x":2}`, []string{"/x: duplicate property"}},
		{`{"x":1.5}`, []string{"/x: must be an integer (got 1.5)"}},
		{`{"x":1e2}`, []string{"/x: must be at most 10 (got 1e2)"}}, // an integer, as JSON Schema says
		{`{"x":2.5e0}`, []string{"/x: must be an integer (got 2.5e0)"}},
		{`{"x":1e1,"name":"ab"}`, nil},
		{`{"x":100e-1,"name":"ab"}`, nil},
		{`{"x":"1"}`, []string{`/x: must be an integer (got "1")`}},
		{`{"x":99999999999999999999}`, []string{"/x: is out of range for a 64-bit integer (got 99999999999999999999)"}},
		{`{"x":null}`, []string{"/x: must be an integer (got null)"}},
		{`{"x":1,"next":{"x":{}}}`, []string{"/next/x: must be an integer (got an object)", "/next/x: missing required property"}[:1]},
		{`{"x":1,"next":{}}`, []string{"/next/x: missing required property"}},
		{`[1]`, []string{"must be an object (got an array)"}},
		{`"{not json"`, []string{`must be an object (got "{not json")`}},
		{`{"x":1,"tags":"a,b"}`, []string{`/tags: must be an array (got "a,b")`}},
		{`{"x":1,"name":"\"ab\""}`, nil}, // string properties are never parsed as JSON
	} {
		_, msgs := decode(tc.args, Limits{})
		if !reflect.DeepEqual(msgs, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.args, msgs, tc.want)
		}
	}
}

func TestDecoderSyntaxErrors(t *testing.T) {
	for _, args := range []string{
		`{"x":1`, `{"x":1,}`, `{"x" 1}`, `{x:1}`, `{"x":01}`, `{"x":1.}`, `{"x":-}`,
		`{"x":1}}`, `{"x":1} x`, `{"x":tru}`, "{\"x\":1,\"name\":\"a\x01\"}", `{"x":1,"name":"\x"}`,
		`{"x":1,"name":"\u12"}`, `{"x":1 "name":"ab"}`, `{,"x":1}`, `{"x":[1,]}`, `{"name":"ab`,
	} {
		_, msgs := decode(args, Limits{})
		if len(msgs) == 0 || !strings.Contains(msgs[len(msgs)-1], "malformed JSON") {
			t.Errorf("%q: got %q, want a syntax error last", args, msgs)
		}
	}
}

func TestDecoderLimits(t *testing.T) {
	deep := `{"x":1,"next":` + strings.Repeat(`{"x":1,"next":`, 10) + `{"x":1}` + strings.Repeat("}", 11)
	if _, msgs := decode(deep, Limits{MaxDepth: 5}); len(msgs) != 1 || !strings.Contains(msgs[0], "nested deeper than the limit of 5 levels") {
		t.Errorf("deep arguments: got %q", msgs)
	}
	if _, msgs := decode(deep, Limits{}); len(msgs) != 0 {
		t.Errorf("deep arguments within the default limit: got %q", msgs)
	}
	// Depth is counted in skipped values too.
	skipped := `{"x":1,"extra":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`
	if _, msgs := decode(skipped, Limits{}); len(msgs) != 1 || !strings.Contains(msgs[0], "nested deeper") {
		t.Errorf("deep unknown property: got %q", msgs)
	}
	big := `{"x":1,"name":"` + strings.Repeat("a", 100) + `"}`
	if _, msgs := decode(big, Limits{MaxArgumentBytes: 50}); len(msgs) != 1 || !strings.Contains(msgs[0], "over the limit of 50") {
		t.Errorf("large arguments: got %q", msgs)
	}
}

func TestDescribeCutsLongValues(t *testing.T) {
	long := `"` + strings.Repeat("é", 40) + `"`
	got := describe([]byte(long))
	if !strings.HasSuffix(got, `…"`) || len(got) > 60 {
		t.Errorf("describe(long) = %q", got)
	}
}

func TestFormats(t *testing.T) {
	for _, tc := range []struct {
		f    argcheck.Format
		good []string
		bad  []string
	}{
		{argcheck.FormatDateTime, []string{"2024-01-31T09:30:00Z", "2024-01-31t09:30:00.5+01:00", "2016-12-31T23:59:60Z"}, []string{"2024-01-31", "2024-01-31T25:00:00Z", "2024-02-30T09:30:00Z", "yesterday"}},
		{argcheck.FormatDate, []string{"2024-02-29"}, []string{"2023-02-29", "2024-1-1"}},
		{argcheck.FormatTime, []string{"09:30:00Z", "09:30:00.123-05:00"}, []string{"9:30", "09:30:00"}},
		{argcheck.FormatDuration, []string{"P1D", "PT1H30M", "P2W", "P1Y2M3DT4H5M6S"}, []string{"P", "PT", "1h", "P1H", "PT1D"}},
		{argcheck.FormatEmail, []string{"a@b.co", `"x y"@example.com`, "a@[127.0.0.1]"}, []string{"a", "a@", ".a@b.co", "a..b@c.de", "@b.co", "@"}},
		{argcheck.FormatHostname, []string{"example.com", "a-b.c"}, []string{"-a.com", "a_b.com", strings.Repeat("a", 64)}},
		{argcheck.FormatIPv4, []string{"127.0.0.1"}, []string{"256.0.0.1", "01.2.3.4", "1.2.3", "+1.2.3.4", "1.+2.3.4", "1.2.3.-0", "1.2.3.+0", "1..3.4", "1.2.3.0256"}},
		{argcheck.FormatIPv6, []string{"::1", "2001:db8::1"}, []string{"1.2.3.4", "fe80::1%eth0"}},
		{argcheck.FormatURI, []string{"https://example.com/a?b#c", "urn:isbn:123", "file:///a%20b", "mailto:a@b.co", "http://[::1]:80/"}, []string{"/relative", "http://[::1", "file:a b?q", "http://a.b/c d", "http://a.b/\"", "http://a.b/%zz", "http://a.b/%a", "http://a.b/\\", "http://a.b/é", "http://a.b/<x>"}},
		{argcheck.FormatUUID, []string{"123e4567-e89b-12d3-a456-426614174000"}, []string{"123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g"}},
	} {
		for _, s := range tc.good {
			if !tc.f.Valid(s) {
				t.Errorf("%s: %q rejected", tc.f, s)
			}
		}
		for _, s := range tc.bad {
			if tc.f.Valid(s) {
				t.Errorf("%s: %q accepted", tc.f, s)
			}
		}
	}
}

func TestDecoderAllocations(t *testing.T) {
	args := []byte(`{"x":3,"next":{"x":4}}`)
	d := new(Decoder)
	var p point
	allocs := testing.AllocsPerRun(100, func() {
		p = point{}
		d.Reset(args, Limits{})
		decodePoint(d, &p)
		d.Finish()
	})
	// One allocation: the *point of "next". Integers never allocate.
	if allocs > 1 {
		t.Errorf("decoding allocated %v times, want at most 1", allocs)
	}
}
