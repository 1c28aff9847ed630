package dialect_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolgen/toolgen/runtime/dialect"
)

// The lowerings of toolgen's own schemas are checked against every golden and
// checked-in toolschema file (generator's TestSchemaGoldenAdapters and
// internal/dialectfiles); these tests cover schemas written by hand.

const weather = `{"type":"object","properties":{"city":{"type":"string","minLength":1},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"]}`

// union is a tagged union as toolgen writes one: a oneOf of closed objects whose "type"
// is a required const.
const union = `{"type":"object","properties":{"pay":{"oneOf":[{"type":"object","properties":{"type":{"type":"string","const":"card"},"number":{"type":"string"}},"required":["type"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"bank"}},"required":["type"],"additionalProperties":false}]}},"required":["pay"],"additionalProperties":false}`

func TestNotStrictIsAsGiven(t *testing.T) {
	in := json.RawMessage(" " + weather + "\n")
	for name, l := range map[string]dialect.Lowered{
		"openai":    first(dialect.OpenAI(in, false)),
		"anthropic": first(dialect.Anthropic(in, false)),
	} {
		if l.Strict || !bytes.Equal(l.Parameters, in) {
			t.Errorf("%s: got %s strict=%v, want the schema as given", name, l.Parameters, l.Strict)
		}
	}
}

func first(l dialect.Lowered, _ []dialect.Warning) dialect.Lowered { return l }

