package toolmcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/toolmcp"
)

// serveHTTP serves the fixture's tools over streamable HTTP behind an HTTPScreen with
// the limit and returns the endpoint's URL.
func serveHTTP(t testing.TB, stateless bool, limit int64) string {
	t.Helper()
	s := newServer()
	toolmcp.Register(s, newFixture().ts)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: stateless})
	srv := httptest.NewServer(&toolmcp.HTTPScreen{Next: h, MaxMessageBytes: limit})
	t.Cleanup(srv.Close)
	return srv.URL
}

// httpClient connects the go-sdk client to url.
func httpClient(t testing.TB, url string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// postRaw POSTs body as a JSON-RPC message and returns the HTTP status and the
// JSON-RPC message of the response (JSON, or the first server-sent event).
func postRaw(t testing.TB, url string, body io.Reader) (int, rawMessage) {
	t.Helper()
	req, err := http.NewRequest("POST", url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var m rawMessage
	for line := range strings.SplitSeq(string(data), "\n") {
		if json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &m) == nil {
			break
		}
	}
	return resp.StatusCode, m
}

// checkClient calls echo with the go-sdk client.
func checkClient(t *testing.T, cs *mcp.ClientSession, what string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": what}})
	if err != nil || res.IsError || text(res) != what {
		t.Fatalf("echo %q with the go-sdk client: %v, %+v", what, err, res)
	}
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatalf("tools/list with the go-sdk client: %v", err)
	}
}

// TestHTTPScreenRefusesDuplicateKeys: over streamable HTTP, stateless or not, a body
// with a key twice in any object, more than one JSON value or nesting too deep, is
// answered with a JSON-RPC error and never reaches the SDK; the go-sdk client's session
// goes on.
func TestHTTPScreenRefusesDuplicateKeys(t *testing.T) {
	for _, stateless := range []bool{true, false} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) {
			url := serveHTTP(t, stateless, 0)
			cs := httpClient(t, url)
			checkClient(t, cs, "before")
			for _, tc := range []struct {
				name, body, id string
				code           int64
				says           string
			}{
				{"params twice", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"seen"}},"params":{"name":"echo","arguments":{"text":"run"}}}`,
					"1", jsonrpc.CodeInvalidRequest, `"params" appears twice in the message`},
				{"name twice", `{"jsonrpc":"2.0","id":"n","method":"tools/call","params":{"name":"echo","name":"fail_safe"}}`, `"n"`, jsonrpc.CodeInvalidRequest, `"name" appears twice in /params`},
				{"an argument twice", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a","t\u0065xt":"b"}}}`,
					"3", jsonrpc.CodeInvalidRequest, `"text" appears twice in /params/arguments`},
				{"id twice", `{"jsonrpc":"2.0","id":4,"method":"ping","id":5}`, "null", jsonrpc.CodeInvalidRequest, `"id" appears twice`},
				{"in a batch", `[{"jsonrpc":"2.0","id":6,"method":"ping","method":"tools/list"}]`, "null", jsonrpc.CodeInvalidRequest, `appears twice in /0`},
				{"a notification", `{"jsonrpc":"2.0","method":"notifications/initialized","params":{},"params":{}}`, "null", jsonrpc.CodeInvalidRequest, `"params" appears twice`},
				{"Params beside params", `{"jsonrpc":"2.0","id":"P","method":"tools/call","params":{"name":"echo","arguments":{"text":"seen"}},"Params":{"name":"fail_safe","arguments":{}}}`,
					`"P"`, jsonrpc.CodeInvalidRequest, `"Params" appears twice in the message, first as "params"`},
				{"Name beside name", `{"jsonrpc":"2.0","id":"N","method":"tools/call","params":{"name":"echo","NAME":"fail_safe","arguments":{"text":"x"}}}`,
					`"N"`, jsonrpc.CodeInvalidRequest, `"NAME" appears twice in /params, first as "name"`},
				{"ID beside id", `{"jsonrpc":"2.0","id":10,"method":"ping","Id":11}`, "null", jsonrpc.CodeInvalidRequest, `"Id" appears twice in the message, first as "id"`},
				{"two messages", `{"jsonrpc":"2.0","id":7,"method":"ping"} {"jsonrpc":"2.0","id":8,"method":"tools/list"}`, "7", jsonrpc.CodeParseError, "not one valid JSON value"},
				{"too deep", `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"a":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}`,
					"9", jsonrpc.CodeInvalidRequest, "nested deeper than 1000 levels"},
			} {
				status, m := postRaw(t, url+"/", strings.NewReader(tc.body))
				if status != http.StatusBadRequest || string(m.ID) != tc.id || m.Error == nil || m.Error.Code != tc.code || !strings.Contains(m.Error.Message, tc.says) {
					t.Errorf("%s: HTTP %d, %+v; want 400 and error %d with id %s saying %q", tc.name, status, m, tc.code, tc.id, tc.says)
				}
				checkClient(t, cs, "after "+tc.name)
			}
		})
	}
}

