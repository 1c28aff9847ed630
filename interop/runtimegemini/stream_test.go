package runtimegemini_test

// From runtime/gemini's tests: streamed responses as the SDK reads them.

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"google.golang.org/genai"

	"github.com/toolgen/toolgen/internal/wiretest"
	tgg "github.com/toolgen/toolgen/runtime/gemini"
)

// feed adds chunks to a new Stream.
func feed(t *testing.T, chunks ...string) (*tgg.Stream, error) {
	t.Helper()
	var s tgg.Stream
	for _, c := range chunks {
		if err := s.Add(nil, []byte(c)); err != nil {
			return &s, err
		}
	}
	return &s, nil
}

// TestStreamRecorded reads the stream of the SDK's TestChatsStreamTrailingEmptyChunk:
// a call with a thought signature, then an empty STOP chunk.
func TestStreamRecorded(t *testing.T) {
	f, err := os.Open("../../runtime/gemini/testdata/chats_stream_trailing_empty_chunk.sse")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var s tgg.Stream
	if err := tgg.ReadSSE(f, s.Add); err != nil {
		t.Fatal(err)
	}
	// runtime/gemini's TestStreamRecorded checks the calls and the body's JSON; here the
	// SDK reads the body.
	body, err := s.Response()
	if err != nil {
		t.Fatal(err)
	}
	var resp genai.GenerateContentResponse
	if err := resp.UnmarshalJSON(body); err != nil {
		t.Fatal(err)
	}
	c := resp.Candidates[0]
	if c.FinishReason != genai.FinishReasonStop || c.Content.Role != genai.RoleModel || len(c.Content.Parts) != 1 ||
		string(c.Content.Parts[0].ThoughtSignature) != "sig-1" || c.Content.Parts[0].FunctionCall.Name != "get_weather" {
		t.Errorf("the SDK reads the assembled response as %s", wiretest.MustMarshal(t, &resp))
	}
}

// parallelStream spreads parallel calls over chunks, the signature on the first.
var parallelStream = []string{
	`{"candidates":[{"content":{"role":"model","parts":[{"text":"Checking "}]}}],"modelVersion":"gemini-3-pro"}`,
	`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"a","name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"c2lnLTE="}]}}]}`,
	`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"b","name":"get_weather","args":{"city":"Tokyo"}}}]}}]}`,
	`{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":9,"totalTokenCount":30},"modelVersion":"gemini-3-pro"}`,
}

func TestStreamParallel(t *testing.T) {
	s, err := feed(t, parallelStream...)
	if err != nil {
		t.Fatal(err)
	}
	// runtime/gemini's TestStreamParallel checks the calls, the body and cut streams;
	// here the SDK, reading each chunk, finds the parts the body holds.
	body, _ := s.Response()
	var sdkParts []*genai.Part
	for _, c := range parallelStream {
		var r genai.GenerateContentResponse
		if err := r.UnmarshalJSON([]byte(c)); err != nil {
			t.Fatal(err)
		}
		for _, p := range r.Candidates[0].Content.Parts {
			if p.Text != "" || p.FunctionCall != nil {
				sdkParts = append(sdkParts, p)
			}
		}
	}
	var ours genai.GenerateContentResponse
	if err := ours.UnmarshalJSON(body); err != nil {
		t.Fatal(err)
	}
	if a, b := wiretest.MustMarshal(t, ours.Candidates[0].Content.Parts), wiretest.MustMarshal(t, sdkParts); !wiretest.JSONEqual(t, a, b) {
		t.Errorf("parts differ from the SDK's chunks:\nours %s\nSDK  %s", a, b)
	}
}

// TestStreamSDKCases runs chunk sequences of the SDK's TestChatsStreamCuratedHistory.
func TestStreamSDKCases(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chunks []string
		want   string // the parts of the response, or the error
	}{
		{"TrailingThoughtSignatureChunk", []string{
			`{"candidates":[{"content":{"role":"model","parts":[{"text":"Hello"}]}}]}`,
			`{"candidates":[{"content":{"role":"model","parts":[{"text":"","thoughtSignature":"c2lnLTI="}]},"finishReason":"STOP"}]}`,
			// The signature of a turn without calls rides on an empty text part at
			// the end; it goes back with the turn.
		}, `[{"text":"Hello"},{"text":"","thoughtSignature":"c2lnLTI="}]`},
		{"TrailingNoPartsChunk", []string{
			`{"candidates":[{"content":{"role":"model","parts":[{"text":"Hello"}]}}]}`,
			`{"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP"}]}`,
		}, `[{"text":"Hello"}]`},
		{"TrailingNoContentChunk", []string{
			`{"candidates":[{"content":{"role":"model","parts":[{"text":"Hello"}]}}]}`,
			`{"candidates":[{"finishReason":"STOP"}]}`,
		}, `[{"text":"Hello"}]`},
		{"EmptyChunkWithoutFinishReason", []string{
			`{"candidates":[{"content":{"role":"model","parts":[{"text":"Hello"}]}}]}`,
			`{"candidates":[{"content":{"role":"model","parts":[{"text":""}]}}]}`,
		}, "the stream ended without a finishReason, after 2 chunks"},
	} {
		s, err := feed(t, tc.chunks...)
		if err != nil {
			t.Fatal(err)
		}
		body, err := s.Response()
		if err != nil {
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: %v, want %s", tc.name, err, tc.want)
			}
			continue
		}
		var r genai.GenerateContentResponse
		if err := r.UnmarshalJSON(body); err != nil {
			t.Fatal(err)
		}
		if got := partsOf(t, body); !wiretest.JSONEqual(t, got, []byte(tc.want)) {
			t.Errorf("%s: parts %s, want %s", tc.name, got, tc.want)
		}
	}
}

// partsOf returns the parts of the first candidate of a response body.
func partsOf(t *testing.T, body []byte) json.RawMessage {
	t.Helper()
	var r struct {
		Candidates []struct {
			Content struct {
				Parts json.RawMessage `json:"parts"`
			} `json:"content"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal(body, &r); err != nil || len(r.Candidates) == 0 {
		t.Fatalf("%s: %v", body, err)
	}
	return r.Candidates[0].Content.Parts
}
