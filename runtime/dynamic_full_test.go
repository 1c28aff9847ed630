package runtime_test

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// call runs the tool of ts named name and returns whether the arguments were valid
// and the result's text.
func call(ts *runtime.Toolset, name, args string) (bool, string) {
	res := ts.Call(context.Background(), name, []byte(args))
	return res.Outcome == runtime.OutcomeOK, res.Text()
}

// TestFullEngineKeywords holds the general engine to each keyword of draft 2020-12
// that the keywords toolgen writes do not have: a schema NewTool refused before
// (keyword refused), a value it must accept and one it must refuse, with the
// violation's text.
func TestFullEngineKeywords(t *testing.T) {
	obj := func(props string) string { return `{"type":"object","properties":{` + props + `}}` }
	for _, tc := range []struct {
		schema, ok, bad, want string
	}{
		{obj(`"a":{"oneOf":[{"type":"string"},{"type":"integer"}]}`), `{"a":1}`, `{"a":1.5}`, "/a: must be a string or an integer (oneOf) (got 1.5)"},
		{obj(`"a":{"oneOf":[{"type":"integer"},{"minimum":0}]}`), `{"a":-1}`, `{"a":1}`, "/a: must match exactly one of the 2 schemas of oneOf, but matches 1 and 2 (got 1)"},
		{`{"type":"object","allOf":[{"required":["a"]},{"required":["b"]}]}`, `{"a":1,"b":2}`, `{"a":1}`, "/b: missing required property"},
		{obj(`"a":{"type":"string","if":{"minLength":3},"then":{"pattern":"^x"},"else":{"const":"no"}}`), `{"a":"xyz"}`, `{"a":"ab"}`, `/a: must be "no" (got "ab")`},
		{obj(`"a":{"not":{"type":"string"}}`), `{"a":1}`, `{"a":"s"}`, `/a: must not match the schema of not (got "s")`},
		{`{"type":"object","patternProperties":{"^x-":{"type":"integer"}},"additionalProperties":false}`, `{"x-a":1}`, `{"x-a":"1","y":2}`, `/x-a: must be an integer (got "1"); /y: unknown property: the names are those matching ^x-`},
		{`{"type":"object","dependentRequired":{"a":["b"]}}`, `{"b":1}`, `{"a":1}`, `/b: missing property, required when "a" is present`},
		{`{"type":"object","dependentSchemas":{"a":{"properties":{"b":{"type":"string"}}}}}`, `{"a":1,"b":"s"}`, `{"a":1,"b":2}`, "/b: must be a string (got 2)"},
		{obj(`"l":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false}`), `{"l":["a",1]}`, `{"l":[1,1,2]}`, `/l/0: must be a string (got 1); /l/2: no item is allowed past the 2 of the tuple (prefixItems)`},
		{obj(`"l":{"type":"array","contains":{"type":"integer"},"minContains":2,"maxContains":3}`), `{"l":[1,"a",2]}`, `{"l":[1,"a"]}`, "/l: must hold at least 2 items that match the schema of contains (got 1)"},
		{`{"type":"object","propertyNames":{"pattern":"^[a-z]+$"},"maxProperties":2}`, `{"ab":1}`, `{"aB":1,"b":2,"c":3}`, "/aB: the property name \"aB\" is not allowed (propertyNames): must match the pattern ^[a-z]+$; must have at most 2 properties (got 3)"},
		{obj(`"a":{"enum":["x",1,null,{"k":[1]}]}`), `{"a":{"k":[1.0]}}`, `{"a":{"k":[2]}}`, `/a: must be one of "x", 1, null, {"k":[1]} (got an object)`},
		{obj(`"a":{"type":"string","enum":["b","c"],"const":"a"}`), `{}`, `{"a":"a"}`, `/a: must be one of "b", "c" (got "a")`},
		{obj(`"a":{"enum":[2.5],"const":[]}`), `{}`, `{"a":[]}`, `/a: must be 2.5 (got an array)`},
		{obj(`"a":{"type":["string","number"]}`), `{"a":2.5}`, `{"a":true}`, "/a: must be a string or a number (got true)"},
		{obj(`"a":false,"b":true`), `{"b":[1]}`, `{"a":1}`, "/a: no value is allowed here (the schema is false) (got 1)"},
		{`{"type":"object","properties":{"a":{"type":"string"}},"allOf":[{"properties":{"b":{}}}],"unevaluatedProperties":false}`, `{"a":"s","b":1}`, `{"a":"s","c":1}`, `/c: unknown property; did you mean "a"?`},
		{obj(`"l":{"type":"array","prefixItems":[{}],"unevaluatedItems":{"type":"string"}}`), `{"l":[1,"a"]}`, `{"l":[1,2]}`, "/l/1: must be a string (got 2)"},
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/s","minLength":2}},"$defs":{"s":{"type":"string"}}}`, `{"a":"ab"}`, `{"a":"a"}`, "/a: must be at least 2 characters long (got \"a\")"},
		{`{"$id":"https://example.com/root","type":"object","properties":{"a":{"$ref":"item#leaf"}},"$defs":{"i":{"$id":"item","$defs":{"l":{"$anchor":"leaf","type":"integer"}}}}}`, `{"a":1}`, `{"a":"1"}`, `/a: must be an integer (got "1")`},
		{`{"type":"object","properties":{"tree":{"$ref":"#/$defs/tree"}},"$defs":{"tree":{"$dynamicAnchor":"node","type":"object","properties":{"kids":{"type":"array","items":{"$dynamicRef":"#node"}}}}}}`, `{"tree":{"kids":[{"kids":[]}]}}`, `{"tree":{"kids":[1]}}`, "/tree/kids/0: must be an object (got 1)"},
		{obj(`"a":{"type":"string","format":"color"}`), `{"a":"red"}`, `{"a":1}`, "/a: must be a string (got 1)"},
		{obj(`"a":{"minimum":1}`), `{"a":"any string"}`, `{"a":0}`, "/a: must be at least 1 (got 0)"},
		{`{"type":"object","properties":{"a":{"type":"object","discriminator":{"propertyName":"k"},"nullable":true,"x-foo":1}},"required":["a"]}`, `{"a":{}}`, `{"a":null}`, "/a: must be an object (got null)"},
	} {
		ts, err := runtime.NewTool(runtime.Tool{Name: "t", InputSchema: json.RawMessage(tc.schema)}, echo)
		if err != nil {
			t.Errorf("%s: refused: %v", tc.schema, err)
			continue
		}
		if ok, text := call(ts, "t", tc.ok); !ok {
			t.Errorf("%s: %s refused: %s", tc.schema, tc.ok, text)
		}
		ok, text := call(ts, "t", tc.bad)
		if want := "invalid arguments for t: " + tc.want; ok || text != want {
			t.Errorf("%s: %s:\n got %s\nwant %s", tc.schema, tc.bad, text, want)
		}
	}
}

