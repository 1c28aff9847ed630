package runtimeanthropic_test

// From runtime/anthropic's tests: definitions and tool choices as the SDK reads them.

import (
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
	tga "github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/loop"
)

// TestToolsMatchSDK checks every definition against the SDK's ToolParam: it decodes as
// a custom tool and encodes back to the same JSON value.
func TestToolsMatchSDK(t *testing.T) {
	for _, ts := range []*runtime.Toolset{wiretest.Toolset(), forecast.Tools()} {
		tools := tga.Tools(ts)
		if len(tools) != ts.Len() {
			t.Fatalf("Tools returned %d definitions for %d tools", len(tools), ts.Len())
		}
		for _, tool := range tools {
			ours := wiretest.MustMarshal(t, tool)
			var u anthropic.ToolUnionParam
			if err := json.Unmarshal(ours, &u); err != nil {
				t.Fatalf("%s: the SDK rejects %s: %v", tool.Name, ours, err)
			}
			if u.OfTool == nil {
				t.Fatalf("%s: the SDK does not read %s as a custom tool", tool.Name, ours)
			}
			if back := wiretest.MustMarshal(t, u); !wiretest.JSONEqual(t, ours, back) {
				t.Errorf("%s: the SDK's ToolParam changes the definition:\nours %s\nSDK  %s", tool.Name, ours, back)
			}
		}
	}
}

func TestToolChoiceMatchSDK(t *testing.T) {
	auto, _ := tga.ToolChoiceFor(loop.ChoiceAuto)
	auto.DisableParallelToolUse = true
	anyChoice, _ := tga.ToolChoiceFor(loop.ChoiceRequired)
	none, _ := tga.ToolChoiceFor(loop.ChoiceNone)
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
		ours := wiretest.MustMarshal(t, tc.choice)
		if !wiretest.JSONEqual(t, ours, []byte(tc.want)) {
			t.Errorf("choice = %s, want %s", ours, tc.want)
		}
		var u anthropic.ToolChoiceUnionParam
		if err := json.Unmarshal(ours, &u); err != nil || !tc.pick(u) {
			t.Errorf("the SDK reads %s as %+v (%v)", ours, u, err)
		}
		if back := wiretest.MustMarshal(t, u); !wiretest.JSONEqual(t, ours, back) {
			t.Errorf("the SDK changes the choice: ours %s, SDK %s", ours, back)
		}
	}
	if _, err := tga.ToolChoiceFor("sometimes"); err == nil {
		t.Errorf("ToolChoiceFor accepted an unknown choice")
	}
}
