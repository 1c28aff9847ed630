package openai_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// weatherSchema is get_weather's schema as the author wrote it; weatherStrict is the
// same schema lowered for OpenAI's strict mode, as toolgen fills Tool.OpenAI.
const (
	weatherSchema = `{"type":"object","properties":{"city":{"type":"string","minLength":1},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"],"additionalProperties":false}`
	weatherStrict = `{"type":"object","properties":{"city":{"type":"string"},"unit":{"type":["string","null"],"enum":["celsius","fahrenheit",null]}},"required":["city","unit"],"additionalProperties":false}`
	addSchema     = `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`
)

// testTools is a hand-written stand-in for a generated package: a strict tool with a
// lowered schema, a tool with only its own schema, a tool without parameters and a
// tool that fails.
func testTools() *runtime.Toolset {
	tools := []runtime.Tool{
		{
			Name: "get_weather", Description: "Current weather in a city.",
			InputSchema: json.RawMessage(weatherSchema), Strict: true,
			OpenAI: runtime.ProviderSchema{Parameters: json.RawMessage(weatherStrict), Strict: true},
		},
		{Name: "add", Description: "Adds two numbers.", InputSchema: json.RawMessage(addSchema)},
		{Name: "ping"},
		{Name: "fail", Description: "Always fails."},
	}
	return runtime.NewToolset(tools, func(i int, d *runtime.Decoder) runtime.Invocation {
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
	})
}

// jsonValue decodes JSON text into a generic value, for comparing JSON by value.
func jsonValue(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	return v
}

// sameJSON fails the test unless a and b are equal JSON values.
func sameJSON(t *testing.T, what string, a, b []byte) {
	t.Helper()
	if !reflect.DeepEqual(jsonValue(t, a), jsonValue(t, b)) {
		t.Errorf("%s differ:\n got  %s\n want %s", what, a, b)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// field returns obj[name] of a JSON object.
func field(t *testing.T, body []byte, name string) json.RawMessage {
	t.Helper()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, body)
	}
	return obj[name]
}