// TestHTTPScreenLimit: a body of MaxMessageBytes passes, one byte more is answered with
// HTTP 413 and a JSON-RPC error, whether its length is known or not; so at the default,
// mcp.DefaultMaxRequestBodyBytes.
func TestHTTPScreenLimit(t *testing.T) {
	ping := func(size int) string { // a ping of size bytes
		head, tail := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"`, `"}}}`
		return head + strings.Repeat("x", size-len(head)-len(tail)) + tail
	}
	for _, limit := range []int64{1000, 0} {
		size := limit
		if limit == 0 {
			size = mcp.DefaultMaxRequestBodyBytes
		}
		url := serveHTTP(t, true, limit)
		for _, chunked := range []bool{false, true} {
			for _, n := range []int64{size, size + 1} {
				var body io.Reader = strings.NewReader(ping(int(n)))
				if chunked {
					body = io.MultiReader(body) // no length: sent chunked
				}
				status, m := postRaw(t, url, body)
				if n <= size && (status != http.StatusOK || m.Error != nil || m.Result == nil) {
					t.Errorf("limit %d, %d bytes (chunked %v): HTTP %d, %+v; want a result", size, n, chunked, status, m)
				}
				if n > size && (status != http.StatusRequestEntityTooLarge || m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidRequest ||
					!strings.Contains(m.Error.Message, fmt.Sprintf("longer than %d bytes", size))) {
					t.Errorf("limit %d, %d bytes (chunked %v): HTTP %d, %+v; want 413 and invalid request", size, n, chunked, status, m)
				}
			}
		}
	}
}

// TestHTTPScreenPassesTheRest: what is not a POST reaches the SDK's handler as it came.
func TestHTTPScreenPassesTheRest(t *testing.T) {
	url := serveHTTP(t, true, 0)
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed { // the stateless SDK handler's answer
		t.Errorf("GET: HTTP %d", resp.StatusCode)
	}
}

// TestHTTPScreenDepth: a message nested 1,000 levels deep passes (the SDK reads that
// deep), one level more is answered with invalid request.
func TestHTTPScreenDepth(t *testing.T) {
	url := serveHTTP(t, true, 0)
	for _, levels := range []int{1000, 1001} {
		arrays := levels - 3 // the message, params and _meta are the first three
		body := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":` + strings.Repeat("[", arrays) + strings.Repeat("]", arrays) + `}}}`
		status, m := postRaw(t, url, strings.NewReader(body))
		if levels <= 1000 && (status != http.StatusOK || m.Result == nil) {
			t.Errorf("%d levels: HTTP %d, %+v; want a result", levels, status, m)
		}
		if levels > 1000 && (status != http.StatusBadRequest || m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidRequest || string(m.ID) != "1") {
			t.Errorf("%d levels: HTTP %d, %+v; want 400 and invalid request", levels, status, m)
		}
	}
}
