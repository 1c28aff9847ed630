package anthropic_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
	tga "github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/loop"
)

// TestToolsLen checks that every tool gets one definition (interop/runtimeanthropic
// checks each against the SDK's ToolParam).
func TestToolsLen(t *testing.T) {
	for _, ts := range []*runtime.Toolset{wiretest.Toolset(), forecast.Tools()} {
		if tools := tga.Tools(ts); len(tools) != ts.Len() {
			t.Fatalf("Tools returned %d definitions for %d tools", len(tools), ts.Len())
		}
	}
}

func TestToolsSchemaChoice(t *testing.T) {
	tools := wiretest.Tools()
	byName := map[string]tga.Tool{}
	for _, tool := range tga.Tools(wiretest.Toolset()) {
		byName[tool.Name] = tool
	}
	gw := byName["get_weather"]
	const lowered = `{"type":"object","properties":{"city":{"type":"string","description":"At least 1 character."}},"required":["city"],"additionalProperties":false}`
	if string(gw.InputSchema) != lowered || !gw.Strict {
		t.Errorf("get_weather: want the schema lowered for strict mode, strict; got %s strict=%v", gw.InputSchema, gw.Strict)
	}
	rep := byName["report"]
	if string(rep.InputSchema) != string(tools[3].InputSchema) || rep.Strict {
		t.Errorf("report: want the canonical InputSchema, not strict; got %s strict=%v", rep.InputSchema, rep.Strict)
	}
	if boom := byName["boom"]; string(boom.InputSchema) != `{"type":"object"}` {
		t.Errorf("boom: a tool without a schema gets %s, want an empty object schema", boom.InputSchema)
	}
	// A hand-built tool that asks for strict mode is lowered as a generated one is: an
	// object that takes any property cannot be strict, one with properties can.
	hand := tga.Definition(&runtime.Tool{Name: "x", Strict: true, InputSchema: json.RawMessage(`{"type":"object"}`)})
	if hand.Strict {
		t.Errorf("a hand-built tool with an open object was sent strict")
	}
	hand = tga.Definition(&runtime.Tool{Name: "x", Strict: true, InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","maximum":3}}}`)})
	if want := `{"type":"object","properties":{"n":{"type":"integer","description":"At most 3."}},"additionalProperties":false}`; !hand.Strict || string(hand.InputSchema) != want {
		t.Errorf("a hand-built tool with properties: got %s strict=%v, want %s strict", hand.InputSchema, hand.Strict, want)
	}
}

// TestToolChoiceWire checks the tool choices on the wire (interop/runtimeanthropic
// checks that the SDK's ToolChoiceUnionParam reads them and writes them back alike).
func TestToolChoiceWire(t *testing.T) {
	auto, _ := tga.ToolChoiceFor(loop.ChoiceAuto)
	auto.DisableParallelToolUse = true
	anyChoice, _ := tga.ToolChoiceFor(loop.ChoiceRequired)
	none, _ := tga.ToolChoiceFor(loop.ChoiceNone)
	forced := tga.ForceTool("get_weather")
	for _, tc := range []struct {
		choice tga.ToolChoice
		want   string
	}{
		{auto, `{"type":"auto","disable_parallel_tool_use":true}`},
		{anyChoice, `{"type":"any"}`},
		{none, `{"type":"none"}`},
		{forced, `{"type":"tool","name":"get_weather"}`},
	} {
		ours := wiretest.MustMarshal(t, tc.choice)
		if !wiretest.JSONEqual(t, ours, []byte(tc.want)) {
			t.Errorf("choice = %s, want %s", ours, tc.want)
		}
	}
	if _, err := tga.ToolChoiceFor("sometimes"); err == nil {
		t.Errorf("ToolChoiceFor accepted an unknown choice")
	}
}

// TestToolsInputExamples checks that a tool's input examples go out as its
// input_examples, in order and as written, and that a tool without examples has no
// such field.
func TestToolsInputExamples(t *testing.T) {
	byName := map[string]tga.Tool{}
	for _, tool := range tga.Tools(forecast.Tools()) {
		byName[tool.Name] = tool
	}
	data, err := json.Marshal(byName["get_weather"])
	if err != nil {
		t.Fatal(err)
	}
	var wire struct {
		InputExamples []json.RawMessage `json:"input_examples"`
	}
	if err := json.Unmarshal(data, &wire); err != nil {
		t.Fatal(err)
	}
	want := []string{`{"city":"Paris"}`, `{"city":"Tokyo","days":3,"unit":"fahrenheit"}`}
	if len(wire.InputExamples) != len(want) {
		t.Fatalf("get_weather input_examples = %s, want %q", wire.InputExamples, want)
	}
	for i, w := range want {
		if string(wire.InputExamples[i]) != w {
			t.Errorf("input_examples[%d] = %s, want %s", i, wire.InputExamples[i], w)
		}
	}
	data, err = json.Marshal(byName["hello_world"])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "input_examples") {
		t.Errorf("hello_world, which has no examples, is sent with input_examples: %s", data)
	}
}
