package toolmcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	rt "github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/client"
	"github.com/toolgen/toolgen/toolmcp"
)

// serveListen serves ts like serveTasks, with a TaskListener on store in front, and
// returns the endpoint's URL.
func serveListen(t *testing.T, ts *rt.Toolset, store toolmcp.Store, l *toolmcp.TaskListener) string {
	t.Helper()
	identity := func(_ context.Context, extra *mcp.RequestExtra) string { return extra.Header.Get("X-User") }
	s := mcp.NewServer(&mcp.Implementation{Name: "tasks", Version: "v0"}, nil)
	toolmcp.Register(s, ts, toolmcp.WithStore(store), toolmcp.WithTaskHeartbeat(20*time.Millisecond),
		toolmcp.WithTaskIdentity(identity))
	l.Store, l.Identity = store, identity
	if l.PollInterval == 0 {
		l.PollInterval = 5 * time.Millisecond
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	srv := httptest.NewServer(&toolmcp.HTTPScreen{Next: h, Listen: l})
	t.Cleanup(srv.Close)
	return srv.URL
}

// listen opens a subscriptions/listen stream for ids as user, raw.
func listen(ctx context.Context, t *testing.T, url, user string, ids []string) *http.Response {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "subscriptions/listen",
		"params": map[string]any{"_meta": map[string]any{"io.modelcontextprotocol/clientCapabilities": map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}}}, "notifications": map[string]any{"taskIds": ids}}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	req.Header.Set("X-User", user)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

type sseMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Meta          map[string]json.RawMessage `json:"_meta"`
		TaskID        string                     `json:"taskId"`
		Status        string                     `json:"status"`
		Notifications struct {
			TaskIDs []string `json:"taskIds"`
		} `json:"notifications"`
	} `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// messages reads the SSE frames of resp's body into a channel, closed at the end.
func messages(resp *http.Response) <-chan sseMessage {
	out := make(chan sseMessage, 64)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var m sseMessage
				if json.Unmarshal([]byte(data), &m) == nil {
					out <- m
				}
			}
		}
	}()
	return out
}

func TestListenStatusChanges(t *testing.T) {
	gate := make(chan struct{})
	ts := taskTool(t, "ask", rt.TaskOptional, func(ctx context.Context, _ json.RawMessage) (*rt.Result, error) {
		form := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)
		res, err := client.Elicit(ctx, &client.ElicitRequest{Message: "n?", Schema: form})
		if err != nil {
			return nil, err
		}
		<-gate // working, after the answer, until the test lets it end
		return rt.TextResult(string(res.Content)), nil
	})
	store := toolmcp.NewMemoryStore()
	l := &toolmcp.TaskListener{}
	url := serveListen(t, ts, store, l)
	ctx := testContext(t)
	c := clientAs(url, "ann")
	created, err := c.CallTool(ctx, "ask", nil)
	if err != nil {
		t.Fatal(err)
	}
	id := created.TaskID
	resp := listen(ctx, t, url, "ann", []string{id})
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("listen: %d %s", resp.StatusCode, ct)
	}
	msgs := messages(resp)
	next := func() sseMessage {
		t.Helper()
		select {
		case m, ok := <-msgs:
			if !ok {
				t.Fatal("the stream ended early")
			}
			return m
		case <-ctx.Done():
			t.Fatal("no message")
		}
		return sseMessage{}
	}
	ack := next()
	if ack.Method != "notifications/subscriptions/acknowledged" || string(ack.Params.Meta["io.modelcontextprotocol/subscriptionId"]) != "7" ||
		len(ack.Params.Notifications.TaskIDs) != 1 {
		t.Fatalf("first message: %+v", ack)
	}
	var seen []string
	status := func() string {
		m := next()
		if m.Method != "notifications/tasks" || m.Params.TaskID != id {
			t.Fatalf("notification: %+v", m)
		}
		seen = append(seen, m.Params.Status)
		return m.Params.Status
	}
	// The task may already wait for input when the stream opens.
	if s := status(); s == "working" {
		status()
	}
	got, err := c.Get(ctx, id)
	if err != nil || got.Status != "input_required" {
		t.Fatalf("tasks/get: %v %v", got, err)
	}
	var key string
	for k := range got.InputRequests {
		key = k
	}
	if _, err := c.Update(ctx, id, map[string]any{key: map[string]any{"action": "accept", "content": map[string]any{"n": 1}}}); err != nil {
		t.Fatal(err)
	}
	status()
	close(gate)
	status()
	end := next()
	if string(end.ID) != "7" || end.Result == nil {
		t.Fatalf("last message: %+v", end)
	}
	if _, ok := <-msgs; ok {
		t.Fatal("the stream goes on after its result")
	}
	want := []string{"input_required", "working", "completed"}
	if seen[0] == "working" {
		want = append([]string{"working"}, want...)
	}
	if fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Fatalf("statuses %v, want %v", seen, want)
	}
}

func TestListenForeign(t *testing.T) {
	gate := make(chan struct{})
	defer close(gate)
	ts := taskTool(t, "wait", rt.TaskOptional, func(ctx context.Context, _ json.RawMessage) (*rt.Result, error) {
		<-gate
		return rt.TextResult("done"), nil
	})
	url := serveListen(t, ts, toolmcp.NewMemoryStore(), &toolmcp.TaskListener{})
	ctx := testContext(t)
	created, err := clientAs(url, "ann").CallTool(ctx, "wait", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Bob's listen of Ann's task and of an unknown id read alike: the ack, then the end.
	for _, id := range []string{created.TaskID, "00000000000000000000000000000000"} {
		resp := listen(ctx, t, url, "bob", []string{id})
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		text := strings.ReplaceAll(string(b), id, "ID")
		if strings.Contains(text, "notifications/tasks\"") || !strings.Contains(text, `"result"`) {
			t.Fatalf("bob's listen of %s: %s", id, b)
		}
	}
}

func TestListenLimits(t *testing.T) {
	gate := make(chan struct{})
	defer close(gate)
	ts := taskTool(t, "wait", rt.TaskOptional, func(ctx context.Context, _ json.RawMessage) (*rt.Result, error) {
		<-gate
		return rt.TextResult("done"), nil
	})
	l := &toolmcp.TaskListener{MaxTaskIDs: 2, MaxStreams: 2}
	url := serveListen(t, ts, toolmcp.NewMemoryStore(), l)
	ctx := testContext(t)
	created, err := clientAs(url, "ann").CallTool(ctx, "wait", nil)
	if err != nil {
		t.Fatal(err)
	}
	id := created.TaskID
	// Past MaxTaskIDs: refused.
	resp := listen(ctx, t, url, "ann", []string{id, id, id})
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), "-32602") {
		t.Fatalf("3 ids: %s", b)
	}
	before := runtime.NumGoroutine()
	// At MaxTaskIDs and MaxStreams: served; one more stream: refused.
	var cancels []context.CancelFunc
	for range 2 {
		sctx, cancel := context.WithCancel(ctx)
		cancels = append(cancels, cancel)
		resp := listen(sctx, t, url, "ann", []string{id, id})
		if m := <-messages(resp); resp.StatusCode != 200 || m.Method != "notifications/subscriptions/acknowledged" {
			t.Fatalf("stream: %d %+v", resp.StatusCode, m)
		}
	}
	third := listen(ctx, t, url, "ann", []string{id})
	third.Body.Close()
	if third.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("third stream: %d", third.StatusCode)
	}
	// Another identity has its own count.
	other := listen(ctx, t, url, "bob", []string{id})
	other.Body.Close()
	if other.StatusCode != 200 {
		t.Fatalf("bob's stream: %d", other.StatusCode)
	}
	if n := l.OpenStreams(); n < 2 {
		t.Fatalf("open streams %d", n)
	}
	// Client disconnect frees the streams and their goroutines.
	for _, cancel := range cancels {
		cancel()
	}
	for deadline := time.Now().Add(10 * time.Second); l.OpenStreams() != 0 || runtime.NumGoroutine() > before; {
		if time.Now().After(deadline) {
			t.Fatalf("after disconnect: %d streams, %d goroutines (before %d)", l.OpenStreams(), runtime.NumGoroutine(), before)
		}
		http.DefaultClient.CloseIdleConnections() // the client's idle connections are not the server's
		time.Sleep(10 * time.Millisecond)
	}
	resp = listen(ctx, t, url, "ann", []string{id})
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("after disconnect: %d", resp.StatusCode)
	}
}

func TestListenLifetime(t *testing.T) {
	gate := make(chan struct{})
	defer close(gate)
	ts := taskTool(t, "wait", rt.TaskOptional, func(ctx context.Context, _ json.RawMessage) (*rt.Result, error) {
		<-gate
		return rt.TextResult("done"), nil
	})
	url := serveListen(t, ts, toolmcp.NewMemoryStore(), &toolmcp.TaskListener{MaxLifetime: 50 * time.Millisecond})
	ctx := testContext(t)
	created, err := clientAs(url, "ann").CallTool(ctx, "wait", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp := listen(ctx, t, url, "ann", []string{created.TaskID})
	b, _ := io.ReadAll(resp.Body) // ends by itself
	resp.Body.Close()
	if !strings.Contains(string(b), `"status":"working"`) || !strings.Contains(string(b), `"result"`) {
		t.Fatalf("stream: %s", b)
	}
}

func TestListenNegotiation(t *testing.T) {
	ts := taskTool(t, "wait", rt.TaskOptional, func(ctx context.Context, _ json.RawMessage) (*rt.Result, error) {
		return rt.TextResult("done"), nil
	})
	url := serveListen(t, ts, toolmcp.NewMemoryStore(), &toolmcp.TaskListener{})
	body := `{"jsonrpc":"2.0","id":3,"method":"subscriptions/listen","params":{"_meta":{},"notifications":{"taskIds":[]}}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"code":-32021`) || !strings.Contains(string(b), `"id":3`) {
		t.Fatalf("listen without the extension: %s", b)
	}
}
