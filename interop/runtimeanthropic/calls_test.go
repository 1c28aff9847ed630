package runtimeanthropic_test

// From runtime/anthropic's tests: calls read from messages the SDK builds and reads.

import (
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/toolgen/toolgen/internal/wiretest"
	tga "github.com/toolgen/toolgen/runtime/anthropic"
)

// sdkMessage is a response as the SDK's Message type encodes it: parallel tool_use
// blocks among text and thinking blocks, and a server tool's block.
func sdkMessage() anthropic.Message {
	return anthropic.Message{
		ID:         "msg_01",
		Type:       "message",
		Role:       "assistant",
		Model:      "claude-sonnet-4-5",
		StopReason: anthropic.StopReasonToolUse,
		Content: []anthropic.ContentBlockUnion{
			{Type: "thinking", Thinking: "Two cities.", Signature: "c2lnbmF0dXJl"},
			{Type: "text", Text: "Let me check both."},
			{Type: "tool_use", ID: "toolu_01", Name: "get_weather", Input: json.RawMessage(`{"city":"Paris"}`)},
			{Type: "tool_use", ID: "toolu_02", Name: "get_weather", Input: json.RawMessage(`{"city":"Tokyo"}`)},
			{Type: "server_tool_use", ID: "srvtoolu_01", Name: "web_search", Input: json.RawMessage(`{"query":"x"}`)},
			{Type: "tool_use", ID: "toolu_03", Name: "report", Input: json.RawMessage(`{}`)},
		},
	}
}

// TestSDKFixtures checks that runtime/anthropic's fixture sdk_message.json, which its
// tests read in place of sdkMessage, is what the SDK's Message type encodes.
func TestSDKFixtures(t *testing.T) {
	fixture := wiretest.ReadFile(t, "../../runtime/anthropic/testdata/sdk_message.json")
	if built := wiretest.MustMarshal(t, sdkMessage()); !wiretest.JSONEqual(t, fixture, built) {
		t.Errorf("runtime/anthropic/testdata/sdk_message.json is not what the SDK builds:\n%s", built)
	}
}

// TestCallsFromSDKMessage reads the calls of a response the SDK's Message type
// encodes: parallel tool_use blocks among text and thinking blocks, in order.
func TestCallsFromSDKMessage(t *testing.T) {
	msg := sdkMessage()
	body := wiretest.MustMarshal(t, msg)
	calls, err := tga.Calls(body)
	if err != nil {
		t.Fatal(err)
	}
	want := "toolu_01 get_weather {\"city\":\"Paris\"}\ntoolu_02 get_weather {\"city\":\"Tokyo\"}\ntoolu_03 report {}\n"
	if got := wiretest.CallsText(calls); got != want {
		t.Errorf("Calls = \n%s\nwant\n%s", got, want)
	}
	if !tga.HasToolCalls(body) {
		t.Errorf("HasToolCalls = false")
	}
	if city, ok := tga.Argument(calls[1], "city"); !ok || city != "Tokyo" {
		t.Errorf("Argument(city) = %q, %v", city, ok)
	}
	if m, err := tga.ArgumentsMap(calls[0]); err != nil || m["city"] != "Paris" || len(m) != 1 {
		t.Errorf("ArgumentsMap = %v, %v", m, err)
	}

	msg.Content = []anthropic.ContentBlockUnion{{Type: "text", Text: "It is sunny."}}
	msg.StopReason = anthropic.StopReasonEndTurn
	body = wiretest.MustMarshal(t, msg)
	if calls, err := tga.Calls(body); err != nil || len(calls) != 0 {
		t.Errorf("Calls of a text answer = %v, %v", calls, err)
	}
	if tga.HasToolCalls(body) {
		t.Errorf("HasToolCalls of a text answer = true")
	}
}

// TestCallsRecorded reads a response recorded by the SDK's tool runner tests.
func TestCallsRecorded(t *testing.T) {
	body := wiretest.ReadFile(t, "../../runtime/anthropic/testdata/tool_runner_concurrent.json")
	calls, err := tga.Calls(body)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := wiretest.CallsText(calls), "toolu_019dfQh1VSo4ykF3MUFvGpMg get_weather {\"city\":\"San Francisco\"}\n"; got != want {
		t.Errorf("Calls = %s, want %s", got, want)
	}
	var sdk anthropic.Message
	if err := json.Unmarshal(body, &sdk); err != nil {
		t.Fatal(err)
	}
	if tu := sdk.Content[1].AsToolUse(); tu.ID != calls[0].ID || tu.Name != calls[0].Name || !wiretest.JSONEqual(t, tu.Input, calls[0].Arguments) {
		t.Errorf("the SDK reads the call as %+v", tu)
	}
}
