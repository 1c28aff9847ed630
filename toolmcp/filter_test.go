package toolmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/searchtool"
	"github.com/toolgen/toolgen/toolmcp"
)

// catalog is runtime's search catalog (a GitHub-like server of 94 tools), each tool
// answering with its name; called records the calls that ran.
type catalog struct {
	mu     sync.Mutex
	called []string
}

func (c *catalog) tools(t *testing.T) *runtime.Toolset {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "runtime", "testdata", "search", "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	var defs []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Groups      []string        `json:"groups"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal(b, &defs); err != nil {
		t.Fatal(err)
	}
	var sets []*runtime.Toolset
	for _, d := range defs {
		name := d.Name
		ts, err := runtime.NewTool(runtime.Tool{Name: d.Name, Description: d.Description, Groups: d.Groups, InputSchema: d.InputSchema},
			func(context.Context, json.RawMessage) (*runtime.Result, error) {
				c.mu.Lock()
				c.called = append(c.called, name)
				c.mu.Unlock()
				return runtime.TextResult(name + " done"), nil
			})
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, ts)
	}
	return runtime.Join(sets...)
}

// connectAs connects a go-sdk client named name to s over an in-memory transport.
func connectAs(t *testing.T, s *mcp.Server, name string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// clientName is the name the request's client gave at initialization: the test's
// identity (a real server reads req.GetExtra().TokenInfo).
func clientName(req mcp.Request) string {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss.InitializeParams() == nil || ss.InitializeParams().ClientInfo == nil {
		return ""
	}
	return ss.InitializeParams().ClientInfo.Name
}

// readerFilter lets the client "reader" see only the tools whose names start with get_
// or list_, and any other client everything.
func readerFilter(_ context.Context, req mcp.Request, t *runtime.Tool) bool {
	if clientName(req) != "reader" {
		return true
	}
	return strings.HasPrefix(t.Name, "get_") || strings.HasPrefix(t.Name, "list_")
}

func listNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	var names []string
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	return names
}

// TestToolFilter: with WithToolFilter, tools/list lists each client the tools the
// filter lets it see; a call of a hidden tool is refused exactly as a call of a tool
// that does not exist, and does not run; the search tool finds only visible tools.
func TestToolFilter(t *testing.T) {
	c := &catalog{}
	ts := c.tools(t)
	s := newServer()
	toolmcp.Register(s, ts, toolmcp.WithToolFilter(readerFilter), toolmcp.WithSearchTool())
	admin, reader := connectAs(t, s, "admin"), connectAs(t, s, "reader")
	ctx := context.Background()

	all, few := listNames(t, admin), listNames(t, reader)
	if len(all) != ts.Len()+1 || !slices.Contains(all, searchtool.Name) {
		t.Errorf("admin lists %d tools, want all %d and the search tool", len(all), ts.Len())
	}
	if len(few) == 0 || len(few) >= len(all) {
		t.Fatalf("reader lists %d tools of %d", len(few), len(all))
	}
	for _, name := range few {
		if name != searchtool.Name && !strings.HasPrefix(name, "get_") && !strings.HasPrefix(name, "list_") {
			t.Errorf("reader lists %s, which the filter hides", name)
		}
	}

	_, hidden := reader.CallTool(ctx, &mcp.CallToolParams{Name: "delete_repository", Arguments: map[string]any{"owner": "o", "repo": "r"}})
	_, missing := reader.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
	var hiddenErr, missingErr *jsonrpc.Error
	if !errors.As(hidden, &hiddenErr) || !errors.As(missing, &missingErr) {
		t.Fatalf("errors %v and %v, want JSON-RPC errors", hidden, missing)
	}
	if hiddenErr.Code != missingErr.Code || hiddenErr.Code != jsonrpc.CodeInvalidParams ||
		strings.Replace(hiddenErr.Message, "delete_repository", "no_such_tool", 1) != missingErr.Message {
		t.Errorf("a hidden tool's call: %d %q; a missing tool's: %d %q", hiddenErr.Code, hiddenErr.Message, missingErr.Code, missingErr.Message)
	}
	if res, err := admin.CallTool(ctx, &mcp.CallToolParams{Name: "delete_repository", Arguments: map[string]any{"owner": "o", "repo": "r"}}); err != nil || res.IsError {
		t.Errorf("admin's call: %v %v", res, err)
	}
	if !slices.Equal(c.called, []string{"delete_repository"}) {
		t.Errorf("called %v, want admin's delete_repository alone", c.called)
	}

	found := func(cs *mcp.ClientSession, query string) []string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: searchtool.Name, Arguments: map[string]any{"query": query, "limit": 20}})
		if err != nil || res.IsError {
			t.Fatalf("search: %v %v", res, err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		_, list, _ := strings.Cut(text, "\n")
		var tools []searchtool.Found
		_ = json.Unmarshal([]byte(list), &tools)
		var names []string
		for _, f := range tools {
			names = append(names, f.Name)
		}
		return names
	}
	if got := found(admin, "delete a repository"); !slices.Contains(got, "delete_repository") {
		t.Errorf("admin's search found %v, without delete_repository", got)
	}
	for _, name := range found(reader, "delete a repository") {
		if !slices.Contains(few, name) {
			t.Errorf("reader's search found %s, which the filter hides", name)
		}
	}
}

