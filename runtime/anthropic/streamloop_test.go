package anthropic_test

import (
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	tga "github.com/toolgen/toolgen/runtime/anthropic"
)

// messagesAnswer is a Messages stream that answers in text.
const messagesAnswer = `event: message_start
data: {"type":"message_start","message":{"id":"msg_2","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":420,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"It is sunny"}}

event: ping
data: {"type": "ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" in San Francisco."}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}

event: message_stop
data: {"type":"message_stop"}

`

// TestLoopStreamsMessages streams a Loop over the SDK's recorded Messages stream (text,
// then a get_weather tool_use): text to OnText while it comes, the call answered once
// the stream is complete, cut streams refused, MaxRounds kept.
func TestLoopStreamsMessages(t *testing.T) {
	wiretest.CheckLoopStreams(t, wiretest.StreamCase{
		Provider:   tga.Messages{},
		Read:       tga.ReadSSE,
		Request:    []byte(`{"model":"claude-sonnet-4-5","max_tokens":1024,"messages":[{"role":"user","content":"What is the weather in San Francisco?"}]}`),
		Calls:      wiretest.ReadFile(t, "testdata/tool_runner_next_streaming.sse"),
		WantCalls:  "toolu_017QoD96fYwGzCWvLfaPADWg get_weather {\"city\":\"San Francisco\"}\n",
		Answer:     []byte(messagesAnswer),
		BodyStream: true,
	})
}
