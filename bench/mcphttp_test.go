package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkMCPHTTP measures the path a user's server runs, from outside: the MCP Go SDK
// client calling tools over streamable HTTP on loopback, the server a process of its own
// (cmd/mcpserve) so that its CPU time is counted apart from the clients'. Three servers
// offer the same tools: toolmcp (the generated Toolset through toolmcp.Register and
// HTTPScreen), addtool (the same functions on the SDK's typed mcp.AddTool) and floor
// (the SDK's raw Server.AddTool with handlers that read nothing, the cost of the SDK and
// net/http alone). Each runs stateless and with sessions, for 1, 8 and 32 concurrent
// clients, each client a session of its own; one call in ten has invalid arguments.
//
// Besides ns/op (wall time per call, all clients together), it reports calls/s, the
// p50 and p99 latency of one call, the server's CPU time, heap allocations and heap
// bytes per call (server-ns/op, server-allocs/op, server-B/op, from the server's own
// counters) and the HTTP bodies' bytes per call (wire-B/op).
//
//	go test -run '^$' -bench BenchmarkMCPHTTP -benchtime 2000x -count 6 .   # in bench
//
// With MCPHTTP_PROFILE set to a directory, each server writes a CPU profile of its whole
// life there (impl-mode.pprof); internal/cpusplit splits one between toolgen, the SDK,
// net/http and the Go runtime.
//
// Other settings, for bench/mcphttp.sh's rounds: MCPHTTP_SERVE_BIN names a cmd/mcpserve
// binary built already (another checkout's, to compare two; else it is built here);
// MCPHTTP_SERVER_CPUS pins the server to those CPUs (taskset -c; the clients' pinning is
// the caller's); MCPHTTP_WARMUP is how many calls the clients make before the clock
// starts (default 200), so that each server runs warm: its heap grown to its working
// size, its goroutines' stacks grown, its connections open.
func BenchmarkMCPHTTP(b *testing.B) {
	bin := mcpserveBinary(b)
	servers := map[string]*mcpServer{}
	b.Cleanup(func() {
		for _, s := range servers {
			s.stop()
		}
	})
	for _, mode := range []string{"stateless", "sessions"} {
		for _, clients := range []int{1, 8, 32} {
			for _, impl := range []string{"toolmcp", "addtool", "floor"} {
				name := fmt.Sprintf("mode=%s/clients=%d/impl=%s", mode, clients, impl)
				b.Run(name, func(b *testing.B) {
					key := impl + "-" + mode
					s := servers[key]
					if s == nil {
						s = startMCPServer(b, bin, impl, mode == "stateless", key)
						servers[key] = s
					}
					runMCPCalls(b, s, clients)
				})
			}
		}
	}
}

// mcpCall is one call the clients make, and whether the server must refuse it.
type mcpCall struct {
	params  *mcp.CallToolParams
	invalid bool
}

// fresh returns a copy of the call's parameters: the SDK's client writes the protocol
// version into the _meta of the parameters it sends, so they are not shared.
func (c mcpCall) fresh() *mcp.CallToolParams {
	return &mcp.CallToolParams{Name: c.params.Name, Arguments: c.params.Arguments}
}

