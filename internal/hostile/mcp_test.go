package hostile

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/toolmcp"
)

// rpcReply is a JSON-RPC response as the tests read it.
type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Result *struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	raw string
}

// stdioSession serves the vault's tools over toolmcp.IOTransport on pipes and speaks to
// it line by line.
type stdioSession struct {
	in    *io.PipeWriter
	lines chan string
	tools []string // the tools that ran, from the observer
	mu    sync.Mutex
}

func newStdioSession(t *testing.T) *stdioSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stdioSession{in: inW, lines: make(chan string, 64)}
	v := NewVault()
	t.Cleanup(v.Release)
	tools := VaultTools(v).WithObserver(func(_ context.Context, e runtime.Event) {
		s.mu.Lock()
		s.tools = append(s.tools, e.Tool)
		s.mu.Unlock()
	})
	server := mcp.NewServer(&mcp.Implementation{Name: "hostile", Version: "v0.0.1"}, nil)
	toolmcp.Register(server, tools)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = server.Run(ctx, &toolmcp.IOTransport{Reader: inR, Writer: outW})
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Errorf("the server did not stop")
		}
		outW.Close()
	})
	s.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"hostile","version":"0"}}}`)
	if r := s.reply(t, `1`); r.Error != nil {
		t.Fatalf("initialize: %s", r.raw)
	}
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

func (s *stdioSession) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		t.Fatalf("write: %v", err)
	}
}

// reply returns the next response with the given id (JSON text: `2`, `null`).
func (s *stdioSession) reply(t *testing.T, id string) rpcReply {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				t.Fatalf("the server closed its output waiting for id %s", id)
			}
			var r rpcReply
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("server wrote %q: %v", line, err)
			}
			r.raw = line
			if string(r.ID) == id || (id == "null" && r.ID == nil && (r.Error != nil || r.Result != nil)) {
				return r
			}
		case <-timeout:
			t.Fatalf("no answer with id %s", id)
		}
	}
}

func (s *stdioSession) ran() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.tools...)
}

const putSecretArgs = `{"name":"api","secret":"S3CR3T-mcp","clientIp":"10.1.2.3","login":{"username":"ada","password":"S3CR3T-login-pw"},"expiresAt":"2030-01-02T03:04:05Z"}`

// envelopes are JSON-RPC messages with a key twice, as the reader of the first and the
// reader of the last see different calls. Each must be refused with invalid request,
// and no tool may run.
var envelopes = []struct {
	name, id, line string
}{
	{"params twice", "2", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ping","arguments":{}},"params":{"name":"put_secret","arguments":` + putSecretArgs + `}}`},
	{"method twice", "3", `{"jsonrpc":"2.0","id":3,"method":"tools/list","method":"tools/call","params":{"name":"put_secret","arguments":` + putSecretArgs + `}}`},
	{"name twice in params", "4", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"ping","name":"put_secret","arguments":` + putSecretArgs + `}}`},
	{"arguments twice", "5", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"put_secret","arguments":{},"arguments":` + putSecretArgs + `}}`},
	{"a property of the arguments twice", "6", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"put_secret","arguments":` + strings.Replace(putSecretArgs, `"secret":"S3CR3T-mcp"`, `"secret":"S3CR3T-a","secret":"S3CR3T-b"`, 1) + `}}`},
	{"params twice, one escaped", "7", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ping","arguments":{}},"para\u006ds":{"name":"put_secret","arguments":` + putSecretArgs + `}}`},
	{"params and PARAMS", "8", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"ping","arguments":{}},"PARAMS":{"name":"put_secret","arguments":` + putSecretArgs + `}}`},
	{"name and Name", "9", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"ping","Name":"put_secret","arguments":` + putSecretArgs + `}}`},
	{"id twice", "null", `{"jsonrpc":"2.0","id":10,"id":11,"method":"tools/call","params":{"name":"put_secret","arguments":` + putSecretArgs + `}}`},
}

