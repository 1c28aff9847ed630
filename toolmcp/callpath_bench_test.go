package toolmcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/toolimpl"
	"github.com/toolgen/toolgen/toolmcp"
)

// The tools/call path in process: a tools/call request the SDK's own client sent over
// streamable HTTP, recorded, then replayed straight into the server's http.Handler
// (ServeHTTP with an httptest.ResponseRecorder), so that the allocations and CPU of one
// call on the server are measured without a network, a client or a second process.
// The servers that answer it: toolmcp (Register behind HTTPScreen, as bench/cmd/mcpserve
// serves it), and the floor (the same tool on the SDK's raw Server.AddTool, answering
// "ok" without reading the arguments, no screen), stateless (the client speaking MCP
// 2026-07-28) and with a session (2025-11-25). Two more take one part of toolmcp's away,
// to say what it costs: noscreen (toolmcp without HTTPScreen) and inline (the Toolset
// WithInlineCalls, so that the tool runs on the SDK's goroutine, not one of its own).
//
//	go test -run '^$' -bench BenchmarkToolsCallHTTP -benchmem ./toolmcp
//
// Pinned to one CPU (taskset -c 1 ... -test.cpu 1) the rounds agree within about 1%.

// weatherTool is the tool of the call path: the bench package's get_weather, a tool
// that returns nothing (so Call answers "ok"), its decoder written as toolgen writes one.
var weatherTool = runtime.Tool{
	Name:        "get_weather",
	Description: "Forecasts the weather of a city.",
	Annotations: runtime.Annotations{ReadOnly: new(true), Idempotent: new(true), OpenWorld: new(false)},
	InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","minLength":1},` +
		`"days":{"type":"integer","minimum":1,"maximum":14},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},` +
		`"required":["city"],"additionalProperties":false}`),
}

// weatherToolset is a Toolset of weatherTool.
func weatherToolset() *runtime.Toolset {
	return runtime.NewToolset([]runtime.Tool{weatherTool}, toolimpl.Direct(func(_ int, d *toolimpl.Decoder) toolimpl.Invocation {
		var city, unit string
		var days int64
		if d.BeginObject() {
			var seen bool
			for d.NextField() {
				switch string(d.FieldName()) {
				case "city":
					seen = true
					d.Enter("city")
					city, _ = d.String()
					d.Leave()
				case "days":
					d.Enter("days")
					days, _ = d.Int(1, 14)
					d.Leave()
				case "unit":
					d.Enter("unit")
					unit, _ = d.String()
					d.Leave()
				default:
					d.Unknown("city", "days", "unit")
				}
			}
			if !seen {
				d.Missing("city")
			}
		}
		if !d.Finish() {
			return nil
		}
		_, _, _ = city, days, unit
		return func(context.Context) (*runtime.Result, error) { return nil, nil }
	}))
}

// callPathServer returns the MCP endpoint of impl ("toolmcp" or "floor").
func callPathServer(tb testing.TB, impl string, stateless bool) http.Handler {
	tb.Helper()
	s := newServer()
	switch impl {
	case "toolmcp", "noscreen":
		toolmcp.Register(s, weatherToolset())
	case "inline":
		toolmcp.Register(s, weatherToolset().WithInlineCalls(true))
	case "floor":
		s.AddTool(toolmcp.Tool(&weatherTool), func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
	default:
		tb.Fatalf("unknown impl %q", impl)
	}
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: stateless})
	if impl == "toolmcp" || impl == "inline" {
		h = &toolmcp.HTTPScreen{Next: h}
	}
	return h
}

// recordedCall is a POST the SDK's client sent: its headers and body.
type recordedCall struct {
	header http.Header
	body   []byte
}

// request returns a new request of the recorded call, as net/http hands it to a handler.
func (rc *recordedCall) request() *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/mcp", bytes.NewReader(rc.body))
	r.Header = rc.header
	return r
}

// recordToolsCall connects the SDK's client to h over a loopback server, calls
// get_weather with args, and returns that tools/call request as the client sent it.
// The client stays connected (its session, if any, open) until the test ends.
func recordToolsCall(tb testing.TB, h http.Handler, stateless bool, args string) *recordedCall {
	tb.Helper()
	var mu sync.Mutex
	var rec *recordedCall
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			if bytes.Contains(body, []byte(`"tools/call"`)) {
				mu.Lock()
				rec = &recordedCall{header: r.Header.Clone(), body: body}
				mu.Unlock()
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		h.ServeHTTP(w, r)
	}))
	tb.Cleanup(srv.Close)
	var opts *mcp.ClientSessionOptions
	if !stateless {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v1.0.0"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL, DisableStandaloneSSE: true}, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close() })
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_weather", Arguments: json.RawMessage(args)})
	if err != nil {
		tb.Fatal(err)
	}
	_ = res
	mu.Lock()
	defer mu.Unlock()
	if rec == nil {
		tb.Fatal("the client sent no tools/call")
	}
	return rec
}

// replay serves the recorded call on h and returns the response's body.
func replay(tb testing.TB, h http.Handler, rc *recordedCall) string {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, rc.request())
	if w.Code != http.StatusOK {
		tb.Fatalf("HTTP %d: %s", w.Code, w.Body)
	}
	return w.Body.String()
}

// callPathCases are the configurations of the call path.
var callPathCases = []struct {
	mode      string
	stateless bool
	call      string // valid or invalid
	args      string
}{
	{"stateless", true, "valid", `{"city":"Paris","days":3,"unit":"celsius"}`},
	{"sessions", false, "valid", `{"city":"Paris","days":3,"unit":"celsius"}`},
	{"stateless", true, "invalid", `{"city":"Paris","days":99}`},
	{"sessions", false, "invalid", `{"city":"Paris","days":99}`},
}

