package toolmcp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/internal/taskclient"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/client"
	"github.com/toolgen/toolgen/runtime/progress"
	"github.com/toolgen/toolgen/toolmcp"
)

// taskTool returns a dynamic tool named name with task support task, running run.
func taskTool(t *testing.T, name string, task runtime.TaskSupport, run func(ctx context.Context, args json.RawMessage) (*runtime.Result, error)) *runtime.Toolset {
	t.Helper()
	ts, err := runtime.NewTool(runtime.Tool{
		Name:        name,
		Description: "A test tool.",
		Annotations: runtime.Annotations{ReadOnly: new(true)},
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Task:        task,
	}, run)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// serveTasks serves ts over stateless streamable HTTP (MCP 2026-07-28) with opts, and
// returns the endpoint's URL. The identity of a request is its X-User header.
func serveTasks(t *testing.T, ts *runtime.Toolset, opts ...toolmcp.Option) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "tasks", Version: "v0"}, nil)
	opts = append([]toolmcp.Option{
		toolmcp.WithTaskHeartbeat(20 * time.Millisecond),
		toolmcp.WithTaskIdentity(func(_ context.Context, extra *mcp.RequestExtra) string {
			return extra.Header.Get("X-User")
		}),
	}, opts...)
	toolmcp.Register(s, ts, opts...)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	srv := httptest.NewServer(&toolmcp.HTTPScreen{Next: h})
	t.Cleanup(srv.Close)
	return srv.URL
}

