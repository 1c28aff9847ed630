package tooltest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// APIKey is the dummy key the clients of a fake API send; NewServer and NewRoundServer
// insist on it.
const APIKey = "test-key"

// MaxRequestBytes is the largest request body NewServer and NewRoundServer read, as
// the real APIs bound theirs (Anthropic's Messages API refuses more than 32 MB): a
// longer body is rejected, not read into memory whole.
const MaxRequestBytes = 32 << 20

// Round is one request a fake API served by NewRoundServer expects, in order, and its
// answer.
type Round struct {
	// Path is the expected request URI, query included: /v1/chat/completions,
	// /v1/responses, /v1/messages, /v1beta/models/{model}:generateContent or
	// :streamGenerateContent?alt=sse. It sets the wire format of the request.
	Path string
	// Check, when set, checks the request further, once Read has found it valid;
	// an error rejects it with a 400 and fails the test.
	Check func(req *Request) error
	// Reply is the JSON body of the answer, unless Events is set.
	Reply string
	// Events, when set, are streamed as server-sent events instead.
	Events []Event
}

// Event is one server-sent event: its optional name and its data.
type Event struct {
	// Name is the event's name ("" writes no event line).
	Name string
	// Data is the event's data.
	Data string
}

// FormatOf returns the wire format of a request path, query ignored.
func FormatOf(path string) (Format, error) {
	path, _, _ = strings.Cut(path, "?")
	switch {
	case path == "/v1/chat/completions":
		return Chat, nil
	case path == "/v1/responses":
		return Responses, nil
	case path == "/v1/messages":
		return Messages, nil
	case strings.HasPrefix(path, "/v1beta/models/") || strings.HasPrefix(path, "/v1/models/"):
		if strings.HasSuffix(path, ":generateContent") || strings.HasSuffix(path, ":streamGenerateContent") {
			return GenerateContent, nil
		}
	}
	return "", fmt.Errorf("tooltest: %s is the path of no wire format", path)
}

// CheckHeaders checks the headers the API of a wire format requires: JSON content,
// and the credentials (APIKey) and version headers its clients send.
func CheckHeaders(f Format, h http.Header) error {
	if ct := h.Get("Content-Type"); ct != "application/json" {
		return fmt.Errorf("Content-Type %q, want application/json", ct)
	}
	switch f {
	case Chat, Responses:
		if got := h.Get("Authorization"); got != "Bearer "+APIKey {
			return fmt.Errorf("Authorization %q", got)
		}
	case Messages:
		// The API takes the key in x-api-key or as a bearer token.
		if h.Get("X-Api-Key") != APIKey && h.Get("Authorization") != "Bearer "+APIKey {
			return fmt.Errorf("no credentials: x-api-key %q, Authorization %q", h.Get("X-Api-Key"), h.Get("Authorization"))
		}
		if h.Get("Anthropic-Version") == "" {
			return errors.New("no anthropic-version header")
		}
	case GenerateContent:
		if got := h.Get("X-Goog-Api-Key"); got != APIKey {
			return fmt.Errorf("x-goog-api-key %q", got)
		}
	}
	return nil
}

// NewRoundServer starts a fake provider API that expects exactly the given rounds, in
// order, and answers each with its Reply or Events, for a test that needs answers
// written by hand (a turn cut short, a refusal). It fails t on any other request
// (another method than POST, another path, missing credentials or headers, a body
// Read rejects or a round's Check rejects), answering it with a 400 and the API's
// error body, and when t ends with rounds left unasked. The server is closed when t
// ends.
func NewRoundServer(t testing.TB, rounds ...Round) *httptest.Server {
	t.Helper()
	var (
		mu   sync.Mutex
		next int
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n := next
		next++
		mu.Unlock()
		if n >= len(rounds) {
			f, _ := FormatOf(r.URL.Path)
			reject(t, w, f, fmt.Sprintf("request %d: %s %s is one request too many", n+1, r.Method, r.URL))
			return
		}
		rd := rounds[n]
		req, err := readHTTP(r, rd.Path)
		if err == nil && rd.Check != nil {
			if err = rd.Check(req); err != nil {
				err = fmt.Errorf("%w\nbody: %s", err, req.Body)
			}
		}
		if err != nil {
			f, _ := FormatOf(rd.Path)
			reject(t, w, f, fmt.Sprintf("request %d: %v", n+1, err))
			return
		}
		if rd.Events == nil {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, rd.Reply)
			return
		}
		var buf bytes.Buffer
		for _, e := range rd.Events {
			if e.Name != "" {
				fmt.Fprintf(&buf, "event: %s\n", e.Name)
			}
			fmt.Fprintf(&buf, "data: %s\n\n", e.Data)
		}
		writeEvents(w, buf.Bytes())
	}))
	t.Cleanup(func() {
		srv.Close()
		mu.Lock()
		defer mu.Unlock()
		if next < len(rounds) {
			t.Errorf("the fake API was asked %d of its %d rounds", next, len(rounds))
		}
	})
	return srv
}

// readHTTP reads the request of a fake API and checks it as the API would: a POST to
// path (any path of a wire format when path is ""), with the format's headers and a
// body Read finds valid. For Gemini it sets the request's Model and Stream from the
// path.
func readHTTP(r *http.Request, path string) (*Request, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxRequestBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the body: %w", err)
	}
	if len(body) > MaxRequestBytes {
		return nil, rejectf("the request body is more than %d bytes (MaxRequestBytes)", MaxRequestBytes)
	}
	if path == "" {
		path = r.URL.RequestURI()
	}
	f, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	if r.Method != http.MethodPost || r.URL.RequestURI() != path {
		return nil, fmt.Errorf("%s %s, want POST %s", r.Method, r.URL.RequestURI(), path)
	}
	if err := CheckHeaders(f, r.Header); err != nil {
		return nil, err
	}
	req, err := Read(f, body)
	if err != nil {
		return nil, fmt.Errorf("%w\nbody: %s", err, body)
	}
	if f == GenerateContent {
		model := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, "/v1beta"), "/v1")
		model, method, _ := strings.Cut(strings.TrimPrefix(model, "/models/"), ":")
		req.Model, req.Stream = model, method == "streamGenerateContent"
	}
	return req, nil
}

// reject fails t with msg and answers the request with a 400 and the format's error
// body.
func reject(t testing.TB, w http.ResponseWriter, f Format, msg string) {
	t.Errorf("the fake API rejects the request: %s", msg)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	w.Write(ErrorBody(f, msg))
}

// writeEvents answers with a stream of server-sent events, flushed at once.
func writeEvents(w http.ResponseWriter, events []byte) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(events)
	if flusher, ok := w.(http.Flusher); ok {
		flusher.Flush()
	}
}