func TestHandWritten(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		lower        func(json.RawMessage) (dialect.Lowered, []dialect.Warning)
		want         string
		strict       bool
		warnings     string
	}{{
		name: "openai strict", schema: weather, lower: openAI, strict: true,
		want: `{"type":"object","properties":{"city":{"type":"string","description":"At least 1 character."},"unit":{"anyOf":[{"type":"string","enum":["celsius","fahrenheit"]},{"type":"null"}]}},"required":["city","unit"],"additionalProperties":false}`,
	}, {
		name: "anthropic strict adds additionalProperties", schema: weather, lower: anthropic, strict: true,
		want: `{"type":"object","properties":{"city":{"type":"string","description":"At least 1 character."},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"],"additionalProperties":false}`,
	}, {
		name:   "annotations are dropped",
		schema: `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"pin":{"type":"string","x-toolgen-sensitive":true,"examples":["1234"]}},"required":["pin"],"additionalProperties":false}`,
		lower:  openAI, strict: true,
		want: `{"type":"object","properties":{"pin":{"type":"string"}},"required":["pin"],"additionalProperties":false}`,
	}, {
		name:   "an unknown keyword keeps the schema as given",
		schema: `{"type":"object","properties":{"v":{"not":{"type":"string"}}},"required":["v"]}`,
		lower:  openAI, strict: false,
		want:     `{"type":"object","properties":{"v":{"not":{"type":"string"}}},"required":["v"]}`,
		warnings: `[/properties/v at /properties/v: keyword "not" cannot be strict: this lowering does not know it]`,
	}, {
		name:   "openai strict takes a tagged union's oneOf as anyOf",
		schema: union, lower: openAI, strict: true,
		want: `{"type":"object","properties":{"pay":{"anyOf":[{"type":"object","properties":{"type":{"type":"string","const":"card"},"number":{"type":["string","null"]}},"required":["type","number"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"bank"}},"required":["type"],"additionalProperties":false}]}},"required":["pay"],"additionalProperties":false}`,
	}, {
		name:   "openai strict makes an optional tagged union nullable with one more branch",
		schema: `{"type":"object","properties":{"pay":{"description":"How.","oneOf":[{"type":"object","properties":{"type":{"type":"string","const":"bank"}},"required":["type"],"additionalProperties":false}]}},"additionalProperties":false}`,
		lower:  openAI, strict: true,
		want: `{"type":"object","properties":{"pay":{"description":"How.","anyOf":[{"type":"object","properties":{"type":{"type":"string","const":"bank"}},"required":["type"],"additionalProperties":false},{"type":"null"}]}},"required":["pay"],"additionalProperties":false}`,
	}, {
		name:   "anthropic strict keeps a tagged union's oneOf",
		schema: union, lower: anthropic, strict: true,
		want: `{"type":"object","properties":{"pay":{"oneOf":[{"type":"object","properties":{"type":{"type":"string","const":"card"},"number":{"type":"string"}},"required":["type"],"additionalProperties":false},{"type":"object","properties":{"type":{"type":"string","const":"bank"}},"required":["type"],"additionalProperties":false}]}},"required":["pay"],"additionalProperties":false}`,
	}, {
		name:   "gemini takes a tagged union's oneOf as anyOf",
		schema: union, lower: gemini, strict: false,
		want: `{"type":"OBJECT","properties":{"pay":{"anyOf":[{"type":"OBJECT","properties":{"type":{"type":"STRING","format":"enum","enum":["card"]},"number":{"type":"STRING"}},"required":["type"]},{"type":"OBJECT","properties":{"type":{"type":"STRING","format":"enum","enum":["bank"]}},"required":["type"]}]}},"required":["pay"]}`,
	}, {
		name:   "anyOf beside oneOf is not strict",
		schema: `{"type":"object","properties":{"v":{"anyOf":[{"type":"string"}],"oneOf":[{"type":"string"}]}},"required":["v"],"additionalProperties":false}`,
		lower:  openAI, strict: false,
		want:     `{"type":"object","properties":{"v":{"anyOf":[{"type":"string"}],"oneOf":[{"type":"string"}]}},"required":["v"],"additionalProperties":false}`,
		warnings: `[/properties/v at /properties/v: anyOf and oneOf on one value cannot be strict: strict mode has anyOf alone]`,
	}, {
		name:   "an open object is not strict",
		schema: `{"type":"object","properties":{"meta":{"type":"object"}}}`, lower: anthropic,
		want:     `{"type":"object","properties":{"meta":{"type":"object"}}}`,
		warnings: `[/properties/meta at /properties/meta: an object with neither properties nor additionalProperties takes any property names, which strict mode cannot describe]`,
	}, {
		name:   "a reference out of $defs is not strict",
		schema: `{"type":"object","properties":{"a":{"$ref":"#/definitions/A"}},"additionalProperties":false}`, lower: openAI,
		want:     `{"type":"object","properties":{"a":{"$ref":"#/definitions/A"}},"additionalProperties":false}`,
		warnings: `[/properties/a at /properties/a: reference "#/definitions/A" cannot be strict: it is not to an entry of the root's $defs]`,
	}, {
		name:   "an unknown keyword at the root",
		schema: `{"type":"object","properties":{},"definitions":{}}`, lower: anthropic,
		want:     `{"type":"object","properties":{},"definitions":{}}`,
		warnings: `[ at keyword "definitions" cannot be strict: this lowering does not know it]`,
	}, {
		name: "not JSON", schema: `{"type":`, lower: openAI, want: `{"type":`,
		warnings: `[ at the schema is not valid JSON]`,
	}, {
		name:   "a property's description keeps its type's list of values",
		schema: `{"type":"object","properties":{"u":{"$ref":"#/$defs/Unit","description":"The unit."}},"required":["u"],"additionalProperties":false,"$defs":{"Unit":{"type":"string","description":"A unit.\n\n- \"c\": Celsius\n- \"f\"","enum":["c","f"]}}}`,
		lower:  openAI, strict: true,
		want: `{"type":"object","properties":{"u":{"type":"string","description":"The unit.\n\n- \"c\": Celsius\n- \"f\"","enum":["c","f"]}},"required":["u"],"additionalProperties":false}`,
	}, {
		name:     "gemini",
		schema:   `{"type":"object","properties":{"n":{"type":["integer","null"],"exclusiveMinimum":0},"v":{"not":{}}},"additionalProperties":false}`,
		lower:    gemini,
		want:     `{"type":"OBJECT","properties":{"n":{"type":"INTEGER","nullable":true,"minimum":1},"v":{"description":"Any JSON value.","anyOf":[{"type":"STRING"},{"type":"NUMBER"},{"type":"BOOLEAN"},{"type":"OBJECT","nullable":true},{"type":"ARRAY","items":{"anyOf":[{"type":"STRING"},{"type":"NUMBER"},{"type":"BOOLEAN"},{"type":"OBJECT","nullable":true}]}}]}}}`,
		warnings: `[/properties/v at /properties/v: keyword "not" dropped: Gemini's schema has no such keyword]`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			l, ws := tc.lower(json.RawMessage(tc.schema))
			if string(l.Parameters) != tc.want || l.Strict != tc.strict {
				t.Errorf("got %s strict=%v\nwant %s strict=%v", l.Parameters, l.Strict, tc.want, tc.strict)
			}
			var got []string
			for _, w := range ws {
				got = append(got, w.Field+" at "+w.String())
			}
			if s := fmt.Sprint(got); (len(got) > 0 || tc.warnings != "") && s != tc.warnings {
				t.Errorf("warnings %s, want %s", s, tc.warnings)
			}
			again, _ := tc.lower(json.RawMessage(tc.schema))
			if !bytes.Equal(again.Parameters, l.Parameters) {
				t.Errorf("not deterministic: %s, then %s", l.Parameters, again.Parameters)
			}
		})
	}
}

