package toolpostgres_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/toolmcp"
)

// listenReplica serves only subscriptions/listen from store, as a replica that
// runs none of the tasks it reports, and returns its URL.
func listenReplica(t *testing.T, store toolmcp.Store) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "listener", Version: "v0"}, nil)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	l := &toolmcp.TaskListener{Store: store, PollInterval: 20 * time.Millisecond,
		Identity: func(_ context.Context, extra *mcp.RequestExtra) string { return extra.Header.Get("X-User") }}
	srv := httptest.NewServer(&toolmcp.HTTPScreen{Next: h, Listen: l})
	t.Cleanup(srv.Close)
	return srv.URL
}

// statuses opens a raw subscriptions/listen stream on url for id as user, and
// sends the status of each notifications/tasks on the channel it returns, which
// is closed when the stream ends.
func statuses(ctx context.Context, t *testing.T, url, user, id string) <-chan string {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}},"notifications":{"taskIds":[%q]}}}`, id)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("X-User", user)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("listen: HTTP %d", resp.StatusCode)
	}
	out := make(chan string, 16)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var m struct {
				Method string `json:"method"`
				Params struct {
					TaskID string `json:"taskId"`
					Status string `json:"status"`
				} `json:"params"`
			}
			if json.Unmarshal([]byte(data), &m) == nil && m.Method == "notifications/tasks" && m.Params.TaskID == id {
				out <- m.Params.Status
			}
		}
	}()
	return out
}

// A listener on replica A sees every status of a task that runs on replica B.
func TestListenAcrossReplicas(t *testing.T) {
	url := testDatabase(t)
	storeA, _ := openStore(t, url)
	storeB, _ := openStore(t, url)
	release := make(chan struct{})
	var runs atomic.Int32
	b := as(replica(t, askTool(t, release, &runs), storeB), "ann")
	a := listenReplica(t, storeA)
	ctx := testContext(t)

	created, err := b.CallTool(ctx, "ask", nil)
	if err != nil {
		t.Fatal(err)
	}
	id := created.TaskID
	got := statuses(ctx, t, a, "ann", id)
	bobs := statuses(ctx, t, a, "bob", id)
	next := func() string {
		t.Helper()
		select {
		case s := <-got:
			return s
		case <-ctx.Done():
			t.Fatal("no notification")
		}
		return ""
	}
	var seen []string
	first := next()
	seen = append(seen, first)
	if first == "working" {
		seen = append(seen, next())
	}
	asked, err := b.Get(ctx, id)
	if err != nil || asked.Status != "input_required" {
		t.Fatalf("tasks/get on B: %+v, %v", asked, err)
	}
	if _, err := b.Update(ctx, id, map[string]any{firstKey(asked.InputRequests): map[string]any{"action": "accept", "content": map[string]any{"word": "tern"}}}); err != nil {
		t.Fatal(err)
	}
	seen = append(seen, next())
	close(release)
	seen = append(seen, next())
	if _, ok := <-got; ok {
		t.Error("the stream goes on after the task ended")
	}
	if tail := fmt.Sprint(seen[len(seen)-3:]); tail != "[input_required working completed]" || len(seen) == 4 && seen[0] != "working" {
		t.Fatalf("statuses on A: %v", seen)
	}
	// Bob's stream of Ann's task carries nothing and ends as for an unknown id.
	for s := range bobs {
		t.Errorf("bob saw %s", s)
	}
}
