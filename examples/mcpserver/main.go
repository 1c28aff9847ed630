// Command mcpserver serves toolgen's example tools over the Model Context Protocol: the
// weather tools (get_weather, hello_world) and the bank tools (get_transactions,
// close_account) of a demo bank holding sample transactions, with november_report, a
// tool defined at run time that reports its progress.
//
// By default it speaks MCP over stdio, as a client such as Claude Desktop starts it:
//
//	go -C examples/mcpserver run .
//
// With -http it serves streamable HTTP, stateless, at /mcp:
//
//	go -C examples/mcpserver run . -http 127.0.0.1:8080
//
// november_report runs as a task (MCP's tasks extension) for a client that
// negotiated it, kept in the store -store names: memory, the default, or a
// postgres:// URL of a database that every replica shares (toolpostgres). That is why
// this command is a module of its own: the root module does not require pgx.
//
// MCP says nothing of the application's users, so every bank call acts for one fixed
// demo user, put in the call's context by toolmcp.WithContext. The server has no
// authentication: keep the HTTP address on the loopback interface.
package main

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/examples/bank/banking"
	"github.com/toolgen/toolgen/examples/internal/mcpserve"
	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/toolmcp"
	"github.com/toolgen/toolgen/toolpostgres"
)

// demoUser is the user every bank call acts for.
const demoUser = "demo"

// demoService returns a bank holding the demo user's sample transactions, in November
// 2026.
func demoService() *banking.Service {
	day := func(d, h int) time.Time { return time.Date(2026, time.November, d, h, 0, 0, 0, time.UTC) }
	return banking.NewService(map[string][]banking.Transaction{
		demoUser: {
			{ID: "t1", Time: day(3, 9), Description: "Bakery", AmountCents: -450},
			{ID: "t2", Time: day(10, 8), Description: "Salary", AmountCents: 320000},
			{ID: "t3", Time: day(12, 18), Description: "Grocery store", AmountCents: -6230},
			{ID: "t4", Time: day(21, 7), Description: "Rent", AmountCents: -95000},
			{ID: "t5", Time: day(27, 20), Description: "Cinema", AmountCents: -2400},
		},
	})
}

// newServer returns the MCP server of the example tools. Every call is logged to
// logger, a failed one with its whole error, which the client never sees.
func newServer(logger *slog.Logger) *mcp.Server {
	return newTaskServer(logger, toolmcp.NewMemoryStore())
}

// newTaskServer is newServer keeping its tasks (november_report, for a client that
// negotiated MCP's tasks extension) in store. Both registrations share it: the tasks
// methods of a server answer from one store.
func newTaskServer(logger *slog.Logger, store toolmcp.Store) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{
		Name:    "toolgen-examples",
		Title:   "toolgen examples: weather and a demo bank",
		Version: "v0.1.0",
	}, nil)
	observe := runtime.SlogObserver(logger)
	toolmcp.Register(s, forecast.Tools().WithObserver(observe), toolmcp.WithStore(store))
	bank := demoService()
	toolmcp.Register(s, runtime.Join(banking.ServiceTools(bank), novemberReport(bank)).WithObserver(observe),
		toolmcp.WithContext(func(ctx context.Context, _ *mcp.CallToolRequest) context.Context {
			return banking.WithUser(ctx, demoUser)
		}), toolmcp.WithStore(store))
	return s
}

// httpHandler serves s over streamable HTTP at /mcp, stateless: every request stands
// alone, with no session to keep, so any number of clients and server replicas work.
// A call whose HTTP request goes away is canceled (for clients of MCP 2026-07-28 and
// later, where the request is the call's whole life; older ones cancel with
// notifications/cancelled). toolmcp.HTTPScreen answers a body the SDK would read
// differently from other readers (a key twice, two JSON values) with a JSON-RPC error.
func httpHandler(s *mcp.Server, store toolmcp.Store) http.Handler {
	screen := &toolmcp.HTTPScreen{Next: mcp.NewStreamableHTTPHandler(
		func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, PropagateRequestCancellation: true},
	)}
	if store != nil {
		// The task status notifications of subscriptions/listen, read from the store
		// the tasks are kept in, so a listener on one replica sees a task another runs.
		screen.Listen = &toolmcp.TaskListener{Store: store}
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", screen)
	return mux
}

func main() {
	mcpserve.Command{
		Name:     "mcpserver",
		About:    "Serves toolgen's example tools over MCP, on stdio by default.",
		HTTP:     "streamable HTTP (stateless)",
		Server:   newServer,
		Tasks:    newTaskServer,
		Handler:  httpHandler,
		Postgres: openPostgres,
	}.Main()
}

// openPostgres opens the PostgreSQL store of -store postgres://..., which every replica
// of the server given the same database shares, and returns what closes it.
func openPostgres(ctx context.Context, url string) (toolmcp.Store, func(), error) {
	store, pool, err := toolpostgres.Open(ctx, url)
	if err != nil {
		return nil, nil, err
	}
	return store, pool.Close, nil
}
