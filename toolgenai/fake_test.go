package toolgenai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"

	"google.golang.org/genai"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
)

// apiKey is the dummy key the SDK client sends; the fake API insists on it.
const apiKey = "test-key"

// model is the model the tests ask for, and generatePath the path of its
// generateContent method (the SDK's base URL is the host alone; it adds the API
// version, v1beta by default).
const (
	model        = "gemini-2.5-flash"
	generatePath = "/v1beta/models/" + model + ":generateContent"
)

// round is one request the fake API expects, in order, and its answer.
type round struct {
	// check validates the request body as the API would; an error rejects the request
	// with a 400 and fails the test.
	check func(body []byte) error
	// reply is the JSON body of the answer.
	reply string
}

// startAPI starts a fake Gemini API that expects exactly the given rounds, in order,
// on POST generatePath with the API key, and fails t on any other request, on a
// request a round's check rejects, and when t ends with rounds left unasked.
func startAPI(t *testing.T, rounds ...round) *httptest.Server {
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
		reject := func(format string, args ...any) {
			msg := fmt.Sprintf("request %d: ", n+1) + fmt.Sprintf(format, args...)
			t.Errorf("the fake API rejects the request: %s", msg)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":{"code":400,"message":%q,"status":"INVALID_ARGUMENT"}}`, msg)
		}
		body, err := io.ReadAll(r.Body)
		switch {
		case err != nil:
			reject("reading the body: %v", err)
			return
		case n >= len(rounds):
			reject("%s %s is one request too many", r.Method, r.URL)
			return
		case r.Method != http.MethodPost || r.URL.RequestURI() != generatePath:
			reject("%s %s, want POST %s", r.Method, r.URL.RequestURI(), generatePath)
			return
		case r.Header.Get("X-Goog-Api-Key") != apiKey:
			reject("x-goog-api-key %q", r.Header.Get("X-Goog-Api-Key"))
			return
		case r.Header.Get("Content-Type") != "application/json":
			reject("Content-Type %q", r.Header.Get("Content-Type"))
			return
		case !json.Valid(body):
			reject("the body is not JSON: %s", body)
			return
		}
		if err := rounds[n].check(body); err != nil {
			reject("%v\nbody: %s", err, body)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, rounds[n].reply)
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

// newClient returns an SDK client of the fake API, for the Gemini API backend whatever
// the environment says.
func newClient(t *testing.T, srv *httptest.Server) *genai.Client {
	t.Helper()
	client, err := genai.NewClient(t.Context(), &genai.ClientConfig{APIKey: apiKey, Backend: genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: srv.URL}})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// handTools is a hand-written tool set (its JSON Schemas are lowered for Gemini as a
// generated tool's are): echo, which says its input back and counts its
// calls, and picture, which returns an image for the model and a note for the user.
func handTools(count *int) *runtime.Toolset {
	var mu sync.Mutex
	tools := []runtime.Tool{{
		Name:        "echo",
		Description: "Says its input back.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"input":{"type":"string"}},"required":["input"],"additionalProperties":false}`),
	}, {
		Name:        "picture",
		InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
	}}
	return runtime.NewToolset(tools, func(i int, d *runtime.Decoder) runtime.Invocation {
		if i == 1 {
			d.EmptyObject()
			if !d.Finish() {
				return nil
			}
			return func(context.Context) (*runtime.Result, error) {
				return &runtime.Result{Content: []runtime.Content{runtime.TextContent("A red dot."),
					runtime.ImageContent([]byte("\x89PNG..."), "image/png"), runtime.UserText("for your eyes only")}}, nil
			}
		}
		var input string
		var seen bool
		if d.BeginObject() {
			for d.NextField() {
				if string(d.FieldName()) != "input" {
					d.Unknown("input")
					continue
				}
				seen = true
				d.Enter("input")
				input, _ = d.String()
				d.Leave()
			}
			if !seen {
				d.Missing("input")
			}
		}
		if !d.Finish() {
			return nil
		}
		return func(context.Context) (*runtime.Result, error) {
			mu.Lock()
			*count++
			mu.Unlock()
			return runtime.TextResult(input), nil
		}
	})
}

// testTools returns the tools of the tests: examples/weather's generated ones, with
// their Gemini schemas, and the hand-written ones, with an observer that records the
// provider of every call.
func testTools(providers *[]string, echoed *int) *runtime.Toolset {
	var mu sync.Mutex
	return runtime.Join(forecast.Tools(), handTools(echoed)).WithObserver(func(_ context.Context, e runtime.Event) {
		mu.Lock()
		defer mu.Unlock()
		*providers = append(*providers, e.Provider)
	})
}

// mustJSON marshals v.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}
