package runtimeopenai_test

// From runtime/openai's tests: streams against the SDK's accumulator and event types.

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

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
// chunks and [DONE]) gives the call the SDK's own accumulator gives.
func TestChatStreamSDKRecording(t *testing.T) {
	_, chunks := sseData(t, bytes.NewReader(wiretest.ReadFile(t, "../../runtime/openai/testdata/chat_stream_sdk.sse")))
	var s openai.ChatStream
	var acc sdk.ChatCompletionAccumulator
	for _, c := range chunks {
		if err := s.Add(c); err != nil {
			t.Fatal(err)
		}
		if string(c) == "[DONE]" {
			continue
		}
		var chunk sdk.ChatCompletionChunk
		if err := json.Unmarshal(c, &chunk); err != nil {
			t.Fatal(err)
		}
		acc.AddChunk(chunk)
	}
	calls, err := s.Calls()
	if err != nil {
		t.Fatal(err)
	}
	sameCalls(t, "recorded stream", calls, call("call_FXoAjBUMcVv1k40fficJ9cSs", "get_weather", `{"location":"Santorini, Greece"}`))
	var theirs []runtime.ToolCall
	for _, tc := range acc.Choices[0].Message.ToolCalls {
		theirs = append(theirs, runtime.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: []byte(tc.Function.Arguments)})
	}
	sameCalls(t, "the SDK's accumulator", theirs, calls...)
	if s.Text() != acc.Choices[0].Message.Content || !strings.HasPrefix(s.Text(), "Let's take a journey") {
		t.Errorf("Text = %q, the SDK has %q", s.Text(), acc.Choices[0].Message.Content)
	}
	if s.FinishReason() != "tool_calls" {
		t.Errorf("FinishReason = %q", s.FinishReason())
	}

	// The stream as a whole completion reads back the same and the SDK accepts it.
	body, err := s.Completion()
	if err != nil {
		t.Fatal(err)
	}
	again, err := openai.ChatCalls(body)
	if err != nil {
		t.Fatal(err)
	}
	sameCalls(t, "Completion", again, calls...)
	var c sdk.ChatCompletion
	if err := json.Unmarshal(body, &c); err != nil {
		t.Fatal(err)
	}
	if c.Choices[0].Message.Content != s.Text() || c.Choices[0].Message.ToolCalls[0].ID != calls[0].ID || c.Model != "gpt-4o-2024-05-13" {
		t.Errorf("the SDK reads the completion otherwise: %s", body)
	}
	// Its message is a valid assistant message param.
	msg, _ := s.Message()
	var p sdk.ChatCompletionMessageParamUnion
	if err := json.Unmarshal(msg, &p); err != nil || p.OfAssistant == nil || len(p.OfAssistant.ToolCalls) != 1 ||
		p.OfAssistant.ToolCalls[0].OfFunction.Function.Arguments != `{"location":"Santorini, Greece"}` {
		t.Errorf("the SDK reads the message %s as %+v (%v)", msg, p, err)
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
	var acc sdk.ChatCompletionAccumulator
	for _, c := range chunks {
		if err := s.Add(c); err != nil {
			t.Fatal(err)
		}
		var ch sdk.ChatCompletionChunk
		if json.Unmarshal(c, &ch) == nil {
			acc.AddChunk(ch)
		}
	}
	calls, err := s.Calls()
	if err != nil {
		t.Fatal(err)
	}
	want := []runtime.ToolCall{call("call_a", "get_weather", `{"city":"Paris"}`), call("call_b", "add", `{"a":1,"b":2}`)}
	sameCalls(t, "parallel", calls, want...)
	var theirs []runtime.ToolCall
	for _, tc := range acc.Choices[0].Message.ToolCalls {
		theirs = append(theirs, runtime.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: []byte(tc.Function.Arguments)})
	}
	sameCalls(t, "the SDK's accumulator", theirs, want...)
}

// Every event of the Responses stream fixture is the event the SDK's stream union reads
// it as, and the stream gives the calls of the final response.
func TestResponsesStreamFixture(t *testing.T) {
	events, data := sseData(t, bytes.NewReader(wiretest.ReadFile(t, "../../runtime/openai/testdata/responses_stream.sse")))
	var s openai.ResponsesStream
	for i, d := range data {
		var u responses.ResponseStreamEventUnion
		if err := json.Unmarshal(d, &u); err != nil {
			t.Fatalf("event %d: the SDK rejects it: %v", i, err)
		}
		if u.Type != string(events[i]) {
			t.Fatalf("event %d: SSE name %q, SDK type %q", i, events[i], u.Type)
		}
		switch u.Type {
		case "response.output_item.added":
			if e := u.AsResponseOutputItemAdded(); e.Item.Type == "function_call" && (e.Item.CallID == "" || e.Item.Name == "") {
				t.Errorf("event %d: the SDK reads no call: %s", i, d)
			}
		case "response.function_call_arguments.delta":
			if e := u.AsResponseFunctionCallArgumentsDelta(); e.ItemID == "" || e.Delta == "" {
				t.Errorf("event %d: the SDK reads no delta: %s", i, d)
			}
		case "response.function_call_arguments.done":
			if e := u.AsResponseFunctionCallArgumentsDone(); !json.Valid([]byte(e.Arguments)) {
				t.Errorf("event %d: the SDK reads no arguments: %s", i, d)
			}
		case "response.completed":
			if e := u.AsResponseCompleted(); e.Response.Status != "completed" || len(e.Response.Output) != 3 {
				t.Errorf("event %d: the SDK reads the response otherwise: %s", i, d)
			}
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
