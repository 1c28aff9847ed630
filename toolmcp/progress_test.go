package toolmcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/progress"
	"github.com/toolgen/toolgen/runtime/toolimpl"
	"github.com/toolgen/toolgen/toolmcp"
)

// progressTool is a Toolset of one tool, "work", that runs run.
func progressTool(run func(ctx context.Context) (*runtime.Result, error)) *runtime.Toolset {
	tools := []runtime.Tool{{Name: "work", InputSchema: []byte(emptyObject)}}
	return runtime.NewToolset(tools, toolimpl.Direct(func(_ int, d *toolimpl.Decoder) toolimpl.Invocation {
		d.EmptyObject()
		if !d.Finish() {
			return nil
		}
		return run
	}))
}

// progressClient serves ts and connects a go-sdk client that records every
// notifications/progress it gets.
type progressClient struct {
	cs *mcp.ClientSession
	mu sync.Mutex
	// got are the notifications received, in order.
	got []mcp.ProgressNotificationParams
}

func serveProgress(t *testing.T, ts *runtime.Toolset, opts ...toolmcp.Option) *progressClient {
	t.Helper()
	pc := &progressClient{}
	s := newServer()
	toolmcp.Register(s, ts, opts...)
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			pc.mu.Lock()
			pc.got = append(pc.got, *req.Params)
			pc.mu.Unlock()
		},
	})
	pc.cs, err = client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		pc.cs.Close()
		ss.Wait()
	})
	return pc
}

