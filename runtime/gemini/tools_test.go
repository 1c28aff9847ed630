package gemini_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"google.golang.org/genai"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	tgg "github.com/toolgen/toolgen/runtime/gemini"
)

// testTools stand in for a generated package: a tool with schemas lowered for
// Anthropic (as toolgen fills them), one with its canonical schema alone, one without
// a schema, and tools that return structured values, fail safely and panic.
var testTools = [...]runtime.Tool{{
	Name:        "boom",
	Description: "Panics.",
}, {
	Name:        "fail",
	Description: "Fails with a message for the model.",
}, {
	Name:        "get_weather",
	Description: "Returns the weather of a city.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","minLength":1}},"required":["city"],"additionalProperties":false}`),
	Strict:      true,
	Anthropic: runtime.ProviderSchema{
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","description":"The city. Must be at least 1 character long."}},"required":["city"],"additionalProperties":false}`),
		Strict:     true,
	},
	Gemini: runtime.ProviderSchema{
		Parameters: json.RawMessage(`{"type":"OBJECT","properties":{"city":{"type":"STRING","minLength":1}},"required":["city"]}`),
	},
}, {
	Name:        "report",
	Description: "Returns a structured report.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"days":{"type":"integer","minimum":1,"maximum":14},"tags":{"type":"array","items":{"type":"string"}}},"additionalProperties":false}`),
}}

// dispatchTest decodes any arguments and runs the tool at index i.
func dispatchTest(i int, d *runtime.Decoder) runtime.Invocation {
	raw, _ := d.Raw()
	if !d.Finish() {
		return nil
	}
	var args map[string]any
	_ = json.Unmarshal(raw, &args)
	switch testTools[i].Name {
	case "boom":
		return func(context.Context) (*runtime.Result, error) { panic("secret internal state") }
	case "fail":
		return func(context.Context) (*runtime.Result, error) {
			return nil, runtime.ToolErrorf("city %v not found", args["city"])
		}
	case "get_weather":
		return func(context.Context) (*runtime.Result, error) {
			return runtime.TextResult(fmt.Sprintf("Sunny in %v", args["city"])), nil
		}
	case "report":
		return func(context.Context) (*runtime.Result, error) {
			return runtime.StructuredResult(map[string]any{"days": args["days"], "ok": true}, false)
		}
	}
	return nil
}

func testSet() *runtime.Toolset { return runtime.NewToolset(testTools[:], dispatchTest) }

// jsonEqual reports whether a and b are the same JSON value.
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestToolsMatchSDK checks the declarations against the SDK's Tool: they decode and
// encode back to the same JSON value, schemas included (the SDK's Schema type knows
// every keyword of Gemini's dialect, and drops the others).
func TestToolsMatchSDK(t *testing.T) {
	for _, ts := range []*runtime.Toolset{testSet(), forecast.Tools()} {
		tools := tgg.Tools(ts)
		if len(tools) != 1 || len(tools[0].FunctionDeclarations) != ts.Len() {
			t.Fatalf("Tools = %d entries, want one declaring %d functions", len(tools), ts.Len())
		}
		ours := mustMarshal(t, tools[0])
		var g genai.Tool
		if err := json.Unmarshal(ours, &g); err != nil {
			t.Fatalf("the SDK rejects %s: %v", ours, err)
		}
		if back := mustMarshal(t, g); !jsonEqual(t, ours, back) {
			t.Errorf("the SDK's Tool changes the declarations:\nours %s\nSDK  %s", ours, back)
		}
		for i, d := range g.FunctionDeclarations {
			tool := ts.Tools()[i]
			if d.Name != tool.Name || d.Description != tool.Description {
				t.Errorf("declaration %d: %s %q", i, d.Name, d.Description)
			}
			if (d.Parameters != nil) == (d.ParametersJsonSchema != nil) && len(tool.InputSchema) > 0 {
				t.Errorf("%s: want exactly one of parameters and parametersJsonSchema", d.Name)
			}
		}
	}
	if tools := tgg.Tools(runtime.NewToolset(nil, nil)); tools != nil {
		t.Errorf("Tools of an empty set = %v, want none", tools)
	}
}

func TestToolsSchemaChoice(t *testing.T) {
	byName := map[string]tgg.FunctionDeclaration{}
	for _, d := range tgg.Tools(testSet())[0].FunctionDeclarations {
		byName[d.Name] = d
	}
	if gw := byName["get_weather"]; string(gw.Parameters) != string(testTools[2].Gemini.Parameters) || gw.ParametersJSONSchema != nil {
		t.Errorf("get_weather: want the Gemini schema as parameters; got %s / %s", gw.Parameters, gw.ParametersJSONSchema)
	}
	if rep := byName["report"]; rep.Parameters != nil || string(rep.ParametersJSONSchema) != string(testTools[3].InputSchema) {
		t.Errorf("report: want the canonical schema as parametersJsonSchema; got %s / %s", rep.Parameters, rep.ParametersJSONSchema)
	}
	if b := mustMarshal(t, byName["boom"]); string(b) != `{"name":"boom","description":"Panics."}` {
		t.Errorf("boom: a function without parameters = %s", b)
	}
}

func TestToolConfigMatchSDK(t *testing.T) {
	auto, _ := tgg.ToolConfigFor(runtime.ChoiceAuto)
	anyMode, _ := tgg.ToolConfigFor(runtime.ChoiceRequired)
	none, _ := tgg.ToolConfigFor(runtime.ChoiceNone)
	for _, tc := range []struct {
		config tgg.ToolConfig
		mode   genai.FunctionCallingConfigMode
		names  []string
	}{
		{auto, genai.FunctionCallingConfigModeAuto, nil},
		{anyMode, genai.FunctionCallingConfigModeAny, nil},
		{none, genai.FunctionCallingConfigModeNone, nil},
		{tgg.ForceFunctions("get_weather", "report"), genai.FunctionCallingConfigModeAny, []string{"get_weather", "report"}},
	} {
		ours := mustMarshal(t, tc.config)
		var g genai.ToolConfig
		if err := json.Unmarshal(ours, &g); err != nil || g.FunctionCallingConfig == nil {
			t.Fatalf("the SDK reads %s as %+v (%v)", ours, g, err)
		}
		if g.FunctionCallingConfig.Mode != tc.mode || !reflect.DeepEqual(g.FunctionCallingConfig.AllowedFunctionNames, tc.names) {
			t.Errorf("the SDK reads %s as mode %s, names %v", ours, g.FunctionCallingConfig.Mode, g.FunctionCallingConfig.AllowedFunctionNames)
		}
		if back := mustMarshal(t, g); !jsonEqual(t, ours, back) {
			t.Errorf("the SDK changes the config: ours %s, SDK %s", ours, back)
		}
	}
	if _, err := tgg.ToolConfigFor("sometimes"); err == nil {
		t.Errorf("ToolConfigFor accepted an unknown choice")
	}
}
