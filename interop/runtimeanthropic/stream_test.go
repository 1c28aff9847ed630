package runtimeanthropic_test

// From runtime/anthropic's tests: streams against the SDK's Message.Accumulate.

import (
	"bytes"
	"os"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/toolgen/toolgen/internal/wiretest"
	tga "github.com/toolgen/toolgen/runtime/anthropic"
)

// sdkEvents are stream events from the SDK's own accumulation tests (message_test.go),
// the well-formed ones.
var sdkEvents = map[string][]string{
	"tool use block": {
		`{"type": "message_start", "message": {}}`,
		`{"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_id", "name": "tool_name", "input": {}}}`,
		`{"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"argument\":"}}`,
		`{"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": " \"value\"}"}}`,
		`{"type": "content_block_stop", "index": 0}`,
		`{"type": "message_stop"}`,
	},
	"tool use block with no params": {
		`{"type": "message_start", "message": {}}`,
		`{"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_id", "name": "tool_name", "input": {}}}`,
		`{"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": ""}}`,
		`{"type": "content_block_stop", "index": 0}`,
		`{"type": "message_stop"}`,
	},
	"thinking block": {
		`{"type": "message_start", "message": {}}`,
		`{"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "Let me think..."}}`,
		`{"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "\nFirst, let's try this..."}}`,
		`{"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "ThinkingSignature"}}`,
		`{"type": "content_block_stop", "index": 0}`,
		`{"type": "message_stop"}`,
	},
	"text content block with citations": {
		`{"type": "message_start", "message": {}}`,
		`{"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": "1 + 1"}}`,
		`{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": " = 2"}}`,
		`{"type": "content_block_delta", "index": 0, "delta": {"type": "citations_delta", "citation": {"type": "char_location", "cited_text": "1 + 1 = 2", "document_index": 0, "document_title": "Math Facts", "start_char_index": 300, "end_char_index": 310 }}}`,
		`{"type": "content_block_stop", "index": 0}`,
		`{"type": "message_stop"}`,
	},
	"interleaved content blocks": {
		`{"type": "message_start", "message": {}}`,
		`{"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}}`,
		`{"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Let me think."}}`,
		`{"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "sig123"}}`,
		`{"type": "content_block_stop", "index": 0}`,
		`{"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}`,
		`{"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Hello"}}`,
		`{"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "toolu_id", "name": "get_weather", "input": {}}}`,
		`{"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": " world"}}`,
		`{"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "{\"city\": "}}`,
		`{"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "!"}}`,
		`{"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "\"Los Angeles\"}"}}`,
		`{"type": "content_block_stop", "index": 1}`,
		`{"type": "content_block_stop", "index": 2}`,
		`{"type": "message_stop"}`,
	},
}

// accumulate feeds events to a Stream and to the SDK's Message.Accumulate.
func accumulate(t *testing.T, events []string) (*tga.Stream, anthropic.Message) {
	t.Helper()
	var s tga.Stream
	var msg anthropic.Message
	for _, e := range events {
		if err := s.Add(nil, []byte(e)); err != nil {
			t.Fatalf("Add(%s): %v", e, err)
		}
		var ev anthropic.MessageStreamEventUnion
		if err := ev.UnmarshalJSON([]byte(e)); err != nil {
			t.Fatal(err)
		}
		if err := msg.Accumulate(ev); err != nil {
			t.Fatal(err)
		}
	}
	return &s, msg
}

// TestStreamMatchesSDK feeds the SDK's own test events to a Stream: the message it
// assembles is the one the SDK's Accumulate builds, and its calls are the tool_use
// blocks.
func TestStreamMatchesSDK(t *testing.T) {
	for name, events := range sdkEvents {
		t.Run(name, func(t *testing.T) {
			s, msg := accumulate(t, events)
			body, err := s.Response()
			if err != nil {
				t.Fatal(err)
			}
			if sdk := []byte(msg.RawJSON()); !wiretest.JSONEqual(t, body, sdk) {
				t.Errorf("Response differs from the SDK's accumulated message:\nours %s\nSDK  %s", body, sdk)
			}
			// runtime/anthropic's TestStreamSDKEvents checks the calls.
		})
	}
}

// recordedEvents reads a recorded SSE stream into its events.
func recordedEvents(t *testing.T, file string) [][2][]byte {
	t.Helper()
	data := wiretest.ReadFile(t, file)
	var events [][2][]byte
	err := tga.ReadSSE(bytes.NewReader(data), func(event, data []byte) error {
		events = append(events, [2][]byte{event, data})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// TestStreamRecorded checks that the body a Stream assembles from streams recorded by
// the SDK's tests is the wire JSON of the message the SDK accumulates from the same
// events. runtime/anthropic's TestStreamRecorded checks the calls.
func TestStreamRecorded(t *testing.T) {
	for _, file := range []string{
		"../../runtime/anthropic/testdata/tool_runner_next_streaming.sse",
		"../../runtime/anthropic/testdata/fallback-tooluse.sse",
	} {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		var s tga.Stream
		err = tga.ReadSSE(f, s.Add)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var msg anthropic.Message
		for _, ev := range recordedEvents(t, file) {
			var e anthropic.MessageStreamEventUnion
			if err := e.UnmarshalJSON(ev[1]); err != nil {
				t.Fatal(err)
			}
			if err := msg.Accumulate(e); err != nil {
				t.Fatal(err)
			}
		}
		body, _ := s.Response()
		if sdk := []byte(msg.RawJSON()); !wiretest.JSONEqual(t, body, sdk) {
			t.Errorf("%s: Response differs from the SDK's message:\nours %s\nSDK  %s", file, body, sdk)
		}
	}
}
