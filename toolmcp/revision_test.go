package toolmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/client"
	"github.com/toolgen/toolgen/toolmcp"
)

// serveBoth serves the fixture's tools with NewHTTPHandler and returns the URL.
func serveBoth(t testing.TB) string {
	t.Helper()
	s := newServer()
	toolmcp.Register(s, newFixture().ts)
	srv := httptest.NewServer(toolmcp.NewHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestNewHTTPHandlerEveryRevision: one endpoint serves the go-sdk client at MCP
// 2026-07-28 (stateless, its default) and at each older revision (with a session),
// and each client gets the revision it asked for: the SDK's handler with sessions
// alone refuses 2026-07-28, and the client falls back to 2025-11-25.
func TestNewHTTPHandlerEveryRevision(t *testing.T) {
	url := serveBoth(t)
	for _, version := range []string{"", "2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"} {
		t.Run("version="+version, func(t *testing.T) {
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(),
				&mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			want := version
			if want == "" {
				want = toolmcp.Revision20260728
			}
			if got := cs.InitializeResult().ProtocolVersion; got != want {
				t.Errorf("the client speaks %s, want %s", got, want)
			}
			checkClient(t, cs, "hello "+want)
		})
	}
}

// TestHTTPScreenWithoutStatelessRefuses2026: an HTTPScreen in front of the SDK's
// handler with sessions alone (as before NewHTTPHandler) leaves the go-sdk client to
// fall back to an older revision: the reason for Stateless.
func TestHTTPScreenWithoutStatelessRefuses2026(t *testing.T) {
	url := serveHTTP(t, false, 0)
	cs := httpClient(t, url)
	if got := cs.InitializeResult().ProtocolVersion; got == toolmcp.Revision20260728 {
		t.Errorf("the client speaks %s with a handler with sessions", got)
	}
}

// TestMissingCapability: under MCP 2026-07-28 a call that fails because its tool asked
// the client for what the request's client capabilities do not declare (sampling,
// a form) is answered with the JSON-RPC error -32021 naming the capability in its
// data (HTTP 400); one that falls back and succeeds is answered as usual; under
// 2025-11-25 the tool's error result is unchanged.
func TestMissingCapability(t *testing.T) {
	sample := askTool(t, func(ctx context.Context) (string, error) {
		_, err := client.Sample(ctx, &client.SampleRequest{Messages: []client.SampleMessage{client.UserMessage("hi")}})
		return "", err
	})
	elicit := askTool(t, func(ctx context.Context) (string, error) {
		_, err := client.Elicit(ctx, &client.ElicitRequest{Message: "?"})
		return "", err
	})
	fallback := askTool(t, func(ctx context.Context) (string, error) {
		if _, err := client.Sample(ctx, &client.SampleRequest{Messages: []client.SampleMessage{client.UserMessage("hi")}}); errors.Is(err, errors.ErrUnsupported) {
			return "answered without the model", nil
		}
		return "", errors.New("sampling did not fail")
	})
	for _, c := range []struct {
		name string
		ts   *runtime.Toolset
		want string
	}{{"sampling", sample, `{"requiredCapabilities":{"sampling":{}}}`}, {"elicitation", elicit, `{"requiredCapabilities":{"elicitation":{"form":{}}}}`}} {
		t.Run(c.name, func(t *testing.T) {
			_, err := clientOf(t, c.ts, "2026-07-28", nil).CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{}})
			var jerr *jsonrpc.Error
			if !errors.As(err, &jerr) || jerr.Code != mcp.CodeMissingRequiredClientCapabilities || string(jerr.Data) != c.want {
				t.Fatalf("2026-07-28: %v (%#v), want -32021 with data %s", err, jerr, c.want)
			}
			res := call(t, clientOf(t, c.ts, classic, nil), "ask", map[string]any{})
			if !res.IsError || !strings.Contains(text(res), "does not declare") {
				t.Errorf("%s: %s", classic, text(res))
			}
		})
	}
	res := call(t, clientOf(t, fallback, "2026-07-28", nil), "ask", map[string]any{})
	if res.IsError || text(res) != "answered without the model" {
		t.Errorf("a tool that falls back: %s", text(res))
	}
	// Over HTTP the error is HTTP 400.
	s := newServer()
	toolmcp.Register(s, sample)
	srv := httptest.NewServer(toolmcp.NewHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer srv.Close()
	status, m := post2026(t, srv.URL, "tools/call", "ask", `{"name":"ask","arguments":{},"_meta":`+meta2026+`}`, nil)
	if status != http.StatusBadRequest || m.Error == nil || m.Error.Code != mcp.CodeMissingRequiredClientCapabilities {
		t.Errorf("over HTTP: %d %+v", status, m)
	}
}

// meta2026 is the _meta of a request of MCP 2026-07-28 from a client that declares no
// capability.
const meta2026 = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"0"}}`

// post2026 POSTs a request of MCP 2026-07-28 of method, with Mcp-Name name (none when
// empty) and the extra headers, params as given, and returns the HTTP status and the
// JSON-RPC message of the response.
func post2026(t testing.TB, url, method, name, params string, extra http.Header) (int, rawMessage) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	for k := range extra {
		req.Header.Del(k)
	}
	for k, vs := range extra {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var m rawMessage
	for line := range strings.SplitSeq(string(data), "\n") {
		if json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &m) == nil {
			break
		}
	}
	return resp.StatusCode, m
}
