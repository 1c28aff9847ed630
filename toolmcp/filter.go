package toolmcp

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/searchtool"
)

// ToolFilter decides whether the client of a request may see and call a tool: req is
// the request (a *mcp.ListToolsRequest or a *mcp.CallToolRequest), whose Extra holds
// the verified token of an authenticated HTTP request (TokenInfo) and its headers, and
// whose Session is the client's session. It must give the same answer for the same
// client throughout a session, and be safe for concurrent use.
type ToolFilter func(ctx context.Context, req mcp.Request, t *runtime.Tool) bool

// WithToolFilter serves each request only the tools f lets its client see: tools/list
// lists no other tool of the Toolset, a tools/call of one is answered as a call of a
// tool that does not exist (the JSON-RPC error -32602, "unknown tool", the SDK's
// answer to an unregistered name, so that a client cannot tell a hidden tool from a
// missing one), and the search tool (WithSearchTool) finds no other. A filter that
// panics hides the tool. Tools that other calls of Register added are left alone.
func WithToolFilter(f ToolFilter) Option {
	return func(c *config) { c.filter = f }
}

// WithSearchTool adds a search tool (searchtool.New, named
// searchtool.Name) for clients with large catalogs: a call with a query
// answers with the definitions of the tools that best match it (runtime.Toolset.Search),
// among those the request's client may see (WithToolFilter). A Toolset that defers
// tools (runtime.Toolset.WithDefer) gets one without the option, and tools/list lists
// only the tools it keeps, with the search tool; the deferred tools are found by
// searching, and can be called as any other. A Toolset holding a tool named like the
// search tool gets none (Register panics then, as for another programming error).
func WithSearchTool() Option {
	return func(c *config) { c.searchTool = true }
}

// visible reports whether the client of req may see t: the filter, when set, lets it.
// A panic of the filter hides t.
func (c *config) visible(ctx context.Context, req mcp.Request, t *runtime.Tool) (ok bool) {
	if c.filter == nil {
		return true
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return c.filter(ctx, req, t)
}

// registerCatalog adds, when the options ask for it, the search tool of ts to s, and
// the middleware that filters tools/list and tools/call for ts's tools.
func registerCatalog(s *mcp.Server, ts *runtime.Toolset, c *config) {
	deferred := ts.HasDeferred()
	if c.searchTool || deferred {
		if _, clash := ts.Lookup(searchtool.Name); clash {
			panic(fmt.Sprintf("toolmcp.Register: the Toolset has a tool named %q, the name of the search tool", searchtool.Name))
		}
		st, err := searchtool.New(func(ctx context.Context, query string, limit int) []*runtime.Tool {
			return c.find(ctx, ts, query, limit)
		})
		if err != nil {
			panic(fmt.Sprintf("toolmcp.Register: %v", err))
		}
		tool, _ := st.Lookup(searchtool.Name)
		s.AddTool(Tool(tool), handler(st, tool, c))
	}
	if c.filter == nil && !deferred {
		return
	}
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch method {
			case "tools/call":
				if call, ok := req.(*mcp.CallToolRequest); ok && call.Params != nil {
					if t, ours := ts.Lookup(call.Params.Name); ours && !c.visible(ctx, req, t) {
						return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", call.Params.Name)}
					}
				}
			case "tools/list":
				res, err := next(ctx, method, req)
				if list, ok := res.(*mcp.ListToolsResult); ok && err == nil {
					list.Tools = c.listed(ctx, req, ts, list.Tools)
				}
				return res, err
			}
			return next(ctx, method, req)
		}
	})
}

// listed returns the tools of a tools/list page that the request's client may see and
// ts does not defer; tools that are not ts's stay.
func (c *config) listed(ctx context.Context, req mcp.Request, ts *runtime.Toolset, tools []*mcp.Tool) []*mcp.Tool {
	out := tools[:0:0]
	for _, mt := range tools {
		if t, ours := ts.Lookup(mt.Name); ours && (ts.Deferred(t) || !c.visible(ctx, req, t)) {
			continue
		}
		out = append(out, mt)
	}
	return out
}

// find is the search tool's search: the tools of ts that best match query, at most
// limit of them, among those the client of the call may see.
func (c *config) find(ctx context.Context, ts *runtime.Toolset, query string, limit int) []*runtime.Tool {
	if limit <= 0 {
		limit = searchtool.DefaultResults
	}
	var req mcp.Request
	if mc := callOf(ctx); mc != nil && mc.req != nil {
		req = mc.req
	}
	var out []*runtime.Tool
	for _, t := range ts.Search(query, ts.Len()) {
		if len(out) == limit {
			break
		}
		if c.visible(ctx, req, t) {
			out = append(out, t)
		}
	}
	return out
}