func clientAs(url, user string) *taskclient.Client {
	return &taskclient.Client{URL: url, Header: http.Header{"X-User": {user}}}
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func rpcCode(err error) int64 {
	var e *taskclient.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

// A call to a task tool from a client that negotiated the extension is a task: it is
// working while the tool runs, its tasks/get inlines the tool's result once it
// completed, and the server advertises the extension.
func TestTaskLifecycle(t *testing.T) {
	release := make(chan struct{})
	ts := taskTool(t, "report", runtime.TaskOptional, func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		progress.Report(ctx, 1, 2, "halfway")
		<-release
		return runtime.TextResult("the report"), nil
	})
	url := serveTasks(t, ts)
	ctx := testContext(t)
	c := clientAs(url, "ann")

	disc, err := c.Call(ctx, "server/discover", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(disc), `"io.modelcontextprotocol/tasks":{}`) {
		t.Errorf("server/discover does not advertise the extension: %s", disc)
	}

	created, err := c.CallTool(ctx, "report", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if created.ResultType != "task" || created.TaskID == "" || created.Status != "working" || created.TTLMs == nil {
		t.Fatalf("CreateTaskResult: %s", created.Raw)
	}
	if id, err := base64URL(created.TaskID); err != nil || len(id) != 16 {
		t.Errorf("task id %q: want 128 random bits, base64url (%v)", created.TaskID, err)
	}
	got, err := c.Await(ctx, created.TaskID, "working")
	if err != nil {
		t.Fatal(err)
	}
	if got.ResultType != "complete" || got.Result != nil {
		t.Errorf("working task: %s", got.Raw)
	}
	for got.StatusMessage == "" {
		if got, err = c.Get(ctx, created.TaskID); err != nil {
			t.Fatal(err)
		}
	}
	if got.StatusMessage != "1/2: halfway" {
		t.Errorf("statusMessage %q, want the tool's progress", got.StatusMessage)
	}
	close(release)
	done, err := c.Await(ctx, created.TaskID)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != "completed" || !strings.Contains(string(done.Result), `"text":"the report"`) {
		t.Fatalf("completed task: %s", done.Raw)
	}
}

// A tool that is no task answers at once, as ever; a task tool answers at once too
// for a client that did not negotiate the extension, unless it requires a task: then
// the call fails with -32021, naming the extension, and runs nothing.
func TestTaskNegotiation(t *testing.T) {
	var runs atomic.Int32
	run := func(context.Context, json.RawMessage) (*runtime.Result, error) {
		runs.Add(1)
		return runtime.TextResult("ran"), nil
	}
	ts := runtime.Join(taskTool(t, "plain", runtime.TaskForbidden, run),
		taskTool(t, "optional", runtime.TaskOptional, run),
		taskTool(t, "required", runtime.TaskRequired, run))
	url := serveTasks(t, ts)
	ctx := testContext(t)
	with := clientAs(url, "ann")
	without := clientAs(url, "ann")
	without.Capabilities = map[string]any{}

	if r, err := with.CallTool(ctx, "plain", nil); err != nil || r.ResultType != "complete" || r.TaskID != "" {
		t.Errorf("plain with the extension: %+v, %v", r, err)
	}
	if r, err := without.CallTool(ctx, "optional", nil); err != nil || r.ResultType != "complete" || !strings.Contains(string(r.Raw), `"ran"`) {
		t.Errorf("optional without the extension: %+v, %v", r, err)
	}
	before := runs.Load()
	_, err := without.CallTool(ctx, "required", nil)
	var e *taskclient.Error
	if !errors.As(err, &e) || e.Code != -32021 || !strings.Contains(string(e.Data), `"io.modelcontextprotocol/tasks"`) {
		t.Errorf("required without the extension: %v (data %s)", err, dataOf(e))
	}
	if runs.Load() != before {
		t.Error("the required task tool ran for a client without the extension")
	}
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		if _, err := without.Call(ctx, m, map[string]any{"taskId": "x", "inputResponses": map[string]any{}}); rpcCode(err) != -32021 {
			t.Errorf("%s without the extension: %v, want -32021", m, err)
		}
	}
	for _, m := range []string{"tasks/result", "tasks/list"} {
		if _, err := with.Call(ctx, m, map[string]any{"taskId": "x"}); rpcCode(err) != -32601 {
			t.Errorf("%s: %v, want -32601 (not in the extension)", m, err)
		}
	}
	for _, id := range []string{"no-such-task", "AAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAAB", strings.Repeat("A", 1<<16), ""} {
		want := int64(-32602)
		if len(id) > toolmcp.MaxMCPHeaderBytes {
			// Its Mcp-Name header is refused first, before the body is read.
			want = -32020
		}
		if _, err := with.Get(ctx, id); rpcCode(err) != want || len(err.Error()) > 200 {
			t.Errorf("tasks/get of the unknown id %.30q: %v, want %d", id, err, want)
		}
	}
}

func dataOf(e *taskclient.Error) string {
	if e == nil {
		return ""
	}
	return string(e.Data)
}

// A task's client.Elicit asks in its inputRequests; tasks/update's answer reaches
// it, once: the same answer sent again, or an answer to a key never asked, is
// ignored. Two requests at once are answered one at a time.
func TestTaskInput(t *testing.T) {
	ts := taskTool(t, "ask", runtime.TaskOptional, func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		form := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)
		answers := make(chan string, 2)
		for range 2 {
			go func() {
				res, err := client.Elicit(ctx, &client.ElicitRequest{Message: "n?", Schema: form})
				if err != nil {
					answers <- err.Error()
					return
				}
				answers <- string(res.Content)
			}()
		}
		a, b := <-answers, <-answers
		res, err := client.Elicit(ctx, &client.ElicitRequest{Message: "third?", Schema: form})
		if err != nil {
			return nil, err
		}
		return runtime.TextResult(strings.Join(sortedPair(a, b), " ") + " then " + string(res.Content)), nil
	})
	url := serveTasks(t, ts)
	ctx := testContext(t)
	c := clientAs(url, "ann")
	created, err := c.CallTool(ctx, "ask", nil)
	if err != nil {
		t.Fatal(err)
	}
	id := created.TaskID
	var got *taskclient.Task
	for got == nil || len(got.InputRequests) < 2 {
		if got, err = c.Await(ctx, id, "input_required"); err != nil {
			t.Fatal(err)
		}
	}
	var keys []string
	for k, r := range got.InputRequests {
		keys = append(keys, k)
		if !strings.Contains(string(r), `"method":"elicitation/create"`) {
			t.Errorf("input request %s: %s", k, r)
		}
	}
	accept := func(n int) map[string]any {
		return map[string]any{"action": "accept", "content": map[string]any{"n": n}}
	}
	ack, err := c.Update(ctx, id, map[string]any{keys[0]: accept(1), "never-asked": accept(9)})
	if err != nil || !isAck(ack) {
		t.Fatalf("tasks/update: %s, %v", ack, err)
	}
	after, err := c.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Status != "input_required" || len(after.InputRequests) != 1 || after.InputRequests[keys[1]] == nil {
		t.Fatalf("after a partial answer: %s", after.Raw)
	}
	// The first answer again: the key was answered, and is ignored.
	if _, err := c.Update(ctx, id, map[string]any{keys[0]: accept(5)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Update(ctx, id, map[string]any{keys[1]: accept(2)}); err != nil {
		t.Fatal(err)
	}
	third, err := c.Await(ctx, id, "input_required")
	for err == nil && len(third.InputRequests) == 0 {
		third, err = c.Await(ctx, id, "input_required")
	}
	if err != nil {
		t.Fatal(err)
	}
	for k := range third.InputRequests {
		if k == keys[0] || k == keys[1] {
			t.Errorf("key %s used twice in a task", k)
		}
		// The replayed answer to keys[0] never reaches the third request.
		if _, err := c.Update(ctx, id, map[string]any{k: accept(3)}); err != nil {
			t.Fatal(err)
		}
	}
	done, err := c.Await(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != "completed" || !strings.Contains(string(done.Result), `{\"n\":1} {\"n\":2} then {\"n\":3}`) {
		t.Fatalf("task: %s", done.Raw)
	}
}

// isAck reports whether raw is the extension's empty acknowledgement: resultType
// complete, and nothing of a task.
func isAck(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || string(m["resultType"]) != `"complete"` {
		return false
	}
	delete(m, "resultType")
	delete(m, "_meta")
	return len(m) == 0
}

func sortedPair(a, b string) []string {
	if a > b {
		a, b = b, a
	}
	return []string{a, b}
}

// tasks/cancel cancels the tool's context, and the task ends cancelled; cancelling
// it again, once it ended, is acknowledged alike and changes nothing.
func TestTaskCancel(t *testing.T) {
	started, stopped := make(chan struct{}), make(chan error, 1)
	ts := taskTool(t, "wait", runtime.TaskOptional, func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		close(started)
		<-ctx.Done()
		stopped <- ctx.Err()
		return nil, ctx.Err()
	})
	url := serveTasks(t, ts)
	ctx := testContext(t)
	c := clientAs(url, "ann")
	created, err := c.CallTool(ctx, "wait", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Cancelled before its tool starts, a task ends without running it: wait for the
	// tool, whose context the cancel must reach.
	select {
	case <-started:
	case <-ctx.Done():
		t.Fatal("the task's tool did not start")
	}
	for range 2 {
		ack, err := c.Cancel(ctx, created.TaskID)
		if err != nil || !isAck(ack) {
			t.Fatalf("tasks/cancel: %s, %v", ack, err)
		}
	}
	select {
	case err := <-stopped:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the tool's context ended with %v", err)
		}
	case <-ctx.Done():
		t.Fatal("tasks/cancel did not reach the tool's context")
	}
	done, err := c.Await(ctx, created.TaskID)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != "cancelled" || done.Result != nil {
		t.Fatalf("task: %s", done.Raw)
	}
	if ack, err := c.Cancel(ctx, created.TaskID); err != nil || !isAck(ack) {
		t.Fatalf("tasks/cancel of a cancelled task: %s, %v", ack, err)
	}
}

// Only the identity that created a task may read, answer or cancel it: to another,
// its id is unknown, as a task that never was (-32602), and its answer and its
// cancellation change nothing.
func TestTaskOwner(t *testing.T) {
	ts := taskTool(t, "ask", runtime.TaskOptional, func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		res, err := client.Elicit(ctx, &client.ElicitRequest{Message: "ok?", Schema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`)})
		if err != nil {
			return nil, err
		}
		return runtime.TextResult(string(res.Content)), nil
	})
	url := serveTasks(t, ts)
	ctx := testContext(t)
	ann, bob := clientAs(url, "ann"), clientAs(url, "bob")
	created, err := ann.CallTool(ctx, "ask", nil)
	if err != nil {
		t.Fatal(err)
	}
	asked, err := ann.Await(ctx, created.TaskID, "input_required")
	if err != nil {
		t.Fatal(err)
	}
	var key string
	for k := range asked.InputRequests {
		key = k
	}
	_, unknown := bob.Get(ctx, "no-such-task")
	if _, err := bob.Get(ctx, created.TaskID); rpcCode(err) != -32602 || strings.Replace(err.Error(), created.TaskID, "no-such-task", 1) != unknown.Error() {
		t.Errorf("bob's tasks/get: %v; of an unknown task: %v", err, unknown)
	}
	if _, err := bob.Update(ctx, created.TaskID, map[string]any{key: map[string]any{"action": "accept", "content": map[string]any{"ok": false}}}); rpcCode(err) != -32602 {
		t.Errorf("bob's tasks/update: %v", err)
	}
	if _, err := bob.Cancel(ctx, created.TaskID); rpcCode(err) != -32602 {
		t.Errorf("bob's tasks/cancel: %v", err)
	}
	still, err := ann.Get(ctx, created.TaskID)
	if err != nil || still.Status != "input_required" || still.InputRequests[key] == nil {
		t.Fatalf("after bob: %+v, %v", still, err)
	}
	if _, err := ann.Update(ctx, created.TaskID, map[string]any{key: map[string]any{"action": "accept", "content": map[string]any{"ok": true}}}); err != nil {
		t.Fatal(err)
	}
	done, err := ann.Await(ctx, created.TaskID)
	if err != nil || done.Status != "completed" || !strings.Contains(string(done.Result), `{\"ok\":true}`) {
		t.Fatalf("task: %+v, %v", done, err)
	}
	// The Mcp-Name header, when sent, names the task of the body.
	if _, err := ann.Call(ctx, "tasks/get", map[string]any{"taskId": created.TaskID}); err != nil {
		t.Fatal(err)
	}
	wrong := clientAs(url, "ann")
	wrong.Override = http.Header{"Mcp-Name": {created.TaskID + "x"}}
	if _, err := wrong.Get(ctx, created.TaskID); rpcCode(err) != -32020 {
		t.Errorf("tasks/get with another Mcp-Name: %v, want -32020", err)
	}
}

// WithMaxTasksPerIdentity bounds the tasks one identity has at once, finished ones
// included until they expire: at the limit a call is refused (-32603) and runs
// nothing; another identity is not held back.
func TestTaskLimitPerIdentity(t *testing.T) {
	var runs atomic.Int32
	ts := taskTool(t, "job", runtime.TaskOptional, func(context.Context, json.RawMessage) (*runtime.Result, error) {
		runs.Add(1)
		return runtime.TextResult("done"), nil
	})
	url := serveTasks(t, ts, toolmcp.WithMaxTasksPerIdentity(2))
	ctx := testContext(t)
	ann := clientAs(url, "ann")
	for i := range 2 {
		created, err := ann.CallTool(ctx, "job", nil)
		if err != nil {
			t.Fatalf("task %d of 2: %v", i+1, err)
		}
		if _, err := ann.Await(ctx, created.TaskID); err != nil {
			t.Fatal(err)
		}
	}
	before := runs.Load()
	if _, err := ann.CallTool(ctx, "job", nil); rpcCode(err) != -32603 || !strings.Contains(err.Error(), "Too many tasks") {
		t.Errorf("a third task: %v", err)
	}
	if runs.Load() != before {
		t.Error("the call past the limit ran the tool")
	}
	if _, err := clientAs(url, "bob").CallTool(ctx, "job", nil); err != nil {
		t.Errorf("bob's first task: %v", err)
	}
}

// WithMaxTaskResultBytes bounds the result a task keeps: a result of that many bytes
// is kept; one byte more fails the task, saying so.
func TestTaskResultLimit(t *testing.T) {
	text := strings.Repeat("x", 1000)
	size := len(mustJSON(t, toolmcp.Result(runtime.TextResult(text))))
	ts := taskTool(t, "big", runtime.TaskOptional, func(context.Context, json.RawMessage) (*runtime.Result, error) {
		return runtime.TextResult(text), nil
	})
	for _, tc := range []struct {
		limit  int
		status string
	}{{size, "completed"}, {size - 1, "failed"}} {
		url := serveTasks(t, ts, toolmcp.WithMaxTaskResultBytes(tc.limit))
		ctx := testContext(t)
		c := clientAs(url, "ann")
		created, err := c.CallTool(ctx, "big", nil)
		if err != nil {
			t.Fatal(err)
		}
		done, err := c.Await(ctx, created.TaskID)
		if err != nil {
			t.Fatal(err)
		}
		if done.Status != tc.status {
			t.Errorf("limit %d for a result of %d bytes: %s", tc.limit, size, done.Raw)
		}
		if tc.status == "failed" && (done.Error == nil || done.Error.Code != -32603 || !strings.Contains(done.Error.Message, "longer than")) {
			t.Errorf("failed task's error: %s", done.Raw)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A finished task is kept for its TTL, then it is unknown, and the store deletes it.
func TestTaskTTL(t *testing.T) {
	store := toolmcp.NewMemoryStore()
	ts := taskTool(t, "job", runtime.TaskOptional, func(context.Context, json.RawMessage) (*runtime.Result, error) {
		return runtime.TextResult("done"), nil
	})
	const ttl = 200 * time.Millisecond
	url := serveTasks(t, ts, toolmcp.WithStore(store), toolmcp.WithTaskTTL(ttl))
	ctx := testContext(t)
	c := clientAs(url, "ann")
	created, err := c.CallTool(ctx, "job", nil)
	if err != nil {
		t.Fatal(err)
	}
	if *created.TTLMs != ttl.Milliseconds() {
		t.Errorf("ttlMs %d, want %d", *created.TTLMs, ttl.Milliseconds())
	}
	done, err := c.Await(ctx, created.TaskID)
	if err != nil || done.Status != "completed" {
		t.Fatalf("%+v, %v", done, err)
	}
	rec, err := store.Task(ctx, created.TaskID)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(rec.ExpiresAt) + time.Millisecond)
	if _, err := c.Get(ctx, created.TaskID); rpcCode(err) != -32602 {
		t.Errorf("tasks/get past the TTL: %v", err)
	}
	n, err := store.DeleteExpired(ctx, time.Now())
	if err != nil || n != 1 {
		t.Errorf("DeleteExpired: %d, %v; want the expired task", n, err)
	}
}

// An ElicitApprover's approval of a task tool is asked in the task: the call runs
// once the user approves.
func TestTaskApproval(t *testing.T) {
	var runs atomic.Int32
	ts, err := runtime.NewTool(runtime.Tool{
		Name: "wipe", Description: "Wipes.", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: runtime.Annotations{Destructive: new(true)}, Task: runtime.TaskOptional,
	}, func(context.Context, json.RawMessage) (*runtime.Result, error) {
		runs.Add(1)
		return runtime.TextResult("wiped"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	url := serveTasks(t, ts.WithApprover(toolmcp.ElicitApprover()))
	ctx := testContext(t)
	c := clientAs(url, "ann")
	for _, approve := range []bool{false, true} {
		created, err := c.CallTool(ctx, "wipe", map[string]any{})
		if err != nil {
			t.Fatal(err)
		}
		asked, err := c.Await(ctx, created.TaskID, "input_required")
		if err != nil {
			t.Fatal(err)
		}
		if runs.Load() != 0 {
			t.Fatal("the tool ran before the approval")
		}
		for k, r := range asked.InputRequests {
			if !strings.Contains(string(r), "Allow wipe") {
				t.Errorf("approval request: %s", r)
			}
			if _, err := c.Update(ctx, created.TaskID, map[string]any{k: map[string]any{"action": "accept", "content": map[string]any{"approve": approve}}}); err != nil {
				t.Fatal(err)
			}
		}
		done, err := c.Await(ctx, created.TaskID)
		if err != nil {
			t.Fatal(err)
		}
		wiped := strings.Contains(string(done.Result), `"text":"wiped"`)
		if done.Status != "completed" || wiped != approve {
			t.Errorf("approve=%v: %s", approve, done.Raw)
		}
	}
	if runs.Load() != 1 {
		t.Errorf("the tool ran %d times, want once (approved once)", runs.Load())
	}
}

func base64URL(s string) ([]byte, error) {
	return base64.RawURLEncoding.Strict().DecodeString(s)
}

// A WithTaskIdentity function that panics fails the request that needed it with
// -32603, runs nothing, and the server goes on serving.
func TestTaskIdentityPanics(t *testing.T) {
	var runs atomic.Int32
	ts := runtime.Join(taskTool(t, "job", runtime.TaskOptional, func(context.Context, json.RawMessage) (*runtime.Result, error) {
		runs.Add(1)
		return runtime.TextResult("done"), nil
	}), taskTool(t, "plain", runtime.TaskForbidden, func(context.Context, json.RawMessage) (*runtime.Result, error) {
		return runtime.TextResult("plain"), nil
	}))
	url := serveTasks(t, ts, toolmcp.WithTaskIdentity(func(context.Context, *mcp.RequestExtra) string {
		panic("no identity")
	}))
	ctx := testContext(t)
	c := clientAs(url, "ann")
	if _, err := c.CallTool(ctx, "job", nil); rpcCode(err) != -32603 {
		t.Errorf("tools/call: %v, want -32603", err)
	}
	if _, err := c.Get(ctx, "AAAAAAAAAAAAAAAAAAAAAA"); rpcCode(err) != -32602 {
		t.Errorf("tasks/get: %v", err)
	}
	if r, err := c.CallTool(ctx, "plain", nil); err != nil || !strings.Contains(string(r.Raw), "plain") {
		t.Errorf("the server after the panics: %+v, %v", r, err)
	}
	if runs.Load() != 0 {
		t.Error("the task ran without an identity")
	}
}

// Over a session (the SDK's client, in memory, 2026-07-28), the server advertises the
// extension in initialize and answers tasks/get sent as the SDK's custom method; a
// client under an older version than 2026-07-28, for which the extension is not
// defined, gets the result of a task tool's call, as ever. (The SDK's CallTool reads a
// CreateTaskResult as a CallToolResult without its task id: the other tests use raw
// JSON-RPC.)
func TestTaskOverSession(t *testing.T) {
	ts := taskTool(t, "job", runtime.TaskOptional, func(context.Context, json.RawMessage) (*runtime.Result, error) {
		return runtime.TextResult("done"), nil
	})
	s := mcp.NewServer(&mcp.Implementation{Name: "tasks", Version: "v0"}, nil)
	toolmcp.Register(s, ts)
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension(taskclient.Extension, map[string]any{})
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{Capabilities: caps})
	if err := mcp.AddSendingCustomMethod[*taskGetParams, *taskGetResult](client, "tasks/get"); err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t)
	ct, st := mcp.NewInMemoryTransports()
	if _, err := s.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if init := cs.InitializeResult(); init == nil || init.Capabilities == nil || init.Capabilities.Extensions[taskclient.Extension] == nil {
		t.Fatalf("the server's capabilities: %+v", init)
	}
	_, err = mcp.CallCustomMethod[*taskGetParams, *taskGetResult](ctx, cs, "tasks/get", &taskGetParams{TaskID: "AAAAAAAAAAAAAAAAAAAAAA"})
	if err == nil || !strings.Contains(err.Error(), "no task") {
		t.Fatalf("tasks/get of an unknown task: %v", err)
	}
	old := connectWith(t, s, "2025-11-25", &mcp.ClientOptions{Capabilities: caps})
	if res := call(t, old, "job", map[string]any{}); text(res) != "done" {
		t.Errorf("a 2025-11-25 client's call: %+v", res)
	}
}

type taskGetParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

type taskGetResult struct {
	mcp.ResultBase
	TaskID string          `json:"taskId"`
	Status string          `json:"status"`
	Result json.RawMessage `json:"result"`
}

// gatedTool is a destructive task tool named name that counts its runs, behind an
// approver that, once it says so on approving, holds the call until its context ends
// and then allows it: a cancel that reaches the task while it waits there comes
// before the tool starts.
func gatedTool(t *testing.T, name string, runs *atomic.Int32, approving chan<- struct{}) *runtime.Toolset {
	t.Helper()
	ts, err := runtime.NewTool(runtime.Tool{
		Name:        name,
		Description: "A test tool that needs an approval.",
		Annotations: runtime.Annotations{Destructive: new(true)},
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Task:        runtime.TaskOptional,
	}, func(context.Context, json.RawMessage) (*runtime.Result, error) {
		runs.Add(1)
		return runtime.TextResult("ran"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ts.WithApprover(func(ctx context.Context, _ runtime.ApprovalRequest) runtime.Decision {
		approving <- struct{}{}
		<-ctx.Done()
		return runtime.Allow()
	})
}

// A task cancelled before its tool starts ends cancelled, and its tool never runs,
// though the approval it waited for then allowed it.
func TestTaskCancelBeforeStart(t *testing.T) {
	var runs atomic.Int32
	approving := make(chan struct{}, 1)
	url := serveTasks(t, gatedTool(t, "gated", &runs, approving))
	ctx := testContext(t)
	c := clientAs(url, "ann")
	created, err := c.CallTool(ctx, "gated", nil)
	if err != nil || created.TaskID == "" {
		t.Fatalf("tools/call: %+v, %v", created, err)
	}
	select {
	case <-approving:
	case <-ctx.Done():
		t.Fatal("the task's call did not reach its approval")
	}
	if _, err := c.Cancel(ctx, created.TaskID); err != nil {
		t.Fatal(err)
	}
	done, err := c.Await(ctx, created.TaskID)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != "cancelled" || done.Result != nil {
		t.Fatalf("task: %s", done.Raw)
	}
	if n := runs.Load(); n != 0 {
		t.Errorf("the tool ran %d times after its task was cancelled before it started", n)
	}
}
