package tooltest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/openai"
)

// post sends a request body of wire format f to srv as the format's clients do: its
// path (the model's, for Gemini; streamed when stream is set), its content type and
// credentials. It returns the response, or an error for a status other than 200.
func post(ctx context.Context, srv *httptest.Server, f Format, stream bool, body []byte) (*http.Response, error) {
	path := map[Format]string{Chat: "/v1/chat/completions", Responses: "/v1/responses", Messages: "/v1/messages",
		GenerateContent: "/v1beta/models/test-model:generateContent"}[f]
	if stream && f == GenerateContent {
		path = "/v1beta/models/test-model:streamGenerateContent?alt=sse"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	switch f {
	case Messages:
		req.Header.Set("X-Api-Key", APIKey)
		req.Header.Set("Anthropic-Version", "2023-06-01")
	case GenerateContent:
		req.Header.Set("X-Goog-Api-Key", APIKey)
	default:
		req.Header.Set("Authorization", "Bearer "+APIKey)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return nil, fmt.Errorf("%s: %s", resp.Status, b)
	}
	return resp, nil
}

// TestNewServer runs the conversation of TestConversation over HTTP, with every wire
// format, whole and streamed: the Loop posts each request to NewServer's API as the
// format's clients do, and gets the answer Send gives.
func TestNewServer(t *testing.T) {
	for _, f := range Formats() {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stream=%v", f, stream), func(t *testing.T) {
				srv := NewServer(t, script())
				p, err := f.Provider()
				if err != nil {
					t.Fatal(err)
				}
				l := loop.Loop{Provider: p, Tools: forecast.Tools()}
				if stream {
					l.Stream = func(ctx context.Context, request []byte, events func(event, data []byte) error) error {
						resp, err := post(ctx, srv, f, true, request)
						if err != nil {
							return err
						}
						defer resp.Body.Close()
						if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
							t.Errorf("a stream's Content-Type is %q", ct)
						}
						return openai.ReadSSE(resp.Body, events)
					}
				} else {
					l.Send = func(ctx context.Context, request []byte) ([]byte, error) {
						resp, err := post(ctx, srv, f, false, request)
						if err != nil {
							return nil, err
						}
						defer resp.Body.Close()
						return io.ReadAll(resp.Body)
					}
				}
				req, err := f.NewRequest("test-model", question)
				if err != nil {
					t.Fatal(err)
				}
				var rounds []loop.Round
				l.OnRound = func(r loop.Round) { rounds = append(rounds, r) }
				final, _, err := l.Run(t.Context(), req)
				if err != nil {
					t.Fatal(err)
				}
				if len(rounds) != 2 || len(rounds[0].Calls) != 2 || len(rounds[1].Calls) != 1 {
					t.Fatalf("rounds: %+v", rounds)
				}
				text, err := f.Text(final)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(text, rounds[1].Calls[0].Result.Text()) {
					t.Errorf("the answer does not quote the last result:\n%s", text)
				}
			})
		}
	}
}

// TestNewServerRejects: a request the API would reject, one the script cannot answer,
// a path of no format and a Gemini stream that is not SSE each get a 400 in the API's
// error shape and fail the test, once each.
func TestNewServerRejects(t *testing.T) {
	rec := &recorder{TB: t}
	srv := NewServer(rec, script())
	ctx := t.Context()
	unanswered := strings.Replace(valid[Chat], `"tool_call_id":"call_1"`, `"tool_call_id":"call_9"`, 1)
	if _, err := post(ctx, srv, Chat, false, []byte(unanswered)); err == nil || !strings.Contains(err.Error(), "400") || !strings.Contains(err.Error(), `"type":"invalid_request_error"`) {
		t.Errorf("an unanswered call: %v", err)
	}
	other, _ := Messages.NewRequest("m", "What is the time?")
	if _, err := post(ctx, srv, Messages, false, other); err == nil || !strings.Contains(err.Error(), "the script cannot answer") {
		t.Errorf("another question: %v", err)
	}
	resp, err := srv.Client().Post(srv.URL+"/v1/embeddings", "application/json", strings.NewReader(`{}`))
	if err != nil || resp.StatusCode != http.StatusBadRequest {
		t.Errorf("another path: %v %v", resp.Status, err)
	}
	req, _ := GenerateContent.NewRequest("", question)
	r, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1beta/models/m:streamGenerateContent", bytes.NewReader(req))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("X-Goog-Api-Key", APIKey)
	if resp, err := srv.Client().Do(r); err != nil || resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a Gemini stream without alt=sse: %v %v", resp.Status, err)
	}
	if len(rec.errs) != 4 {
		t.Errorf("%d test errors, want 4: %q", len(rec.errs), rec.errs)
	}
}