// BenchmarkToolsCallHTTP measures one tools/call on the server's handler, for toolmcp
// and the floor: allocs/op is deterministic, the difference between the two is what
// toolmcp adds to the SDK's own work on a call. cpu-ns/op is the process's CPU time per
// call (the collector's included), steadier than ns/op on a loaded machine.
func BenchmarkToolsCallHTTP(b *testing.B) {
	for _, c := range callPathCases {
		for _, impl := range []string{"toolmcp", "noscreen", "inline", "floor"} {
			if impl != "toolmcp" && c.call == "invalid" {
				// The floor reads nothing: an invalid call is a valid one to it. The
				// parts noscreen and inline take away cost the same either way.
				continue
			}
			b.Run("mode="+c.mode+"/call="+c.call+"/impl="+impl, func(b *testing.B) {
				h := callPathServer(b, impl, c.stateless)
				rc := recordToolsCall(b, h, c.stateless, c.args)
				if got := replay(b, h, rc); !strings.Contains(got, `"isError":true`) != (c.call == "valid" || impl == "floor") {
					b.Fatalf("the replayed call: %s", got)
				}
				b.ReportAllocs()
				start := processCPU()
				for b.Loop() {
					w := httptest.NewRecorder()
					h.ServeHTTP(w, rc.request())
				}
				reportCPU(b, start)
			})
		}
	}
}

// TestToolsCallAllocations: a tools/call served by toolmcp (HTTPScreen, the handler,
// Call and the result's conversion) allocates at most a few heap objects more than the
// same call answered by the floor, a raw handler that reads nothing.
func TestToolsCallAllocations(t *testing.T) {
	for _, c := range callPathCases {
		if c.call != "valid" {
			continue
		}
		t.Run(c.mode, func(t *testing.T) {
			allocs := map[string]float64{}
			for _, impl := range []string{"toolmcp", "floor"} {
				h := callPathServer(t, impl, c.stateless)
				rc := recordToolsCall(t, h, c.stateless, c.args)
				allocs[impl] = testing.AllocsPerRun(200, func() {
					h.ServeHTTP(httptest.NewRecorder(), rc.request())
				})
			}
			// 3 now: the screen's body reader, the call's context (toolmcp's frame,
			// which answers runtime's CallInfo and Client too), Call's own two, less
			// the floor's result's three that the conversion makes in one. The race
			// detector's sync.Pool drops pooled objects at random: it gets more.
			limit := 3.0
			if toolmcp.RaceEnabled {
				limit = 12
			}
			if extra := allocs["toolmcp"] - allocs["floor"]; extra > limit {
				t.Errorf("toolmcp allocates %v objects a call, %v more than the floor's %v (at most %v)", allocs["toolmcp"], extra, allocs["floor"], limit)
			}
			if testing.Verbose() {
				t.Logf("toolmcp %v, floor %v", allocs["toolmcp"], allocs["floor"])
			}
		})
	}
}

// screenedCalls are tools/call requests as the SDK's client sends them, with their
// headers, for BenchmarkHTTPScreen: of MCP 2026-07-28 (stateless, 347 bytes) and of
// 2025-11-25 in a session (133 bytes).
var screenedCalls = []struct {
	name   string
	header http.Header
	body   string
}{
	{
		name: "stateless",
		header: http.Header{
			"Accept":               {"application/json, text/event-stream"},
			"Accept-Encoding":      {"gzip"},
			"Content-Length":       {"347"},
			"Content-Type":         {"application/json"},
			"Mcp-Method":           {"tools/call"},
			"Mcp-Name":             {"get_weather"},
			"Mcp-Protocol-Version": {"2026-07-28"},
			"User-Agent":           {"Go-http-client/1.1"},
		},
		body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{` +
			`"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},` +
			`"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"v1.0.0"},` +
			`"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"get_weather",` +
			`"arguments":{"city":"Paris","days":3,"unit":"celsius"}}}`,
	},
	{
		name: "sessions",
		header: http.Header{
			"Accept":               {"application/json, text/event-stream"},
			"Accept-Encoding":      {"gzip"},
			"Content-Length":       {"133"},
			"Content-Type":         {"application/json"},
			"Mcp-Protocol-Version": {"2025-11-25"},
			"Mcp-Session-Id":       {"QH3OJGZ4NQXZ5VBNVVJ5K2CVJT"},
			"User-Agent":           {"Go-http-client/1.1"},
		},
		body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather",` +
			`"arguments":{"city":"Paris","days":3,"unit":"celsius"}}}`,
	},
}

// BenchmarkHTTPScreen measures HTTPScreen alone: the same request served by a handler
// that reads the body, bare and behind the screen; the difference is what the screen
// costs a request (its copy of the body, the duplicate-key pass, the header checks).
func BenchmarkHTTPScreen(b *testing.B) {
	read := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			b.Error(err)
		}
	})
	for _, c := range screenedCalls {
		body := []byte(c.body)
		if n := strconv.Itoa(len(body)); n != c.header.Get("Content-Length") {
			b.Fatalf("%s: the body has %s bytes, its Content-Length says %s", c.name, n, c.header.Get("Content-Length"))
		}
		for _, name := range []string{"bare", "screen"} {
			var h http.Handler = read
			if name == "screen" {
				h = &toolmcp.HTTPScreen{Next: read}
			}
			b.Run("request="+c.name+"/"+name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					r := httptest.NewRequest(http.MethodPost, "/mcp", bytes.NewReader(body))
					r.Header = c.header
					w := httptest.NewRecorder()
					h.ServeHTTP(w, r)
					if w.Code != http.StatusOK {
						b.Fatalf("HTTP %d: %s", w.Code, w.Body)
					}
				}
			})
		}
	}
}
