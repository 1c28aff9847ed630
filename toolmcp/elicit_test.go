package toolmcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/toolmcp"
)

// The tests of ElicitApprover run under both ways of asking: MCP 2026-07-28 (the SDK
// client's default: an input-required result, and the call sent again with the answer)
// and 2025-11-25 (elicitation/create while the call waits).
var elicitVersions = []string{"2026-07-28", "2025-11-25"}

// elicitTools has a destructive tool with a sensitive argument, a read-only one, and
// counts the calls that ran.
func elicitTools(t *testing.T, ran *atomic.Int32) *runtime.Toolset {
	t.Helper()
	closeAccount, err := runtime.NewTool(runtime.Tool{
		Name:        "close_account",
		Annotations: runtime.Annotations{Destructive: new(true)},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"reason":{"type":"string"},` +
			`"pin":{"type":"string","x-toolgen-sensitive":true}},"required":["id"],"additionalProperties":false}`),
	}, func(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
		ran.Add(1)
		return runtime.TextResult("closed"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	balance, err := runtime.NewTool(runtime.Tool{
		Name:        "balance",
		Annotations: runtime.Annotations{ReadOnly: new(true)},
		InputSchema: json.RawMessage(`{"type":"object"}`),
	}, func(context.Context, json.RawMessage) (*runtime.Result, error) {
		return runtime.TextResult("42"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return runtime.Join(closeAccount, balance)
}

// elicitClient connects a client to a server of ts; handler answers elicitations (nil:
// a client without the capability).
func elicitClient(t *testing.T, ts *runtime.Toolset, version string, handler func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error), mrtr *mcp.MultiRoundTripOptions) *mcp.ClientSession {
	t.Helper()
	cs := clientOf(t, ts, version, &mcp.ClientOptions{ElicitationHandler: handler, MultiRoundTrip: mrtr})
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated %s, want %s", got, version)
	}
	return cs
}

func answer(action string, content map[string]any) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: action, Content: content}, nil
	}
}

const closeArgs = `{"id":"ACC-1","reason":"moved abroad","pin":"7391"}`

func TestElicitApprover(t *testing.T) {
	cases := []struct {
		name    string
		handler func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)
		want    string // the result's text
		runs    bool
	}{
		{"approve", answer("accept", map[string]any{"approve": true}), "closed", true},
		{"approve false", answer("accept", map[string]any{"approve": false}), "close_account was denied: the user did not approve it", false},
		{"decline", answer("decline", nil), "close_account was denied: the user declined", false},
		{"cancel", answer("cancel", nil), "close_account was denied: the user dismissed the approval request", false},
		{"no capability", nil, "close_account was denied: no user can approve it: the MCP client does not support elicitation", false},
	}
	for _, v := range elicitVersions {
		for _, tc := range cases {
			t.Run(v+"/"+tc.name, func(t *testing.T) {
				var ran atomic.Int32
				var mu sync.Mutex
				var asked []*mcp.ElicitParams
				handler := tc.handler
				if handler != nil {
					handler = func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						mu.Lock()
						asked = append(asked, req.Params)
						mu.Unlock()
						return tc.handler(ctx, req)
					}
				}
				cs := elicitClient(t, elicitTools(t, &ran).WithApprover(toolmcp.ElicitApprover()), v, handler, nil)
				res := call(t, cs, "close_account", json.RawMessage(closeArgs))
				if text(res) != tc.want || res.IsError == tc.runs {
					t.Errorf("isError %v, %q; want %q", res.IsError, text(res), tc.want)
				}
				if got := ran.Load() == 1; got != tc.runs {
					t.Errorf("the tool ran %d times", ran.Load())
				}
				mu.Lock()
				defer mu.Unlock()
				if tc.handler == nil {
					return
				}
				if len(asked) != 1 {
					t.Fatalf("the user was asked %d times", len(asked))
				}
				p := asked[0]
				if want := `Allow close_account with {"id":"ACC-1","pin":"[redacted]","reason":"moved abroad"}?`; p.Message != want {
					t.Errorf("message %q\nwant    %q", p.Message, want)
				}
				if strings.Contains(p.Message, "7391") || strings.Contains(jsonOf(t, p), "7391") {
					t.Errorf("the sensitive pin was shown to the user: %s", jsonOf(t, p))
				}
				var schema struct {
					Type       string
					Properties map[string]struct{ Type string }
					Required   []string
				}
				if err := json.Unmarshal([]byte(jsonOf(t, p.RequestedSchema)), &schema); err != nil || schema.Type != "object" ||
					len(schema.Properties) != 1 || schema.Properties["approve"].Type != "boolean" || strings.Join(schema.Required, ",") != "approve" {
					t.Errorf("requested schema %s", jsonOf(t, p.RequestedSchema))
				}
				// A read-only tool never asks.
				if res := call(t, cs, "balance", json.RawMessage(`{}`)); res.IsError || len(asked) != 1 {
					t.Errorf("balance: %q, asked %d times", text(res), len(asked))
				}
			})
		}
	}
}

func TestElicitApproverFailsClosedOutsideMCP(t *testing.T) {
	var ran atomic.Int32
	ts := elicitTools(t, &ran).WithApprover(toolmcp.ElicitApprover())
	r := ts.Call(context.Background(), "close_account", []byte(closeArgs))
	if !r.IsError || ran.Load() != 0 || !strings.Contains(r.Text(), "the call did not come from an MCP client") {
		t.Errorf("a call not from MCP: %q, ran %d", r.Text(), ran.Load())
	}
}

func TestElicitApproverTimeout(t *testing.T) {
	for _, v := range elicitVersions {
		t.Run(v, func(t *testing.T) {
			var ran atomic.Int32
			// The user answers yes, too late.
			slow := func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				select {
				case <-ctx.Done():
				case <-time.After(300 * time.Millisecond):
				}
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
			}
			ts := elicitTools(t, &ran).WithApprover(toolmcp.ElicitApprover(toolmcp.ElicitTimeout(50 * time.Millisecond)))
			cs := elicitClient(t, ts, v, slow, nil)
			start := time.Now()
			res := call(t, cs, "close_account", json.RawMessage(closeArgs))
			if want := "close_account was denied: the user did not answer within 50ms"; text(res) != want || ran.Load() != 0 {
				t.Errorf("%q (want %q), ran %d", text(res), want, ran.Load())
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("the call took %v", d)
			}
		})
	}
}

func TestElicitFor(t *testing.T) {
	for _, v := range elicitVersions {
		t.Run(v, func(t *testing.T) {
			var ran, asked atomic.Int32
			decline := func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked.Add(1)
				return &mcp.ElicitResult{Action: "decline"}, nil
			}
			// Ask only about accounts other than ACC-1.
			ts := elicitTools(t, &ran).WithApprover(toolmcp.ElicitApprover(toolmcp.ElicitFor(func(req runtime.ApprovalRequest) bool {
				return !strings.Contains(string(req.Arguments), `"ACC-1"`)
			})))
			cs := elicitClient(t, ts, v, decline, nil)
			if res := call(t, cs, "close_account", json.RawMessage(closeArgs)); res.IsError || asked.Load() != 0 {
				t.Errorf("ACC-1: %q, asked %d", text(res), asked.Load())
			}
			if res := call(t, cs, "close_account", json.RawMessage(`{"id":"ACC-2"}`)); !res.IsError || asked.Load() != 1 {
				t.Errorf("ACC-2: %q, asked %d", text(res), asked.Load())
			}
			if ran.Load() != 1 {
				t.Errorf("ran %d", ran.Load())
			}
		})
	}
}

// Under 2026-07-28 the answer comes back with the call: it holds for the tool and the
// arguments the user saw, once, and a forged or reused state denies the call.
func TestElicitStateIsBoundToTheCall(t *testing.T) {
	var ran atomic.Int32
	cs := elicitClient(t, elicitTools(t, &ran).WithApprover(toolmcp.ElicitApprover()), "2026-07-28",
		answer("accept", map[string]any{"approve": true}), &mcp.MultiRoundTripOptions{Disabled: true})
	ctx := context.Background()
	first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "close_account", Arguments: json.RawMessage(closeArgs)})
	if err != nil {
		t.Fatal(err)
	}
	if !first.NeedsInput() || len(first.InputRequests) != 1 || first.RequestState == "" || len(first.Content) != 0 || ran.Load() != 0 {
		t.Fatalf("first round: %s", jsonOf(t, first))
	}
	var key string
	for k := range first.InputRequests {
		key = k
	}
	yes := mcp.InputResponseMap{key: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	retry := func(args, state string) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "close_account", Arguments: json.RawMessage(args), InputResponses: yes, RequestState: state})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	stale := "close_account was denied: the user's answer expired or does not match this call"
	if res := retry(`{"id":"ACC-2","reason":"moved abroad","pin":"7391"}`, first.RequestState); text(res) != stale {
		t.Errorf("other arguments: %q", text(res))
	}
	if res := retry(closeArgs, "forged"); text(res) != stale {
		t.Errorf("forged state: %q", text(res))
	}
	if res := retry(closeArgs, first.RequestState); res.IsError || text(res) != "closed" {
		t.Errorf("the approved call: %q", text(res))
	}
	if res := retry(closeArgs, first.RequestState); text(res) != stale {
		t.Errorf("the approval reused: %q", text(res))
	}
	if ran.Load() != 1 {
		t.Errorf("ran %d", ran.Load())
	}
}

// Long arguments are cut in the message, on a character boundary, saying how long
// they were.
func TestElicitMessageIsBounded(t *testing.T) {
	var ran atomic.Int32
	var msg atomic.Value
	record := func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		msg.Store(req.Params.Message)
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	cs := elicitClient(t, elicitTools(t, &ran).WithApprover(toolmcp.ElicitApprover()), "2026-07-28", record, nil)
	args := `{"id":"ACC-1","reason":"` + strings.Repeat("é", 3000) + `"}`
	call(t, cs, "close_account", json.RawMessage(args))
	m, _ := msg.Load().(string)
	if len(m) > 2100 || !utf8.ValidString(m) || !strings.HasPrefix(m, `Allow close_account with {"id":"ACC-1","reason":"éé`) ||
		!strings.HasSuffix(m, "… (6026 bytes in all)?") {
		t.Errorf("message of %d bytes: ...%q", len(m), m[max(0, len(m)-60):])
	}
}

// TestElicitApproverClientInitializedAs2026: a client whose initialize asked for
// 2026-07-28 and whose calls carry no _meta is one the SDK sends no request to, even
// when the server answered with an older version: the approval goes in an
// input-required result, as a tool's own request does (TestClientInitializedAs2026),
// and the call sent again with the answer runs.
func TestElicitApproverClientInitializedAs2026(t *testing.T) {
	var ran atomic.Int32
	s := newServer()
	toolmcp.Register(s, elicitTools(t, &ran).WithApprover(toolmcp.ElicitApprover()))
	c1, c2 := net.Pipe()
	ss, err := s.Connect(context.Background(), &mcp.IOTransport{Reader: c2, Writer: c2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	defer c1.Close()
	lines := make(chan []byte)
	go func() {
		defer close(lines)
		r := bufio.NewReader(c1)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return
			}
			lines <- line
		}
	}()
	send := func(m string) {
		t.Helper()
		if _, err := c1.Write([]byte(m + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	result := func(id int) *mcp.CallToolResult {
		t.Helper()
		for line := range lines {
			var msg struct {
				ID     int                 `json:"id"`
				Result *mcp.CallToolResult `json:"result"`
			}
			if json.Unmarshal(line, &msg) == nil && msg.ID == id {
				if msg.Result == nil {
					t.Fatalf("no result: %s", line)
				}
				return msg.Result
			}
		}
		t.Fatal("the server closed the connection")
		return nil
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2026-07-28","capabilities":{"elicitation":{}},"clientInfo":{"name":"x","version":"1"}}}`)
	result(1)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"close_account","arguments":{"id":"A"}}}`)
	r := result(2)
	if r.InputRequests["toolgen_approval"] == nil || r.RequestState == "" || ran.Load() != 0 {
		t.Fatalf("round 1: %s", jsonOf(t, r))
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"close_account","arguments":{"id":"A"},` +
		`"inputResponses":{"toolgen_approval":{"action":"accept","content":{"approve":true}}},"requestState":` + jsonOf(t, r.RequestState) + `}}`)
	if r := result(3); r.IsError || text(r) != "closed" || ran.Load() != 1 {
		t.Errorf("round 2: %s, ran %d", jsonOf(t, r), ran.Load())
	}
}

// TestElicitStateKeyReplicas: approvers sharing a key accept each other's states, and
// each remembers only the states it accepted itself (ElicitStateKey says so): the
// state spent on one is accepted once by the other too.
func TestElicitStateKeyReplicas(t *testing.T) {
	key := []byte(strings.Repeat("k", 32))
	var ran atomic.Int32
	mrtr := &mcp.MultiRoundTripOptions{Disabled: true}
	a := elicitClient(t, elicitTools(t, &ran).WithApprover(toolmcp.ElicitApprover(toolmcp.ElicitStateKey(key))), "2026-07-28", answer("decline", nil), mrtr)
	b := elicitClient(t, elicitTools(t, &ran).WithApprover(toolmcp.ElicitApprover(toolmcp.ElicitStateKey(key))), "2026-07-28", answer("decline", nil), mrtr)
	ctx := context.Background()
	first, err := a.CallTool(ctx, &mcp.CallToolParams{Name: "close_account", Arguments: json.RawMessage(closeArgs)})
	if err != nil || first.RequestState == "" {
		t.Fatalf("%v %s", err, jsonOf(t, first))
	}
	yes := mcp.InputResponseMap{"toolgen_approval": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	for i, cs := range []*mcp.ClientSession{a, b, a, b} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "close_account", Arguments: json.RawMessage(closeArgs), InputResponses: yes, RequestState: first.RequestState})
		if err != nil {
			t.Fatal(err)
		}
		if want := i < 2; (text(res) == "closed") != want {
			t.Errorf("round 2 on replica %d: %q", i%2, text(res))
		}
	}
	if ran.Load() != 2 {
		t.Errorf("ran %d times", ran.Load())
	}
}