// TestMCPDuplicateKeysStdio (class 11): over toolmcp.IOTransport, a message with a key
// twice gets a JSON-RPC invalid request error, with its id when it is not the key
// repeated, no tool runs, the error does not quote the arguments' secrets, and the
// session goes on.
func TestMCPDuplicateKeysStdio(t *testing.T) {
	s := newStdioSession(t)
	for _, e := range envelopes {
		t.Run(e.name, func(t *testing.T) {
			before := len(s.ran())
			s.send(t, e.line)
			r := s.reply(t, e.id)
			ran := s.ran()[before:]
			if r.Error == nil || r.Error.Code != -32600 {
				msg := "finding: " + e.name + ": not refused as invalid request: " + clip(r.raw, 400) + "; tools run: " + strings.Join(ran, ",")
				if e.name == "params and PARAMS" || e.name == "name and Name" {
					// Only a finding when the SDK reads the other spelling as the key.
					if len(ran) == 1 && ran[0] == "put_secret" {
						t.Error(msg)
					}
					t.Logf("taken, but the call that ran is the one of the exact key: %s; ran %v", clip(r.raw, 200), ran)
					return
				}
				t.Error(msg)
			}
			if strings.Contains(r.raw, "S3CR3T") {
				t.Errorf("the error quotes a secret: %s", r.raw)
			}
			if len(ran) != 0 {
				t.Errorf("tools ran: %v", ran)
			}
		})
	}
	t.Run("the session goes on", func(t *testing.T) {
		s.send(t, `{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"ping","arguments":{}}}`)
		r := s.reply(t, `20`)
		if r.Result == nil || r.Result.IsError || len(r.Result.Content) == 0 || !strings.HasPrefix(r.Result.Content[0].Text, "pong") {
			t.Errorf("ping: %s", r.raw)
		}
	})
	t.Run("90000 unknown keys", func(t *testing.T) {
		args := string(buildN(`{`, `}`, 90000, func(i int) string { return `"` + key(i) + `":0` }))
		s.send(t, `{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"pay","arguments":`+args+`}}`)
		r := s.reply(t, `21`)
		if r.Result == nil || !r.Result.IsError {
			t.Fatalf("got %s", clip(r.raw, 300))
		}
		if len(r.raw) > smallText+1024 {
			t.Errorf("MCP answer of %d bytes", len(r.raw))
		}
	})
}

// TestMCPDuplicateKeysHTTP (class 11): behind toolmcp.HTTPScreen, the same envelopes
// get HTTP 400 with a JSON-RPC invalid request error and never reach the SDK.
func TestMCPDuplicateKeysHTTP(t *testing.T) {
	v := NewVault()
	defer v.Release()
	var mu sync.Mutex
	var ran []string
	tools := VaultTools(v).WithObserver(func(_ context.Context, e runtime.Event) {
		mu.Lock()
		ran = append(ran, e.Tool)
		mu.Unlock()
	})
	server := mcp.NewServer(&mcp.Implementation{Name: "hostile", Version: "v0.0.1"}, nil)
	toolmcp.Register(server, tools)
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	srv := httptest.NewServer(&toolmcp.HTTPScreen{Next: handler})
	defer srv.Close()
	post := func(t *testing.T, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, srv.URL, bytes.NewBufferString(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := post(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping","arguments":{}}}`)
	if code != http.StatusOK || !strings.Contains(body, "pong") {
		t.Fatalf("control ping: %d %s", code, clip(body, 300))
	}
	for _, e := range envelopes {
		t.Run(e.name, func(t *testing.T) {
			mu.Lock()
			before := len(ran)
			mu.Unlock()
			code, body := post(t, e.line)
			mu.Lock()
			after := append([]string(nil), ran[before:]...)
			mu.Unlock()
			var r rpcReply
			_ = json.Unmarshal([]byte(body), &r)
			if code != http.StatusBadRequest || r.Error == nil || r.Error.Code != -32600 {
				msg := "finding: " + e.name + " over HTTP: " + clip(body, 300) + "; tools run: " + strings.Join(after, ",")
				if e.name == "params and PARAMS" || e.name == "name and Name" {
					if len(after) == 1 && after[0] == "put_secret" {
						t.Error(msg)
					}
					t.Logf("taken (%d), the call that ran is the one of the exact key: %v", code, after)
					return
				}
				t.Error(msg)
			}
			if strings.Contains(body, "S3CR3T") {
				t.Errorf("the error quotes a secret: %s", body)
			}
			if len(after) != 0 {
				t.Errorf("tools ran: %v", after)
			}
		})
	}
}
