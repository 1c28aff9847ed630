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
	// Handler returns the HTTP handler of the server.
	Handler func(*mcp.Server) http.Handler
}

// Main parses the command line, serves until an interrupt or SIGTERM, and exits 1 on an
// error (2 on a usage error). Logs go to standard error: on stdio, standard output
// carries the protocol.
func (c Command) Main() {
	addr := flag.String("http", "", "serve "+c.HTTP+" on `address`, such as 127.0.0.1:8080, instead of stdio")
	storeName := "memory"
	if c.Tasks != nil {
		flag.StringVar(&storeName, "store", "memory", "keep the tasks in `store`: memory, or a postgres:// URL (served by github.com/toolgen/toolgen/toolpostgres/cmd/taskserver)")
	}
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: %s [-http address] [-store memory]\n\n%s\n\n", c.Name, c.About)
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

	var s *mcp.Server
	if c.Tasks != nil {
		store, err := OpenStore(storeName)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", c.Name, err)
			os.Exit(2)
		}
		s = c.Tasks(logger, store)
	} else {
		s = c.Server(logger)
	}
	var err error
	if *addr == "" {
		err = s.Run(ctx, toolmcp.StdioTransport())
	} else {
		err = ServeHTTP(ctx, *addr, c.Handler(s), logger)
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

// OpenStore returns the store the -store flag names: "memory", a toolmcp.MemoryStore.
// A PostgreSQL store needs the driver of the nested module
// github.com/toolgen/toolgen/toolpostgres, which this module does not require: its
// command taskserver serves the same tools with -store postgres://.
func OpenStore(name string) (toolmcp.Store, error) {
	switch {
	case name == "" || name == "memory":
		return toolmcp.NewMemoryStore(), nil
	case strings.HasPrefix(name, "postgres://"), strings.HasPrefix(name, "postgresql://"):
		return nil, errors.New("-store: a PostgreSQL store is served by go run github.com/toolgen/toolgen/toolpostgres/cmd/taskserver -store " + name)
	}
	return nil, fmt.Errorf("-store %q: want memory or a postgres:// URL", name)
}
