package gemini_test

import (
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	tgg "github.com/toolgen/toolgen/runtime/gemini"
)

// contentAnswer is a streamGenerateContent stream that answers in text, a thought
// first, which is no text for the user.
const contentAnswer = `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"The tool said sunny.","thought":true}]}}]}

data: {"candidates":[{"content":{"role":"model","parts":[{"text":"It is sunny"}]}}]}

data: {"candidates":[{"content":{"role":"model","parts":[{"text":" in Paris."}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":6}}

`

// TestLoopStreamsGenerateContent streams a Loop over the SDK's recorded stream (a call
// with a thought signature, then an empty STOP chunk): the call answered once the
// stream is complete, the answer's text to OnText while it comes, cut streams refused,
// MaxRounds kept. The request body asks for no stream: the URL does.
func TestLoopStreamsGenerateContent(t *testing.T) {
	wiretest.CheckLoopStreams(t, wiretest.StreamCase{
		Provider:  tgg.GenerateContent{},
		Read:      tgg.ReadSSE,
		Request:   []byte(`{"contents":[{"role":"user","parts":[{"text":"What is the weather in Paris?"}]}]}`),
		Calls:     wiretest.ReadFile(t, "testdata/chats_stream_trailing_empty_chunk.sse"),
		WantCalls: " get_weather {\"city\":\"Paris\"}\n",
		Answer:    []byte(contentAnswer),
	})
}

// TestStreamText: a Stream's Text is the text of the parts that are not thoughts, in
// order; Done once the finishReason came.
func TestStreamText(t *testing.T) {
	s := tgg.GenerateContent{}.Stream()
	if err := tgg.ReadSSE(strings.NewReader(contentAnswer), s.Add); err != nil {
		t.Fatal(err)
	}
	if got, want := s.Text(), "It is sunny in Paris."; got != want || !s.Done() {
		t.Errorf("Text = %q, Done = %v; want %q, true", got, s.Done(), want)
	}
}
