package toolmcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/toolimpl"
	"github.com/toolgen/toolgen/toolmcp"
)

// The tests' Toolset is written by hand, the way generated code builds one: tools of
// every result shape, with and without schemas and annotations.

const emptyObject = `{"type":"object","additionalProperties":false}`

var png = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 1, 2}

type fixture struct {
	ts *runtime.Toolset
	// started receives when wait runs; stopped receives the error its context ended with.
	started chan struct{}
	stopped chan error
}

type userKey struct{}

func newFixture() *fixture {
	f := &fixture{started: make(chan struct{}, 1), stopped: make(chan error, 1)}
	tools := []runtime.Tool{{
		Name:        "echo",
		Title:       "Echo",
		Description: "Echoes its text.",
		Groups:      []string{"basic"},
		Annotations: runtime.Annotations{ReadOnly: new(true), OpenWorld: new(false)},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`),
	}, {
		Name:        "fail_internal",
		Annotations: runtime.Annotations{Destructive: new(false), Idempotent: new(true)},
		InputSchema: json.RawMessage(emptyObject),
	}, {
		Name:        "fail_safe",
		InputSchema: json.RawMessage(emptyObject),
	}, {
		Name:        "media",
		InputSchema: json.RawMessage(emptyObject),
	}, {
		Name: "bare", // no schema, no annotations: built by hand
	}, {
		Name:         "structured",
		InputSchema:  json.RawMessage(emptyObject),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`),
	}, {
		Name:        "wait",
		InputSchema: json.RawMessage(emptyObject),
	}, {
		Name:        "whoami",
		InputSchema: json.RawMessage(emptyObject),
	}}
	f.ts = runtime.NewToolset(tools, toolimpl.Direct(func(i int, d *toolimpl.Decoder) toolimpl.Invocation {
		if tools[i].Name == "echo" {
			return decodeEcho(d)
		}
		d.EmptyObject()
		if !d.Finish() {
			return nil
		}
		switch tools[i].Name {
		case "fail_internal":
			return func(context.Context) (*runtime.Result, error) {
				return nil, errors.New("database password=hunter2 rejected")
			}
		case "fail_safe":
			return func(context.Context) (*runtime.Result, error) {
				return nil, runtime.ToolErrorf("order %d not found", 42)
			}
		case "media":
			return func(context.Context) (*runtime.Result, error) {
				return &runtime.Result{Content: []runtime.Content{
					runtime.ImageContent(png, "image/png"),
					runtime.UserText("Shown to the user only."),
					{Type: runtime.ContentText, Text: "For the model.", Audience: []runtime.Role{runtime.RoleAssistant}},
					{Type: runtime.ContentResourceLink, URI: "file:///report.pdf", Name: "report.pdf", MIMEType: "application/pdf"},
				}}, nil
			}
		case "bare":
			return func(context.Context) (*runtime.Result, error) { return nil, nil }
		case "structured":
			return func(context.Context) (*runtime.Result, error) {
				return runtime.StructuredResult(map[string]int{"n": 3}, false)
			}
		case "wait":
			return func(ctx context.Context) (*runtime.Result, error) {
				f.started <- struct{}{}
				<-ctx.Done()
				f.stopped <- context.Cause(ctx)
				return nil, ctx.Err()
			}
		case "whoami":
			return func(ctx context.Context) (*runtime.Result, error) {
				user, _ := ctx.Value(userKey{}).(string)
				info, _ := runtime.CallFromContext(ctx)
				return runtime.TextResult("user " + user + " via " + info.Provider), nil
			}
		}
		return nil
	}))
	return f
}

func decodeEcho(d *toolimpl.Decoder) toolimpl.Invocation {
	var text string
	if d.BeginObject() {
		var seen bool
		for d.NextField() {
			switch string(d.FieldName()) {
			case "text":
				seen = true
				d.Enter("text")
				if s, ok := d.String(); ok {
					text = s
				}
				d.Leave()
			default:
				d.Unknown("text")
			}
		}
		if !seen {
			d.Missing("text")
		}
	}
	if !d.Finish() {
		return nil
	}
	return func(context.Context) (*runtime.Result, error) { return runtime.TextResult(text), nil }
}

// connect serves s over an in-memory transport and returns a connected go-sdk client.
func connect(t testing.TB, s *mcp.Server) *mcp.ClientSession {
	t.Helper()
	return connectWith(t, s, "", nil)
}

// connectWith connects a go-sdk client with opts, speaking version ("" for the SDK's
// default), to s over an in-memory transport.
func connectWith(t testing.TB, s *mcp.Server, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

func newServer() *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "toolmcp-test", Version: "v0"}, nil)
}

