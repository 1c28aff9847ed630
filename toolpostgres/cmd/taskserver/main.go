// Command taskserver serves the tools of the MCP conformance suite's scenarios
// (github.com/toolgen/toolgen/examples/conformance/suite, slow_compute among them, a
// task that computes for as many seconds as it is asked) over streamable HTTP under
// MCP 2026-07-28, with its tasks in the store -store names: memory, or a PostgreSQL
// database that every replica shares.
//
//	go run ./cmd/taskserver -http 127.0.0.1:8081 -store 'postgres:///mcp?host=/var/run/postgresql'
//	go run ./cmd/taskserver -http 127.0.0.1:8082 -store 'postgres:///mcp?host=/var/run/postgresql'
//
// A task created on one replica is polled, answered, cancelled and read on the other.
// The server has no authentication, so every client is one identity: keep it on the
// loopback interface, or give it a WithTaskIdentity that reads a verified token.
package main

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
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/examples/conformance/suite"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/toolmcp"
	"github.com/toolgen/toolgen/toolpostgres"
)

func main() {
	addr := flag.String("http", "127.0.0.1:8081", "serve streamable HTTP on `address`")
	storeFlag := flag.String("store", "memory", "keep the tasks in `store`: memory, or a postgres:// URL")
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *addr, *storeFlag, logger); err != nil && !errors.Is(err, context.Canceled) {
		logger.Error("taskserver", "error", err)
		os.Exit(1)
	}
}

// openStore returns the store name names, and what closes it.
func openStore(ctx context.Context, name string) (toolmcp.Store, func(), error) {
	if name == "memory" {
		return toolmcp.NewMemoryStore(), func() {}, nil
	}
	pool, err := pgxpool.New(ctx, name)
	if err != nil {
		return nil, nil, fmt.Errorf("-store: %w", err)
	}
	store, err := toolpostgres.New(ctx, pool)
	if err != nil {
		pool.Close()
		return nil, nil, err
	}
	return store, pool.Close, nil
}

func run(ctx context.Context, addr, storeName string, logger *slog.Logger) error {
	store, closeStore, err := openStore(ctx, storeName)
	if err != nil {
		return err
	}
	defer closeStore()
	s := mcp.NewServer(&mcp.Implementation{Name: "toolgen-taskserver", Version: "v0.1.0"}, nil)
	toolmcp.Register(s, suite.Tools().WithObserver(runtime.SlogObserver(logger)), toolmcp.WithStore(store))
	mux := http.NewServeMux()
	mux.Handle("/mcp", &toolmcp.HTTPScreen{Next: mcp.NewStreamableHTTPHandler(
		func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true})})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	logger.Info("serving MCP over streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp", "store", storeKind(storeName))
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return ctx.Err()
}

// storeKind names the store for the log, without the URL's password.
func storeKind(name string) string {
	if name == "memory" {
		return name
	}
	return "postgres"
}
