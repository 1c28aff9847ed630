// Command conformance serves the tools of package suite over the Model Context
// Protocol, for the official MCP conformance suite (@modelcontextprotocol/conformance)
// to judge toolmcp by. Every tool is an ordinary toolgen tool, named as the suite's
// scenarios expect.
//
// With -http it serves streamable HTTP at /mcp, with sessions, since a tool that asks
// the client's model or user (sampling, elicitation) sends its request on the client's
// session:
//
//	go run ./examples/conformance -http 127.0.0.1:3001
//	npx @modelcontextprotocol/conformance@0.1.12 server --url http://127.0.0.1:3001/mcp --scenario tools-call-sampling
//
// Without it, it speaks MCP over stdio. The server has no authentication: keep the
// HTTP address on the loopback interface, where the SDK's handler refuses requests
// whose Host header names another host (DNS rebinding).
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

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/examples/conformance/suite"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/toolmcp"
)

// newServer returns the MCP server of the suite's tools; every call is logged to
// logger, a failed one with its whole error.
func newServer(logger *slog.Logger) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "toolgen-conformance", Version: "v0.1.0"}, nil)
	toolmcp.Register(s, suite.Tools().WithObserver(runtime.SlogObserver(logger)))
	return s
}

// httpHandler serves s over streamable HTTP at /mcp, behind toolmcp.HTTPScreen.
func httpHandler(s *mcp.Server) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/mcp", &toolmcp.HTTPScreen{Next: mcp.NewStreamableHTTPHandler(
		func(*http.Request) *mcp.Server { return s }, nil)})
	return mux
}

func main() {
	addr := flag.String("http", "", "serve streamable HTTP on `address`, such as 127.0.0.1:3001, instead of stdio")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: conformance [-http address]\n\nServes the tools of the MCP conformance suite's scenarios, on stdio by default.\n\n")
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

	s := newServer(logger)
	var err error
	if *addr == "" {
		err = s.Run(ctx, toolmcp.StdioTransport())
	} else {
		err = serveHTTP(ctx, *addr, s, logger)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		logger.Error("conformance", "error", err)
		os.Exit(1)
	}
}

// serveHTTP serves s on addr until ctx is done. Its first log line gives the URL.
func serveHTTP(ctx context.Context, addr string, s *mcp.Server, logger *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: httpHandler(s), ReadHeaderTimeout: 10 * time.Second}
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
