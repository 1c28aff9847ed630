// Package mcpserve runs the examples' MCP servers: over stdio by default, or over
// streamable HTTP with -http ADDR, until an interrupt.
package mcpserve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/toolmcp"
)

// A Command is an MCP server command.
type Command struct {
	// Name and About describe it in its usage text.
	Name, About string
	// HTTP says what -http serves, in the flag's usage: "streamable HTTP (stateless)".
	HTTP string
	// Server returns the server, logging to logger.
	Server func(logger *slog.Logger) *mcp.Server
	// Tasks, when set, replaces Server: it returns the server serving tasks with
	// store, which the -store flag names (OpenStore).
	Tasks func(logger *slog.Logger, store toolmcp.Store) *mcp.Server
	// Handler returns the HTTP handler of the server; store is the tasks' store (nil
	// when Tasks is not set), for the toolmcp.TaskListener that serves the task status
	// notifications of subscriptions/listen.
	Handler func(s *mcp.Server, store toolmcp.Store) http.Handler
	// Postgres opens the PostgreSQL store a postgres:// value of -store names, and
	// returns what closes it: a function of github.com/toolgen/toolgen/toolpostgres,
	// which the root module does not require, so the commands that set it are
	// nested modules of their own (examples/conformance, examples/mcpserver).
	Postgres func(ctx context.Context, url string) (toolmcp.Store, func(), error)
}

// Main parses the command line, serves until an interrupt or SIGTERM, and exits 1 on an
// error (2 on a usage error). Logs go to standard error: on stdio, standard output
// carries the protocol.
func (c Command) Main() {
	addr := flag.String("http", "", "serve "+c.HTTP+" on `address`, such as 127.0.0.1:8080, instead of stdio")
	storeName := "memory"
	if c.Tasks != nil {
		flag.StringVar(&storeName, "store", "memory", "keep the tasks in `store`: memory, or a postgres:// URL of a database every replica shares")
	}
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: %s [-http address] [-store memory|postgres://...]\n\n%s\n\n", c.Name, c.About)
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var (
		s     *mcp.Server
		store toolmcp.Store
	)
	if c.Tasks != nil {
		var closeStore func()
		var err error
		store, closeStore, err := OpenStore(ctx, storeName, c.Postgres)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", c.Name, err)
			os.Exit(2)
		}
		defer closeStore()
		logger.Info("tasks", "store", storeKind(storeName))
		s = c.Tasks(logger, store)
	} else {
		s = c.Server(logger)
	}
	var err error
	if *addr == "" {
		err = s.Run(ctx, toolmcp.StdioTransport())
	} else {
		err = ServeHTTP(ctx, *addr, c.Handler(s, store), logger)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		logger.Error(c.Name, "error", err)
		os.Exit(1)
	}
}

// ServeHTTP serves h on addr, at /mcp, until ctx is done. Its first log line gives the
// URL.
func ServeHTTP(ctx context.Context, addr string, h http.Handler, logger *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	logger.Info("serving MCP over streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp")
	done := make(chan error, 1)
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		done <- srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return <-done
}

// OpenStore returns the store the -store flag names, and what closes it: "memory" (or
// ""), a toolmcp.MemoryStore; a postgres:// (or postgresql://) URL, the PostgreSQL
// store postgres opens, when the command has one.
func OpenStore(ctx context.Context, name string, postgres func(ctx context.Context, url string) (toolmcp.Store, func(), error)) (toolmcp.Store, func(), error) {
	switch {
	case name == "" || name == "memory":
		return toolmcp.NewMemoryStore(), func() {}, nil
	case strings.HasPrefix(name, "postgres://"), strings.HasPrefix(name, "postgresql://"):
		if postgres == nil {
			return nil, nil, errors.New("-store: this command keeps its tasks in memory only")
		}
		store, closeStore, err := postgres(ctx, name)
		if err != nil {
			return nil, nil, fmt.Errorf("-store: %w", err)
		}
		return store, closeStore, nil
	}
	return nil, nil, fmt.Errorf("-store %q: want memory or a postgres:// URL", name)
}

// storeKind names the store for the log, without the URL's password.
func storeKind(name string) string {
	if name == "" || name == "memory" {
		return "memory"
	}
	return "postgres"
}
