package tooltest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// NewServer starts a fake provider API whose model is the script: an httptest server
// that answers every wire format at its path, so a test runs the official SDK clients
// (openai-go, anthropic-sdk-go, genai) and toolgen's bridges against it without a key
// or a network. Point the client at the server's URL (with "/v1" for OpenAI's
// clients) and give it the key APIKey:
//
//   - POST /v1/chat/completions: OpenAI Chat Completions, streamed when the body says
//     "stream": true;
//   - POST /v1/responses: OpenAI Responses, streamed likewise;
//   - POST /v1/messages: Anthropic Messages, streamed likewise;
//   - POST /v1beta/models/{model}:generateContent, or :streamGenerateContent?alt=sse:
//     Gemini.
//
// Each request is checked as the API checks it (method, path, content type,
// credentials and version headers, and the body as Read reads it) and answered as
// Send answers it, or as the server-sent events Stream writes. A request the API
// would reject, or one the script cannot answer, fails t and gets a 400 with the
// API's error body, which the SDK returns as an error. The server keeps no state:
// like the real APIs, the model reads the whole conversation from each request. It is
// closed when t ends.
func NewServer(t testing.TB, s *Script) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := FormatOf(r.URL.Path)
		if err == nil {
			err = serve(w, r, f, s)
		}
		if err != nil {
			reject(t, w, f, err.Error())
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// serve answers one request of NewServer's API in wire format f.
func serve(w http.ResponseWriter, r *http.Request, f Format, s *Script) error {
	if f == GenerateContent && strings.HasSuffix(r.URL.Path, ":streamGenerateContent") && r.URL.Query().Get("alt") != "sse" {
		return fmt.Errorf("%w: %s: the fake API streams server-sent events only: add ?alt=sse", ErrUnsupported, r.URL.RequestURI())
	}
	req, err := readHTTP(r, "")
	if err != nil {
		return err
	}
	wire, err := f.wire()
	if err != nil {
		return err
	}
	body, err := answer(wire, s, req)
	if err != nil {
		return err
	}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
		return nil
	}
	events, err := streamOf(f, body)
	if err != nil {
		return err
	}
	writeEvents(w, events)
	return nil
}
