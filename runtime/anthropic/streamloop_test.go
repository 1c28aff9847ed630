package anthropic_test

import (
	"strings"
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

// TestStreamText: a Stream's Text is the text_delta pieces in order, thinking left out.
func TestStreamText(t *testing.T) {
	s := tga.Messages{}.Stream()
	thinking := strings.Replace(messagesAnswer, `event: content_block_start
data: {"type":"content_block_start","index":0,`, `event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Sunny, the tool said."}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,`, 1)
	thinking = strings.ReplaceAll(thinking, `"index":0,"delta":{"type":"text_delta"`, `"index":1,"delta":{"type":"text_delta"`)
	thinking = strings.Replace(thinking, `{"type":"content_block_stop","index":0}

event: message_delta`, `{"type":"content_block_stop","index":1}

event: message_delta`, 1)
	if err := tga.ReadSSE(strings.NewReader(thinking), s.Add); err != nil {
		t.Fatal(err)
	}
	if got, want := s.Text(), "It is sunny in San Francisco."; got != want || !s.Done() {
		t.Errorf("Text = %q, Done = %v; want %q, true", got, s.Done(), want)
	}
	if resp, err := s.Response(); err != nil || !strings.Contains(string(resp), `"thinking":"Sunny, the tool said."`) {
		t.Errorf("Response = %s, %v; want the thinking block kept", resp, err)
	}
}
