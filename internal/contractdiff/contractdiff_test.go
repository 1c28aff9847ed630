package contractdiff

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const file = "pkg/toolschema/t.json"

// tool returns a contract file of tool t with the input schema in, and the output
// schema out unless it is "".
func tool(in, out string, extra ...string) []byte {
	s := `{"name":"t","inputSchema":` + in
	if out != "" {
		s += `,"outputSchema":` + out
	}
	for _, e := range extra {
		s += "," + e
	}
	return []byte(s + "}")
}

func lines(cs []Change) []string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%s %s %s", c.Kind, c.Pointer, c.Change))
	}
	return out
}

// The variants of a tagged union as toolgen writes them.
const (
	card = `{"type":"object","properties":{"type":{"type":"string","const":"card"},"number":{"type":"string"}},"required":["type","number"],"additionalProperties":false}`
	bank = `{"type":"object","properties":{"type":{"type":"string","const":"bank"},"iban":{"type":"string"}},"required":["type","iban"],"additionalProperties":false}`
	cash = `{"type":"object","properties":{"type":{"type":"string","const":"cash"}},"required":["type"],"additionalProperties":false}`
)

func TestCompare(t *testing.T) {
	obj := func(props, required string) string {
		return `{"type":"object","properties":{` + props + `},"required":[` + required + `],"additionalProperties":false}`
	}
	for _, tc := range []struct {
		name     string
		old, new []byte
		want     []string
	}{
		{"same", tool(obj(`"a":{"type":"string"}`, `"a"`), ""), tool(obj(`"a":{"type":"string"}`, `"a"`), ""), nil},
		{"$schema 2020-12 added (//toolgen:package schema=2020-12), input and output",
			tool(obj(`"a":{"type":"string"}`, `"a"`), obj(`"n":{"type":"integer"}`, `"n"`)),
			tool(`{"$schema":"https://json-schema.org/draft/2020-12/schema",`+obj(`"a":{"type":"string"}`, `"a"`)[1:], `{"$schema":"https://json-schema.org/draft/2020-12/schema",`+obj(`"n":{"type":"integer"}`, `"n"`)[1:]),
			[]string{`compatible /inputSchema/$schema added: "https://json-schema.org/draft/2020-12/schema"`, `compatible /outputSchema/$schema added: "https://json-schema.org/draft/2020-12/schema"`}},
		{"$schema 2020-12 removed",
			tool(`{"$schema":"https://json-schema.org/draft/2020-12/schema",`+obj(`"a":{"type":"string"}`, `"a"`)[1:], `{"$schema":"https://json-schema.org/draft/2020-12/schema",`+obj(`"n":{"type":"integer"}`, `"n"`)[1:]),
			tool(obj(`"a":{"type":"string"}`, `"a"`), obj(`"n":{"type":"integer"}`, `"n"`)),
			[]string{`compatible /inputSchema/$schema removed (was "https://json-schema.org/draft/2020-12/schema")`, `compatible /outputSchema/$schema removed (was "https://json-schema.org/draft/2020-12/schema")`}},
		{"formatting and order do not matter",
			tool(`{"type":"object","required":["a","b"],"properties":{"a":{"type":"string"},"b":{"type":"integer"}}}`, ""),
			[]byte("{\n  \"inputSchema\": {\"properties\":{\"b\":{\"type\":\"integer\"},\"a\":{\"type\":[\"string\"]}},\"required\":[\"b\",\"a\"],\"type\":\"object\"},\n  \"name\": \"t\"\n}\n"),
			nil},
		{"property removed",
			tool(obj(`"a":{"type":"string"},"b":{"type":"string"}`, `"a"`), ""),
			tool(obj(`"a":{"type":"string"}`, `"a"`), ""),
			[]string{"breaking /inputSchema/properties/b property removed"}},
		{"new required property",
			tool(obj(`"a":{"type":"string"}`, `"a"`), ""),
			tool(obj(`"a":{"type":"string"},"b":{"type":"string"}`, `"a","b"`), ""),
			[]string{"breaking /inputSchema/properties/b required property added"}},
		{"new optional property",
			tool(obj(`"a":{"type":"string"}`, `"a"`), ""),
			tool(obj(`"a":{"type":"string"},"b":{"type":"string"}`, `"a"`), ""),
			[]string{"compatible /inputSchema/properties/b optional property added"}},
		{"now required, no longer required",
			tool(obj(`"a":{"type":"string"},"b":{"type":"string"}`, `"a"`), ""),
			tool(obj(`"a":{"type":"string"},"b":{"type":"string"}`, `"b"`), ""),
			[]string{"compatible /inputSchema/properties/a no longer required", "breaking /inputSchema/properties/b now required"}},
		{"type changed",
			tool(obj(`"a":{"type":"string"}`, ``), ""),
			tool(obj(`"a":{"type":"integer"}`, ``), ""),
			[]string{"breaking /inputSchema/properties/a/type changed from string to integer"}},
		{"type widened, integer to number",
			tool(obj(`"a":{"type":"integer"}`, ``), ""),
			tool(obj(`"a":{"type":"number"}`, ``), ""),
			[]string{"compatible /inputSchema/properties/a/type widened from integer to number"}},
		{"type narrowed, number to integer",
			tool(obj(`"a":{"type":"number"}`, ``), ""),
			tool(obj(`"a":{"type":"integer"}`, ``), ""),
			[]string{"breaking /inputSchema/properties/a/type narrowed from number to integer"}},
		{"nullable added and removed",
			tool(obj(`"a":{"type":"string"},"b":{"type":["string","null"]}`, ``), ""),
			tool(obj(`"a":{"type":["string","null"]},"b":{"type":"string"}`, ``), ""),
			[]string{"compatible /inputSchema/properties/a/type accepts null now", "breaking /inputSchema/properties/b/type no longer accepts null"}},
		{"enum narrowed",
			tool(obj(`"u":{"type":"string","enum":["c","f"]}`, ``), ""),
			tool(obj(`"u":{"type":"string","enum":["c"]}`, ``), ""),
			[]string{`breaking /inputSchema/properties/u/enum narrowed: "f" removed`}},
		{"enum widened",
			tool(obj(`"u":{"type":"string","enum":["c","f"]}`, ``), ""),
			tool(obj(`"u":{"type":"string","enum":["f","c","k"]}`, ``), ""),
			[]string{`compatible /inputSchema/properties/u/enum widened: "k" added`}},
		{"enum changed",
			tool(obj(`"u":{"type":"string","enum":["c","f"]}`, ``), ""),
			tool(obj(`"u":{"type":"string","enum":["c","k"]}`, ``), ""),
			[]string{`breaking /inputSchema/properties/u/enum changed: "f" removed; "k" added`}},
		{"enum added, removed",
			tool(obj(`"u":{"type":"string"},"v":{"type":"string","enum":["x"]}`, ``), ""),
			tool(obj(`"u":{"type":"string","enum":["c"]},"v":{"type":"string"}`, ``), ""),
			[]string{`breaking /inputSchema/properties/u/enum added: ["c"]`, `compatible /inputSchema/properties/v/enum removed (was ["x"])`}},
		{"const to enum",
			tool(obj(`"c":{"type":"boolean","const":true}`, ``), ""),
			tool(obj(`"c":{"type":"boolean","enum":[true,false]}`, ``), ""),
			[]string{`compatible /inputSchema/properties/c/enum widened: false added`}},
		{"bounds tightened",
			tool(obj(`"d":{"type":"integer","minimum":1,"maximum":14}`, ``), ""),
			tool(obj(`"d":{"type":"integer","minimum":2,"maximum":7}`, ``), ""),
			[]string{"breaking /inputSchema/properties/d/maximum tightened from 14 to 7", "breaking /inputSchema/properties/d/minimum tightened from 1 to 2"}},
		{"bounds widened",
			tool(obj(`"d":{"type":"integer","minimum":1,"maximum":14}`, ``), ""),
			tool(obj(`"d":{"type":"integer","minimum":0,"maximum":1.4e1}`, ``), ""),
			[]string{"compatible /inputSchema/properties/d/minimum widened from 1 to 0"}},
		{"bound added, removed",
			tool(obj(`"d":{"type":"number","maximum":14}`, ``), ""),
			tool(obj(`"d":{"type":"number","minimum":0}`, ``), ""),
			[]string{"compatible /inputSchema/properties/d/maximum removed (was 14)", "breaking /inputSchema/properties/d/minimum added: 0"}},
		{"exclusive bounds",
			tool(obj(`"d":{"type":"number","minimum":0,"exclusiveMaximum":10}`, ``), ""),
			tool(obj(`"d":{"type":"number","exclusiveMinimum":0,"maximum":10}`, ``), ""),
			[]string{"breaking /inputSchema/properties/d/exclusiveMinimum tightened from minimum 0 to exclusiveMinimum 0", "compatible /inputSchema/properties/d/maximum widened from exclusiveMaximum 10 to maximum 10"}},
		{"lengths and items",
			tool(obj(`"s":{"type":"string","minLength":1,"maxLength":80},"l":{"type":"array","items":{"type":"string"},"maxItems":3}`, ``), ""),
			tool(obj(`"s":{"type":"string","minLength":3,"maxLength":100},"l":{"type":"array","items":{"type":"string"},"minItems":1}`, ``), ""),
			[]string{"compatible /inputSchema/properties/l/maxItems removed (was 3)", "breaking /inputSchema/properties/l/minItems added: 1",
				"compatible /inputSchema/properties/s/maxLength widened from 80 to 100", "breaking /inputSchema/properties/s/minLength tightened from 1 to 3"}},
		{"multipleOf",
			tool(obj(`"a":{"type":"number","multipleOf":0.5},"b":{"type":"number","multipleOf":2},"c":{"type":"number","multipleOf":2}`, ``), ""),
			tool(obj(`"a":{"type":"number","multipleOf":1},"b":{"type":"number","multipleOf":1},"c":{"type":"number","multipleOf":3}`, ``), ""),
			[]string{"breaking /inputSchema/properties/a/multipleOf tightened from 0.5 to 1", "compatible /inputSchema/properties/b/multipleOf widened from 2 to 1", "breaking /inputSchema/properties/c/multipleOf changed from 2 to 3"}},
		{"pattern and format",
			tool(obj(`"a":{"type":"string"},"b":{"type":"string","pattern":"^x"},"c":{"type":"string","format":"date"},"d":{"type":"string","pattern":"^a"}`, ``), ""),
			tool(obj(`"a":{"type":"string","pattern":"^a","format":"email"},"b":{"type":"string"},"c":{"type":"string","format":"date-time"},"d":{"type":"string","pattern":"^a"}`, ``), ""),
			[]string{`breaking /inputSchema/properties/a/format added: "email"`, `breaking /inputSchema/properties/a/pattern added: "^a"`,
				`compatible /inputSchema/properties/b/pattern removed (was "^x")`, `breaking /inputSchema/properties/c/format changed from "date" to "date-time"`}},
		{"uniqueItems",
			tool(obj(`"l":{"type":"array","uniqueItems":true},"m":{"type":"array"}`, ``), ""),
			tool(obj(`"l":{"type":"array"},"m":{"type":"array","uniqueItems":true}`, ``), ""),
			[]string{"compatible /inputSchema/properties/l/uniqueItems removed: items may repeat", "breaking /inputSchema/properties/m/uniqueItems added: items must be unique"}},
		{"object closed",
			tool(`{"type":"object","properties":{"a":{"type":"string"}}}`, ""),
			tool(`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, ""),
			[]string{"breaking /inputSchema/additionalProperties object closed: no other properties"}},
		{"object opened",
			tool(`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, ""),
			tool(`{"type":"object","properties":{"a":{"type":"string"}}}`, ""),
			[]string{"compatible /inputSchema/additionalProperties object opened: other properties allowed"}},
		{"map values",
			tool(obj(`"m":{"type":"object","additionalProperties":{"type":"integer","maximum":5},"propertyNames":{"minLength":1}}`, ``), ""),
			tool(obj(`"m":{"type":"object","additionalProperties":{"type":"integer","maximum":3},"propertyNames":{"minLength":2}}`, ``), ""),
			[]string{"breaking /inputSchema/properties/m/additionalProperties/maximum tightened from 5 to 3", "breaking /inputSchema/properties/m/propertyNames/minLength tightened from 1 to 2"}},
		{"items",
			tool(obj(`"l":{"type":"array","items":{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]}}`, ``), ""),
			tool(obj(`"l":{"type":"array","items":{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"string"}},"required":["x","y"]}}`, ``), ""),
			[]string{"breaking /inputSchema/properties/l/items/properties/y required property added"}},
		{"descriptions and titles",
			tool(obj(`"a":{"type":"string","description":"old","title":"A"}`, ``), "", `"description":"old","title":"T"`),
			tool(obj(`"a":{"type":"string","description":"new","title":"B"}`, ``), "", `"description":"new","title":"U"`),
			[]string{"compatible /description changed", "compatible /inputSchema/properties/a/description changed", `compatible /inputSchema/properties/a/title changed from "A" to "B"`, `compatible /title changed from "T" to "U"`}},
		{"default changed",
			tool(obj(`"d":{"type":"integer","default":1}`, ``), ""),
			tool(obj(`"d":{"type":"integer","default":7}`, ``), ""),
			[]string{"compatible /inputSchema/properties/d/default changed from 1 to 7"}},
		{"unknown keyword",
			tool(obj(`"d":{"type":"integer"}`, ``), ""),
			tool(obj(`"d":{"type":"integer","dependentRequired":{}}`, ``), ""),
			[]string{"breaking /inputSchema/properties/d/dependentRequired added: {}; toolgen cannot tell its effect"}},
		{"ref into defs, tightened",
			tool(`{"type":"object","properties":{"p":{"$ref":"#/$defs/P"}},"$defs":{"P":{"type":"object","properties":{"zip":{"type":"string","maxLength":10}}}}}`, ""),
			tool(`{"type":"object","properties":{"p":{"$ref":"#/$defs/P"}},"$defs":{"P":{"type":"object","properties":{"zip":{"type":"string","maxLength":5}}}}}`, ""),
			[]string{"breaking /inputSchema/$defs/P/properties/zip/maxLength tightened from 10 to 5"}},
		{"ref inlined: no change",
			tool(`{"type":"object","properties":{"p":{"$ref":"#/$defs/P","description":"d"}},"$defs":{"P":{"type":"string","maxLength":10}}}`, ""),
			tool(`{"type":"object","properties":{"p":{"type":"string","maxLength":10,"description":"d"}}}`, ""),
			nil},
		{"unresolvable ref",
			tool(obj(`"a":{"$ref":"other.json#/A"},"b":{"$ref":"#/$defs/Missing"}`, ``), ""),
			tool(obj(`"a":{"$ref":"other.json#/B"},"b":{"$ref":"#/$defs/Missing"}`, ``), ""),
			[]string{`breaking /inputSchema/properties/a/$ref changed from "other.json#/A" to "other.json#/B"; toolgen cannot tell its effect`}},
		{"ref cycle",
			tool(`{"$ref":"#/$defs/A","$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}`, ""),
			tool(`{"$ref":"#/$defs/A","$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}`, ""),
			nil},
		{"recursive schema",
			tool(`{"$ref":"#/$defs/N","$defs":{"N":{"type":"object","properties":{"v":{"type":"string"},"kids":{"type":"array","items":{"$ref":"#/$defs/N"}}}}}}`, ""),
			tool(`{"$ref":"#/$defs/N","$defs":{"N":{"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#/$defs/N"}}}}}}`, ""),
			[]string{"breaking /inputSchema/$defs/N/properties/v/type changed from string to integer"}},
		{"nullable as anyOf, a ref",
			tool(`{"type":"object","properties":{"a":{"anyOf":[{"$ref":"#/$defs/X"},{"type":"null"}],"description":"d"},"b":{"$ref":"#/$defs/X"}},"$defs":{"X":{"type":"object","properties":{"s":{"type":"string"}}}}}`, ""),
			tool(`{"type":"object","properties":{"a":{"$ref":"#/$defs/X","description":"d"},"b":{"anyOf":[{"$ref":"#/$defs/X"},{"type":"null"}]}},"$defs":{"X":{"type":"object","properties":{"s":{"type":"string","minLength":1}}}}}`, ""),
			[]string{"breaking /inputSchema/$defs/X/properties/s/minLength added: 1", "breaking /inputSchema/properties/a/anyOf no longer accepts null", "compatible /inputSchema/properties/b/anyOf accepts null now"}},
		{"anyOf branches",
			tool(obj(`"a":{"anyOf":[{"type":"string"},{"type":"integer"}]},"b":{"anyOf":[{"type":"string"},{"type":"integer"}]}`, ``), ""),
			tool(obj(`"a":{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"boolean"}]},"b":{"anyOf":[{"type":"string"},{"type":"number"}]}`, ``), ""),
			[]string{"compatible /inputSchema/properties/a/anyOf widened: 1 branch added", "compatible /inputSchema/properties/b/anyOf/1/type widened from integer to number"}},
		{"anyOf branches reordered",
			tool(obj(`"a":{"anyOf":[{"type":"string"},{"type":"integer"}]}`, ``), ""),
			tool(obj(`"a":{"anyOf":[{"type":"integer"},{"type":"string"}]}`, ``), ""),
			nil},
		{"tagged union: a variant added, one removed, a variant's property narrowed",
			tool(obj(`"a":{"oneOf":[`+card+`,`+bank+`]},"b":{"oneOf":[`+card+`,`+bank+`]},"c":{"oneOf":[`+card+`]}`, ``), ""),
			tool(obj(`"a":{"oneOf":[`+card+`,`+bank+`,`+cash+`]},"b":{"oneOf":[`+card+`]},"c":{"oneOf":[`+strings.Replace(card, `"type":"string"}}`, `"type":"string","minLength":12}}`, 1)+`]}`, ``), ""),
			[]string{"compatible /inputSchema/properties/a/oneOf widened: 1 branch added", "breaking /inputSchema/properties/b/oneOf narrowed: 1 branch removed", "breaking /inputSchema/properties/c/oneOf/0/properties/number/minLength added: 12"}},
		{"oneOf without a discriminator: a branch added may refuse what two branches accept",
			tool(obj(`"a":{"oneOf":[{"type":"string"},{"type":"integer"}]}`, ``), ""),
			tool(obj(`"a":{"oneOf":[{"type":"string"},{"type":"integer"},{"type":"number"}]}`, ``), ""),
			[]string{"breaking /inputSchema/properties/a/oneOf changed: 1 branch added, whose values other branches may accept too"}},
		{"schema made false",
			tool(obj(`"a":{"type":"string"}`, ``), ""),
			tool(obj(`"a":false`, ``), ""),
			[]string{"breaking /inputSchema/properties/a accepts nothing now (false)"}},
		{"annotations: readonly removed, destructive added",
			tool(obj(``, ``), "", `"annotations":{"readOnlyHint":true}`),
			tool(obj(``, ``), "", `"annotations":{"destructiveHint":true}`),
			[]string{"breaking /annotations/destructiveHint changed from false to true", "breaking /annotations/idempotentHint changed from true to false (MCP's default)", "breaking /annotations/readOnlyHint changed from true to false (MCP's default)"}},
		{"annotations: destructive removed (MCP's default)",
			tool(obj(``, ``), "", `"annotations":{"destructiveHint":false,"idempotentHint":false,"openWorldHint":true}`),
			tool(obj(``, ``), "", `"annotations":{"idempotentHint":true}`),
			[]string{"breaking /annotations/destructiveHint changed from false to true (MCP's default)", "compatible /annotations/idempotentHint changed from false to true", "compatible /annotations/openWorldHint left out, as before: MCP's default, no effect"}},
		{"annotations: made safer, open world closed",
			tool(obj(``, ``), "", `"annotations":{"openWorldHint":true}`),
			tool(obj(``, ``), "", `"annotations":{"readOnlyHint":true,"openWorldHint":false,"title":"T"}`),
			[]string{"compatible /annotations/destructiveHint changed from true to false (MCP's default)", "compatible /annotations/idempotentHint changed from false to true (MCP's default)",
				"compatible /annotations/openWorldHint changed from true to false", "compatible /annotations/readOnlyHint changed from false to true", `compatible /annotations/title added: "T"`}},
		{"annotations: open world added",
			tool(obj(``, ``), "", `"annotations":{"readOnlyHint":true,"openWorldHint":false}`),
			tool(obj(``, ``), "", `"annotations":{"readOnlyHint":true}`),
			[]string{"breaking /annotations/openWorldHint changed from false to true (MCP's default)"}},
		{"groups",
			tool(obj(``, ``), "", `"groups":["a","b"]`),
			tool(obj(``, ``), "", `"groups":["b","c"]`),
			[]string{`compatible /groups joined group "c"`, `breaking /groups left group "a"`}},
		{"output property removed, added, type changed",
			tool(obj(``, ``), `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"}},"required":["a","b","c"]}`),
			tool(obj(``, ``), `{"type":"object","properties":{"b":{"type":"integer"},"c":{"type":"string"},"d":{"type":"string"},"e":{"type":"string"}},"required":["b","c","d"]}`),
			[]string{"breaking /outputSchema/properties/a property removed", "breaking /outputSchema/properties/b/type changed from string to integer",
				"compatible /outputSchema/properties/d property added", "compatible /outputSchema/properties/e optional property added"}},
		{"output widened and narrowed",
			tool(obj(``, ``), `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["array","null"]},"c":{"type":"string","enum":["x"]}},"required":["a","b"]}`),
			tool(obj(``, ``), `{"type":"object","properties":{"a":{"type":["string","null"]},"b":{"type":"array"},"c":{"type":"string","enum":["x","y"]}},"required":["b","c"]}`),
			[]string{"breaking /outputSchema/properties/a no longer required", "breaking /outputSchema/properties/a/type accepts null now", "compatible /outputSchema/properties/b/type no longer accepts null",
				"compatible /outputSchema/properties/c now required", `breaking /outputSchema/properties/c/enum widened: "y" added`}},
		{"output schema removed",
			tool(obj(``, ``), `{"type":"object"}`), tool(obj(``, ``), ""),
			[]string{"breaking /outputSchema output schema removed"}},
		{"output schema added",
			tool(obj(``, ``), ""), tool(obj(``, ``), `{"type":"object"}`),
			[]string{"compatible /outputSchema output schema added"}},
		{"output optional property removed, object opened",
			tool(obj(``, ``), `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"],"additionalProperties":false}`),
			tool(obj(``, ``), `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`),
			[]string{"compatible /outputSchema/additionalProperties object opened: other properties may come", "compatible /outputSchema/properties/b optional property removed"}},
		{"output bounds, lengths and patterns, in the output's sense",
			tool(obj(``, ``), `{"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":10},"s":{"type":"string","maxLength":5,"pattern":"^[a-z]+$"},"t":{"type":"string","pattern":".*"}},"required":["n","s","t"]}`),
			tool(obj(``, ``), `{"type":"object","properties":{"n":{"type":"integer","minimum":0,"maximum":5},"s":{"type":"string","maxLength":3,"pattern":".*"},"t":{"type":"string","pattern":"^[a-z]+$"}},"required":["n","s","t"]}`),
			[]string{"compatible /outputSchema/properties/n/maximum tightened from 10 to 5", "breaking /outputSchema/properties/n/minimum widened from 1 to 0",
				"compatible /outputSchema/properties/s/maxLength tightened from 5 to 3", `breaking /outputSchema/properties/s/pattern widened from "^[a-z]+$" to ".*", which matches every string`,
				`compatible /outputSchema/properties/t/pattern tightened from ".*", which matches every string, to "^[a-z]+$"`}},
		{"input pattern changed to one that matches every string, and back",
			tool(obj(`"a":{"type":"string","pattern":"^[a-z]+$"},"b":{"type":"string","pattern":".*"},"c":{"type":"string","pattern":".*"},"d":{"type":"string","pattern":"^a"}`, ``), ""),
			tool(obj(`"a":{"type":"string","pattern":".*"},"b":{"type":"string","pattern":"^[a-z]+$"},"c":{"type":"string","pattern":"^(?s).*$"},"d":{"type":"string","pattern":"^.*$"}`, ``), ""),
			// "^.*$" does not match "a\nb": "." is no newline, "$" the end of the text.
			[]string{`compatible /inputSchema/properties/a/pattern widened from "^[a-z]+$" to ".*", which matches every string`,
				`breaking /inputSchema/properties/b/pattern tightened from ".*", which matches every string, to "^[a-z]+$"`,
				`compatible /inputSchema/properties/c/pattern changed from ".*" to "^(?s).*$", both match every string`,
				`breaking /inputSchema/properties/d/pattern changed from "^a" to "^.*$"`}},
		{"name changed inside the file",
			tool(obj(``, ``), ""), []byte(`{"name":"u","inputSchema":` + obj(``, ``) + `}`),
			[]string{`breaking /name name changed from "t" to "u"`}},
		{"unknown top-level field",
			tool(obj(``, ``), ""), tool(obj(``, ``), "", `"icons":[]`),
			[]string{"breaking /icons added: []; toolgen cannot tell its effect"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Compare(map[string][]byte{file: tc.old}, map[string][]byte{file: tc.new})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range got {
				if c.Dir != "pkg" || c.Tool != "t" {
					t.Errorf("change %+v: want dir pkg, tool t", c)
				}
			}
			if g := lines(got); !slices.Equal(g, tc.want) {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(g, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
		})
	}
}

func TestTools(t *testing.T) {
	in := `{"type":"object","properties":{"city":{"type":"string"}}}`
	other := `{"type":"object"}`
	old := map[string][]byte{
		"a/toolschema/get_weather.json": tool(in, ""),
		"a/toolschema/gone.json":        tool(other, ""),
		"a/toolschema/kept.json":        tool(other, ""),
		"a/toolschema/openai.json":      []byte(`[1]`),
		"b/toolschema/kept.json":        tool(other, ""),
	}
	new := map[string][]byte{
		"a/toolschema/forecast.json": tool(in, ""),
		"a/toolschema/kept.json":     tool(other, ""),
		"a/toolschema/openai.json":   []byte(`[2]`),
		"a/toolschema/notes.txt":     []byte(`x`),
		"b/toolschema/kept.json":     tool(other, ""),
		"c/toolschema/new.json":      tool(in, ""),
	}
	got, err := Compare(old, new)
	if err != nil {
		t.Fatal(err)
	}
	var g []string
	for _, c := range got {
		g = append(g, fmt.Sprintf("%s %s %s %q %s", c.Kind, c.Dir, c.Tool, c.Pointer, c.Change))
	}
	want := []string{
		`compatible a forecast "" tool added (renamed from get_weather?)`,
		`breaking a get_weather "" tool removed (renamed to forecast?)`,
		`breaking a gone "" tool removed`,
		`compatible c new "" tool added`,
	}
	if !slices.Equal(g, want) {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(g, "\n\t"), strings.Join(want, "\n\t"))
	}
	if string(got[1].Old) != `{"inputSchema":{"properties":{"city":{"type":"string"}},"type":"object"},"name":"t"}` || got[1].New != nil {
		t.Errorf("removed tool: old %s, new %s", got[1].Old, got[1].New)
	}
}

func TestIsContract(t *testing.T) {
	for p, want := range map[string]bool{
		"toolschema/get_weather.json":         true,
		"a/b/toolschema/get_weather.json":     true,
		"a/toolschema/openai.json":            false,
		"a/toolschema/openai-responses.json":  false,
		"a/toolschema/anthropic.json":         false,
		"a/toolschema/gemini.json":            false,
		"a/toolschema/mcp.json":               false,
		"a/toolschema/x.txt":                  false,
		"a/toolschema/sub/x.json":             false,
		"a/other/x.json":                      false,
		"x.json":                              false,
		"a/toolschema/.json":                  false,
		"a//toolschema/x.json":                false,
		"examples/weather/toolschema/hi.json": true,
	} {
		if got := IsContract(p); got != want {
			t.Errorf("IsContract(%q) = %t, want %t", p, got, want)
		}
	}
}

func TestCompareErrors(t *testing.T) {
	for _, data := range []string{`[`, `[]`, `{} {}`} {
		_, err := Compare(map[string][]byte{file: []byte(data)}, nil)
		if err == nil || !strings.HasPrefix(err.Error(), "old contract: "+file+": ") {
			t.Errorf("Compare(%q): error %v", data, err)
		}
	}
	if _, err := Compare(nil, map[string][]byte{file: []byte(`1`)}); err == nil || !strings.HasPrefix(err.Error(), "new contract: ") {
		t.Errorf("Compare(new 1): error %v", err)
	}
}

// TestRealContracts compares every contract of the repository with itself: no change.
func TestRealContracts(t *testing.T) {
	files := map[string][]byte{}
	for _, pattern := range []string{"../../examples/*/*/toolschema/*.json", "../../internal/*/toolschema/*.json", "../../testdata/generator/schema/*/toolschema/*.json", "../../testdata/generator/schemadialect/toolschema/*.json"} {
		matches, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range matches {
			data, err := os.ReadFile(m)
			if err != nil {
				t.Fatal(err)
			}
			files[filepath.ToSlash(m)] = data
		}
	}
	if len(files) < 20 {
		t.Fatalf("%d contract files found", len(files))
	}
	got, err := Compare(files, files)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > 0 {
		t.Errorf("%d changes between a contract and itself: %v", len(got), lines(got))
	}
}

// TestOddShapes checks that keywords of unexpected types are compared without a panic.
func TestOddShapes(t *testing.T) {
	odd := []string{
		`{}`, `true`, `false`, `null`, `1`, `"s"`, `[]`,
		`{"type":1,"enum":"x","const":null,"properties":[],"required":"a","items":[],"anyOf":{},"$ref":1}`,
		`{"properties":{"a":1,"b":null,"c":[]},"required":[1,"a"],"additionalProperties":"x","propertyNames":2}`,
		`{"minimum":"1","maximum":true,"minLength":-1,"maxLength":1.5,"multipleOf":0,"pattern":1,"uniqueItems":"yes"}`,
		`{"anyOf":[{"type":"null"},{"type":"null"}]}`, `{"anyOf":[true,{"type":"null"}]}`,
		`{"$ref":"#/nope/~2"}`, `{"$ref":"#"}`, `{"$ref":"#/properties/a","properties":{"a":{"$ref":"#"}}}`,
	}
	for _, a := range odd {
		for _, b := range odd {
			old := map[string][]byte{file: tool(a, a, `"annotations":`+a, `"groups":`+a)}
			new := map[string][]byte{file: tool(b, b, `"annotations":`+b, `"groups":`+b)}
			if _, err := Compare(old, new); err != nil {
				t.Errorf("Compare(%s, %s): %v", a, b, err)
			}
		}
	}
}