// TestElicitSpend: approvers on two processes that share a key and a record of the
// states accepted (ElicitSpend) accept a state once between them; a record that fails
// denies the call.
func TestElicitSpend(t *testing.T) {
	key := []byte(strings.Repeat("k", 32))
	var mu sync.Mutex
	spent := map[string]time.Time{}
	shared := toolmcp.ElicitSpend(func(_ context.Context, id string, expires time.Time) (bool, error) {
		mu.Lock()
		defer mu.Unlock()
		if _, ok := spent[id]; ok || len(id) != 22 || time.Until(expires) <= 0 {
			return false, nil
		}
		spent[id] = expires
		return true, nil
	})
	var ran atomic.Int32
	mrtr := &mcp.MultiRoundTripOptions{Disabled: true}
	a := elicitClient(t, elicitTools(t, &ran).WithApprover(toolmcp.ElicitApprover(toolmcp.ElicitStateKey(key), shared)), "2026-07-28", answer("decline", nil), mrtr)
	b := elicitClient(t, elicitTools(t, &ran).WithApprover(toolmcp.ElicitApprover(toolmcp.ElicitStateKey(key), shared)), "2026-07-28", answer("decline", nil), mrtr)
	ctx := context.Background()
	first, err := a.CallTool(ctx, &mcp.CallToolParams{Name: "close_account", Arguments: json.RawMessage(closeArgs)})
	if err != nil || first.RequestState == "" {
		t.Fatalf("%v %s", err, jsonOf(t, first))
	}
	yes := mcp.InputResponseMap{"toolgen_approval": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	for i, cs := range []*mcp.ClientSession{a, b, a, b} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "close_account", Arguments: json.RawMessage(closeArgs), InputResponses: yes, RequestState: first.RequestState})
		if err != nil {
			t.Fatal(err)
		}
		if want := i == 0; (text(res) == "closed") != want {
			t.Errorf("try %d on replica %d: %q", i, i%2, text(res))
		}
	}
	if ran.Load() != 1 {
		t.Errorf("ran %d times", ran.Load())
	}
	// A record that fails denies the call.
	broken := elicitClient(t, elicitTools(t, &ran).WithApprover(toolmcp.ElicitApprover(toolmcp.ElicitStateKey(key),
		toolmcp.ElicitSpend(func(context.Context, string, time.Time) (bool, error) { return false, errors.New("down") }))),
		"2026-07-28", answer("decline", nil), mrtr)
	next, err := broken.CallTool(ctx, &mcp.CallToolParams{Name: "close_account", Arguments: json.RawMessage(closeArgs)})
	if err != nil {
		t.Fatal(err)
	}
	res, err := broken.CallTool(ctx, &mcp.CallToolParams{Name: "close_account", Arguments: json.RawMessage(closeArgs), InputResponses: yes, RequestState: next.RequestState})
	if err != nil || text(res) == "closed" || ran.Load() != 1 {
		t.Errorf("a record that fails: %v %q", err, text(res))
	}
}

