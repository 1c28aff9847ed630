package toolanthropic_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"sync"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/toolimpl"
	"github.com/toolgen/toolgen/tooltest"
)

// apiKey is the dummy key the SDK client sends; the fake API (tooltest.NewRoundServer)
// insists on it.
const apiKey = tooltest.APIKey

// messagesPath is the path of the Messages API: every round the fake API serves is
// one of its requests, which tooltest.NewRoundServer reads and checks as the API does.
const messagesPath = "/v1/messages"

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
