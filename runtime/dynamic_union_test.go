package runtime_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// unionSchema is the canonical schema of a tagged union, as toolgen writes it for a
// sealed interface: a oneOf of closed objects, each with a required string const of
// the same name, here in a property, a list and a map.
const unionSchema = `{"type":"object","properties":{"method":{"$ref":"#/$defs/Method"},"backups":{"type":"array","items":{"$ref":"#/$defs/Method"}},"by_name":{"type":"object","additionalProperties":{"$ref":"#/$defs/Method"}},"maybe":{"anyOf":[{"$ref":"#/$defs/Method"},{"type":"null"}]}},"required":["method"],"additionalProperties":false,` +
	`"$defs":{"Method":{"description":"How a payment is made.","oneOf":[` +
	`{"type":"object","description":"A payment card.","properties":{"kind":{"type":"string","const":"card"},"number":{"type":"string","minLength":4,"x-toolgen-sensitive":true}},"required":["kind","number"],"additionalProperties":false},` +
	`{"type":"object","properties":{"kind":{"type":"string","const":"bank"},"iban":{"type":"string"},"ref":{"type":"string","default":"none"}},"required":["kind","iban"],"additionalProperties":false}]}}}`

// TestNewToolTaggedUnion: NewTool reads the canonical union as a generated union
// decoder does (the toolgen engine: Decoder.BeginUnion, then the variant's
// properties), with the generated decoder's messages, rather than as a general oneOf.
func TestNewToolTaggedUnion(t *testing.T) {
	ts := mustTool(t, "pay", unionSchema)
	if got := ts.Tools()[0].Sensitive; !slices.Equal(got, []string{"/method/number", "/backups/*/number", "/by_name/*/number", "/maybe/number"}) {
		t.Errorf("Sensitive = %q: a variant's sensitive property, wherever the union stands", got)
	}
	for _, tc := range []struct{ args, want string }{
		// The tag anywhere among the object's properties; defaults filled.
		{`{"method":{"number":"4111","kind":"card"}}`, `{"method":{"number":"4111","kind":"card"}}`},
		{`{"method":{"iban":"DE","kind":"bank"},"backups":[{"kind":"card","number":"1234"}],"by_name":{"x":{"kind":"bank","iban":"FR"}},"maybe":null}`,
			`{"method":{"iban":"DE","kind":"bank","ref":"none"},"backups":[{"kind":"card","number":"1234"}],"by_name":{"x":{"kind":"bank","iban":"FR","ref":"none"}}}`},
		// The tag missing, of no variant, not a string: the values it may take.
		{`{"method":{"iban":"DE"}}`, `invalid arguments for pay: /method/kind: missing required property: it says which kind of object this is, one of "card", "bank"`},
		{`{"method":{"kind":"cash"}}`, `invalid arguments for pay: /method/kind: must be one of "card", "bank" (got "cash")`},
		{`{"method":{"kind":1}}`, `invalid arguments for pay: /method/kind: must be a string: one of "card", "bank" (got 1)`},
		{`{"method":[]}`, `invalid arguments for pay: /method: must be an object (got an array)`},
		// The variant's own violations, and its closed set of names (the tag's among them).
		{`{"method":{"kind":"bank"}}`, `invalid arguments for pay: /method/iban: missing required property`},
		{`{"method":{"kind":"card","number":"12","iban":"x"}}`, `invalid arguments for pay: /method/number: must be at least 4 characters long; /method/iban: unknown property; expected one of "kind", "number"`},
		{`{"method":{"kind":"bank","kind":"bank","iban":"x"}}`, `invalid arguments for pay: /method/kind: duplicate property`},
		{`{"method":{"kind":"card","number":"1234"},"backups":[{"kind":"bank","iban":"x"},{"kind":"x"}],"maybe":{}}`,
			`invalid arguments for pay: /backups/1/kind: must be one of "card", "bank" (got "x"); /maybe/kind: missing required property: it says which kind of object this is, one of "card", "bank"`},
	} {
		r := ts.Call(context.Background(), "pay", []byte(tc.args))
		if r.Text() != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, r.Text(), tc.want)
		}
	}
}

// TestNewToolGeneralOneOf: a oneOf that is not the canonical union (a branch open, a
// tag not required, two branches of one tag) keeps the general engine's reading and
// its messages.
func TestNewToolGeneralOneOf(t *testing.T) {
	branch := func(tag, besides string) string {
		return `{"type":"object","properties":{"kind":{"type":"string","const":"` + tag + `"},"n":{"type":"integer"}},"required":["kind"]` + besides + `}`
	}
	closed := `,"additionalProperties":false`
	for _, tc := range []struct{ name, oneOf, args, want string }{
		{"open", branch("a", closed) + "," + branch("b", ""), `{"u":{"kind":"c"}}`,
			`invalid arguments for t: /u/kind: must be one of "a", "b" (the discriminator of oneOf) (got "c")`},
		{"same tag", branch("a", closed) + "," + branch("a", closed), `{"u":{"kind":"a"}}`,
			`invalid arguments for t: /u: must match exactly one of the 2 schemas of oneOf, but matches 1 and 2 (got an object)`},
		{"not required", branch("a", closed) + `,{"type":"object","properties":{"kind":{"type":"string","const":"b"}},"additionalProperties":false}`, `{"u":{"kind":"c"}}`,
			`invalid arguments for t: /u/kind: must be one of "a", "b" (the discriminator of oneOf) (got "c")`},
	} {
		ts := mustTool(t, "t", `{"type":"object","properties":{"u":{"oneOf":[`+tc.oneOf+`]}}}`)
		if r := ts.Call(context.Background(), "t", []byte(tc.args)); r.Text() != tc.want {
			t.Errorf("%s: %s:\n got %s\nwant %s", tc.name, tc.args, r.Text(), tc.want)
		}
	}
}