// TestToolFilterPanics: a filter that panics hides the tool, from the list and from
// calls, and the session goes on.
func TestToolFilterPanics(t *testing.T) {
	c := &catalog{}
	s := newServer()
	toolmcp.Register(s, c.tools(t), toolmcp.WithToolFilter(func(_ context.Context, _ mcp.Request, t *runtime.Tool) bool {
		if t.Name == "get_me" {
			panic("no identity")
		}
		return true
	}))
	cs := connectAs(t, s, "x")
	if slices.Contains(listNames(t, cs), "get_me") {
		t.Errorf("a tool whose filter panicked is listed")
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_me", Arguments: map[string]any{}}); err == nil {
		t.Errorf("a tool whose filter panicked was called")
	}
	if len(c.called) != 0 {
		t.Errorf("called %v", c.called)
	}
}

// TestDeferredOverMCP: a Toolset that defers all but get_me lists get_me and the
// search tool; a search finds a deferred tool's definition, and the client calls it.
func TestDeferredOverMCP(t *testing.T) {
	c := &catalog{}
	s := newServer()
	toolmcp.Register(s, c.tools(t).WithDefer(runtime.Defer{Keep: []string{"get_me"}}))
	cs := connectAs(t, s, "x")
	ctx := context.Background()
	if got := listNames(t, cs); !slices.Equal(got, []string{"get_me", searchtool.Name}) {
		t.Errorf("lists %v, want get_me and the search tool", got)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: searchtool.Name, Arguments: map[string]any{"query": "merge a pull request"}})
	if err != nil || res.IsError {
		t.Fatalf("search: %v %v", res, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !strings.Contains(text, `"name":"merge_pull_request"`) || !strings.Contains(text, `"pullNumber"`) {
		t.Errorf("the search's answer lacks merge_pull_request's definition: %s", text)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "merge_pull_request", Arguments: map[string]any{"owner": "o", "repo": "r", "pullNumber": 7}})
	if err != nil || res.IsError {
		t.Fatalf("call of the found tool: %v %v", res, err)
	}
	if !slices.Equal(c.called, []string{"merge_pull_request"}) {
		t.Errorf("called %v", c.called)
	}
}

// headerTransport sets a header on every request, as an authenticated client's
// credentials would be.
type headerTransport struct{ key, value string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.key, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// TestToolFilterHTTP: over streamable HTTP, stateful and stateless, the filter reads
// each request's identity from its headers (req.GetExtra().Header; a real server
// verifies a token, TokenInfo): the reader's tools/list and tools/call see only its
// tools, the admin's everything, on one server.
func TestToolFilterHTTP(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) {
			c := &catalog{}
			s := newServer()
			toolmcp.Register(s, c.tools(t), toolmcp.WithToolFilter(func(_ context.Context, req mcp.Request, tool *runtime.Tool) bool {
				extra := req.GetExtra()
				if extra == nil || extra.Header.Get("X-User") == "" {
					return false // no identity, no tools
				}
				return extra.Header.Get("X-User") == "admin" || strings.HasPrefix(tool.Name, "get_")
			}))
			srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: stateless}))
			t.Cleanup(srv.Close)
			connect := func(user string) *mcp.ClientSession {
				t.Helper()
				transport := &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: headerTransport{"X-User", user}}}
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(), transport, nil)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { cs.Close() })
				return cs
			}
			admin, reader := connect("admin"), connect("reader")
			if n := len(listNames(t, admin)); n != 94 {
				t.Errorf("admin lists %d tools, want 94", n)
			}
			for _, name := range listNames(t, reader) {
				if !strings.HasPrefix(name, "get_") {
					t.Errorf("reader lists %s", name)
				}
			}
			ctx := context.Background()
			if _, err := reader.CallTool(ctx, &mcp.CallToolParams{Name: "delete_repository", Arguments: map[string]any{"owner": "o", "repo": "r"}}); err == nil {
				t.Errorf("reader called delete_repository")
			}
			if res, err := reader.CallTool(ctx, &mcp.CallToolParams{Name: "get_me", Arguments: map[string]any{}}); err != nil || res.IsError {
				t.Errorf("reader's get_me: %v %v", res, err)
			}
			if !slices.Equal(c.called, []string{"get_me"}) {
				t.Errorf("called %v", c.called)
			}
		})
	}
}
