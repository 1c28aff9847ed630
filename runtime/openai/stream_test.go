package openai_test

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/openai"
)

// sseData returns the data payloads of an SSE file, read with ReadSSE.
func sseData(t *testing.T, r io.Reader) (events, data [][]byte) {
	t.Helper()
	err := openai.ReadSSE(r, func(event, d []byte) error {
		events = append(events, event)
		data = append(data, d)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return events, data
}

// The SDK's recorded stream (text, then a get_weather call, finish_reason, usage
// chunks and [DONE]) gives its call, text and finish reason (interop/runtimeopenai
// checks that the SDK's own accumulator gives the same).
func TestChatStreamSDKRecording(t *testing.T) {
	_, chunks := sseData(t, bytes.NewReader(wiretest.ReadFile(t, "testdata/chat_stream_sdk.sse")))
	var s openai.ChatStream
	for _, c := range chunks {
		if err := s.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	calls, err := s.Calls()
	if err != nil {
		t.Fatal(err)
	}
	sameCalls(t, "recorded stream", calls, call("call_FXoAjBUMcVv1k40fficJ9cSs", "get_weather", `{"location":"Santorini, Greece"}`))
	if !strings.HasPrefix(s.Text(), "Let's take a journey") {
		t.Errorf("Text = %q", s.Text())
	}
	if s.FinishReason() != "tool_calls" {
		t.Errorf("FinishReason = %q", s.FinishReason())
	}

	// The stream as a whole completion reads back the same.
	body, err := s.Completion()
	if err != nil {
		t.Fatal(err)
	}
	again, err := openai.ChatCalls(body)
	if err != nil {
		t.Fatal(err)
	}
	sameCalls(t, "Completion", again, calls...)
	var c struct {
		Model   string `json:"model"`
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(body, &c); err != nil || len(c.Choices) != 1 || c.Choices[0].Message.Content != s.Text() || c.Model != "gpt-4o-2024-05-13" {
		t.Errorf("the completion reads otherwise: %s (%v)", body, err)
	}
	// Its message is an assistant message with the call.
	msg, _ := s.Message()
	var m struct {
		Role      string `json:"role"`
		ToolCalls []struct {
			ID       string `json:"id"`
			Function struct {
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal(msg, &m); err != nil || m.Role != "assistant" || len(m.ToolCalls) != 1 ||
		m.ToolCalls[0].ID != calls[0].ID || m.ToolCalls[0].Function.Arguments != `{"location":"Santorini, Greece"}` {
		t.Errorf("the message %s reads as %+v (%v)", msg, m, err)
	}
}

// Every prefix of the recording that stops before the finish_reason chunk is an
// error that says so; the prefixes that include it give the whole call.
func TestChatStreamTruncated(t *testing.T) {
	_, chunks := sseData(t, bytes.NewReader(wiretest.ReadFile(t, "testdata/chat_stream_sdk.sse")))
	finish := -1
	for i, c := range chunks {
		if bytes.Contains(c, []byte(`"finish_reason":"tool_calls"`)) {
			finish = i
		}
	}
	if finish < 0 {
		t.Fatal("no finish chunk")
	}
	for n := 0; n <= len(chunks); n++ {
		var s openai.ChatStream
		for _, c := range chunks[:n] {
			if err := s.Add(c); err != nil {
				t.Fatal(err)
			}
		}
		calls, err := s.Calls()
		if n <= finish {
			if err == nil || !strings.Contains(err.Error(), "before a finish_reason") {
				t.Fatalf("%d of %d chunks: got %s, %v; want an unfinished-stream error", n, len(chunks), wiretest.CallsText(calls), err)
			}
			if n > finish-9 && !strings.Contains(err.Error(), "get_weather (call_FXoAjBUMcVv1k40fficJ9cSs)") {
				t.Errorf("%d chunks: the error does not name the pending call: %v", n, err)
			}
			continue
		}
		if err != nil || len(calls) != 1 {
			t.Errorf("%d of %d chunks: %s, %v", n, len(chunks), wiretest.CallsText(calls), err)
		}
	}
}

func TestChatStreamCutBody(t *testing.T) {
	// The body itself is cut mid-event: ReadSSE passes the partial event on, which
	// is not a whole chunk, and the stream keeps that error.
	full := wiretest.ReadFile(t, "testdata/chat_stream_sdk.sse")
	i := bytes.Index(full, []byte(`"finish_reason":"tool_calls"`))
	var s openai.ChatStream
	if err := openai.ReadSSE(bytes.NewReader(full[:i]), func(_, d []byte) error { return s.Add(d) }); err == nil {
		t.Error("ReadSSE of a body cut mid-event: no error from the stream")
	}
	if _, err := s.Calls(); err == nil {
		t.Error("a cut body gives calls")
	}
}

// chunk returns a chat.completion.chunk payload with the given delta and finish reason.
func chunk(delta, finish string) []byte {
	f := "null"
	if finish != "" {
		f = `"` + finish + `"`
	}
	return []byte(`{"id":"chatcmpl-x","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + f + `}]}`)
}

func TestChatStreamParallelCalls(t *testing.T) {
	chunks := [][]byte{
		chunk(`{"role":"assistant","content":null}`, ""),
		chunk(`{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":""}}]}`, ""),
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]}`, ""),
		chunk(`{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"add","arguments":""}}]}`, ""),
		chunk(`{"tool_calls":[{"index":1,"function":{"arguments":"{\"a\":1,"}}]}`, ""),
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]}`, ""),
		chunk(`{"tool_calls":[{"index":1,"function":{"arguments":"\"b\":2}"}}]}`, ""),
		chunk(`{}`, "tool_calls"),
		[]byte(`[DONE]`),
	}
	var s openai.ChatStream
	for _, c := range chunks {
		if err := s.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	calls, err := s.Calls()
	if err != nil {
		t.Fatal(err)
	}
	want := []runtime.ToolCall{call("call_a", "get_weather", `{"city":"Paris"}`), call("call_b", "add", `{"a":1,"b":2}`)}
	sameCalls(t, "parallel", calls, want...) // and the SDK's accumulator: interop/runtimeopenai
}

func TestChatStreamErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chunks [][]byte
		want   string
	}{
		{"cut arguments", [][]byte{
			chunk(`{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Par"}}]}`, ""),
			chunk(`{}`, "length"),
		}, `the arguments of tool call 0 (get_weather, call_a) are not complete JSON`},
		{"no id", [][]byte{
			chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}`, ""),
			chunk(`{}`, "tool_calls"),
		}, "tool call 0 has no id"},
		{"no name", [][]byte{
			chunk(`{"tool_calls":[{"index":0,"id":"c","function":{"arguments":"{}"}}]}`, ""),
			chunk(`{}`, "tool_calls"),
		}, "tool call 0 (c) has no function name"},
		{"changed id", [][]byte{
			chunk(`{"tool_calls":[{"index":0,"id":"c1","function":{"name":"ping","arguments":""}}]}`, ""),
			chunk(`{"tool_calls":[{"index":0,"id":"c2","function":{"arguments":"{}"}}]}`, ""),
		}, `changed its id from "c1" to "c2"`},
		{"error chunk", [][]byte{
			[]byte(`{"error":{"message":"The server had an error","type":"server_error","code":null}}`),
		}, "server_error: The server had an error"},
		{"not json", [][]byte{[]byte(`{"id":`)}, "chunk 1 is not a chat.completion.chunk"},
		{"wrong object", [][]byte{[]byte(`{"object":"response"}`)}, `is a "response", not a chat.completion.chunk`},
		{"empty", nil, "before a finish_reason (0 chunks read)"},
	} {
		var s openai.ChatStream
		var addErr error
		for _, c := range tc.chunks {
			if err := s.Add(c); err != nil {
				addErr = err
			}
		}
		calls, err := s.Calls()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Calls = %s, %v; want an error with %q", tc.name, wiretest.CallsText(calls), err, tc.want)
		}
		if addErr != nil && addErr.Error() != err.Error() {
			t.Errorf("%s: Add said %v, Calls %v", tc.name, addErr, err)
		}
		if _, err := s.Completion(); err == nil {
			t.Errorf("%s: Completion does not fail", tc.name)
		}
	}
}

// Every event of the Responses stream fixture has the type its SSE name says, and the
// stream gives the calls of the final response (interop/runtimeopenai checks that the
// SDK's stream union reads each event as that event).
func TestResponsesStreamFixture(t *testing.T) {
	events, data := sseData(t, bytes.NewReader(wiretest.ReadFile(t, "testdata/responses_stream.sse")))
	var s openai.ResponsesStream
	for i, d := range data {
		var e struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(d, &e); err != nil || e.Type != string(events[i]) {
			t.Fatalf("event %d: SSE name %q, type %q (%v)", i, events[i], e.Type, err)
		}
		if err := s.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	calls, err := s.Calls()
	if err != nil {
		t.Fatal(err)
	}
	want := []runtime.ToolCall{
		call("call_12345xyz", "get_weather", `{"location":"Paris, France"}`),
		call("call_67890abc", "get_weather", `{"location":"Bogotá, Colombia"}`),
	}
	sameCalls(t, "responses stream", calls, want...)
	if s.Text() != "Let me check both." || !s.Completed() {
		t.Errorf("Text = %q, Completed = %v", s.Text(), s.Completed())
	}
	body, err := s.Response()
	if err != nil {
		t.Fatal(err)
	}
	fromBody, err := openai.ResponsesCalls(body)
	if err != nil {
		t.Fatal(err)
	}
	sameCalls(t, "Response", fromBody, want...)
}

// Only the deltas carry the arguments here, as when a server sends no done events
// before response.completed; and a server that sends only response.completed works too.
func TestResponsesStreamVariants(t *testing.T) {
	completed := `{"type":"response.completed","response":{"id":"r","status":"completed","output":[{"type":"function_call","id":"fc","call_id":"c","name":"ping","arguments":"{}"}]}}`
	for _, tc := range []struct {
		name   string
		events []string
	}{
		{"deltas only", []string{
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc","call_id":"c","name":"ping","arguments":""}}`,
			`{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":0,"delta":"{"}`,
			`{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":0,"delta":"}"}`,
			completed,
		}},
		{"completed only", []string{completed}},
		{"done item only", []string{
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc","call_id":"c","name":"ping","arguments":"{}"}}`,
			completed,
		}},
	} {
		var s openai.ResponsesStream
		for _, e := range tc.events {
			if err := s.Add([]byte(e)); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		calls, err := s.Calls()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sameCalls(t, tc.name, calls, call("c", "ping", "{}"))
	}
}