func corpusTool(t *testing.T, file string) *runtime.Toolset {
	t.Helper()
	b, err := os.ReadFile("testdata/toolschemas/" + file + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var c struct{ Schema json.RawMessage }
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	ts, err := runtime.NewTool(runtime.Tool{Name: "t", InputSchema: c.Schema}, echo)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// TestUnionMessages pins what a model reads when its value matches no branch of a
// union: the branch that came closest and all of its violations, or the values a
// discriminator takes.
func TestUnionMessages(t *testing.T) {
	pay := corpusTool(t, "p03_pay_discriminated")
	draw := corpusTool(t, "p04_shape_union")
	for _, tc := range []struct {
		ts         *runtime.Toolset
		args, want string
	}{
		// The discriminator's const picks the branch, whatever the others lack.
		{pay, `{"amount":5,"method":{"kind":"bank_transfer","number":"4111111111111111","expiry":"12/29"}}`,
			`/method: matches none of the 2 schemas of oneOf; the closest is schema 2 ("BankTransfer"), whose violation follows; /method/iban: missing required property`},
		// All the closest branch's violations, with the others'.
		{pay, `{"amount":-1,"method":{"kind":"card","number":"4111"}}`,
			`/amount: must be greater than 0 (got -1); /method: matches none of the 2 schemas of oneOf; the closest is schema 1 ("Card"), whose 2 violations follow; /method/number: must match the pattern ^\d{16}$ (got "4111"); /method/expiry: missing required property`},
		{pay, `{"amount":5,"method":{"kind":"cash"}}`, `/method/kind: must be one of "card", "bank_transfer" (the discriminator of oneOf) (got "cash")`},
		{pay, `{"amount":5,"method":{"iban":"DE89370400440532013000"}}`, `/method/kind: missing required property: the discriminator of oneOf, one of "card", "bank_transfer"`},
		// No discriminator: the branch that declares the names the object uses.
		{draw, `{"shape":{"width":1},"label":"a"}`, `/shape: matches none of the 2 schemas of anyOf; the closest is schema 2 ("Rectangle"), whose violation follows; /shape/height: missing required property`},
		{draw, `{"shape":{"radius":-1,"width":1},"label":"a"}`, `/shape: matches none of the 2 schemas of anyOf; the closest is schema 1 ("Circle"), whose violation follows; /shape/radius: must be greater than 0 (got -1)`},
		{draw, `{"shape":[],"label":null}`, `/shape: must be an object (anyOf) (got an array); /label: must be a string or an integer (anyOf) (got null)`},
	} {
		ok, text := call(tc.ts, "t", tc.args)
		if want := "invalid arguments for t: " + tc.want; ok || text != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, text, want)
		}
	}
}

