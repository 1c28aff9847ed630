package runtimegemini_test

// From runtime/gemini's tests: declarations and tool configs as the SDK reads them.

import (
	"encoding/json"
	"reflect"
	"testing"

	"google.golang.org/genai"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
	tgg "github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/runtime/loop"
)

// TestToolsMatchSDK checks the declarations against the SDK's Tool: they decode and
// encode back to the same JSON value, schemas included (the SDK's Schema type knows
// every keyword of Gemini's dialect, and drops the others).
func TestToolsMatchSDK(t *testing.T) {
	for _, ts := range []*runtime.Toolset{wiretest.Toolset(), forecast.Tools()} {
		tools := tgg.Tools(ts)
		if len(tools) != 1 || len(tools[0].FunctionDeclarations) != ts.Len() {
			t.Fatalf("Tools = %d entries, want one declaring %d functions", len(tools), ts.Len())
		}
		ours := wiretest.MustMarshal(t, tools[0])
		var g genai.Tool
		if err := json.Unmarshal(ours, &g); err != nil {
			t.Fatalf("the SDK rejects %s: %v", ours, err)
		}
		if back := wiretest.MustMarshal(t, g); !wiretest.JSONEqual(t, ours, back) {
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

func TestToolConfigMatchSDK(t *testing.T) {
	auto, _ := tgg.ToolConfigFor(loop.ChoiceAuto)
	anyMode, _ := tgg.ToolConfigFor(loop.ChoiceRequired)
	none, _ := tgg.ToolConfigFor(loop.ChoiceNone)
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
		ours := wiretest.MustMarshal(t, tc.config)
		var g genai.ToolConfig
		if err := json.Unmarshal(ours, &g); err != nil || g.FunctionCallingConfig == nil {
			t.Fatalf("the SDK reads %s as %+v (%v)", ours, g, err)
		}
		if g.FunctionCallingConfig.Mode != tc.mode || !reflect.DeepEqual(g.FunctionCallingConfig.AllowedFunctionNames, tc.names) {
			t.Errorf("the SDK reads %s as mode %s, names %v", ours, g.FunctionCallingConfig.Mode, g.FunctionCallingConfig.AllowedFunctionNames)
		}
		if back := wiretest.MustMarshal(t, g); !wiretest.JSONEqual(t, ours, back) {
			t.Errorf("the SDK changes the config: ours %s, SDK %s", ours, back)
		}
	}
	if _, err := tgg.ToolConfigFor("sometimes"); err == nil {
		t.Errorf("ToolConfigFor accepted an unknown choice")
	}
}
