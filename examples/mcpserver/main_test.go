package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen/toolgen/examples/bank/banking"
	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
)

// End-to-end tests: the go-sdk client against the example server in memory, as a
// subprocess over stdio and over streamable HTTP, raw JSON-RPC lines and HTTP requests
// for what no client library sends, and the TypeScript SDK's client (ts_test.go).

var quiet = slog.New(slog.DiscardHandler)

// binDir holds the server binary, built once for the tests that need it.
var (
	binDir   string
	binOnce  sync.Once
	binPath  string
	binError error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcpserver-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// binary returns the path of examples/mcpserver built with go build.
func binary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		binPath = filepath.Join(binDir, "mcpserver")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binError = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binError != nil {
		t.Fatal(binError)
	}
	return binPath
}

// generated returns the tools as toolgen generated them: the canonical tools/list
// files of the two example packages, by name.
func generated(t testing.TB) map[string]map[string]json.RawMessage {
	t.Helper()
	out := map[string]map[string]json.RawMessage{}
	for _, dir := range []string{"../weather/forecast", "../bank/banking"} {
		b, err := os.ReadFile(filepath.Join(dir, "toolschema", "mcp.json"))
		if err != nil {
			t.Fatal(err)
		}
		var file struct {
			Tools []map[string]json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(b, &file); err != nil {
			t.Fatal(err)
		}
		for _, tool := range file.Tools {
			var name string
			json.Unmarshal(tool["name"], &name)
			out[name] = tool
		}
	}
	return out
}

var wantNames = []string{"close_account", "get_transactions", "get_weather", "hello_world", "november_report"}

// direct calls a tool without MCP, for the result the server must send.
func direct(name, args string) *runtime.Result {
	ctx := banking.WithUser(context.Background(), demoUser)
	ts := runtime.Join(forecast.Tools(), banking.ServiceTools(demoService()))
	return ts.Call(ctx, name, []byte(args))
}

func decode(t testing.TB, raw []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return v
}

func jsonOf(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func text(res *mcp.CallToolResult) string {
	return joinText(res, true)
}

// joinText joins a result's text blocks for the model (no audience, or the
// assistant's), as a host sends them on to its model, or those for the user alone.
func joinText(res *mcp.CallToolResult, forModel bool) string {
	var parts []string
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		if !ok {
			continue
		}
		model := tc.Annotations == nil || len(tc.Annotations.Audience) == 0 || slices.Contains(tc.Annotations.Audience, "assistant")
		if model == forModel {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// userText joins a result's text blocks for the user alone.
func userText(r *runtime.Result) string {
	var parts []string
	for _, c := range r.Content {
		if c.Type == runtime.ContentText && !c.ForModel() {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// outputValidator validates structured results against the generated outputSchemas,
// with santhosh-tekuri/jsonschema (draft 2020-12, formats asserted) as the oracle.
type outputValidator struct {
	schemas   map[string]*jsonschema.Schema
	validated map[string]int
}

func newOutputValidator(t testing.TB) *outputValidator {
	t.Helper()
	v := &outputValidator{schemas: map[string]*jsonschema.Schema{}, validated: map[string]int{}}
	for name, tool := range generated(t) {
		raw, ok := tool["outputSchema"]
		if !ok {
			continue
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		c.AssertFormat()
		url := "toolgen:///" + name + "/output.json"
		if err := c.AddResource(url, doc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile(url)
		if err != nil {
			t.Fatalf("outputSchema of %s: %v", name, err)
		}
		v.schemas[name] = sch
	}
	return v
}

func (v *outputValidator) check(t testing.TB, name string, structured any) {
	t.Helper()
	sch, ok := v.schemas[name]
	if !ok {
		t.Errorf("%s sent structuredContent but has no outputSchema", name)
		return
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(jsonOf(t, structured)))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("%s: structuredContent does not validate against its outputSchema: %v\n%s", name, err, jsonOf(t, structured))
	}
	v.validated[name]++
}

// everyStructuredToolValidated checks that each tool with an outputSchema was checked.
func (v *outputValidator) everyStructuredToolValidated(t testing.TB) {
	t.Helper()
	for name := range v.schemas {
		if v.validated[name] == 0 {
			t.Errorf("no structuredContent of %s was validated", name)
		}
	}
}

// checkList checks tools/list against the generated files: names, title, description,
// schemas, and the annotations as written (the SDK sends readOnlyHint and
// idempotentHint always, false when not written, their MCP default).
func checkList(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	gen := generated(t)
	var names []string
	for _, mt := range res.Tools {
		names = append(names, mt.Name)
		want, ok := gen[mt.Name]
		if !ok {
			continue
		}
		var title, description string
		json.Unmarshal(want["title"], &title)
		json.Unmarshal(want["description"], &description)
		if mt.Title != title || mt.Description != description {
			t.Errorf("%s: title %q, description %q; want %q, %q", mt.Name, mt.Title, mt.Description, title, description)
		}
		if !reflect.DeepEqual(mt.InputSchema, decode(t, want["inputSchema"])) {
			t.Errorf("%s: inputSchema %s differs from the generated one", mt.Name, jsonOf(t, mt.InputSchema))
		}
		var wantOut any
		if raw, ok := want["outputSchema"]; ok {
			wantOut = decode(t, raw)
			if revision2026(cs) && wrapped(mt.Name) {
				wantOut = unwrapSchema(wantOut)
			}
		}
		if !reflect.DeepEqual(mt.OutputSchema, wantOut) {
			t.Errorf("%s: outputSchema %s differs from the generated one", mt.Name, jsonOf(t, mt.OutputSchema))
		}
		var ann map[string]any
		json.Unmarshal(want["annotations"], &ann)
		wantTitle, _ := ann["title"].(string)
		boolOf := func(k string) *bool {
			if b, ok := ann[k].(bool); ok {
				return &b
			}
			return nil
		}
		got := mt.Annotations
		if got == nil {
			t.Errorf("%s: no annotations", mt.Name)
			continue
		}
		if got.Title != wantTitle ||
			got.ReadOnlyHint != valueOr(boolOf("readOnlyHint")) ||
			got.IdempotentHint != valueOr(boolOf("idempotentHint")) ||
			!reflect.DeepEqual(got.DestructiveHint, boolOf("destructiveHint")) ||
			!reflect.DeepEqual(got.OpenWorldHint, boolOf("openWorldHint")) {
			t.Errorf("%s: annotations %s, want %s", mt.Name, jsonOf(t, got), want["annotations"])
		}
	}
	if !slices.Equal(names, wantNames) {
		t.Errorf("tools %v, want %v", names, wantNames)
	}
}

func valueOr(p *bool) bool { return p != nil && *p }

// calls are the tools/call cases every transport runs: valid, invalid and hostile.
var calls = []struct{ name, args string }{
	{"get_weather", `{"city":"Paris","days":3}`},
	{"get_weather", `{"city":"Tokyo","days":14,"unit":"fahrenheit"}`},
	{"get_weather", `{"city":"Oslo"}`},
	{"get_weather", `"{\"city\":\"Rome\"}"`}, // double-encoded, decoded by the leniency
	{"hello_world", `{"name":"Ada","times":2}`},
	{"get_transactions", `{"startDate":"2026-11-01T00:00:00Z","endDate":"2026-11-15T00:00:00Z"}`},
	{"get_transactions", `{"startDate":"2026-11-01T00:00:00+01:00","endDate":"2026-12-01T00:00:00Z"}`},
	{"get_transactions", `{"startDate":"2020-01-01T00:00:00Z","endDate":"2020-02-01T00:00:00Z"}`},
	// Argument errors, every violation listed.
	{"get_weather", `{"city":"Paris","unit":"kelvin","days":30}`},
	{"get_weather", `{"town":"Paris"}`},
	{"get_transactions", `{"startDate":"last month","userId":"bob"}`},
	{"close_account", `{"reason":"moving abroad","confirm":false}`},
	{"hello_world", `{"name":""}`},
	// The tool's own error.
	{"get_transactions", `{"startDate":"2026-11-30T00:00:00Z","endDate":"2026-11-01T00:00:00Z"}`},
	// Hostile arguments.
	{"get_weather", `null`},
	{"get_weather", `"Paris"`},
	{"get_weather", `42`},
	{"get_weather", `[{"city":"Paris"}]`},
	{"get_weather", `{"city":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`},
	{"get_weather", `{"city":"` + strings.Repeat("a", 2<<20) + `"}`},
}

// checkCalls runs calls and compares each result with the tool's own.
func checkCalls(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	v := newOutputValidator(t)
	for _, c := range calls {
		label := c.name + " " + c.args
		if len(label) > 100 {
			label = label[:100] + "..."
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.name, Arguments: json.RawMessage(c.args)})
		if err != nil {
			t.Errorf("%s: %v", label, err)
			continue
		}
		if revision2026(cs) && wrapped(c.name) && !res.IsError {
			// Under 2026-07-28 the value comes as it is (SEP-2106): wrapped again, it
			// is what the tool returns and what the generated schema describes.
			res.StructuredContent = map[string]any{"result": res.StructuredContent}
			for _, b := range res.Content {
				if tc, ok := b.(*mcp.TextContent); ok && json.Valid([]byte(tc.Text)) {
					tc.Text = `{"result":` + tc.Text + `}`
					break
				}
			}
		}
		want := direct(c.name, c.args)
		if res.IsError != want.IsError || text(res) != want.Text() {
			t.Errorf("%s:\n got isError %v, %q\nwant isError %v, %q", label, res.IsError, text(res), want.IsError, want.Text())
		}
		if gotUser, wantUser := joinText(res, false), userText(want); gotUser != wantUser {
			t.Errorf("%s: the blocks for the user %q, want %q", label, gotUser, wantUser)
		}
		if want.IsError && !strings.Contains(text(res), c.name) && !strings.Contains(text(res), "must be before") {
			t.Errorf("%s: the error does not name the tool: %q", label, text(res))
		}
		if want.Structured == nil {
			if res.StructuredContent != nil {
				t.Errorf("%s: unexpected structuredContent %s", label, jsonOf(t, res.StructuredContent))
			}
			continue
		}
		if !reflect.DeepEqual(decode(t, []byte(jsonOf(t, res.StructuredContent))), decode(t, want.Structured)) {
			t.Errorf("%s: structuredContent %s, want %s", label, jsonOf(t, res.StructuredContent), want.Structured)
		}
		if !reflect.DeepEqual(decode(t, []byte(text(res))), decode(t, want.Structured)) {
			t.Errorf("%s: the text block %q is not the structured value's JSON", label, text(res))
		}
		v.check(t, c.name, res.StructuredContent)
	}
	v.everyStructuredToolValidated(t)

	// An unknown tool is a protocol error.
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_wether", Arguments: map[string]any{}})
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("unknown tool: %v, want JSON-RPC error %d", err, jsonrpc.CodeInvalidParams)
	}
}

func checkSession(t *testing.T, cs *mcp.ClientSession) {
	t.Run("list", func(t *testing.T) { checkList(t, cs) })
	t.Run("call", func(t *testing.T) { checkCalls(t, cs) })
	t.Run("user", func(t *testing.T) { checkDemoUser(t, cs) })
}

// checkDemoUser closes the demo user's account: the bank tools act for the user
// the server put in the context.
func checkDemoUser(t *testing.T, cs *mcp.ClientSession) {
	call := func(name string, args any) *mcp.CallToolResult {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := call("close_account", map[string]any{"reason": "moving abroad", "confirm": true}); res.IsError || !strings.Contains(text(res), "closed") {
		t.Errorf("close_account: %s", jsonOf(t, res))
	}
	res := call("get_transactions", map[string]any{"startDate": "2026-11-01T00:00:00Z", "endDate": "2026-12-01T00:00:00Z"})
	if !res.IsError || text(res) != "the user has no open account" {
		t.Errorf("get_transactions after closing: %s", jsonOf(t, res))
	}
}

func connectClient(t *testing.T, transport mcp.Transport) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "v0"}, nil).Connect(context.Background(), transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestInMemory(t *testing.T) {
	ct, st := mcp.NewInMemoryTransports()
	ss, err := newServer(quiet).Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	checkSession(t, connectClient(t, ct))
}

func TestSubprocess(t *testing.T) {
	var stderr bytes.Buffer
	cmd := exec.Command(binary(t))
	cmd.Stderr = &stderr
	cs := connectClient(t, &mcp.CommandTransport{Command: cmd})
	checkSession(t, cs)
	if t.Failed() {
		t.Logf("the server's log:\n%s", stderr.String())
	}
}

func TestHTTP(t *testing.T) {
	srv := httptest.NewServer(httpHandler(newServer(quiet), nil))
	t.Cleanup(srv.Close)
	cs := connectClient(t, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp"})
	checkSession(t, cs)
}

// post sends one JSON-RPC message over HTTP and returns the status and the messages
// of the response (JSON or server-sent events).
func post(t *testing.T, url, body string) (int, []map[string]json.RawMessage) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
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
	var msgs []map[string]json.RawMessage
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimPrefix(line, "data: ")
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(line), &m) == nil {
			msgs = append(msgs, m)
		}
	}
	return resp.StatusCode, msgs
}

// toolResult decodes a tools/call result.
type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

func TestHTTPRawRequests(t *testing.T) {
	srv := httptest.NewServer(httpHandler(newServer(quiet), nil))
	t.Cleanup(srv.Close)
	url := srv.URL + "/mcp"
	// Stateless: each request stands alone, no initialize needed first.
	for _, tc := range []struct{ name, params, args string }{
		{"missing arguments", `{"name":"get_weather"}`, ``},
		{"null arguments", `{"name":"get_weather","arguments":null}`, `null`},
		{"string arguments", `{"name":"get_weather","arguments":"Paris"}`, `"Paris"`},
		{"too deep", `{"name":"get_weather","arguments":{"city":` + strings.Repeat("[", 500) + strings.Repeat("]", 500) + `}}`, ``},
		{"valid", `{"name":"hello_world","arguments":{"name":"HTTP"}}`, `{"name":"HTTP"}`},
	} {
		status, msgs := post(t, url, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":`+tc.params+`}`)
		if status != http.StatusOK || len(msgs) != 1 {
			t.Errorf("%s: HTTP %d, %v", tc.name, status, msgs)
			continue
		}
		var res toolResult
		if err := json.Unmarshal(msgs[0]["result"], &res); err != nil || len(res.Content) != 1 {
			t.Errorf("%s: %v %s", tc.name, err, jsonOf(t, msgs[0]))
			continue
		}
		var p struct {
			Name      string
			Arguments json.RawMessage
		}
		json.Unmarshal([]byte(tc.params), &p)
		want := direct(p.Name, string(p.Arguments))
		if res.IsError != want.IsError || res.Content[0].Text != want.Text() {
			t.Errorf("%s: isError %v, %q; want %v, %q", tc.name, res.IsError, res.Content[0].Text, want.IsError, want.Text())
		}
	}
	// A body the SDK cannot read fails alone, with a 4xx, and the server goes on.
	for _, body := range []string{"garbage", `{"jsonrpc":"2.0","id":1,"method":"ping","params":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}`} {
		if status, _ := post(t, url, body); status < 400 || status > 499 {
			t.Errorf("body %.20q: HTTP %d, want 4xx", body, status)
		}
	}
	// A key twice in any object is refused with a JSON-RPC error, before any tool runs:
	// the SDK would act on the last, a proxy or a log may read the first. So are two
	// keys differing only in case in the protocol's objects: the SDK reads "params", a
	// reader decoding with encoding/json the last of "params" and "Params".
	for _, tc := range []struct{ name, body, id string }{
		{"params twice", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"hello_world","arguments":{"name":"Ada"}},"params":{"name":"close_account","arguments":{}}}`, "3"},
		{"an argument twice", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"hello_world","arguments":{"name":"Ada","name":"Bob"}}}`, "4"},
		{"id twice", `{"jsonrpc":"2.0","id":5,"id":6,"method":"tools/list"}`, "null"},
		{"Params beside params", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"hello_world","arguments":{"name":"Ada"}},"Params":{"name":"close_account","arguments":{}}}`, "7"},
		{"Name beside name", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"hello_world","Name":"close_account","arguments":{"name":"Ada"}}}`, "8"},
	} {
		status, msgs := post(t, url, tc.body)
		var e struct{ Code int64 }
		if status != http.StatusBadRequest || len(msgs) != 1 || string(msgs[0]["id"]) != tc.id || json.Unmarshal(msgs[0]["error"], &e) != nil || e.Code != jsonrpc.CodeInvalidRequest {
			t.Errorf("%s: HTTP %d, %v; want 400 and invalid request with id %s", tc.name, status, msgs, tc.id)
		}
	}
	if status, msgs := post(t, url, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); status != http.StatusOK || len(msgs) != 1 || msgs[0]["result"] == nil {
		t.Errorf("tools/list after bad requests: HTTP %d %v", status, msgs)
	}
}

// TestStdioRaw writes raw JSON-RPC lines to the server binary: what no client library
// sends, and what the SDK alone would end the session on.
func TestStdioRaw(t *testing.T) {
	cmd := exec.Command(binary(t))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
	})
	msgs := make(chan map[string]json.RawMessage, 16)
	go func() {
		r := bufio.NewReader(stdout)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				close(msgs)
				return
			}
			var m map[string]json.RawMessage
			if json.Unmarshal(line, &m) != nil {
				t.Errorf("the server wrote a line that is not JSON: %q", line)
			}
			msgs <- m
		}
	}()
	seen := map[string]map[string]json.RawMessage{}
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatalf("write: %v (server log:\n%s)", err, stderr.String())
		}
	}
	expect := func(id string) map[string]json.RawMessage {
		t.Helper()
		if m, ok := seen[id]; ok {
			return m
		}
		timeout := time.After(20 * time.Second)
		for {
			select {
			case m, ok := <-msgs:
				if !ok {
					t.Fatalf("the server ended while %s was awaited: %v\n%s", id, <-exited, stderr.String())
				}
				if string(m["id"]) == id {
					return m
				}
				seen[string(m["id"])] = m
			case <-timeout:
				t.Fatalf("no answer to %s", id)
			}
		}
	}

	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	expect("0")
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	// The tools on the wire, annotations included, are the generated ones, except
	// that readOnlyHint and idempotentHint are always there (false by default).
	send(`{"jsonrpc":"2.0","id":"list","method":"tools/list"}`)
	var list struct {
		Tools []map[string]json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(expect(`"list"`)["result"], &list); err != nil {
		t.Fatal(err)
	}
	gen := generated(t)
	for _, tool := range list.Tools {
		var name string
		json.Unmarshal(tool["name"], &name)
		if _, ok := gen[name]; !ok {
			continue // november_report, defined at run time (progress.go)
		}
		want := maps.Clone(gen[name])
		var ann map[string]any
		json.Unmarshal(want["annotations"], &ann)
		for _, hint := range []string{"readOnlyHint", "idempotentHint"} {
			if _, ok := ann[hint]; !ok {
				ann[hint] = false
			}
		}
		want["annotations"] = json.RawMessage(jsonOf(t, ann))
		if got, w := jsonOf(t, decode(t, []byte(jsonOf(t, tool)))), jsonOf(t, decode(t, []byte(jsonOf(t, want)))); got != w {
			t.Errorf("%s on the wire:\n%s\nwant\n%s", name, got, w)
		}
	}
	if len(list.Tools) != len(wantNames) {
		t.Errorf("%d tools listed, want %d", len(list.Tools), len(wantNames))
	}

	n := 0
	alive := func() {
		t.Helper()
		n++
		id := fmt.Sprintf(`"alive-%d"`, n)
		send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"hello_world","arguments":{"name":"again"}}}`)
		var res toolResult
		if json.Unmarshal(expect(id)["result"], &res) != nil || res.IsError {
			t.Fatalf("the server no longer answers")
		}
	}
	for i, tc := range []struct{ name, params, args string }{
		{"missing arguments", `{"name":"get_weather"}`, ``},
		{"null arguments", `{"name":"get_weather","arguments":null}`, `null`},
		{"array arguments", `{"name":"get_weather","arguments":[]}`, `[]`},
		{"number arguments", `{"name":"get_weather","arguments":1.5}`, `1.5`},
		{"huge arguments", `{"name":"get_weather","arguments":{"city":"` + strings.Repeat("é", 1<<20) + `"}}`, `{"city":"` + strings.Repeat("é", 1<<20) + `"}`},
		{"deep arguments", `{"name":"get_weather","arguments":{"city":` + strings.Repeat(`{"a":`, 900) + `1` + strings.Repeat(`}`, 900) + `}}`,
			`{"city":` + strings.Repeat(`{"a":`, 900) + `1` + strings.Repeat(`}`, 900) + `}`},
	} {
		id := fmt.Sprintf(`"call-%d"`, i)
		send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + tc.params + `}`)
		var res toolResult
		if err := json.Unmarshal(expect(id)["result"], &res); err != nil || len(res.Content) != 1 {
			t.Errorf("%s: not a result: %v", tc.name, err)
			continue
		}
		want := direct("get_weather", tc.args)
		if !res.IsError || res.Content[0].Text != want.Text() {
			t.Errorf("%s: isError %v, %q; want an error result %q", tc.name, res.IsError, res.Content[0].Text, want.Text())
		}
		alive()
	}
	// What the SDK cannot read is answered with a JSON-RPC error; the session goes on.
	for i, line := range []string{
		`{"jsonrpc":"2.0","id":"deeper","method":"tools/call","params":{"name":"get_weather","arguments":{"city":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}}}`,
		`not JSON`,
		`{"jsonrpc":"2.0","id":"cut","method":"tools/call"`,
		`[{"jsonrpc":"2.0","id":"batch","method":"ping"}]`,
		`{"jsonrpc":"1.0","id":"old","method":"ping"}`,
		`{"jsonrpc":"2.0","id":"twice","method":"tools/call","params":{"name":"hello_world","arguments":{"name":"Ada"}},"params":{"name":"close_account","arguments":{}}}`,
	} {
		send(line)
		id := map[int]string{0: `"deeper"`, 1: "null", 2: `"cut"`, 3: "null", 4: `"old"`, 5: `"twice"`}[i]
		if m := expect(id); m["error"] == nil {
			t.Errorf("%.40s: %v, want a JSON-RPC error", line, m)
		}
		delete(seen, id)
		alive()
	}
	select {
	case err := <-exited:
		t.Fatalf("the server exited: %v\n%s", err, stderr.String())
	default:
	}
}

// revision2026 reports whether cs speaks MCP 2026-07-28 or later, under which a tool
// whose value is not an object lists and returns the value itself (SEP-2106).
func revision2026(cs *mcp.ClientSession) bool {
	r := cs.InitializeResult()
	return r != nil && r.ProtocolVersion >= "2026-07-28"
}

// wrapped reports whether the tool's value is wrapped as {"result": value} in its
// output schema (runtime.Tool.OutputWrapped).
func wrapped(name string) bool {
	t, ok := runtime.Join(forecast.Tools(), banking.ServiceTools(demoService())).Lookup(name)
	return ok && t.OutputWrapped
}

// unwrapSchema returns the schema of a wrapped tool's value: the wrapper's result
// property, with the wrapper's $schema and $defs at its root, as toolmcp lists it.
func unwrapSchema(wrapper any) any {
	root, _ := wrapper.(map[string]any)
	props, _ := root["properties"].(map[string]any)
	inner, ok := props["result"].(map[string]any)
	if !ok {
		return wrapper
	}
	out := map[string]any{}
	for k, v := range inner {
		out[k] = v
	}
	for _, k := range []string{"$schema", "$defs"} {
		if v, ok := root[k]; ok {
			out[k] = v
		}
	}
	return out
}
