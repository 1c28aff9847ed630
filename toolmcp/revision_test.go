package toolmcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
