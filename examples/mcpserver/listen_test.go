package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/toolmcp"
)

// TestHTTPListen checks that the server's HTTP handler serves subscriptions/listen
// (task status notifications) from the store its tasks are kept in: a client of
// MCP 2026-07-28 that declares the tasks extension gets the acknowledgement, then,
// as no task it lists runs (an unknown id reads as no task of its own), the request's
// result, which names the subscription in its _meta as SEP-2575 asks.
func TestHTTPListen(t *testing.T) {
	store := toolmcp.NewMemoryStore()
	srv := httptest.NewServer(httpHandler(newTaskServer(quiet, store), store))
	t.Cleanup(srv.Close)
	body := `{"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}},"notifications":{"taskIds":["no-such-task"]}}}`
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	type message struct {
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
	}
	var msgs []message
	for line := range strings.Lines(string(data)) {
		if d, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); ok {
			var m message
			if json.Unmarshal([]byte(d), &m) == nil {
				msgs = append(msgs, m)
			}
		}
	}
	if len(msgs) != 2 || msgs[0].Method != "notifications/subscriptions/acknowledged" ||
		!strings.Contains(string(msgs[1].Result), `"resultType":"complete"`) ||
		!strings.Contains(string(msgs[1].Result), `"io.modelcontextprotocol/subscriptionId":7`) {
		t.Fatalf("status %d, want the acknowledgement then the result; got:\n%s", resp.StatusCode, data)
	}
}
