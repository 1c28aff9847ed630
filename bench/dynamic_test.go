package bench

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

func (p payload[T]) schemaPath() string { return p.schemaFile }

// dynamicTools returns, for a payload's tool, dynamic tools built by runtime.NewTool
// from its canonical input schema: read by the interpreter of the keywords toolgen
// writes (engine=toolgen), and by the general engine of JSON Schema 2020-12
// (engine=general: the same schema with "allOf": [true] at its root, which asserts
// nothing and takes the schema past the keywords toolgen writes).
func dynamicTools(b *testing.B, p payloadRunner) (toolgen, general *runtime.Toolset) {
	_, tool, _ := p.id()
	text, err := os.ReadFile(p.(interface{ schemaPath() string }).schemaPath())
	if err != nil {
		b.Fatal(err)
	}
	var contract struct {
		InputSchema map[string]any `json:"inputSchema"`
	}
	if err := json.Unmarshal(text, &contract); err != nil {
		b.Fatal(err)
	}
	run := func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult(""), nil }
	build := func(schema map[string]any) *runtime.Toolset {
		raw, _ := json.Marshal(schema)
		ts, err := runtime.NewTool(runtime.Tool{Name: tool, InputSchema: raw}, run)
		if err != nil {
			b.Fatal(err)
		}
		return ts
	}
	toolgen = build(contract.InputSchema)
	contract.InputSchema["allOf"] = []any{true}
	return toolgen, build(contract.InputSchema)
}

// BenchmarkDynamic compares Toolset.Call on each payload's generated tool
// (engine=generated) with dynamic tools of the same schema (see dynamicTools): the
// interpreter stays within 3x of the generated decoder.
//
//	go test -run '^$' -bench BenchmarkDynamic -benchmem .   # in bench
func BenchmarkDynamic(b *testing.B) {
	ctx := context.Background()
	for _, p := range payloads {
		name, tool, args := p.id()
		toolgen, general := dynamicTools(b, p)
		for _, e := range []struct {
			name string
			ts   *runtime.Toolset
		}{{"generated", p.toolset()}, {"toolgen", toolgen}, {"general", general}} {
			b.Run("payload="+name+"/engine="+e.name, func(b *testing.B) {
				if r := e.ts.Call(ctx, tool, args); r.IsError {
					b.Fatal(r.Text())
				}
				b.ReportAllocs()
				for b.Loop() {
					if r := e.ts.Call(ctx, tool, args); r.IsError {
						b.Fatal(r.Text())
					}
				}
			})
		}
	}
}
