package anthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	tga "github.com/toolgen/toolgen/runtime/anthropic"
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

// TestToolsMatchSDK checks every definition against the SDK's ToolParam: it decodes as
// a custom tool and encodes back to the same JSON value.
func TestToolsMatchSDK(t *testing.T) {
	for _, ts := range []*runtime.Toolset{testSet(), forecast.Tools()} {
		tools := tga.Tools(ts)
		if len(tools) != ts.Len() {
			t.Fatalf("Tools returned %d definitions for %d tools", len(tools), ts.Len())
		}
		for _, tool := range tools {
			ours := mustMarshal(t, tool)
			var u anthropic.ToolUnionParam
			if err := json.Unmarshal(ours, &u); err != nil {
				t.Fatalf("%s: the SDK rejects %s: %v", tool.Name, ours, err)
			}
			if u.OfTool == nil {
				t.Fatalf("%s: the SDK does not read %s as a custom tool", tool.Name, ours)
			}
			if back := mustMarshal(t, u); !jsonEqual(t, ours, back) {
				t.Errorf("%s: the SDK's ToolParam changes the definition:\nours %s\nSDK  %s", tool.Name, ours, back)
			}
		}
	}
}

func TestToolsSchemaChoice(t *testing.T) {
	byName := map[string]tga.Tool{}
	for _, tool := range tga.Tools(testSet()) {
		byName[tool.Name] = tool
	}
	gw := byName["get_weather"]
	if string(gw.InputSchema) != string(testTools[2].Anthropic.Parameters) || !gw.Strict {
		t.Errorf("get_weather: want the Anthropic schema, strict; got %s strict=%v", gw.InputSchema, gw.Strict)
	}
	rep := byName["report"]
	if string(rep.InputSchema) != string(testTools[3].InputSchema) || rep.Strict {
		t.Errorf("report: want the canonical InputSchema, not strict; got %s strict=%v", rep.InputSchema, rep.Strict)
	}
	if boom := byName["boom"]; string(boom.InputSchema) != `{"type":"object"}` {
		t.Errorf("boom: a tool without a schema gets %s, want an empty object schema", boom.InputSchema)
	}
	// A hand-built tool that asks for strict mode but has no Anthropic schema is not
	// sent strict: its canonical schema may not meet strict mode.
	hand := tga.Definition(&runtime.Tool{Name: "x", Strict: true, InputSchema: json.RawMessage(`{"type":"object"}`)})
	if hand.Strict {
		t.Errorf("a hand-built tool without an Anthropic schema was sent strict")
	}
}

func TestToolChoiceMatchSDK(t *testing.T) {
	auto, _ := tga.ToolChoiceFor(runtime.ChoiceAuto)
	auto.DisableParallelToolUse = true
	anyChoice, _ := tga.ToolChoiceFor(runtime.ChoiceRequired)
	none, _ := tga.ToolChoiceFor(runtime.ChoiceNone)
	forced := tga.ForceTool("get_weather")
	for _, tc := range []struct {
		choice tga.ToolChoice
		want   string
		pick   func(anthropic.ToolChoiceUnionParam) bool
	}{
		{auto, `{"type":"auto","disable_parallel_tool_use":true}`, func(u anthropic.ToolChoiceUnionParam) bool {
			return u.OfAuto != nil && u.OfAuto.DisableParallelToolUse.Value
		}},
		{anyChoice, `{"type":"any"}`, func(u anthropic.ToolChoiceUnionParam) bool { return u.OfAny != nil }},
		{none, `{"type":"none"}`, func(u anthropic.ToolChoiceUnionParam) bool { return u.OfNone != nil }},
		{forced, `{"type":"tool","name":"get_weather"}`, func(u anthropic.ToolChoiceUnionParam) bool {
			return u.OfTool != nil && u.OfTool.Name == "get_weather"
		}},
	} {
		ours := mustMarshal(t, tc.choice)
		if !jsonEqual(t, ours, []byte(tc.want)) {
			t.Errorf("choice = %s, want %s", ours, tc.want)
		}
		var u anthropic.ToolChoiceUnionParam
		if err := json.Unmarshal(ours, &u); err != nil || !tc.pick(u) {
			t.Errorf("the SDK reads %s as %+v (%v)", ours, u, err)
		}
		if back := mustMarshal(t, u); !jsonEqual(t, ours, back) {
			t.Errorf("the SDK changes the choice: ours %s, SDK %s", ours, back)
		}
	}
	if _, err := tga.ToolChoiceFor("sometimes"); err == nil {
		t.Errorf("ToolChoiceFor accepted an unknown choice")
	}
}