func openAI(s json.RawMessage) (dialect.Lowered, []dialect.Warning) { return dialect.OpenAI(s, true) }

func anthropic(s json.RawMessage) (dialect.Lowered, []dialect.Warning) {
	return dialect.Anthropic(s, true)
}

func gemini(s json.RawMessage) (dialect.Lowered, []dialect.Warning) { return dialect.Gemini(s) }

// A schema Gemini's lowering cannot read gives no parameters, so the adapter sends it
// as JSON Schema.
func TestGeminiUnreadable(t *testing.T) {
	for _, s := range []string{``, `[1]`, `{"type":`} {
		if l, ws := dialect.Gemini(json.RawMessage(s)); l.Parameters != nil || len(ws) != 1 {
			t.Errorf("%q: got %s, %v", s, l.Parameters, ws)
		}
	}
}

// TestParsedLowersAlike checks that a schema read once gives every lowering, in any
// order and any number of times, what the functions give: no lowering sees what
// another did to the tree.
func TestParsedLowersAlike(t *testing.T) {
	recursive := `{"type":"object","properties":{"tree":{"$ref":"#/$defs/Tree","description":"The tree."}},"required":["tree"],"additionalProperties":false,"$defs":{"Tree":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/Tree"},"minItems":2}},"additionalProperties":false}}}`
	for _, schema := range []string{weather, union, recursive, `{"type":"object","properties":{"v":{"not":{}}}}`, `[]`} {
		in := json.RawMessage(schema)
		want := []string{
			fmt.Sprint(dialect.Gemini(in)), fmt.Sprint(dialect.OpenAI(in, true)), fmt.Sprint(dialect.Anthropic(in, true)),
			fmt.Sprint(dialect.OpenAI(in, false)), fmt.Sprint(dialect.Anthropic(in, false)),
		}
		p := dialect.Parse(in)
		for round := range 2 {
			got := []string{
				fmt.Sprint(p.Gemini()), fmt.Sprint(p.OpenAI(true)), fmt.Sprint(p.Anthropic(true)),
				fmt.Sprint(p.OpenAI(false)), fmt.Sprint(p.Anthropic(false)),
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%s, round %d, lowering %d:\ngot  %s\nwant %s", schema, round, i, got[i], want[i])
				}
			}
		}
	}
}
