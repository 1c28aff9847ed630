package toolopenai_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/toolimpl"
	"github.com/toolgen/toolgen/tooltest"
)

// apiKey is the dummy key the SDK client sends; the fake API (tooltest.NewRoundServer)
// insists on it.
const apiKey = tooltest.APIKey

// round is one request the fake API expects, in order, and its answer.
type round struct {
	// path is the expected request path.
	path string
	// check validates the request, which tooltest.Read has found valid, further; an
	// error rejects it with a 400 and fails the test.
	check func(*tooltest.Request) error
	// reply is the JSON body of the answer, unless events is set.
	reply string
	// events, when set, are streamed as the data of server-sent events instead.
	events []string
}

// startAPI starts a fake OpenAI API (tooltest.NewRoundServer) that expects exactly the given
// rounds, in order, and fails t on any other request, on a request the API would
// reject or a round's check rejects, and when t ends with rounds left unasked.
func startAPI(t *testing.T, rounds ...round) *httptest.Server {
	t.Helper()
	var rs []tooltest.Round
	for _, r := range rounds {
		fr := tooltest.Round{Path: r.path, Check: r.check, Reply: r.reply}
		for _, e := range r.events {
			fr.Events = append(fr.Events, tooltest.Event{Data: e})
		}
		rs = append(rs, fr)
	}
	return tooltest.NewRoundServer(t, rs...)
}

// newClient returns an SDK client of the fake API, whose base URL ends in /v1 as the
// real one does.
func newClient(srv *httptest.Server) openai.Client {
	return openai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey(apiKey), option.WithMaxRetries(0))
}

// echoTools is a hand-written tool set: echo, whose schema is written by hand, with no
// provider dialects (so it is offered as it is, not strict), which counts its calls.
func echoTools(count *int) *runtime.Toolset {
	var mu sync.Mutex
	tools := []runtime.Tool{{
		Name:        "echo",
		Description: "Says its input back.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"input":{"type":"string"}},"required":["input"],"additionalProperties":false}`),
	}}
	return runtime.NewToolset(tools, toolimpl.Direct(func(_ int, d *toolimpl.Decoder) toolimpl.Invocation {
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
// and echo (not strict), with an observer that records the provider of every call.
func testTools(providers *[]string, echoed *int) *runtime.Toolset {
	var mu sync.Mutex
	return runtime.Join(forecast.Tools(), echoTools(echoed)).WithObserver(func(_ context.Context, e runtime.Event) {
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