// TestGeneralOneOfSameConst: a property every branch holds to one same const tells
// the branches not apart, so the message does not call it the discriminator (listing
// "same" twice); the property whose consts differ is the one named.
func TestGeneralOneOfSameConst(t *testing.T) {
	branch := func(tag string) string {
		return `{"type":"object","properties":{"v":{"type":"string","const":"same"},"kind":{"type":"string","const":"` + tag + `"},"n":{"type":"integer"}},"required":["v","kind"]}`
	}
	ts := mustTool(t, "t", `{"type":"object","properties":{"u":{"oneOf":[`+branch("a")+`,`+branch("b")+`]}}}`)
	for _, tc := range []struct{ args, want string }{
		{`{"u":{"v":"same"}}`, `invalid arguments for t: /u/kind: missing required property: the discriminator of oneOf, one of "a", "b"`},
		{`{"u":{"v":"same","kind":"c"}}`, `invalid arguments for t: /u/kind: must be one of "a", "b" (the discriminator of oneOf) (got "c")`},
	} {
		if r := ts.Call(context.Background(), "t", []byte(tc.args)); r.Text() != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, r.Text(), tc.want)
		}
	}
}

// TestNewToolSensitiveTag: a union whose discriminator a variant marks sensitive (in
// its schema or through Tool.Sensitive) does not echo the value that names no variant,
// as no sensitive value is echoed.
func TestNewToolSensitiveTag(t *testing.T) {
	branch := func(tag, mark string) string {
		return `{"type":"object","properties":{"kind":{"type":"string","const":"` + tag + `"` + mark + `}},"required":["kind"],"additionalProperties":false}`
	}
	marked := `{"type":"object","properties":{"u":{"oneOf":[` + branch("a", `,"x-toolgen-sensitive":true`) + `,` + branch("b", "") + `]}}}`
	plain := `{"type":"object","properties":{"u":{"oneOf":[` + branch("a", "") + `,` + branch("b", "") + `]}}}`
	for _, tc := range []struct {
		name, schema string
		sensitive    []string
		want         string
	}{
		{"schema", marked, nil, `invalid arguments for t: /u/kind: must be one of "a", "b"`},
		{"Tool.Sensitive", plain, []string{"/u/kind"}, `invalid arguments for t: /u/kind: must be one of "a", "b"`},
		{"not sensitive", plain, nil, `invalid arguments for t: /u/kind: must be one of "a", "b" (got "secret")`},
	} {
		ts, err := runtime.NewTool(runtime.Tool{Name: "t", InputSchema: json.RawMessage(tc.schema), Sensitive: tc.sensitive}, echo)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		r := ts.Call(context.Background(), "t", []byte(`{"u":{"kind":"secret"}}`))
		if r.Text() != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, r.Text(), tc.want)
		}
		if strings.Contains(tc.want, "secret") != strings.Contains(r.Err.Error(), "secret") {
			t.Errorf("%s: the error: %v", tc.name, r.Err)
		}
	}
}

// TestGeneralOneOfDiscriminatorOnce: the discriminator of a oneOf is found once, not for
// each value that matches no branch: with 1,000 branches, a failing value cost 6,000
// allocations, 4,000 of them the discriminator's consts made again (with 2,000 branches,
// a list of 1,000 such values, 3 KB, allocated 134 MB before the step limit; 75 MB now).
func TestGeneralOneOfDiscriminatorOnce(t *testing.T) {
	const n = 1000
	branches := make([]string, n)
	for i := range branches {
		branches[i] = `{"type":"object","properties":{"k":{"type":"string","const":"v` + strconv.Itoa(i) + `"}},"required":["k"]}`
	}
	ts := mustTool(t, "t", `{"type":"object","properties":{"u":{"oneOf":[`+strings.Join(branches, ",")+`]}}}`)
	for _, args := range []string{`{"u":{}}`, `{"u":{"k":"x"}}`} {
		r := ts.Call(context.Background(), "t", []byte(args))
		if !strings.Contains(r.Text(), "the discriminator of oneOf") {
			t.Fatalf("%s: %s", args, r.Text())
		}
		allocs := testing.AllocsPerRun(5, func() { ts.Call(context.Background(), "t", []byte(args)) })
		if allocs > 9*n/2 { // 2,022 and 4,025 now; 6,023 and 8,026 before
			t.Errorf("%s: %.0f allocations for %d branches", args, allocs, n)
		}
	}
}
