package toolgenai_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"

	"google.golang.org/genai"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/toolimpl"
	"github.com/toolgen/toolgen/tooltest"
)

// apiKey is the dummy key the SDK client sends; the fake API (tooltest.NewRoundServer)
// insists on it.
const apiKey = tooltest.APIKey

// model is the model the tests ask for, and generatePath the path of its
// generateContent method (the SDK's base URL is the host alone; it adds the API
// version, v1beta by default): every round the fake API serves is one of its
// requests, which tooltest.NewRoundServer reads and checks as the API does.
const (
	model        = "gemini-2.5-flash"
	generatePath = "/v1beta/models/" + model + ":generateContent"
)

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
	return runtime.NewToolset(tools, toolimpl.Direct(func(i int, d *toolimpl.Decoder) toolimpl.Invocation {
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
	}))
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
