package toolmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/client"
	"github.com/toolgen/toolgen/toolmcp"
)

// preludeTool returns a task tool with a prelude (runtime.Tool.TaskPrelude): it asks
// the user's name in the call's rounds, answers at once when the user declines, and
// otherwise starts its task, in which it asks the user's colour (the task's
// inputRequests) and greets. started gets what StartTask reported.
func preludeTool(t *testing.T, task runtime.TaskSupport, runs *atomic.Int32, started chan<- bool) *runtime.Toolset {
	t.Helper()
	ts, err := runtime.NewTool(runtime.Tool{
		Name:        "greet",
		Description: "Asks the user's name, then greets them in a task.",
		Annotations: runtime.Annotations{ReadOnly: new(true)},
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Task:        task,
		TaskPrelude: true,
	}, func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		runs.Add(1)
		res, err := client.Elicit(ctx, &client.ElicitRequest{Message: "Your name?",
			Schema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)})
		if err != nil {
			return nil, err
		}
		if res.Action != client.ElicitAccept {
			return runtime.TextResult("no name"), nil
		}
		ok := client.StartTask(ctx)
		started <- ok
		if !ok {
			return runtime.TextResult("no task for " + string(res.Content)), ctx.Err()
		}
		colour, err := client.Elicit(ctx, &client.ElicitRequest{Message: "Your colour?",
			Schema: json.RawMessage(`{"type":"object","properties":{"colour":{"type":"string"}}}`)})
		if err != nil {
			return nil, err
		}
		return runtime.TextResult("hello " + string(res.Content) + " in " + string(colour.Content)), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// A call to a tool with a prelude asks in its own rounds (input-required results,
// no task), and becomes a task when the tool calls client.StartTask: that round is
// answered with the task, which carries no requestState, and whose result holds
// what the rounds gathered; the task's own requests go to its inputRequests. The tool
// runs once a round.
func TestTaskPrelude(t *testing.T) {
	var runs atomic.Int32
	started := make(chan bool, 4)
	url := serveTasks(t, preludeTool(t, runtime.TaskRequired, &runs, started))
	ctx := testContext(t)
	c := clientAs(url, "ann")

	round1, err := c.Call(ctx, "tools/call", map[string]any{"name": "greet", "arguments": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	var in struct {
		ResultType    string                     `json:"resultType"`
		TaskID        *string                    `json:"taskId"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  string                     `json:"requestState"`
	}
	if err := json.Unmarshal(round1, &in); err != nil || in.ResultType != "input_required" || in.TaskID != nil || len(in.InputRequests) != 1 {
		t.Fatalf("round 1: %s (%v)", round1, err)
	}
	key := firstKey(in.InputRequests)
	round2, err := c.Call(ctx, "tools/call", map[string]any{"name": "greet", "arguments": map[string]any{},
		"inputResponses": map[string]any{key: map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}}},
		"requestState":   in.RequestState})
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		ResultType string `json:"resultType"`
		TaskID     string `json:"taskId"`
		Status     string `json:"status"`
	}
	if err := json.Unmarshal(round2, &created); err != nil || created.ResultType != "task" || created.TaskID == "" {
		t.Fatalf("round 2: %s (%v)", round2, err)
	}
	for _, k := range []string{`"requestState"`, `"inputRequests"`, `"content"`} {
		if strings.Contains(string(round2), k) {
			t.Errorf("the CreateTaskResult carries %s: %s", k, round2)
		}
	}
	if !<-started {
		t.Fatal("StartTask reported false for a call that became a task")
	}
	asked, err := c.Await(ctx, created.TaskID, "input_required")
	if err != nil {
		t.Fatal(err)
	}
	k2 := firstKey(asked.InputRequests)
	if k2 == "" || !strings.Contains(string(asked.InputRequests[k2]), "Your colour?") {
		t.Fatalf("the task's request: %s", asked.Raw)
	}
	if _, err := c.Update(ctx, created.TaskID, map[string]any{k2: map[string]any{"action": "accept", "content": map[string]any{"colour": "teal"}}}); err != nil {
		t.Fatal(err)
	}
	done, err := c.Await(ctx, created.TaskID)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != "completed" || !strings.Contains(string(done.Result), `hello {\"name\":\"Ada\"} in {\"colour\":\"teal\"}`) {
		t.Fatalf("task: %s", done.Raw)
	}
	if n := runs.Load(); n != 2 {
		t.Errorf("the tool ran %d times, want once a round (2)", n)
	}
}

// A call that ends in its prelude is answered with its result, and is no task; a
// client without the extension gets a TaskOptional tool's prelude as any call, and
// StartTask reports false there.
func TestTaskPreludeEnds(t *testing.T) {
	var runs atomic.Int32
	started := make(chan bool, 4)
	url := serveTasks(t, preludeTool(t, runtime.TaskOptional, &runs, started))
	ctx := testContext(t)
	for _, tc := range []struct {
		name, want string
		caps       map[string]any
		answer     map[string]any
	}{
		{"declined", `"no name"`, nil, map[string]any{"action": "decline"}},
		{"no extension", `no task for {\"name\":\"Bo\"}`, map[string]any{"elicitation": map[string]any{}},
			map[string]any{"action": "accept", "content": map[string]any{"name": "Bo"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := clientAs(url, "ann")
			c.Capabilities = tc.caps
			round1, err := c.Call(ctx, "tools/call", map[string]any{"name": "greet", "arguments": map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			var in struct {
				InputRequests map[string]json.RawMessage `json:"inputRequests"`
				RequestState  string                     `json:"requestState"`
			}
			json.Unmarshal(round1, &in)
			round2, err := c.Call(ctx, "tools/call", map[string]any{"name": "greet", "arguments": map[string]any{},
				"inputResponses": map[string]any{firstKey(in.InputRequests): tc.answer}, "requestState": in.RequestState})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(round2), `"resultType":"complete"`) || strings.Contains(string(round2), `"taskId"`) ||
				!strings.Contains(string(round2), tc.want) {
				t.Fatalf("round 2: %s, want a result with %s", round2, tc.want)
			}
		})
	}
	select {
	case ok := <-started:
		if ok {
			t.Error("StartTask reported true for a client without the extension")
		}
	default:
		t.Error("the tool did not reach StartTask without the extension")
	}
}

// StartTask for an identity at its limit of tasks answers the call with the limit's
// error (-32603), cancels the call's context, and stores no task.
func TestTaskPreludeLimit(t *testing.T) {
	var runs atomic.Int32
	started := make(chan bool, 4)
	url := serveTasks(t, preludeTool(t, runtime.TaskRequired, &runs, started), toolmcp.WithMaxTasksPerIdentity(1))
	ctx := testContext(t)
	c := clientAs(url, "ann")
	round := func() ([]byte, error) {
		round1, err := c.Call(ctx, "tools/call", map[string]any{"name": "greet", "arguments": map[string]any{}})
		if err != nil {
			return nil, err
		}
		var in struct {
			InputRequests map[string]json.RawMessage `json:"inputRequests"`
			RequestState  string                     `json:"requestState"`
		}
		json.Unmarshal(round1, &in)
		return c.Call(ctx, "tools/call", map[string]any{"name": "greet", "arguments": map[string]any{},
			"inputResponses": map[string]any{firstKey(in.InputRequests): map[string]any{"action": "accept", "content": map[string]any{"name": "Cy"}}},
			"requestState":   in.RequestState})
	}
	if first, err := round(); err != nil || !strings.Contains(string(first), `"resultType":"task"`) {
		t.Fatalf("the first task: %s, %v", first, err)
	}
	<-started
	if _, err := round(); rpcCode(err) != -32603 || !strings.Contains(err.Error(), "Too many tasks") {
		t.Fatalf("past the limit: %v, want -32603", err)
	}
	if ok := <-started; ok {
		t.Error("StartTask reported true past the limit")
	}
}

func firstKey(m map[string]json.RawMessage) string {
	for k := range m {
		return k
	}
	return ""
}

// In its prelude a call is its request's: the request going away (over an HTTP
// handler that propagates it, PropagateRequestCancellation) cancels the tool's
// context, and no task is stored.
func TestTaskPreludeRequestGone(t *testing.T) {
	entered, stopped, release := make(chan struct{}), make(chan error, 1), make(chan struct{})
	ts, err := runtime.NewTool(runtime.Tool{
		Name: "wait", Description: "Waits in its prelude.", Annotations: runtime.Annotations{ReadOnly: new(true)},
		InputSchema: json.RawMessage(`{"type":"object"}`), Task: runtime.TaskRequired, TaskPrelude: true,
	}, func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		close(entered)
		select {
		case <-ctx.Done():
		case <-release: // the test gave up: the server may close
		}
		stopped <- ctx.Err()
		if client.StartTask(ctx) {
			t.Error("StartTask reported true once the request was gone")
		}
		return nil, ctx.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	store := toolmcp.NewMemoryStore()
	s := mcp.NewServer(&mcp.Implementation{Name: "tasks", Version: "v0"}, nil)
	toolmcp.Register(s, ts, toolmcp.WithStore(store), toolmcp.WithMaxTasksPerIdentity(1),
		toolmcp.WithTaskIdentity(func(_ context.Context, extra *mcp.RequestExtra) string { return extra.Header.Get("X-User") }))
	srv := httptest.NewServer(&toolmcp.HTTPScreen{Next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, PropagateRequestCancellation: true})})
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	url := srv.URL
	ctx := testContext(t)
	call, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := clientAs(url, "ann").CallTool(call, "wait", nil)
		done <- err
	}()
	select {
	case <-entered:
	case <-ctx.Done():
		t.Fatal("the tool did not start")
	}
	cancel()
	select {
	case err := <-stopped:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the tool's context ended with %v", err)
		}
	case <-ctx.Done():
		t.Fatal("the request's end did not reach the tool in its prelude")
	}
	<-done
	// No task was stored: the identity's one task is still free.
	if _, err := store.DeleteExpired(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := store.CreateTask(ctx, &toolmcp.TaskRecord{ID: "x", Owner: "ann", ExpiresAt: time.Now().Add(time.Hour)}, 1); err != nil {
		t.Errorf("a task was stored for the call whose request went away: %v", err)
	}
}
