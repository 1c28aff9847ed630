package schematree

import (
	"encoding/json"
	"strings"
	"testing"
)

// full is a node with every keyword set, strings that need escaping, values that are
// not compact and nil subschemas and values in lists.
func full() *node {
	n, m := 1, -3
	yes := true
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	leaf := &node{Type: TypeList{"string"}, Description: "tab\there \"quoted\" \\ back\u2028 é <&> \x01"}
	return &node{
		Ref: "#/$defs/x", Type: TypeList{"integer", "null"}, Title: "T", Description: "line\nnext",
		Enum: []json.RawMessage{raw(` 1 `), nil, raw(`{ "a" : [ 1, 2 ] }`)}, Const: raw(` "c" `),
		Format: "date-time", Pattern: `^\d+$`, ContentEncoding: "base64", MinLength: &n, MaxLength: &m,
		Minimum: raw(`0`), ExclusiveMinimum: raw(`-1.5`), Maximum: raw(`1e3`), ExclusiveMaximum: raw(`2000`), MultipleOf: raw(`0.5`),
		Items: leaf, MinItems: &n, MaxItems: &m, UniqueItems: true,
		Properties: &Map[*node]{{Name: "p\"q", Schema: leaf}, {Name: "nil", Schema: nil}, {Name: "b", Schema: &node{Boolean: &yes}}},
		Required:   []string{"p\"q", "é"}, AdditionalProperties: Bool[note](false), PropertyNames: &node{Pattern: "^[a-z]+$"},
		MinProperties: &n, MaxProperties: &m, AnyOf: []*node{leaf, nil}, OneOf: []*node{{}},
		Default: raw("[ true ,false ]"), Deprecated: true, Examples: []json.RawMessage{raw(`"e"`)}, XMCPHeader: "X-H",
		Defs: Map[*node]{{Name: "x", Schema: &node{Properties: &Map[*node]{}}}},
	}
}

// TestEncodeEveryKeyword checks the encoder against what encoding/json wrote, through
// the struct's tags, for the same tree (the want strings were written by it): with
// json.Marshal, which escapes HTML, with EncodeJSON, which does not, and indented.
func TestEncodeEveryKeyword(t *testing.T) {
	leaf := `{"type":"string","description":"tab\there \"quoted\" \\ back\u2028 é <&> \u0001"}`
	want := `{"$ref":"#/$defs/x","type":["integer","null"],"title":"T","description":"line\nnext","enum":[1,null,{"a":[1,2]}],"const":"c","format":"date-time","pattern":"^\\d+$","contentEncoding":"base64","minLength":1,"maxLength":-3,"minimum":0,"exclusiveMinimum":-1.5,"maximum":1e3,"exclusiveMaximum":2000,"multipleOf":0.5,"items":` + leaf + `,"minItems":1,"maxItems":-3,"uniqueItems":true,"properties":{"p\"q":` + leaf + `,"nil":null,"b":true},"required":["p\"q","é"],"additionalProperties":false,"propertyNames":{"pattern":"^[a-z]+$"},"minProperties":1,"maxProperties":-3,"anyOf":[` + leaf + `,null],"oneOf":[{}],"default":[true,false],"deprecated":true,"examples":["e"],"x-mcp-header":"X-H","$defs":{"x":{"properties":{}}}}`
	got, err := EncodeJSON(full(), false)
	if err != nil || string(got) != want {
		t.Errorf("EncodeJSON =\n%s (%v)\nwant\n%s", got, err, want)
	}
	marshaled, err := json.Marshal(full())
	if wantHTML := strings.ReplaceAll(want, "<&>", `\u003c\u0026\u003e`); err != nil || string(marshaled) != wantHTML {
		t.Errorf("json.Marshal =\n%s (%v)\nwant\n%s", marshaled, err, wantHTML)
	}
	ind, err := EncodeJSON(Map[*node]{{Name: "a", Schema: full().Items}, {Name: "b", Schema: nil}}, true)
	wantInd := "{\n  \"a\": {\n    \"type\": \"string\",\n    \"description\": \"tab\\there \\\"quoted\\\" \\\\ back\\u2028 é <&> \\u0001\"\n  },\n  \"b\": null\n}\n"
	if err != nil || string(ind) != wantInd {
		t.Errorf("indented = %q (%v), want %q", ind, err, wantInd)
	}
	// A value that is not JSON is an error, as encoding/json's.
	if _, err := EncodeJSON(&node{Const: json.RawMessage("{")}, false); err == nil {
		t.Error("EncodeJSON of a node holding invalid JSON succeeded")
	}
}