// TestApprovalRoundIsObservedAsInputRequired: under 2026-07-28 the round that asks the
// user's approval ends waiting for the client's input, and observers (and the log) see
// that, then the approved run: not a denied call the user never denied. Under
// 2025-11-25 the call waits for the answer: observers see the run alone.
func TestApprovalRoundIsObservedAsInputRequired(t *testing.T) {
	for _, v := range elicitVersions {
		t.Run(v, func(t *testing.T) {
			var ran atomic.Int32
			var mu sync.Mutex
			var outcomes []string
			var log strings.Builder
			logged := runtime.SlogObserver(slog.New(slog.NewTextHandler(&log, nil)))
			ts := elicitTools(t, &ran).WithApprover(toolmcp.ElicitApprover()).WithObserver(func(ctx context.Context, e runtime.Event) {
				mu.Lock()
				defer mu.Unlock()
				outcomes = append(outcomes, string(e.Outcome))
				logged(ctx, e)
			})
			cs := elicitClient(t, ts, v, answer("accept", map[string]any{"approve": true}), nil)
			if res := call(t, cs, "close_account", json.RawMessage(closeArgs)); text(res) != "closed" {
				t.Fatalf("%s", jsonOf(t, res))
			}
			mu.Lock()
			defer mu.Unlock()
			want := "input_required,ok"
			if v != "2026-07-28" {
				want = "ok"
			}
			if got := strings.Join(outcomes, ","); got != want {
				t.Errorf("observed %s, want %s", got, want)
			}
			if strings.Contains(log.String(), "denied") || strings.Contains(log.String(), "WARN") {
				t.Errorf("logged:\n%s", log.String())
			}
		})
	}
}