// TestFullEngineLeniencies: the leniencies of dynamic tools hold for schemas the
// general engine reads, and run gets the arguments with defaults filled.
func TestFullEngineLeniencies(t *testing.T) {
	pay := corpusTool(t, "p03_pay_discriminated")
	for _, tc := range []struct{ args, want string }{
		// A default fills an absent optional property, and null for it means absent.
		{`{"amount":5,"currency":null,"method":{"kind":"bank_transfer","iban":"DE89370400440532013000"}}`,
			`{"amount":5,"currency":"EUR","method":{"kind":"bank_transfer","iban":"DE89370400440532013000","reference":null}}`},
		// Defaults of the branch that matched only (Card has none; BankTransfer's
		// reference is not written into a card).
		{`{"amount":5,"method":{"kind":"card","number":"4111111111111111","expiry":"12/29"}}`,
			`{"amount":5,"method":{"kind":"card","number":"4111111111111111","expiry":"12/29"},"currency":"EUR"}`},
		// An object that arrives as a JSON string holding it, as a whole and below.
		{`"{\"amount\":5,\"method\":\"{\\\"kind\\\":\\\"card\\\",\\\"number\\\":\\\"4111111111111111\\\",\\\"expiry\\\":\\\"12/29\\\"}\"}"`,
			`{"amount":5,"method":{"kind":"card","number":"4111111111111111","expiry":"12/29"},"currency":"EUR"}`},
	} {
		ok, text := call(pay, "t", tc.args)
		if !ok || text != tc.want {
			t.Errorf("%s:\n got %v %s\nwant %s", tc.args, ok, text, tc.want)
		}
	}
	// Null for a declared optional property is absent whatever its schema, as for a
	// generated tool: maxProperties counts it out, and its default fills it
	// (FuzzDifferential's 654ee476: the general engine counted it).
	counted := mustTool(t, "t", `{"type":"object","properties":{"c":{"maxLength":0,"default":""}},"maxProperties":0}`)
	if ok, text := call(counted, "t", `{"c":null}`); !ok || text != `{"c":""}` {
		t.Errorf("null optional: %v %s", ok, text)
	}
	// Empty and null arguments are {}.
	free := mustTool(t, "t", `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"integer"}],"default":1}}}`)
	for _, args := range []string{``, ` `, `null`, `{}`, `{"a":null}`} {
		if ok, text := call(free, "t", args); !ok || text != `{"a":1}` {
			t.Errorf("%q: %v %s", args, ok, text)
		}
	}
}