func TestResponsesStreamTruncated(t *testing.T) {
	_, data := sseData(t, bytes.NewReader(wiretest.ReadFile(t, "testdata/responses_stream.sse")))
	for n := 0; n < len(data); n++ { // every prefix without response.completed
		var s openai.ResponsesStream
		for _, d := range data[:n] {
			if err := s.Add(d); err != nil {
				t.Fatal(err)
			}
		}
		calls, err := s.Calls()
		if err == nil || !strings.Contains(err.Error(), "before response.completed") {
			t.Fatalf("%d of %d events: %s, %v; want an incomplete-stream error", n, len(data), wiretest.CallsText(calls), err)
		}
		if _, err := s.Response(); err == nil {
			t.Fatalf("%d events: Response does not fail", n)
		}
	}
}

func TestResponsesStreamErrors(t *testing.T) {
	added := `{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc","call_id":"c","name":"get_weather","arguments":""}}`
	for _, tc := range []struct {
		name   string
		events []string
		want   string
	}{
		{"cut arguments, then completed", []string{added,
			`{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":0,"delta":"{\"city\":"}`,
			`{"type":"response.completed","response":{"id":"r","status":"completed","output":[]}}`,
		}, "the arguments of function call 0 (get_weather, c) are not complete JSON"},
		{"cut", []string{added, `{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":0,"delta":"{"}`},
			"before response.completed (2 events read, the last a response.function_call_arguments.delta); 1 function call(s) may be incomplete, the last one get_weather (c) with 1 bytes"},
		{"incomplete", []string{added, `{"type":"response.incomplete","response":{"id":"r","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[]}}`},
			"the response is incomplete: max_output_tokens"},
		{"failed", []string{`{"type":"response.failed","response":{"id":"r","status":"failed","error":{"code":"server_error","message":"The model failed."},"output":[]}}`},
			"the response failed: the API returned an error: server_error: The model failed."},
		{"error event", []string{`{"type":"error","code":"rate_limit_exceeded","message":"Slow down.","param":null,"sequence_number":3}`},
			"rate_limit_exceeded: Slow down."},
		{"unknown item", []string{`{"type":"response.function_call_arguments.delta","item_id":"fc_x","output_index":4,"delta":"{"}`},
			`is for item "fc_x", which was never added`},
		{"no type", []string{`{"delta":"x"}`}, "has no type"},
		{"not json", []string{`data`}, "is not a Responses stream event"},
		{"no call_id", []string{
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc","name":"ping","arguments":"{}"}}`,
			`{"type":"response.completed","response":{"id":"r","status":"completed","output":[]}}`,
		}, "function call 0 has no id"},
	} {
		var s openai.ResponsesStream
		for _, e := range tc.events {
			s.Add([]byte(e))
		}
		calls, err := s.Calls()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Calls = %s, %v; want an error with %q", tc.name, wiretest.CallsText(calls), err, tc.want)
		}
	}
}

// TestReadSSE checks that ReadSSE passes on an event cut off by the end of the stream,
// as the anthropic and gemini packages' ReadSSE do; the reader itself is tested in
// runtime/internal/wire.
func TestReadSSE(t *testing.T) {
	if got := wiretest.SSE(t, openai.ReadSSE, wiretest.CutSSE); got != "e|a,|cut off" {
		t.Errorf("ReadSSE = %q, want %q", got, "e|a,|cut off")
	}
}