// call calls work, with the progress token when it is not nil, and returns the
// notifications received once the one with progress final came (or a second passed);
// at once when final is negative.
func (pc *progressClient) call(t *testing.T, token any, final float64) []mcp.ProgressNotificationParams {
	t.Helper()
	params := &mcp.CallToolParams{Name: "work", Arguments: map[string]any{}}
	if token != nil {
		params.SetProgressToken(token)
	}
	res, err := pc.cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("work failed: %s", text(res))
	}
	// The server sends the notifications before the result; the client may hand them
	// to its handler after it returned the result.
	deadline := time.Now().Add(time.Second)
	for {
		pc.mu.Lock()
		got := append([]mcp.ProgressNotificationParams(nil), pc.got...)
		pc.mu.Unlock()
		if final < 0 || (len(got) > 0 && got[len(got)-1].Progress == final) || time.Now().After(deadline) {
			pc.mu.Lock()
			pc.got = nil
			pc.mu.Unlock()
			return got
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func progresses(ns []mcp.ProgressNotificationParams) []float64 {
	out := make([]float64, len(ns))
	for i, n := range ns {
		out[i] = n.Progress
	}
	return out
}

func TestProgressNotifications(t *testing.T) {
	pc := serveProgress(t, progressTool(func(ctx context.Context) (*runtime.Result, error) {
		for i := 1; i <= 5; i++ {
			progress.Report(ctx, float64(i), 5, "step")
		}
		progress.Report(ctx, 6, 0, "total unknown")
		return runtime.TextResult("done"), nil
	}), toolmcp.WithProgressInterval(-1))
	for _, token := range []any{"tok-1", 42} {
		got := pc.call(t, token, 6)
		if len(got) != 6 {
			t.Fatalf("token %v: %d notifications %+v, want 6", token, len(got), got)
		}
		for i, n := range got {
			wantTotal, wantMessage := 5.0, "step"
			if i == 5 {
				wantTotal, wantMessage = 0, "total unknown"
			}
			if n.Progress != float64(i+1) || n.Total != wantTotal || n.Message != wantMessage {
				t.Errorf("token %v: notification %d is %+v, want progress %d of %v, %q", token, i, n, i+1, wantTotal, wantMessage)
			}
			// The token comes back as sent (a number as a JSON number).
			if jsonOf(t, n.ProgressToken) != jsonOf(t, token) {
				t.Errorf("token %v: notification %d has token %v", token, i, n.ProgressToken)
			}
		}
	}
}

func TestProgressWithoutTokenSendsNothing(t *testing.T) {
	var observed int
	var mu sync.Mutex
	ts := progressTool(func(ctx context.Context) (*runtime.Result, error) {
		progress.Report(ctx, 1, 2, "")
		progress.Report(ctx, 2, 2, "")
		return nil, nil
	}).WithProgress(func(context.Context, progress.Event) { mu.Lock(); observed++; mu.Unlock() })
	pc := serveProgress(t, ts, toolmcp.WithProgressInterval(-1))
	pc.call(t, nil, -1)
	time.Sleep(50 * time.Millisecond) // a notification would have come by now
	if got := pc.call(t, nil, -1); len(got) != 0 {
		t.Errorf("notifications without a progress token: %+v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if observed != 4 {
		t.Errorf("the Toolset's progress observer heard %d reports, want 4", observed)
	}
}

func TestProgressDropsWhatDoesNotIncrease(t *testing.T) {
	pc := serveProgress(t, progressTool(func(ctx context.Context) (*runtime.Result, error) {
		for _, p := range []float64{1, 1, 0.5, 2, 2, 3} {
			progress.Report(ctx, p, 0, "")
		}
		return nil, nil
	}), toolmcp.WithProgressInterval(-1))
	got := progresses(pc.call(t, "tok", 3))
	if jsonOf(t, got) != "[1,2,3]" {
		t.Errorf("progress %v, want [1,2,3]", got)
	}
}

func TestProgressIsRateLimited(t *testing.T) {
	// A tight loop: the first report goes out at once, the last when the tool returns,
	// and all between them within one interval are dropped for the newest.
	pc := serveProgress(t, progressTool(func(ctx context.Context) (*runtime.Result, error) {
		for i := 1; i <= 1000; i++ {
			progress.Report(ctx, float64(i), 1000, "")
		}
		return nil, nil
	}))
	got := pc.call(t, "tok", 1000)
	if len(got) < 2 || len(got) > 3 || got[0].Progress != 1 || got[len(got)-1].Progress != 1000 {
		t.Errorf("progress %v, want 1 first, 1000 last, at most 3 notifications", progresses(got))
	}

	// Reports every 5 ms for 300 ms, at most one notification per 100 ms: 3 or 4, and
	// the last sent when the tool returns.
	pc = serveProgress(t, progressTool(func(ctx context.Context) (*runtime.Result, error) {
		for i := 1; i <= 60; i++ {
			progress.Report(ctx, float64(i), 60, "")
			time.Sleep(5 * time.Millisecond)
		}
		return nil, nil
	}), toolmcp.WithProgressInterval(100*time.Millisecond))
	start := time.Now()
	got = pc.call(t, "tok", 60)
	elapsed := time.Since(start)
	// At most one notification per interval elapsed, and the last one.
	limit := int(elapsed/(100*time.Millisecond)) + 2
	if len(got) < 2 || len(got) > limit || got[0].Progress != 1 || got[len(got)-1].Progress != 60 {
		t.Errorf("in %v: progress %v, want 1 first, 60 last, at most %d notifications", elapsed, progresses(got), limit)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Progress <= got[i-1].Progress {
			t.Errorf("progress %v does not increase", progresses(got))
		}
	}
}

func TestProgressEndsWithTheCall(t *testing.T) {
	// A goroutine of the tool that reports after the tool returned sends nothing. The
	// client handles notifications in order, and the goroutine is done before the
	// second call: had its report been sent, it would come before the second call's.
	release := make(chan struct{})
	reported := make(chan struct{})
	var calls atomic.Int32
	pc := serveProgress(t, progressTool(func(ctx context.Context) (*runtime.Result, error) {
		if calls.Add(1) > 1 {
			progress.Report(ctx, 3, 0, "second call")
			return nil, nil
		}
		progress.Report(ctx, 1, 0, "")
		go func() {
			<-release
			progress.Report(ctx, 2, 0, "too late")
			close(reported)
		}()
		return nil, nil
	}), toolmcp.WithProgressInterval(-1))
	got := pc.call(t, "tok", 1)
	close(release)
	<-reported
	got = append(got, pc.call(t, "tok2", 3)...)
	if jsonOf(t, progresses(got)) != "[1,3]" {
		t.Errorf("progress %v, want [1,3]", progresses(got))
	}
}

func TestProgressOverHTTP(t *testing.T) {
	s := newServer()
	toolmcp.Register(s, progressTool(func(ctx context.Context) (*runtime.Result, error) {
		for i := 1; i <= 3; i++ {
			progress.Report(ctx, float64(i), 3, "")
		}
		return nil, nil
	}), toolmcp.WithProgressInterval(-1))
	for _, stateless := range []bool{false, true} {
		url := serveServerHTTP(t, s, stateless)
		var mu sync.Mutex
		var got []float64
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
			ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
				mu.Lock()
				got = append(got, req.Params.Progress)
				mu.Unlock()
			},
		}).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
		if err != nil {
			t.Fatal(err)
		}
		params := &mcp.CallToolParams{Name: "work", Arguments: map[string]any{}}
		params.SetProgressToken("http")
		if _, err := cs.CallTool(context.Background(), params); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(time.Second)
		for {
			mu.Lock()
			n := len(got)
			mu.Unlock()
			if n >= 3 || time.Now().After(deadline) {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		cs.Close()
		mu.Lock()
		if jsonOf(t, got) != "[1,2,3]" {
			t.Errorf("stateless %v: progress %v, want [1,2,3]", stateless, got)
		}
		mu.Unlock()
	}
}

// serveServerHTTP serves s over streamable HTTP and returns the endpoint's URL.
func serveServerHTTP(t *testing.T, s *mcp.Server, stateless bool) string {
	t.Helper()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: stateless})
	srv := httptest.NewServer(&toolmcp.HTTPScreen{Next: h})
	t.Cleanup(srv.Close)
	return srv.URL
}