// TestFullEngineSensitive: a sensitive property inside a union is listed in the
// Tool's Sensitive and its values are never echoed.
func TestFullEngineSensitive(t *testing.T) {
	schema := `{"type":"object","properties":{"method":{"oneOf":[{"$ref":"#/$defs/card"},{"type":"null"}]}},"$defs":{"card":{"type":"object","properties":{"number":{"type":"string","pattern":"^\\d{16}$","x-toolgen-sensitive":true}},"required":["number"]}}}`
	ts, err := runtime.NewTool(runtime.Tool{Name: "t", InputSchema: json.RawMessage(schema)}, echo)
	if err != nil {
		t.Fatal(err)
	}
	tool, _ := ts.Lookup("t")
	if strings.Join(tool.Sensitive, ",") != "/method/number" {
		t.Errorf("Sensitive %q, want /method/number", tool.Sensitive)
	}
	_, text := call(ts, "t", `{"method":{"number":"4111-secret"}}`)
	if strings.Contains(text, "secret") || !strings.Contains(text, "/method/number: must match the pattern") {
		t.Errorf("the sensitive value is echoed, or its violation missing: %s", text)
	}
	// A Sensitive path the definition names hides the values below it too.
	ts, err = runtime.NewTool(runtime.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"pin":{"anyOf":[{"type":"integer"},{"type":"string","maxLength":4}]}}}`), Sensitive: []string{"/pin"}}, echo)
	if err != nil {
		t.Fatal(err)
	}
	if _, text := call(ts, "t", `{"pin":"12345-secret"}`); strings.Contains(text, "secret") {
		t.Errorf("the sensitive value is echoed: %s", text)
	}
	if _, err := runtime.NewTool(runtime.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"pin":{"anyOf":[{"type":"integer"}]}}}`), Sensitive: []string{"/pn"}}, echo); err == nil {
		t.Error("a Sensitive path naming no property was accepted")
	}
}

// TestMaxValidationSteps: a call costs at most MaxValidationSteps applications of a
// schema to a value; at the limit it is checked, past it it stops with a violation.
func TestMaxValidationSteps(t *testing.T) {
	// The object (1), its not (1), l (1) and each item (1).
	ts := mustTool(t, "t", `{"type":"object","not":false,"properties":{"l":{"type":"array","items":true}}}`).
		WithLimits(runtime.Limits{MaxArgumentBytes: 4 << 20})
	args := func(items int) string {
		return `{"l":[` + strings.TrimSuffix(strings.Repeat("0,", items), ",") + `]}`
	}
	if ok, text := call(ts, "t", args(runtime.MaxValidationSteps-3)); !ok {
		t.Errorf("at the limit: %.200s", text)
	}
	ok, text := call(ts, "t", args(runtime.MaxValidationSteps-2))
	if want := strconv.Itoa(runtime.MaxValidationSteps) + " steps of runtime.MaxValidationSteps"; ok || !strings.Contains(text, want) {
		t.Errorf("past the limit: %v %.200s", ok, text)
	}
}

// TestSharedReferencesCostOnce: a schema whose references share definitions along
// exponentially many paths (each level an anyOf of two references to the next) costs
// one evaluation of each definition per value, not one per path.
func TestSharedReferencesCostOnce(t *testing.T) {
	const levels = 40
	var defs []string
	for i := 0; i < levels; i++ {
		next := `#/$defs/d` + strconv.Itoa(i+1)
		defs = append(defs, `"d`+strconv.Itoa(i)+`":{"anyOf":[{"$ref":"`+next+`"},{"$ref":"`+next+`","minimum":0}]}`)
	}
	defs = append(defs, `"d`+strconv.Itoa(levels)+`":{"type":"integer","maximum":5}`)
	// The same, where a $dynamicRef makes results depend on the dynamic scope too.
	dynamic := `,"d":{"$dynamicAnchor":"x","type":"object"},"e":{"$dynamicRef":"#x"}`
	for _, extra := range []string{"", dynamic} {
		ts := mustTool(t, "t", `{"type":"object","properties":{"a":{"$ref":"#/$defs/d0"}},"$defs":{`+strings.Join(defs, ",")+extra+`}}`)
		if ok, text := call(ts, "t", `{"a":3}`); !ok {
			t.Errorf("valid: %s", text)
		}
		if ok, text := call(ts, "t", `{"a":9}`); ok || strings.Contains(text, "MaxValidationSteps") {
			t.Errorf("invalid: %v %.300s", ok, text)
		}
	}
}