func serve(t testing.TB, ts *runtime.Toolset, opts ...toolmcp.Option) *mcp.ClientSession {
	t.Helper()
	s := newServer()
	toolmcp.Register(s, ts, opts...)
	return connect(t, s)
}

func call(t testing.TB, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

// text joins a result's text blocks.
func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func jsonOf(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// canonical re-encodes JSON text with sorted keys.
func canonical(t testing.TB, b []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return jsonOf(t, v)
}

func TestToolIsTheDeclaredTool(t *testing.T) {
	ts := newFixture().ts
	for _, tc := range []struct {
		name, want string
	}{
		// Title also in annotations.title; only the hints written, plus readOnlyHint
		// and idempotentHint, which the SDK always sends (false when not written).
		{"echo", `{"annotations":{"idempotentHint":false,"openWorldHint":false,"readOnlyHint":true,"title":"Echo"},` +
			`"description":"Echoes its text.","inputSchema":{"additionalProperties":false,"properties":{"text":{"type":"string"}},"required":["text"],"type":"object"},` +
			`"name":"echo","title":"Echo"}`},
		{"fail_internal", `{"annotations":{"destructiveHint":false,"idempotentHint":true,"readOnlyHint":false},` +
			`"inputSchema":{"additionalProperties":false,"type":"object"},"name":"fail_internal"}`},
		// No hints, no title: no annotations at all. No schema: any object.
		{"bare", `{"inputSchema":{"type":"object"},"name":"bare"}`},
		{"structured", `{"inputSchema":{"additionalProperties":false,"type":"object"},"name":"structured",` +
			`"outputSchema":{"properties":{"n":{"type":"integer"}},"required":["n"],"type":"object"}}`},
	} {
		rt, _ := ts.Lookup(tc.name)
		got := canonical(t, []byte(jsonOf(t, toolmcp.Tool(rt))))
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

func TestToolSchemasAreSentAsWritten(t *testing.T) {
	// Key order, white space and keywords the SDK does not know survive: the schema is
	// raw JSON, neither inferred nor re-encoded through a schema type.
	schema := `{"type":"object","properties":{"b":{"type":"string","x-custom":[1,2]},"a":{"type":"integer"}},"$comment":"kept"}`
	rt := &runtime.Tool{Name: "t", InputSchema: json.RawMessage(schema), OutputSchema: json.RawMessage(schema)}
	got := jsonOf(t, toolmcp.Tool(rt))
	if !strings.Contains(got, `"inputSchema":`+schema) || !strings.Contains(got, `"outputSchema":`+schema) {
		t.Errorf("schemas not sent as written: %s", got)
	}
}

func TestListTools(t *testing.T) {
	ts := newFixture().ts
	cs := serve(t, ts)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, mt := range res.Tools {
		names = append(names, mt.Name)
		rt, ok := ts.Lookup(mt.Name)
		if !ok {
			t.Errorf("listed %s, which is not in the Toolset", mt.Name)
			continue
		}
		want := toolmcp.Tool(rt)
		if canonical(t, []byte(jsonOf(t, mt))) != canonical(t, []byte(jsonOf(t, want))) {
			t.Errorf("%s listed as\n%s\nwant\n%s", mt.Name, jsonOf(t, mt), jsonOf(t, want))
		}
	}
	var want []string
	for _, rt := range ts.Tools() {
		want = append(want, rt.Name)
	}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("listed %v, want %v", names, want)
	}
}

func TestRegisterGroup(t *testing.T) {
	cs := serve(t, newFixture().ts.Group("basic"))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != "echo" {
		t.Errorf("the group listed %s, want only echo", jsonOf(t, res.Tools))
	}
}

func TestCall(t *testing.T) {
	ts := newFixture().ts
	cs := serve(t, ts)
	for _, tc := range []struct {
		name, args string
		isError    bool
		text       string
	}{
		{"echo", `{"text":"hi"}`, false, "hi"},
		{"echo", `{"txt":"hi"}`, true, `invalid arguments for echo: /txt: unknown property; did you mean "text"?; /text: missing required property`},
		{"echo", `{"text":5,"extra":1}`, true, ""}, // every violation, as Call reports them
		{"fail_safe", `{}`, true, "order 42 not found"},
		{"fail_internal", `{}`, true, "fail_internal failed with an internal error"},
		{"bare", `{}`, false, "ok"},
	} {
		res := call(t, cs, tc.name, json.RawMessage(tc.args))
		want := ts.Call(context.Background(), tc.name, []byte(tc.args))
		if res.IsError != tc.isError || res.IsError != want.IsError {
			t.Errorf("%s %s: isError %v, want %v", tc.name, tc.args, res.IsError, tc.isError)
		}
		if got := text(res); got != want.Text() || tc.text != "" && got != tc.text {
			t.Errorf("%s %s: text %q, want %q", tc.name, tc.args, got, want.Text())
		}
		if strings.Contains(text(res), "hunter2") {
			t.Errorf("%s: an internal error reached the client: %s", tc.name, text(res))
		}
	}
}

func TestStructuredResult(t *testing.T) {
	cs := serve(t, newFixture().ts)
	res := call(t, cs, "structured", nil)
	if res.IsError {
		t.Fatalf("error: %s", text(res))
	}
	if got := jsonOf(t, res.StructuredContent); got != `{"n":3}` {
		t.Errorf("structuredContent = %s, want {\"n\":3}", got)
	}
	if got := text(res); got != `{"n":3}` {
		t.Errorf("text block = %q, want the structured value's JSON", got)
	}
}

func TestContentBlocks(t *testing.T) {
	cs := serve(t, newFixture().ts)
	res := call(t, cs, "media", nil)
	if len(res.Content) != 4 {
		t.Fatalf("%d blocks, want 4: %s", len(res.Content), jsonOf(t, res.Content))
	}
	img, ok := res.Content[0].(*mcp.ImageContent)
	if !ok || !bytes.Equal(img.Data, png) || img.MIMEType != "image/png" || img.Annotations != nil {
		t.Errorf("block 0 = %s, want the PNG image for everyone", jsonOf(t, res.Content[0]))
	}
	user, ok := res.Content[1].(*mcp.TextContent)
	if !ok || user.Text != "Shown to the user only." || user.Annotations == nil || !reflect.DeepEqual(user.Annotations.Audience, []mcp.Role{"user"}) {
		t.Errorf("block 1 = %s, want the user-only text with audience [user]", jsonOf(t, res.Content[1]))
	}
	model, ok := res.Content[2].(*mcp.TextContent)
	if !ok || model.Annotations == nil || !reflect.DeepEqual(model.Annotations.Audience, []mcp.Role{"assistant"}) {
		t.Errorf("block 2 = %s, want the text with audience [assistant]", jsonOf(t, res.Content[2]))
	}
	link, ok := res.Content[3].(*mcp.ResourceLink)
	if !ok || link.URI != "file:///report.pdf" || link.Name != "report.pdf" || link.MIMEType != "application/pdf" {
		t.Errorf("block 3 = %s, want the resource link", jsonOf(t, res.Content[3]))
	}
}

func TestUnknownToolIsAProtocolError(t *testing.T) {
	cs := serve(t, newFixture().ts)
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ecko", Arguments: map[string]any{}})
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams || !strings.Contains(rpcErr.Message, `"ecko"`) {
		t.Errorf("calling an unknown tool: %v, want JSON-RPC error %d naming it", err, jsonrpc.CodeInvalidParams)
	}
}

func TestHostileArguments(t *testing.T) {
	ts := newFixture().ts
	cs := serve(t, ts)
	deep := strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100)
	huge := `{"text":"` + strings.Repeat("x", runtime.DefaultMaxArgumentBytes) + `"}`
	for _, tc := range []struct {
		name, args, want string
	}{
		{"null", `null`, "invalid arguments for echo: /text: missing required property"},
		{"string", `"hello"`, `invalid arguments for echo: must be an object (got "hello")`},
		{"number", `42`, "invalid arguments for echo: must be an object (got 42)"},
		{"array", `[{"text":"hi"}]`, "invalid arguments for echo: must be an object (got an array)"},
		{"deep", `{"text":` + deep + `}`, "invalid arguments for echo: /text: nested deeper than the limit of 64 levels"},
		{"huge", huge, fmt.Sprintf("invalid arguments for echo: the arguments are %d bytes long, over the limit of %d", len(huge), runtime.DefaultMaxArgumentBytes)},
	} {
		res := call(t, cs, "echo", json.RawMessage(tc.args))
		if !res.IsError || text(res) != tc.want {
			t.Errorf("%s: isError %v, %q; want an error result %q", tc.name, res.IsError, text(res), tc.want)
		}
	}
	// The server still works.
	if res := call(t, cs, "echo", map[string]any{"text": "still here"}); res.IsError || text(res) != "still here" {
		t.Errorf("after the hostile calls: %s", jsonOf(t, res))
	}
}

func TestLimits(t *testing.T) {
	cs := serve(t, newFixture().ts.WithLimits(runtime.Limits{MaxArgumentBytes: 20}))
	if res := call(t, cs, "echo", json.RawMessage(`{"text":"a long enough text"}`)); !res.IsError || !strings.Contains(text(res), "over the limit of 20") {
		t.Errorf("over MaxArgumentBytes: %s", jsonOf(t, res))
	}
}

func TestCancellationReachesTheTool(t *testing.T) {
	f := newFixture()
	cs := serve(t, f.ts)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{}})
		done <- err
	}()
	select {
	case <-f.started:
	case <-time.After(10 * time.Second):
		t.Fatal("wait did not start")
	}
	cancel()
	select {
	case err := <-f.stopped:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the tool's context ended with %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the client's cancellation did not reach the tool")
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("CallTool returned %v, want context.Canceled", err)
	}
	// The session goes on.
	if res := call(t, cs, "echo", map[string]any{"text": "after"}); text(res) != "after" {
		t.Errorf("after a cancellation: %s", jsonOf(t, res))
	}
}

