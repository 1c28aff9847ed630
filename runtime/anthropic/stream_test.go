package anthropic_test

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

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

var sdkEventCalls = map[string]string{
	"tool use block":                    "toolu_id tool_name {\"argument\":\"value\"}\n",
	"tool use block with no params":     "toolu_id tool_name {}\n",
	"thinking block":                    "",
	"text content block with citations": "",
	"interleaved content blocks":        "toolu_id get_weather {\"city\":\"Los Angeles\"}\n",
}

// TestStreamSDKEvents feeds the SDK's own test events to a Stream: its calls are the
// tool_use blocks (interop/runtimeanthropic checks that the message it assembles is the
// one the SDK's Message.Accumulate builds).
func TestStreamSDKEvents(t *testing.T) {
	for name, events := range sdkEvents {
		t.Run(name, func(t *testing.T) {
			var s tga.Stream
			for _, e := range events {
				if err := s.Add(nil, []byte(e)); err != nil {
					t.Fatalf("Add(%s): %v", e, err)
				}
			}
			if _, err := s.Response(); err != nil {
				t.Fatal(err)
			}
			calls, err := s.Calls()
			if err != nil {
				t.Fatal(err)
			}
			if got := wiretest.CallsText(calls); got != sdkEventCalls[name] {
				t.Errorf("Calls = %q, want %q", got, sdkEventCalls[name])
			}
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

// TestStreamRecorded reads streams recorded by the SDK's tests, through ReadSSE.
func TestStreamRecorded(t *testing.T) {
	for file, want := range map[string]string{
		"testdata/tool_runner_next_streaming.sse": "toolu_017QoD96fYwGzCWvLfaPADWg get_weather {\"city\":\"San Francisco\"}\n",
		"testdata/fallback-tooluse.sse":           "toolu_echo_1 echo {\"text\":\"hello\"}\n",
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
		calls, err := s.Calls()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if got := wiretest.CallsText(calls); got != want {
			t.Errorf("%s: Calls = %q, want %q", file, got, want)
		}
		// interop/runtimeanthropic checks that the assembled body is the wire JSON of
		// the message the SDK accumulates from the same events.
		if _, err := s.Response(); err != nil {
			t.Errorf("%s: Response: %v", file, err)
		}
		if !s.Done() || s.Err() != nil {
			t.Errorf("%s: Done = %v, Err = %v", file, s.Done(), s.Err())
		}
	}
}

// TestStreamTruncated cuts a recorded stream after every event: only the whole stream
// gives calls; every cut names what is missing.
func TestStreamTruncated(t *testing.T) {
	events := recordedEvents(t, "testdata/tool_runner_next_streaming.sse")
	for n := range len(events) {
		var s tga.Stream
		for _, ev := range events[:n] {
			if err := s.Add(ev[0], ev[1]); err != nil {
				t.Fatalf("event %d: %v", n, err)
			}
		}
		calls, err := s.Calls()
		if err == nil || calls != nil {
			t.Fatalf("a stream cut after %d of %d events gave %v, %v", n, len(events), calls, err)
		}
		if s.Done() {
			t.Errorf("a stream cut after %d events is Done", n)
		}
		msg := err.Error()
		switch {
		case n == 0:
			if !strings.Contains(msg, "before message_start") {
				t.Errorf("cut at 0: %v", err)
			}
		case strings.Contains(msg, "tool_use block 1 (get_weather, toolu_017QoD96fYwGzCWvLfaPADWg)"):
			if !strings.Contains(msg, "no content_block_stop") {
				t.Errorf("cut at %d: %v", n, err)
			}
		case !strings.Contains(msg, "no content_block_stop") && !strings.Contains(msg, "without message_stop"):
			t.Errorf("cut at %d: %v", n, err)
		}
	}
}

func TestStreamErrors(t *testing.T) {
	start := `{"type":"message_start","message":{"id":"m","content":[]}}`
	toolStart := `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}`
	for _, tc := range []struct {
		name   string
		events []string
		want   string
	}{
		{"partial JSON", []string{start, toolStart,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Pa"}}`,
			`{"type":"content_block_stop","index":0}`}, "the input of tool_use block 0 (f, t) is not complete JSON"},
		{"error event", []string{start, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}, "overloaded_error: Overloaded"},
		{"not JSON", []string{start, `{"type":`}, "not a JSON event"},
		{"before start", []string{toolStart}, "before message_start"},
		{"gap", []string{start, strings.Replace(toolStart, `"index":0`, `"index":1`, 1)}, "want block 0"},
		{"unknown block", []string{start, `{"type":"content_block_stop","index":3}`}, "0 blocks have started"},
		{"after stop", []string{start, toolStart, `{"type":"content_block_stop","index":0}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}`}, "which has stopped"},
		{"second start", []string{start, start}, "second message_start"},
		{"after message_stop", []string{start, `{"type":"message_stop"}`, `{"type":"message_delta","delta":{}}`}, "after message_stop"},
	} {
		var s tga.Stream
		var addErr error
		for _, e := range tc.events {
			if addErr = s.Add(nil, []byte(e)); addErr != nil {
				break
			}
		}
		_, err := s.Calls()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Calls error = %v, want %q", tc.name, err, tc.want)
		}
		if addErr == nil || !errors.Is(s.Err(), addErr) {
			t.Errorf("%s: Add returned %v, Err %v", tc.name, addErr, s.Err())
		}
		// The error sticks.
		if err := s.Add(nil, []byte(`{"type":"message_stop"}`)); err == nil {
			t.Errorf("%s: Add after an error succeeded", tc.name)
		}
	}
	// The event name stands in for a missing type; pings and unknown events pass.
	var s tga.Stream
	for _, ev := range [][2]string{
		{"message_start", `{"message":{"content":[]}}`},
		{"ping", `{"type":"ping"}`},
		{"", `{"type":"future_event","x":1}`},
		{"message_delta", `{"delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}`},
		{"message_stop", `{}`},
	} {
		if err := s.Add([]byte(ev[0]), []byte(ev[1])); err != nil {
			t.Fatalf("Add(%s): %v", ev[0], err)
		}
	}
	body, err := s.Response()
	if err != nil || !wiretest.JSONEqual(t, body, []byte(`{"content":[],"stop_reason":"end_turn","usage":{"output_tokens":5}}`)) {
		t.Errorf("Response = %s, %v", body, err)
	}
}

// TestStreamMaxTokens: a stream cut by max_tokens right after a tool_use block is not
// trusted to hold the whole call.
func TestStreamMaxTokens(t *testing.T) {
	var s tga.Stream
	for _, e := range []string{
		`{"type":"message_start","message":{"content":[]}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":5}}`,
		`{"type":"message_stop"}`,
	} {
		if err := s.Add(nil, []byte(e)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Calls(); err == nil || !strings.Contains(err.Error(), "max_tokens") {
		t.Errorf("Calls = %v, want a max_tokens error", err)
	}
}

// TestReadSSE checks that ReadSSE passes on an event cut off by the end of the stream;
// the reader itself is tested in runtime/internal/wire.
func TestReadSSE(t *testing.T) {
	if got := wiretest.SSE(t, tga.ReadSSE, wiretest.CutSSE); got != "e|a,|cut off" {
		t.Errorf("ReadSSE = %q, want %q", got, "e|a,|cut off")
	}
}