// TestLookaheadPatterns: patterns that start with ECMA-262 lookaheads (zod's email,
// pydantic's decimal) are read; other lookaheads are refused.
func TestLookaheadPatterns(t *testing.T) {
	for _, tc := range []struct {
		pattern   string
		match, no []string
	}{
		{`^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$`,
			[]string{"a.b@example.com", "x@y.io"}, []string{".a@example.com", "a..b@example.com", "a@b"}},
		{`^(?!^[-+.]*$)[+-]?0*\d*\.?\d*$`, []string{"1", "-1.5", ".5", "007"}, []string{"", ".", "-", "+.", "1a"}},
		{`^(?=.*[0-9])(?=.*[a-z]).{8,}$`, []string{"abcdefg1"}, []string{"abcdefgh", "12345678", "a1"}},
	} {
		b, _ := json.Marshal(tc.pattern)
		ts := mustTool(t, "t", `{"type":"object","properties":{"s":{"type":"string","pattern":`+string(b)+`}}}`)
		for _, s := range tc.match {
			if ok, text := call(ts, "t", `{"s":"`+s+`"}`); !ok {
				t.Errorf("%s: %q refused: %s", tc.pattern, s, text)
			}
		}
		for _, s := range tc.no {
			if ok, _ := call(ts, "t", `{"s":"`+s+`"}`); ok {
				t.Errorf("%s: %q accepted", tc.pattern, s)
			}
		}
	}
	for _, p := range []string{`^a(?=b)`, `^(?!a)b|c`, `(?<=a)b`, `^(?!(?!a))b`} {
		b, _ := json.Marshal(p)
		if _, err := runtime.NewTool(runtime.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"s":{"pattern":` + string(b) + `}}}`)}, echo); err == nil {
			t.Errorf("%s: accepted", p)
		}
	}
}

// TestMaxLookaheads: a pattern may start with MaxLookaheads lookaheads, not one more.
func TestMaxLookaheads(t *testing.T) {
	pattern := func(n int) string {
		return "^" + strings.Repeat("(?!x)", n) + "a"
	}
	for _, n := range []int{runtime.MaxLookaheads, runtime.MaxLookaheads + 1} {
		_, err := runtime.NewTool(runtime.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"s":{"pattern":"` + pattern(n) + `"}}}`)}, echo)
		if (err == nil) != (n <= runtime.MaxLookaheads) {
			t.Errorf("%d lookaheads: %v", n, err)
		}
	}
}

// TestFullEngineConcurrent: calls of one tool at once each get their own state from the
// program's pool (run with -race).
func TestFullEngineConcurrent(t *testing.T) {
	pay := corpusTool(t, "p03_pay_discriminated")
	cases := map[string]string{
		`{"amount":1,"method":{"kind":"card","number":"4111111111111111","expiry":"12/29"}}`:              `{"amount":1,"method":{"kind":"card","number":"4111111111111111","expiry":"12/29"},"currency":"EUR"}`,
		`{"amount":2,"currency":"USD","method":{"kind":"bank_transfer","iban":"DE89370400440532013000"}}`: `{"amount":2,"currency":"USD","method":{"kind":"bank_transfer","iban":"DE89370400440532013000","reference":null}}`,
		`{"amount":3,"method":{"kind":"cash"}}`:                                                           `invalid arguments for t: /method/kind: must be one of "card", "bank_transfer" (the discriminator of oneOf) (got "cash")`,
	}
	done := make(chan string)
	for g := 0; g < 8; g++ {
		go func() {
			bad := ""
			for i := 0; i < 100; i++ {
				for args, want := range cases {
					if _, text := call(pay, "t", args); text != want && bad == "" {
						bad = args + ": " + text
					}
				}
			}
			done <- bad
		}()
	}
	for g := 0; g < 8; g++ {
		if bad := <-done; bad != "" {
			t.Error(bad)
		}
	}
}
