package toolmcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/toolimpl"
	"github.com/toolgen/toolgen/toolmcp"
)

// TestGoexitOverMCP checks that a tool calling runtime.Goexit (as a test's t.FailNow
// does) over MCP ends only the worker goroutine its call ran on: the SDK's client gets
// an internal-error result, over streamable HTTP (stateless and with sessions) and in
// memory, and the calls after it, of that tool and of others, are answered.
func TestGoexitOverMCP(t *testing.T) {
	tools := []runtime.Tool{
		{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`)},
		{Name: "goexit", InputSchema: json.RawMessage(emptyObject)},
	}
	ts := runtime.NewToolset(tools, toolimpl.Direct(func(i int, d *toolimpl.Decoder) toolimpl.Invocation {
		if i == 0 {
			return decodeEcho(d)
		}
		d.EmptyObject()
		if !d.Finish() {
			return nil
		}
		return func(context.Context) (*runtime.Result, error) { goruntime.Goexit(); return nil, nil }
	}))
	sessions := map[string]*mcp.ClientSession{}
	for _, stateless := range []bool{true, false} {
		s := newServer()
		toolmcp.Register(s, ts)
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: stateless})
		srv := httptest.NewServer(&toolmcp.HTTPScreen{Next: h})
		t.Cleanup(srv.Close)
		name := "http, sessions"
		if stateless {
			name = "http, stateless"
		}
		sessions[name] = httpClient(t, srv.URL)
	}
	sessions["in memory"] = serve(t, ts)
	for name, cs := range sessions {
		for i := range 3 {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "goexit", Arguments: map[string]any{}})
			if err != nil {
				t.Fatalf("%s: goexit %d: %v", name, i, err)
			}
			if !res.IsError || text(res) != "goexit failed with an internal error" {
				t.Errorf("%s: goexit %d answered %s, want an internal error", name, i, jsonOf(t, res))
			}
			if res := call(t, cs, "echo", map[string]any{"text": "after"}); res.IsError || text(res) != "after" {
				t.Errorf("%s: the call after goexit %d: %s", name, i, jsonOf(t, res))
			}
		}
	}
}
