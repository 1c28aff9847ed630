package gemini_test

import (
	"encoding/json"
	"testing"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
	tgg "github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/runtime/loop"
)

// TestToolsDeclarations checks the declarations: one Tool declaring every function,
// with its name and description, and exactly one of parameters and
// parametersJsonSchema (interop/runtimegemini checks that the SDK's Tool reads them and
// writes them back alike, schemas included).
func TestToolsDeclarations(t *testing.T) {
	for _, ts := range []*runtime.Toolset{wiretest.Toolset(), forecast.Tools()} {
		tools := tgg.Tools(ts)
		if len(tools) != 1 || len(tools[0].FunctionDeclarations) != ts.Len() {
			t.Fatalf("Tools = %d entries, want one declaring %d functions", len(tools), ts.Len())
		}
		var g struct {
			FunctionDeclarations []struct {
				Name                 string          `json:"name"`
				Description          string          `json:"description"`
				Parameters           json.RawMessage `json:"parameters"`
				ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
			} `json:"functionDeclarations"`
		}
		if err := json.Unmarshal(wiretest.MustMarshal(t, tools[0]), &g); err != nil {
			t.Fatal(err)
		}
		for i, d := range g.FunctionDeclarations {
			tool := ts.Tools()[i]
			if d.Name != tool.Name || d.Description != tool.Description {
				t.Errorf("declaration %d: %s %q", i, d.Name, d.Description)
			}
			if (d.Parameters != nil) == (d.ParametersJSONSchema != nil) && len(tool.InputSchema) > 0 {
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
	for _, d := range tgg.Tools(wiretest.Toolset())[0].FunctionDeclarations {
		byName[d.Name] = d
	}
	if gw := byName["get_weather"]; string(gw.Parameters) != `{"type":"OBJECT","properties":{"city":{"type":"STRING","minLength":1}},"required":["city"]}` || gw.ParametersJSONSchema != nil {
		t.Errorf("get_weather: want the Gemini schema as parameters; got %s / %s", gw.Parameters, gw.ParametersJSONSchema)
	}
	if rep := byName["report"]; string(rep.Parameters) != `{"type":"OBJECT","properties":{"days":{"type":"INTEGER","minimum":1,"maximum":14},"tags":{"type":"ARRAY","items":{"type":"STRING"}}}}` || rep.ParametersJSONSchema != nil {
		t.Errorf("report: want its schema lowered as parameters; got %s / %s", rep.Parameters, rep.ParametersJSONSchema)
	}
	// A schema the lowering cannot read goes as parametersJsonSchema.
	if d := tgg.Declaration(&runtime.Tool{Name: "x", InputSchema: json.RawMessage(`[1]`)}); d.Parameters != nil || string(d.ParametersJSONSchema) != `[1]` {
		t.Errorf("an unreadable schema: got %s / %s", d.Parameters, d.ParametersJSONSchema)
	}
	if b := wiretest.MustMarshal(t, byName["boom"]); string(b) != `{"name":"boom","description":"Panics."}` {
		t.Errorf("boom: a function without parameters = %s", b)
	}
}

// TestToolConfigWire checks the tool configs on the wire (interop/runtimegemini checks
// that the SDK's ToolConfig reads them as the same mode and names, and writes them back
// alike).
func TestToolConfigWire(t *testing.T) {
	auto, _ := tgg.ToolConfigFor(loop.ChoiceAuto)
	anyMode, _ := tgg.ToolConfigFor(loop.ChoiceRequired)
	none, _ := tgg.ToolConfigFor(loop.ChoiceNone)
	for _, tc := range []struct {
		config tgg.ToolConfig
		want   string
	}{
		{auto, `{"functionCallingConfig":{"mode":"AUTO"}}`},
		{anyMode, `{"functionCallingConfig":{"mode":"ANY"}}`},
		{none, `{"functionCallingConfig":{"mode":"NONE"}}`},
		{tgg.ForceFunctions("get_weather", "report"), `{"functionCallingConfig":{"mode":"ANY","allowedFunctionNames":["get_weather","report"]}}`},
	} {
		wiretest.SameJSON(t, tc.want, wiretest.MustMarshal(t, tc.config), []byte(tc.want))
	}
	if _, err := tgg.ToolConfigFor("sometimes"); err == nil {
		t.Errorf("ToolConfigFor accepted an unknown choice")
	}
}