func TestWithContextAndTheToolsetsObserver(t *testing.T) {
	var mu sync.Mutex
	var events []runtime.Event
	ts := newFixture().ts.WithObserver(func(ctx context.Context, e runtime.Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	})
	cs := serve(t, ts, toolmcp.WithContext(func(ctx context.Context, req *mcp.CallToolRequest) context.Context {
		return context.WithValue(ctx, userKey{}, "ada")
	}))
	if res := call(t, cs, "whoami", nil); text(res) != "user ada via mcp" {
		t.Errorf("whoami = %q, want the user WithContext put in the context, and the provider", text(res))
	}
	res := call(t, cs, "fail_internal", nil)
	if strings.Contains(text(res), "hunter2") {
		t.Errorf("the client got the internal error: %s", text(res))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(events) != 2 {
		t.Fatalf("the observer saw %d calls, want 2", len(events))
	}
	e := events[1]
	if e.Tool != "fail_internal" || e.Provider != "mcp" || e.Outcome != runtime.OutcomeInternalError || e.Err == nil || !strings.Contains(e.Err.Error(), "hunter2") {
		t.Errorf("the observer got %+v, want fail_internal's internal error in full, from mcp", e)
	}
}

func TestPanickingOptionDoesNotEndTheSession(t *testing.T) {
	cs := serve(t, newFixture().ts, toolmcp.WithContext(func(ctx context.Context, req *mcp.CallToolRequest) context.Context {
		if req.Params.Name == "whoami" {
			panic("bug in the application's hook")
		}
		return ctx
	}))
	if res := call(t, cs, "whoami", nil); !res.IsError || text(res) != "whoami failed with an internal error" {
		t.Errorf("a panicking option gave %s", jsonOf(t, res))
	}
	if res := call(t, cs, "echo", map[string]any{"text": "alive"}); text(res) != "alive" {
		t.Errorf("after the panic: %s", jsonOf(t, res))
	}
}

func TestResult(t *testing.T) {
	res := toolmcp.Result(runtime.ErrorResult("boom", errors.New("secret")))
	if got := jsonOf(t, res); got != `{"content":[{"type":"text","text":"boom"}],"isError":true}` {
		t.Errorf("Result(ErrorResult) = %s", got)
	}
	res = toolmcp.Result(&runtime.Result{})
	if got := jsonOf(t, res); got != `{"content":[]}` {
		t.Errorf("Result(empty) = %s, want an empty content array, never null", got)
	}
}

// TestApprovalGate: the Toolset's approver gates destructive tools called over MCP as
// everywhere else; a denied call is an isError result naming the reason, and observer
// events name the provider "mcp".
func TestApprovalGate(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	var events []runtime.Event
	ts := newFixture().ts.
		WithApprover(func(_ context.Context, req runtime.ApprovalRequest) runtime.Decision {
			mu.Lock()
			asked = append(asked, req.Tool.Name)
			mu.Unlock()
			return runtime.Deny("an operator must approve it")
		}).
		WithObserver(func(_ context.Context, e runtime.Event) {
			mu.Lock()
			events = append(events, e)
			mu.Unlock()
		})
	cs := serve(t, ts)
	// fail_safe is unannotated, so presumed destructive; echo is read-only and
	// fail_internal says destructive=false.
	res := call(t, cs, "fail_safe", json.RawMessage(`{}`))
	if !res.IsError || text(res) != "fail_safe was denied: an operator must approve it" {
		t.Errorf("fail_safe: isError %v, %q", res.IsError, text(res))
	}
	if res := call(t, cs, "echo", json.RawMessage(`{"text":"hi"}`)); res.IsError {
		t.Errorf("echo was gated: %q", text(res))
	}
	if res := call(t, cs, "fail_internal", json.RawMessage(`{}`)); text(res) != "fail_internal failed with an internal error" {
		t.Errorf("fail_internal was gated: %q", text(res))
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(asked, ",") != "fail_safe" {
		t.Errorf("the approver was asked about %v", asked)
	}
	if len(events) != 3 || events[0].Outcome != runtime.OutcomeDenied || events[0].Provider != "mcp" || events[1].Outcome != runtime.OutcomeOK {
		t.Errorf("events: %+v", events)
	}
}
