package runtime_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/mcpheader"
)

func okRun(context.Context, json.RawMessage) (*runtime.Result, error) {
	return runtime.TextResult("ok"), nil
}

// TestHeaderParams: a dynamic tool's x-mcp-header annotations are read in order, top
// level and nested through properties; each one SEP-2243 refuses makes NewTool fail
// with a message naming the property.
func TestHeaderParams(t *testing.T) {
	def := runtime.Tool{Name: "sql", InputSchema: json.RawMessage(`{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"opts":{"type":"object","properties":{"priority":{"type":"integer","x-mcp-header":"Priority"}}},
		"dry":{"type":"boolean","x-mcp-header":"Method"},
		"note":{"type":"string","default":{"x-mcp-header":"data, not a schema"}}}}`)}
	got, err := def.HeaderParams()
	if err != nil {
		t.Fatal(err)
	}
	want := []mcpheader.Param{{Path: []string{"dry"}, Name: "Method", Type: "boolean"}, {Path: []string{"opts", "priority"}, Name: "Priority", Type: "integer"}, {Path: []string{"region"}, Name: "Region", Type: "string"}}
	if b, w := jsonOf(t, got), jsonOf(t, want); b != w {
		t.Errorf("HeaderParams: %s, want %s", b, w)
	}
	if _, err := runtime.NewTool(def, okRun); err != nil {
		t.Errorf("NewTool: %v", err)
	}
	for _, c := range []struct{ schema, says string }{
		{`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":""}}}`, "must not be empty"},
		{`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"My Region"}}}`, `' ' is not one of those`},
		{`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region:Primary"}}}`, `':' is not`},
		{`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Région"}}}`, `'é' is not`},
		{`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region\t1"}}}`, `'\t' is not`},
		{`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region\r\nX-Evil: 1"}}}`, `'\r' is not`},
		{`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"` + strings.Repeat("a", mcpheader.MaxNameBytes+1) + `"}}}`, "at most 64 bytes, not 65"},
		{`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":7}}}`, "must be a string"},
		{`{"type":"object","properties":{"a":{"type":"number","x-mcp-header":"A"}}}`, `not "number"`},
		{`{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"},"x-mcp-header":"A"}}}`, `not "array"`},
		{`{"type":"object","properties":{"a":{"type":"object","x-mcp-header":"A"}}}`, `not "object"`},
		{`{"type":"object","properties":{"a":{"type":"null","x-mcp-header":"A"}}}`, `not "null"`},
		{`{"type":"object","properties":{"a":{"type":["string","null"],"x-mcp-header":"A"}}}`, "without one type"},
		{`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"REGION"}}}`, "/b: x-mcp-header \"REGION\": the property /a has it already"},
		{`{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","x-mcp-header":"A"}}}}`, "/a/items: x-mcp-header is only for a property reached"},
		{`{"type":"object","properties":{"a":{"anyOf":[{"type":"string","x-mcp-header":"A"},{"type":"null"}]}}}`, "/a/anyOf: x-mcp-header is only"},
		{`{"type":"object","$defs":{"d":{"type":"object","properties":{"x":{"type":"string","x-mcp-header":"X"}}}},"properties":{"a":{"$ref":"#/$defs/d"}}}`, "/$defs/d/properties/x: x-mcp-header is only"},
		{`{"type":"object","x-mcp-header":"Root"}`, "/: x-mcp-header is only"},
		{`{"type":"object","properties":{"a":{"type":"number","x-mcp-h\u0065ader":"A"}}}`, `not "number"`},
	} {
		def := runtime.Tool{Name: "t", InputSchema: json.RawMessage(c.schema)}
		if _, err := def.HeaderParams(); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want an error saying %q", c.schema, err, c.says)
		}
		if _, err := runtime.NewTool(def, okRun); err == nil {
			t.Errorf("NewTool took %s", c.schema)
		}
	}
	// At the limit.
	name := strings.Repeat("a", mcpheader.MaxNameBytes)
	if _, err := runtime.NewTool(runtime.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"` + name + `"}}}`)}, okRun); err != nil {
		t.Errorf("a %d-byte name: %v", len(name), err)
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// FuzzHeaderParams: whatever the schema, HeaderParams never panics, and what it
// returns holds SEP-2243's rules: names that mcpheader.CheckName takes (HTTP tokens only),
// unique in any case, on properties of one primitive type; a name put in a schema of
// one string property is taken exactly when mcpheader.CheckName takes it.
func FuzzHeaderParams(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region"}}}`, "Region")
	f.Add(`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"integer","x-mcp-header":"B"}}}}}`, "B\r\n")
	f.Add(`{"type":"object","properties":{"a":{"type":"string","x-mcp-h\u0065ader":"a"},"b":{"type":"boolean","x-mcp-header":"A"}}}`, "é")
	f.Add(`{"type":"object","$defs":{"d":{"x-mcp-header":"D"}},"items":[{"x-mcp-header":"I"}]}`, "")
	f.Fuzz(func(t *testing.T, schema, name string) {
		def := runtime.Tool{Name: "t", InputSchema: json.RawMessage(schema)}
		params, err := def.HeaderParams()
		seen := map[string]bool{}
		for _, p := range params {
			if err != nil {
				t.Fatalf("params %v with the error %v", params, err)
			}
			if mcpheader.CheckName(p.Name) != nil || seen[strings.ToLower(p.Name)] || len(p.Path) == 0 {
				t.Fatalf("%q: a parameter SEP-2243 refuses: %+v", schema, p)
			}
			if p.Type != "string" && p.Type != "integer" && p.Type != "boolean" {
				t.Fatalf("%q: type %q", schema, p.Type)
			}
			seen[strings.ToLower(p.Name)] = true
		}
		quoted, _ := json.Marshal(name)
		one := runtime.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":` + string(quoted) + `}}}`)}
		got, err := one.HeaderParams()
		nameErr := mcpheader.CheckName(name)
		if (err == nil) != (nameErr == nil) || err == nil && (len(got) != 1 || got[0].Name != name) {
			t.Fatalf("name %q: %v, %v (mcpheader.CheckName: %v)", name, got, err, nameErr)
		}
		if nameErr == nil {
			for i := 0; i < len(name); i++ {
				if c := name[i]; c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
					t.Fatalf("name %q taken with the byte %q", name, c)
				}
			}
		}
	})
}
