package gemini_test

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

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
	f, err := os.Open("testdata/chats_stream_trailing_empty_chunk.sse")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var s tgg.Stream
	if err := tgg.ReadSSE(f, s.Add); err != nil {
		t.Fatal(err)
	}
	calls, err := s.Calls()
	if err != nil {
		t.Fatal(err)
	}
	if got := wiretest.CallsText(calls); got != " get_weather {\"city\":\"Paris\"}\n" {
		t.Errorf("Calls = %q", got)
	}
	body, err := s.Response()
	if err != nil {
		t.Fatal(err)
	}
	// interop/runtimegemini reads the assembled response with the SDK's types.
	if got := partsOf(t, body); !wiretest.JSONEqual(t, got, []byte(`[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"c2lnLTE="}]`)) {
		t.Errorf("the assembled parts are %s", got)
	}
	if !strings.Contains(string(body), `"finishReason":"STOP"`) || !strings.Contains(string(body), `"role":"model"`) {
		t.Errorf("the assembled response is %s", body)
	}
	if !strings.Contains(string(body), `"thoughtSignature":"c2lnLTE="`) {
		t.Errorf("the thought signature changed: %s", body)
	}
	if !s.Done() || s.Err() != nil {
		t.Errorf("Done = %v, Err = %v", s.Done(), s.Err())
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
	calls, err := s.Calls()
	if err != nil {
		t.Fatal(err)
	}
	if got := wiretest.CallsText(calls); got != "a get_weather {\"city\":\"Paris\"}\nb get_weather {\"city\":\"Tokyo\"}\n" {
		t.Errorf("Calls = %q", got)
	}
	body, _ := s.Response()
	want := `{"candidates":[{"content":{"parts":[{"text":"Checking "},{"functionCall":{"id":"a","name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"c2lnLTE="},{"functionCall":{"id":"b","name":"get_weather","args":{"city":"Tokyo"}}}],"role":"model"},"finishReason":"STOP"}],"modelVersion":"gemini-3-pro","usageMetadata":{"promptTokenCount":9,"totalTokenCount":30}}`
	if string(body) != want {
		t.Errorf("Response =\n%s\nwant\n%s", body, want)
	}
	// (interop/runtimegemini checks that the SDK, reading each chunk, finds the same parts.)
	// Every cut before the finishReason is an error, never fewer calls.
	for n := range len(parallelStream) {
		s, err := feed(t, parallelStream[:n]...)
		if err != nil {
			t.Fatal(err)
		}
		calls, err := s.Calls()
		if err == nil || calls != nil || !strings.Contains(err.Error(), "without a finishReason") || s.Done() {
			t.Errorf("a stream cut after %d chunks: %v, %v", n, calls, err)
		}
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
		// (interop/runtimegemini checks that the SDK reads the response.)
		if got := partsOf(t, body); !wiretest.JSONEqual(t, got, []byte(tc.want)) {
			t.Errorf("%s: parts %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestStreamErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chunks []string
		want   string
	}{
		{"error chunk", []string{parallelStream[0], `{"error":{"code":500,"message":"Internal error","status":"INTERNAL"}}`}, "INTERNAL (500): Internal error"},
		{"not JSON", []string{parallelStream[0], `{"candidates":`}, "stream chunk 2 is not a JSON object"},
		{"bad candidates", []string{`{"candidates":{}}`}, `"candidates" is not an array`},
		{"bad parts", []string{`{"candidates":[{"content":{"parts":"x"}}]}`}, `"parts" is not an array`},
	} {
		s, addErr := feed(t, tc.chunks...)
		_, err := s.Calls()
		if addErr == nil || err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(s.Err(), addErr) {
			t.Errorf("%s: Add %v, Calls %v; want %q", tc.name, addErr, err, tc.want)
		}
		if err := s.Add(nil, []byte(parallelStream[3])); err == nil {
			t.Errorf("%s: Add after an error succeeded", tc.name)
		}
	}
	s, err := feed(t, `{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"},"usageMetadata":{"promptTokenCount":5}}`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Calls(); err == nil || !strings.Contains(err.Error(), "the prompt was blocked: PROHIBITED_CONTENT") {
		t.Errorf("blocked prompt: %v", err)
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

// TestReadSSE checks that ReadSSE passes on an event cut off by the end of the stream;
// the reader itself is tested in runtime/internal/wire.
func TestReadSSE(t *testing.T) {
	if got := wiretest.SSE(t, tgg.ReadSSE, wiretest.CutSSE); got != "e|a,|cut off" {
		t.Errorf("ReadSSE = %q, want %q", got, "e|a,|cut off")
	}
}
