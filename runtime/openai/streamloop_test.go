package openai_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/openai"
)

// chatAnswer is a Chat Completions stream that answers in text.
const chatAnswer = `data: {"id":"chatcmpl-2","object":"chat.completion.chunk","created":2,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":"It is"},"finish_reason":null}]}

data: {"id":"chatcmpl-2","object":"chat.completion.chunk","created":2,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":" sunny."},"finish_reason":null}]}

data: {"id":"chatcmpl-2","object":"chat.completion.chunk","created":2,"model":"gpt-4o","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}

data: [DONE]

`

// responsesAnswer is a Responses stream that answers in text.
const responsesAnswer = `event: response.output_text.delta
data: {"type":"response.output_text.delta","item_id":"msg_2","output_index":0,"content_index":0,"delta":"Sunny"}

event: response.output_text.delta
data: {"type":"response.output_text.delta","item_id":"msg_2","output_index":0,"content_index":0,"delta":" in both."}

event: response.completed
data: {"type":"response.completed","response":{"id":"resp_2","object":"response","status":"completed","output":[{"id":"msg_2","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Sunny in both.","annotations":[]}]}]}}

`

// TestLoopStreamsChat streams a Loop over the SDK's recorded Chat Completions stream:
// text to OnText while it comes, the call answered once the stream is complete, cut
// streams refused, MaxRounds kept.
func TestLoopStreamsChat(t *testing.T) {
	wiretest.CheckLoopStreams(t, wiretest.StreamCase{
		Provider:   openai.Chat{},
		Read:       openai.ReadSSE,
		Request:    []byte(`{"model":"gpt-4o","messages":[{"role":"user","content":"What is the weather?"}]}`),
		Calls:      wiretest.ReadFile(t, "testdata/chat_stream_sdk.sse"),
		WantCalls:  "call_FXoAjBUMcVv1k40fficJ9cSs get_weather {\"location\":\"Santorini, Greece\"}\n",
		Answer:     []byte(chatAnswer),
		BodyStream: true,
	})
}

// TestLoopStreamsResponses streams a Loop over the recorded Responses stream of two
// parallel calls, as TestLoopStreamsChat does.
func TestLoopStreamsResponses(t *testing.T) {
	wiretest.CheckLoopStreams(t, wiretest.StreamCase{
		Provider: openai.Responses{},
		Read:     openai.ReadSSE,
		Request:  []byte(`{"model":"gpt-4.1","input":"What is the weather in Paris and Bogotá?"}`),
		Calls:    wiretest.ReadFile(t, "testdata/responses_stream.sse"),
		WantCalls: "call_12345xyz get_weather {\"location\":\"Paris, France\"}\n" +
			"call_67890abc get_weather {\"location\":\"Bogotá, Colombia\"}\n",
		Answer:     []byte(responsesAnswer),
		BodyStream: true,
	})
}

// TestLoopStreamLimits: a Loop that streams keeps the bounds of a stream: a line over
// the StreamFunc's Limits.MaxLineBytes and arguments over the Provider's
// Limits.MaxArgumentBytes end Run with the error naming the limit, and no call runs.
func TestLoopStreamLimits(t *testing.T) {
	body := wiretest.ReadFile(t, "testdata/chat_stream_sdk.sse")
	req := []byte(`{"model":"gpt-4o","messages":[{"role":"user","content":"What is the weather?"}]}`)
	for _, tc := range []struct {
		name     string
		provider openai.Chat
		read     wiretest.ReadFunc
		want     string
	}{
		{"line", openai.Chat{}, openai.Limits{MaxLineBytes: 64}.ReadSSE, "openai: stream round 1: a line of the stream is over 64 bytes long"},
		{"arguments", openai.Chat{Limits: openai.Limits{MaxArgumentBytes: 8}}, openai.ReadSSE, "openai: read the stream of round 1: chunk "},
	} {
		var sent [][]byte
		ran := false
		l := loop.Loop{Provider: tc.provider, Tools: wiretest.Toolset(), Stream: wiretest.Streamed(tc.read, &sent, body),
			OnRound: func(loop.Round) { ran = true }}
		_, _, err := l.Run(context.Background(), req)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "the limit") || ran {
			t.Errorf("%s: err = %v (calls ran: %v), want %q naming the limit", tc.name, err, ran, tc.want)
		}
	}
}
