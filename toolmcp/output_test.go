package toolmcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/toolimpl"
	"github.com/toolgen/toolgen/toolmcp"
)

// hoursTools has one tool whose value is a list, wrapped as toolgen wraps it
// (OutputWrapped), and one struct-valued tool with a property named result.
func hoursTools() *runtime.Toolset {
	tools := []runtime.Tool{{
		Name:          "hours",
		InputSchema:   json.RawMessage(emptyObject),
		OutputSchema:  json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"result":{"type":"array","items":{"$ref":"#/$defs/Hour"}}},"required":["result"],"$defs":{"Hour":{"type":"object","properties":{"t":{"type":"integer"}}}}}`),
		OutputWrapped: true,
	}, {
		Name:         "object",
		InputSchema:  json.RawMessage(emptyObject),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"result":{"type":"integer"}},"required":["result"]}`),
	}}
	return runtime.NewToolset(tools, toolimpl.Direct(func(i int, d *toolimpl.Decoder) toolimpl.Invocation {
		d.EmptyObject()
		if !d.Finish() {
			return nil
		}
		if i == 0 {
			return func(context.Context) (*runtime.Result, error) {
				return runtime.StructuredResult([]map[string]int{{"t": 9}, {"t": 10}}, true)
			}
		}
		return func(context.Context) (*runtime.Result, error) {
			return runtime.StructuredResult(map[string]int{"result": 3}, false)
		}
	}))
}

// TestNonObjectOutput: under MCP 2026-07-28 (SEP-2106) a tool whose value is not an
// object lists the value's output schema ($schema and $defs kept at its root) and
// answers with the value as structuredContent and as its text; under 2025-11-25 it
// is wrapped in {"result": ...}, as before. A struct's result property stays.
func TestNonObjectOutput(t *testing.T) {
	const (
		wrapper  = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"result":{"type":"array","items":{"$ref":"#/$defs/Hour"}}},"required":["result"],"$defs":{"Hour":{"type":"object","properties":{"t":{"type":"integer"}}}}}`
		value    = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"array","items":{"$ref":"#/$defs/Hour"},"$defs":{"Hour":{"type":"object","properties":{"t":{"type":"integer"}}}}}`
		object   = `{"type":"object","properties":{"result":{"type":"integer"}},"required":["result"]}`
		list     = `[{"t":9},{"t":10}]`
		wrapped  = `{"result":[{"t":9},{"t":10}]}`
		objValue = `{"result":3}`
	)
	s := newServer()
	toolmcp.Register(s, hoursTools())
	srv := httptest.NewServer(toolmcp.NewHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer srv.Close()
	connect := map[string]func(t *testing.T, version string) *mcp.ClientSession{
		"in memory": func(t *testing.T, version string) *mcp.ClientSession { return connectWith(t, s, version, nil) },
		"http": func(t *testing.T, version string) *mcp.ClientSession {
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(),
				&mcp.StreamableClientTransport{Endpoint: srv.URL}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			return cs
		},
	}
	for how, conn := range connect {
		for _, c := range []struct{ version, schema, structured string }{{"2026-07-28", value, list}, {classic, wrapper, wrapped}} {
			t.Run(how+"/"+c.version, func(t *testing.T) {
				cs := conn(t, c.version)
				lt, err := cs.ListTools(context.Background(), nil)
				if err != nil {
					t.Fatal(err)
				}
				schemas := map[string]string{}
				for _, tool := range lt.Tools {
					schemas[tool.Name] = jsonOf(t, tool.OutputSchema)
				}
				if schemas["hours"] != canonJSON(t, c.schema) || schemas["object"] != canonJSON(t, object) {
					t.Errorf("output schemas %v, want hours %s", schemas, c.schema)
				}
				res := call(t, cs, "hours", map[string]any{})
				if got := jsonOf(t, res.StructuredContent); got != c.structured || text(res) != c.structured {
					t.Errorf("hours: structured %s, text %s; want %s", got, text(res), c.structured)
				}
				res = call(t, cs, "object", map[string]any{})
				if got := jsonOf(t, res.StructuredContent); got != objValue || text(res) != objValue {
					t.Errorf("object: structured %s, text %s", got, text(res))
				}
			})
		}
	}
}

// canonJSON returns s as the go-sdk client writes what it decoded: keys sorted.
func canonJSON(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return jsonOf(t, v)
}
