package toolanthropic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
)

// apiKey is the dummy key the SDK client sends; the fake API insists on it.
const apiKey = "test-key"

// event is one server-sent event.
type event struct{ name, data string }

// round is one request the fake API expects, in order, and its answer.
type round struct {
	// check validates the request body as the API would; an error rejects the request
	// with a 400 and fails the test.
	check func(body []byte) error
	// reply is the JSON body of the answer, unless events is set.
	reply string
	// events, when set, are streamed instead.
	events []event
}

// startAPI starts a fake Messages API that expects exactly the given rounds, in order,
// on POST /v1/messages with credentials and an anthropic-version, and fails t on any
// other request, on a request a round's check rejects, and when t ends with rounds
// left unasked.
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
			fmt.Fprintf(w, `{"type":"error","error":{"type":"invalid_request_error","message":%q}}`, msg)
		}
		body, err := io.ReadAll(r.Body)
		switch {
		case err != nil:
			reject("reading the body: %v", err)
			return
		case n >= len(rounds):
			reject("%s %s is one request too many", r.Method, r.URL)
			return
		case r.Method != http.MethodPost || r.URL.Path != "/v1/messages":
			reject("%s %s, want POST /v1/messages", r.Method, r.URL.Path)
			return
		case r.Header.Get("X-Api-Key") != apiKey && r.Header.Get("Authorization") != "Bearer "+apiKey:
			reject("no credentials")
			return
		case r.Header.Get("Anthropic-Version") == "":
			reject("no anthropic-version header")
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
		if rounds[n].events == nil {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, rounds[n].reply)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range rounds[n].events {
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, e.data)
		}
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

// newClient returns an SDK client of the fake API, reading nothing from the
// environment.
func newClient(srv *httptest.Server) anthropic.Client {
	return anthropic.NewClient(option.WithoutEnvironmentDefaults(), option.WithBaseURL(srv.URL),
		option.WithAPIKey(apiKey), option.WithMaxRetries(0))
}

// handTools is a hand-written tool set with no provider dialects (its schemas are
// offered as they are, not strict): echo, which says its input back and counts its
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

// testTools returns the tools of the tests: examples/weather's generated ones (strict)
// and the hand-written ones, with an observer that records the provider of every call.
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

// compact returns the JSON text b without insignificant white space.
func compact(b []byte) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return string(b)
	}
	return buf.String()
}

// checkTools checks that the tools a request carries are want (runtime/anthropic's,
// marshalled): the same JSON values, and each schema's properties in their order, byte
// for byte.
func checkTools(got []json.RawMessage, want []byte) error {
	var wantTools []json.RawMessage
	if err := json.Unmarshal(want, &wantTools); err != nil {
		return err
	}
	if len(got) != len(wantTools) {
		return fmt.Errorf("%d tools, want %d", len(got), len(wantTools))
	}
	for i := range got {
		if !sameJSON(got[i], wantTools[i]) {
			return fmt.Errorf("tool %d is %s, want %s", i, got[i], wantTools[i])
		}
		var g, w struct {
			InputSchema struct {
				Properties json.RawMessage `json:"properties"`
			} `json:"input_schema"`
		}
		if json.Unmarshal(got[i], &g) != nil || json.Unmarshal(wantTools[i], &w) != nil {
			return errors.New("a tool is not an object")
		}
		if compact(g.InputSchema.Properties) != compact(w.InputSchema.Properties) {
			return fmt.Errorf("tool %d: properties %s, want them in their order: %s", i, g.InputSchema.Properties, w.InputSchema.Properties)
		}
	}
	return nil
}
