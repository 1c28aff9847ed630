// Command mcpserve serves the bench package's tools over streamable HTTP on loopback,
// for BenchmarkMCPHTTP, which runs it as a process of its own so that the server's CPU
// time is measured apart from its clients'.
//
//	mcpserve -impl toolmcp|addtool|floor [-stateless] [-cpuprofile file]
//
// It listens on 127.0.0.1 (an unused port), prints "http://ADDR" on its first line, and
// exits when its standard input closes, writing the CPU profile, if asked for, first.
// It serves the tools at /mcp, in one of three ways:
//
//   - toolmcp: the generated Toolset, registered by toolmcp.Register behind
//     toolmcp.HTTPScreen, as a toolgen user serves it;
//   - addtool: the same Go functions and schemas on the SDK's typed mcp.AddTool, which
//     validates the arguments against the schema and unmarshals them with encoding/json;
//   - floor: the same tool definitions on the SDK's raw Server.AddTool with handlers that
//     read nothing and answer what the tools answer ("ok", the text of a tool that
//     returns nothing): the cost of the SDK and net/http alone.
//
// GET /stats answers the process's CPU time and allocation counters so far, as JSON
// (see stats).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/bench"
	"github.com/toolgen/toolgen/toolmcp"
)

// stats is what GET /stats answers: counters that only grow, so a client reads them
// before and after a run and divides the difference by the calls made.
type stats struct {
	// CPUNanos is the process's user and system CPU time.
	CPUNanos int64 `json:"cpuNanos"`
	// Mallocs is the number of heap objects allocated.
	Mallocs uint64 `json:"mallocs"`
	// TotalAlloc is the number of heap bytes allocated.
	TotalAlloc uint64 `json:"totalAlloc"`
	// NumGC is the number of garbage collections.
	NumGC uint32 `json:"numGC"`
}

func readStats() (stats, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return stats{}, fmt.Errorf("getrusage: %w", err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return stats{
		CPUNanos:   ru.Utime.Nano() + ru.Stime.Nano(),
		Mallocs:    ms.Mallocs,
		TotalAlloc: ms.TotalAlloc,
		NumGC:      ms.NumGC,
	}, nil
}

// server returns the MCP server of impl.
func server(impl string) (*mcp.Server, error) {
	s := mcp.NewServer(&mcp.Implementation{Name: "mcpserve", Version: "v1.0.0"}, nil)
	ts := bench.Tools()
	def := func(name string) *mcp.Tool {
		t, ok := ts.Lookup(name)
		if !ok {
			log.Fatalf("the bench package has no tool %s", name)
		}
		return toolmcp.Tool(t)
	}
	switch impl {
	case "toolmcp":
		toolmcp.Register(s, ts)
	case "addtool":
		mcp.AddTool(s, def("get_weather"), func(ctx context.Context, _ *mcp.CallToolRequest, q bench.WeatherQuery) (*mcp.CallToolResult, any, error) {
			return nil, nil, bench.GetWeather(ctx, q)
		})
		mcp.AddTool(s, def("list_transactions"), func(ctx context.Context, _ *mcp.CallToolRequest, q bench.TransactionsQuery) (*mcp.CallToolResult, any, error) {
			return nil, nil, bench.ListTransactions(ctx, q)
		})
		mcp.AddTool(s, def("add_stock"), func(ctx context.Context, _ *mcp.CallToolRequest, q bench.BatchRequest) (*mcp.CallToolResult, any, error) {
			return nil, nil, bench.AddStock(ctx, q)
		})
	case "floor":
		fixed := func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		}
		for _, t := range ts.Tools() {
			s.AddTool(def(t.Name), fixed)
		}
	default:
		return nil, fmt.Errorf("unknown -impl %q: want toolmcp, addtool or floor", impl)
	}
	return s, nil
}

func main() {
	impl := flag.String("impl", "toolmcp", "how the tools are served: toolmcp, addtool or floor")
	stateless := flag.Bool("stateless", false, "serve without sessions (StreamableHTTPOptions.Stateless)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("mcpserve: ")

	s, err := server(*impl)
	if err != nil {
		log.Fatal(err)
	}
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: *stateless})
	if *impl == "toolmcp" {
		h = &toolmcp.HTTPScreen{Next: h}
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, _ *http.Request) {
		st, err := readStats()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(st)
	})

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer func() {
			pprof.StopCPUProfile()
			if err := f.Close(); err != nil {
				log.Print(err)
			}
		}()
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	fmt.Printf("http://%s\n", ln.Addr())
	io.Copy(io.Discard, os.Stdin)
	srv.Close()
}