// mcpCalls are the calls, in the order the clients take them: two tools, and every
// tenth call invalid (a bound broken, a property missing, a wrong type).
var mcpCalls = func() []mcpCall {
	valid := []*mcp.CallToolParams{
		{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris","days":3,"unit":"celsius"}`)},
		{Name: "list_transactions", Arguments: json.RawMessage(`{"accountId":"acc-42","from":"2026-10-01T00:00:00Z","to":"2026-10-31T23:59:59Z","amount":{"min":100,"max":50000,"currency":"EUR"},"categories":["groceries","dining"],"limit":50}`)},
	}
	invalid := []*mcp.CallToolParams{
		{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris","days":99}`)},
		{Name: "list_transactions", Arguments: json.RawMessage(`{"accountId":"acc-42","from":"2026-10-01T00:00:00Z","to":"yesterday","amount":{"currency":"eur"},"categories":[]}`)},
		{Name: "get_weather", Arguments: json.RawMessage(`{"days":"three"}`)},
	}
	var calls []mcpCall
	for i := range 30 {
		if i%10 == 9 {
			calls = append(calls, mcpCall{invalid[i/10], true})
		} else {
			calls = append(calls, mcpCall{valid[i%2], false})
		}
	}
	return calls
}()

// mcpServer is a running cmd/mcpserve.
type mcpServer struct {
	url       string
	impl      string
	stateless bool
	cmd       *exec.Cmd
	stdin     io.WriteCloser
}

// mcpserveBinary builds cmd/mcpserve once per benchmark run.
func mcpserveBinary(b *testing.B) string {
	b.Helper()
	if bin := os.Getenv("MCPHTTP_SERVE_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(b.TempDir(), "mcpserve")
	out, err := exec.Command("go", "build", "-o", bin, "./cmd/mcpserve").CombinedOutput()
	if err != nil {
		b.Fatalf("go build ./cmd/mcpserve: %v\n%s", err, out)
	}
	return bin
}

func startMCPServer(b *testing.B, bin, impl string, stateless bool, key string) *mcpServer {
	b.Helper()
	args := []string{"-impl", impl}
	if stateless {
		args = append(args, "-stateless")
	}
	if dir := os.Getenv("MCPHTTP_PROFILE"); dir != "" {
		args = append(args, "-cpuprofile", filepath.Join(dir, key+".pprof"))
	}
	cmd := exec.Command(bin, args...)
	if cpus := os.Getenv("MCPHTTP_SERVER_CPUS"); cpus != "" {
		cmd = exec.Command("taskset", append([]string{"-c", cpus, bin}, args...)...)
	}
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatalf("start mcpserve: %v", err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		stdin.Close()
		cmd.Wait()
		b.Fatalf("mcpserve -impl %s: no address: %v", impl, err)
	}
	return &mcpServer{url: strings.TrimSpace(line), impl: impl, stateless: stateless, cmd: cmd, stdin: stdin}
}

func (s *mcpServer) stop() {
	s.stdin.Close()
	s.cmd.Wait()
}

func (s *mcpServer) stats(b *testing.B) serverStats {
	b.Helper()
	resp, err := http.Get(s.url + "/stats")
	if err != nil {
		b.Fatalf("GET /stats: %v", err)
	}
	defer resp.Body.Close()
	var st serverStats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		b.Fatalf("GET /stats: %v", err)
	}
	return st
}

// serverStats is cmd/mcpserve's GET /stats.
type serverStats struct {
	CPUNanos   int64  `json:"cpuNanos"`
	Mallocs    uint64 `json:"mallocs"`
	TotalAlloc uint64 `json:"totalAlloc"`
	NumGC      uint32 `json:"numGC"`
}

// countingTransport counts the bytes of the HTTP bodies a client sends and receives.
type countingTransport struct {
	next  http.RoundTripper
	bytes *atomic.Int64
}

func (t countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.ContentLength > 0 {
		t.bytes.Add(r.ContentLength)
	}
	resp, err := t.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	resp.Body = countingBody{resp.Body, t.bytes}
	return resp, nil
}

type countingBody struct {
	io.ReadCloser
	bytes *atomic.Int64
}

func (c countingBody) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.bytes.Add(int64(n))
	return n, err
}

// runMCPCalls connects clients sessions to s and makes b.N calls between them.
func runMCPCalls(b *testing.B, s *mcpServer, clients int) {
	ctx := context.Background()
	var wire atomic.Int64
	hc := &http.Client{Transport: countingTransport{
		next:  &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: 0},
		bytes: &wire,
	}}
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		// With sessions the SDK's server refuses 2026-07-28, the client's default, so
		// the session clients speak 2025-11-25, as the SDK's own fallback does.
		var opts *mcp.ClientSessionOptions
		if !s.stateless {
			opts = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
		}
		c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v1.0.0"}, nil)
		cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url + "/mcp", HTTPClient: hc, DisableStandaloneSSE: true}, opts)
		if err != nil {
			b.Fatalf("connect to %s: %v", s.impl, err)
		}
		sessions[i] = cs
	}
	defer func() {
		for _, cs := range sessions {
			cs.Close()
		}
	}()
	// Every call is checked once before the clock starts: valid calls succeed, and the
	// servers that validate refuse the invalid ones.
	for _, c := range mcpCalls {
		res, err := sessions[0].CallTool(ctx, c.fresh())
		refused := err != nil || res.IsError
		if refused && !c.invalid {
			b.Fatalf("%s: %s %s: %v %s", s.impl, c.params.Name, c.params.Arguments, err, resultText(res))
		}
		if !refused && c.invalid && s.impl != "floor" {
			b.Fatalf("%s accepted %s %s", s.impl, c.params.Name, c.params.Arguments)
		}
	}

	// The warm-up: every client calls, as in the run, before the clock starts.
	warmup := 200
	if v := os.Getenv("MCPHTTP_WARMUP"); v != "" {
		var err error
		if warmup, err = strconv.Atoi(v); err != nil {
			b.Fatalf("MCPHTTP_WARMUP=%q: %v", v, err)
		}
	}
	var warm sync.WaitGroup
	for w := range clients {
		warm.Go(func() {
			for i := w; i < warmup; i += clients {
				sessions[w].CallTool(ctx, mcpCalls[i%len(mcpCalls)].fresh())
			}
		})
	}
	warm.Wait()

	latencies := make([][]time.Duration, clients)
	var next atomic.Int64
	wire.Store(0)
	before := s.stats(b)
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	var failed atomic.Value
	for w := range clients {
		wg.Go(func() {
			cs := sessions[w]
			lat := make([]time.Duration, 0, b.N/clients+1)
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					break
				}
				c := mcpCalls[i%int64(len(mcpCalls))]
				t0 := time.Now()
				res, err := cs.CallTool(ctx, c.fresh())
				lat = append(lat, time.Since(t0))
				if !c.invalid && (err != nil || res.IsError) {
					failed.CompareAndSwap(nil, fmt.Sprintf("%s: %v %s", c.params.Name, err, resultText(res)))
				}
			}
			latencies[w] = lat
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	after := s.stats(b)
	if f := failed.Load(); f != nil {
		b.Fatal(f)
	}
	all := slices.Concat(latencies...)
	slices.Sort(all)
	n := float64(b.N)
	b.ReportMetric(n/elapsed.Seconds(), "calls/s")
	b.ReportMetric(float64(all[len(all)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(after.CPUNanos-before.CPUNanos)/n, "server-ns/op")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "server-allocs/op")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/n, "server-B/op")
	b.ReportMetric(float64(wire.Load())/n, "wire-B/op")
}

// resultText is a result's text content, for a failure's message.
func resultText(res *mcp.CallToolResult) string {
	if res == nil {
		return "(no result)"
	}
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, " ")
}
