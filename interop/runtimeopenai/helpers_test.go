package runtimeopenai_test

// From runtime/openai's tests: a hand-written stand-in for a generated package.

import (
	"context"
	"encoding/json"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// weatherSchema is get_weather's schema as the author wrote it; weatherStrict is the
// same schema lowered for OpenAI's strict mode, as ChatTools sends it.
const (
	weatherSchema = `{"type":"object","properties":{"city":{"type":"string","minLength":1},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"],"additionalProperties":false}`
	weatherStrict = `{"type":"object","properties":{"city":{"type":"string","description":"At least 1 character."},"unit":{"anyOf":[{"type":"string","enum":["celsius","fahrenheit"]},{"type":"null"}]}},"required":["city","unit"],"additionalProperties":false}`
	addSchema     = `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`
)

// testTools is a hand-written stand-in for a generated package: a strict tool, a tool with only its own schema, a tool without parameters and a
// tool that fails.
func testTools() *runtime.Toolset {
	tools := []runtime.Tool{
		{
			Name: "get_weather", Description: "Current weather in a city.",
			InputSchema: json.RawMessage(weatherSchema), Strict: true,
		},
		{Name: "add", Description: "Adds two numbers.", InputSchema: json.RawMessage(addSchema)},
		{Name: "ping"},
		{Name: "fail", Description: "Always fails."},
	}
	return runtime.NewToolset(tools, toolimpl.Direct(func(i int, d *toolimpl.Decoder) toolimpl.Invocation {
		switch i {
		case 0:
			var city string
			if d.BeginObject() {
				var seen bool
				for d.NextField() {
					switch string(d.FieldName()) {
					case "city":
						seen = true
						d.Enter("city")
						city, _ = d.String()
						d.Leave()
					case "unit":
						d.Skip()
					default:
						d.Unknown("city", "unit")
					}
				}
				if !seen {
					d.Missing("city")
				}
			}
			if !d.Finish() {
				return nil
			}
			return func(context.Context) (*runtime.Result, error) {
				return runtime.TextResult("Sunny in " + city), nil
			}
		case 1:
			var sum float64
			if d.BeginObject() {
				for d.NextField() {
					name := string(d.FieldName())
					d.Enter(name)
					v, _ := d.Float(64)
					sum += v
					d.Leave()
				}
			}
			if !d.Finish() {
				return nil
			}
			return func(context.Context) (*runtime.Result, error) {
				b, _ := json.Marshal(sum)
				return runtime.TextResult(string(b)), nil
			}
		}
		d.EmptyObject()
		if !d.Finish() {
			return nil
		}
		if i == 3 {
			return func(context.Context) (*runtime.Result, error) {
				return nil, runtime.ToolErrorf("the service is down")
			}
		}
		return func(context.Context) (*runtime.Result, error) { return runtime.TextResult("pong"), nil }
	}))
}
