package toolmcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/toolimpl"
	"github.com/toolgen/toolgen/toolmcp"
)

// The benchmarks compare toolmcp's registration (raw schemas, generated decoders) with
// the SDK's typed mcp.AddTool (schemas inferred by reflection, arguments validated
// against the schema, then unmarshaled with encoding/json).
//
//	go test -run '^$' -bench . ./toolmcp

var weatherArgs = json.RawMessage(`{"city":"Paris","days":3}`)

// sdkWeatherServer serves get_weather with mcp.AddTool and the same schemas.
func sdkWeatherServer() *mcp.Server {
	rt, _ := forecast.Tools().Lookup("get_weather")
	s := newServer()
	mcp.AddTool(s, &mcp.Tool{
		Name:         rt.Name,
		Title:        rt.Title,
		Description:  rt.Description,
		InputSchema:  rt.InputSchema,
		OutputSchema: rt.OutputSchema,
	}, func(ctx context.Context, _ *mcp.CallToolRequest, q forecast.Query) (*mcp.CallToolResult, forecast.Report, error) {
		r, _, err := forecast.GetWeather(ctx, q)
		return nil, r, err
	})
	return s
}

// BenchmarkCall measures one tools/call of get_weather through the in-memory transport,
// client included.
func BenchmarkCall(b *testing.B) {
	ours := newServer()
	toolmcp.Register(ours, forecast.Tools())
	for _, bc := range []struct {
		name   string
		server *mcp.Server
	}{
		{"toolmcp", ours},
		{"sdk-typed", sdkWeatherServer()},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cs := connect(b, bc.server)
			params := &mcp.CallToolParams{Name: "get_weather", Arguments: weatherArgs}
			res, err := cs.CallTool(context.Background(), params)
			if err != nil || res.IsError {
				b.Fatalf("get_weather: %v %s", err, jsonOf(b, res))
			}
			if got := jsonOf(b, res.StructuredContent); len(got) < 100 {
				b.Fatalf("structuredContent %s", got)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := cs.CallTool(context.Background(), params); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// thousandTools returns 1,000 tools sharing one schema and one dispatch, as a large
// generated package would have them.
func thousandTools() ([]runtime.Tool, toolimpl.Dispatch) {
	tools := make([]runtime.Tool, 1000)
	for i := range tools {
		tools[i] = runtime.Tool{
			Name:        fmt.Sprintf("tool_%04d", i),
			Description: "A tool of the benchmark.",
			Annotations: runtime.Annotations{ReadOnly: new(true)},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"],"additionalProperties":false}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},` +
				`"required":["city","days"]}`),
		}
	}
	dispatch := func(i int, d *toolimpl.Decoder) toolimpl.Invocation {
		var in benchIn
		if d.BeginObject() {
			var city bool
			for d.NextField() {
				switch string(d.FieldName()) {
				case "city":
					city = true
					d.Enter("city")
					in.City, _ = d.String()
					d.Leave()
				case "days":
					d.Enter("days")
					n, _ := d.Int(-1<<31, 1<<31-1)
					in.Days = int(n)
					d.Leave()
				default:
					d.Unknown("city", "days")
				}
			}
			if !city {
				d.Missing("city")
			}
		}
		if !d.Finish() {
			return nil
		}
		return func(context.Context) (*runtime.Result, error) { return runtime.StructuredResult(in, false) }
	}
	return tools, dispatch
}

type benchIn struct {
	City string `json:"city"`
	Days int    `json:"days,omitempty"`
}

type benchOut struct {
	City string `json:"city"`
	Days int    `json:"days"`
}

// BenchmarkRegister1000 measures adding 1,000 tools to a new server.
func BenchmarkRegister1000(b *testing.B) {
	b.Run("toolmcp", func(b *testing.B) {
		tools, dispatch := thousandTools()
		b.ReportAllocs()
		for b.Loop() {
			s := newServer()
			toolmcp.Register(s, runtime.NewToolset(tools, toolimpl.Direct(dispatch)))
		}
	})
	b.Run("sdk-typed", func(b *testing.B) {
		names := make([]string, 1000)
		for i := range names {
			names[i] = fmt.Sprintf("tool_%04d", i)
		}
		handler := func(_ context.Context, _ *mcp.CallToolRequest, in benchIn) (*mcp.CallToolResult, benchOut, error) {
			return nil, benchOut(in), nil
		}
		b.ReportAllocs()
		for b.Loop() {
			s := newServer()
			for _, name := range names {
				mcp.AddTool(s, &mcp.Tool{
					Name:        name,
					Description: "A tool of the benchmark.",
					Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
				}, handler)
			}
		}
	})
}

// TestBenchmarkToolsWork checks that the benchmarks' servers answer alike.
func TestBenchmarkToolsWork(t *testing.T) {
	ours := newServer()
	toolmcp.Register(ours, forecast.Tools())
	a := call(t, connect(t, ours), "get_weather", weatherArgs)
	b := call(t, connect(t, sdkWeatherServer()), "get_weather", weatherArgs)
	if jsonOf(t, a.StructuredContent) != jsonOf(t, b.StructuredContent) || a.IsError || b.IsError {
		t.Errorf("the servers disagree:\n%s\n%s", jsonOf(t, a), jsonOf(t, b))
	}
	tools, dispatch := thousandTools()
	s := newServer()
	toolmcp.Register(s, runtime.NewToolset(tools, toolimpl.Direct(dispatch)))
	cs := connect(t, s)
	if res := call(t, cs, "tool_0999", map[string]any{"city": "Oslo", "days": 2}); jsonOf(t, res.StructuredContent) != `{"city":"Oslo","days":2}` {
		t.Errorf("tool_0999: %s", jsonOf(t, res))
	}
	if res := call(t, cs, "tool_0000", map[string]any{"town": "Oslo"}); !res.IsError {
		t.Errorf("tool_0000 with bad arguments: %s", jsonOf(t, res))
	}
}
