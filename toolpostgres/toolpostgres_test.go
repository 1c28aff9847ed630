package toolpostgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/internal/storetest"
	"github.com/toolgen/toolgen/internal/taskclient"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/client"
	"github.com/toolgen/toolgen/toolmcp"
	"github.com/toolgen/toolgen/toolpostgres"
)

// adminURL is the database the tests create their own in: TOOLPOSTGRES_URL, or the
// local server's socket (peer authentication, as .ci/run sets it up).
func adminURL() string {
	if u := os.Getenv("TOOLPOSTGRES_URL"); u != "" {
		return u
	}
	return "host=/var/run/postgresql dbname=postgres"
}

// testDatabase creates a database of its own for the test, dropped at its end, and
// returns its connection string. Without a server the test is skipped, except under
// CI, where it fails.
func testDatabase(t testing.TB) string {
	t.Helper()
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, adminURL())
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no PostgreSQL at %q: %v", adminURL(), err)
		}
		t.Skipf("no PostgreSQL at %q (set TOOLPOSTGRES_URL): %v", adminURL(), err)
	}
	b := make([]byte, 6)
	rand.Read(b)
	name := "toolpostgres_test_" + hex.EncodeToString(b)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close(ctx)
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)")
		admin.Close(ctx)
	})
	return withDatabase(t, adminURL(), name)
}

// withDatabase returns the connection string conn with the database name.
func withDatabase(t testing.TB, conn, name string) string {
	t.Helper()
	if !strings.HasPrefix(conn, "postgres://") && !strings.HasPrefix(conn, "postgresql://") {
		return conn + " dbname=" + name // the last of a key wins
	}
	u, err := neturl.Parse(conn)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// openStore opens a pool on url and its Store; the pool closes at the test's end.
func openStore(t testing.TB, url string) (*toolpostgres.Store, *pgxpool.Pool) {
	t.Helper()
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	store, err := toolpostgres.New(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	return store, pool
}

// replica serves ts with store over stateless streamable HTTP, as one replica of a
// deployment, and returns its URL. The identity of a request is its X-User header.
func replica(t *testing.T, ts *runtime.Toolset, store toolmcp.Store, opts ...toolmcp.Option) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "replica", Version: "v0"}, nil)
	opts = append([]toolmcp.Option{
		toolmcp.WithStore(store),
		toolmcp.WithTaskHeartbeat(50 * time.Millisecond),
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

func as(url, user string) *taskclient.Client {
	return &taskclient.Client{URL: url, Header: http.Header{"X-User": {user}}}
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// askTool is a task tool that asks the user for a word, and answers with it once
// release is closed.
func askTool(t *testing.T, release <-chan struct{}, runs *atomic.Int32) *runtime.Toolset {
	t.Helper()
	ts, err := runtime.NewTool(runtime.Tool{
		Name: "ask", Description: "Asks for a word.", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: runtime.Annotations{ReadOnly: new(true)}, Task: runtime.TaskRequired,
	}, func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		runs.Add(1)
		res, err := client.Elicit(ctx, &client.ElicitRequest{Message: "A word?",
			Schema: json.RawMessage(`{"type":"object","properties":{"word":{"type":"string"}}}`)})
		if err != nil {
			return nil, err
		}
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return runtime.TextResult("the word is " + string(res.Content)), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func firstKey(m map[string]json.RawMessage) string {
	for k := range m {
		return k
	}
	return ""
}

// Two replicas on one database serve one task: created on A, polled, answered,
// finished and read on B, while its tool runs on A.
func TestTwoReplicas(t *testing.T) {
	url := testDatabase(t)
	storeA, _ := openStore(t, url)
	storeB, _ := openStore(t, url)
	release := make(chan struct{})
	var runs atomic.Int32
	ts := askTool(t, release, &runs)
	a, b := as(replica(t, ts, storeA), "ann"), as(replica(t, ts, storeB), "ann")
	ctx := testContext(t)

	created, err := a.CallTool(ctx, "ask", nil)
	if err != nil {
		t.Fatal(err)
	}
	if created.ResultType != "task" {
		t.Fatalf("tools/call on A: %s", created.Raw)
	}
	asked, err := b.Await(ctx, created.TaskID, "input_required")
	if err != nil {
		t.Fatal(err)
	}
	key := firstKey(asked.InputRequests)
	if _, err := b.Update(ctx, created.TaskID, map[string]any{key: map[string]any{"action": "accept", "content": map[string]any{"word": "tern"}}}); err != nil {
		t.Fatal(err)
	}
	working, err := b.Await(ctx, created.TaskID, "working")
	if err != nil {
		t.Fatal(err)
	}
	if len(working.InputRequests) != 0 {
		t.Errorf("answered, still asking: %s", working.Raw)
	}
	close(release)
	done, err := b.Await(ctx, created.TaskID)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != "completed" || !strings.Contains(string(done.Result), `the word is {\"word\":\"tern\"}`) {
		t.Fatalf("on B: %s", done.Raw)
	}
	if again, err := a.Get(ctx, created.TaskID); err != nil || string(again.Result) != string(done.Result) {
		t.Errorf("on A: %+v, %v", again, err)
	}
	if runs.Load() != 1 {
		t.Errorf("the tool ran %d times, want once", runs.Load())
	}
	// Another identity sees nothing of it, on either replica.
	for _, c := range []*taskclient.Client{as(a.URL, "bob"), as(b.URL, "bob")} {
		if _, err := c.Get(ctx, created.TaskID); !isCode(err, -32602) {
			t.Errorf("bob's tasks/get: %v", err)
		}
	}
}

// tasks/cancel on B cancels the tool's context on A.
func TestCancelOnAnotherReplica(t *testing.T) {
	url := testDatabase(t)
	storeA, _ := openStore(t, url)
	storeB, _ := openStore(t, url)
	started, stopped := make(chan struct{}), make(chan error, 1)
	ts, err := runtime.NewTool(runtime.Tool{
		Name: "wait", Description: "Waits.", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: runtime.Annotations{ReadOnly: new(true)}, Task: runtime.TaskOptional,
	}, func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		close(started)
		<-ctx.Done()
		stopped <- ctx.Err()
		return nil, ctx.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	a, b := as(replica(t, ts, storeA), "ann"), as(replica(t, ts, storeB), "ann")
	ctx := testContext(t)
	created, err := a.CallTool(ctx, "wait", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Cancelled before its tool starts, a task ends without running it: wait for the
	// tool on A, whose context the cancel on B must reach.
	select {
	case <-started:
	case <-ctx.Done():
		t.Fatal("the task's tool did not start")
	}
	if _, err := b.Cancel(ctx, created.TaskID); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-stopped:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the tool's context on A ended with %v", err)
		}
	case <-ctx.Done():
		t.Fatal("tasks/cancel on B did not reach the tool's context on A")
	}
	done, err := b.Await(ctx, created.TaskID)
	if err != nil || done.Status != "cancelled" {
		t.Fatalf("%+v, %v", done, err)
	}
}

// killable is a Store whose replica died: once killed, nothing it does reaches the
// database (its process is gone), while the database and the other replicas go on.
type killable struct {
	toolmcp.Store
	dead atomic.Bool
}

var errDead = errors.New("the replica is dead")

func (k *killable) CreateTask(ctx context.Context, t *toolmcp.TaskRecord, n int) error {
	if k.dead.Load() {
		return errDead
	}
	return k.Store.CreateTask(ctx, t, n)
}

func (k *killable) UpdateTask(ctx context.Context, id string, f func(*toolmcp.TaskRecord) error) (*toolmcp.TaskRecord, error) {
	if k.dead.Load() {
		return nil, errDead
	}
	return k.Store.UpdateTask(ctx, id, f)
}

// A task outlives a restart: a finished task is read, with its result, from a new
// replica on a new pool; a task whose replica died while its tool ran fails, once
// its heartbeat is old, rather than staying working forever.
func TestRestart(t *testing.T) {
	url := testDatabase(t)
	ctx := testContext(t)
	release := make(chan struct{})
	close(release)
	var runs atomic.Int32
	ts := askTool(t, release, &runs)

	storeA, poolA := openStore(t, url)
	dying := &killable{Store: storeA}
	a := as(replica(t, ts, dying), "ann")
	finished, err := a.CallTool(ctx, "ask", nil)
	if err != nil {
		t.Fatal(err)
	}
	asked, err := a.Await(ctx, finished.TaskID, "input_required")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Update(ctx, finished.TaskID, map[string]any{firstKey(asked.InputRequests): map[string]any{"action": "accept", "content": map[string]any{"word": "kept"}}}); err != nil {
		t.Fatal(err)
	}
	if done, err := a.Await(ctx, finished.TaskID); err != nil || done.Status != "completed" {
		t.Fatalf("%+v, %v", done, err)
	}
	running, err := a.CallTool(ctx, "ask", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Await(ctx, running.TaskID, "input_required"); err != nil {
		t.Fatal(err)
	}
	// A dies, and its pool with it; B starts on a pool of its own.
	dying.dead.Store(true)
	poolA.Close()
	storeB, _ := openStore(t, url)
	b := as(replica(t, ts, storeB), "ann")

	kept, err := b.Get(ctx, finished.TaskID)
	if err != nil || kept.Status != "completed" || !strings.Contains(string(kept.Result), `kept`) {
		t.Fatalf("the finished task after the restart: %+v, %v", kept, err)
	}
	lost, err := b.Await(ctx, running.TaskID, "failed")
	if err != nil {
		t.Fatal(err)
	}
	if lost.Error == nil || lost.Error.Code != -32603 || !strings.Contains(lost.Error.Message, "stopped") {
		t.Errorf("the task of the dead replica: %s", lost.Raw)
	}
}

// A task is kept for its TTL after it ends, then it is unknown, and DeleteExpired
// (which a replica runs as it creates tasks) deletes its row.
func TestTTL(t *testing.T) {
	url := testDatabase(t)
	store, pool := openStore(t, url)
	ctx := testContext(t)
	ts, err := runtime.NewTool(runtime.Tool{
		Name: "job", Description: "Does a job.", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: runtime.Annotations{ReadOnly: new(true)}, Task: runtime.TaskOptional,
	}, func(context.Context, json.RawMessage) (*runtime.Result, error) {
		return runtime.TextResult("done"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	const ttl = 300 * time.Millisecond
	c := as(replica(t, ts, store, toolmcp.WithTaskTTL(ttl)), "ann")
	created, err := c.CallTool(ctx, "job", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Await(ctx, created.TaskID); err != nil {
		t.Fatal(err)
	}
	rec, err := store.Task(ctx, created.TaskID)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(rec.ExpiresAt) + time.Millisecond)
	if _, err := c.Get(ctx, created.TaskID); !isCode(err, -32602) {
		t.Errorf("tasks/get past the TTL: %v", err)
	}
	// The next task's creation sweeps the expired one away.
	if _, err := c.CallTool(ctx, "job", nil); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM toolmcp_tasks WHERE id = $1`, created.TaskID).Scan(&n); err != nil || n != 0 {
		t.Errorf("rows of the expired task: %d, %v", n, err)
	}
}

// The limit on an owner's tasks holds across replicas: at the limit, a call on either
// replica is refused.
func TestLimitAcrossReplicas(t *testing.T) {
	url := testDatabase(t)
	storeA, _ := openStore(t, url)
	storeB, _ := openStore(t, url)
	ts, err := runtime.NewTool(runtime.Tool{
		Name: "job", Description: "Does a job.", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: runtime.Annotations{ReadOnly: new(true)}, Task: runtime.TaskOptional,
	}, func(context.Context, json.RawMessage) (*runtime.Result, error) {
		return runtime.TextResult("done"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	limit := toolmcp.WithMaxTasksPerIdentity(2)
	a, b := as(replica(t, ts, storeA, limit), "ann"), as(replica(t, ts, storeB, limit), "ann")
	ctx := testContext(t)
	if _, err := a.CallTool(ctx, "job", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := b.CallTool(ctx, "job", nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*taskclient.Client{a, b} {
		if _, err := c.CallTool(ctx, "job", nil); !isCode(err, -32603) {
			t.Errorf("a third task: %v", err)
		}
	}
}

// Spend records an id once, until it expires, for every replica: the record behind
// ElicitApprover's spent states (toolmcp.ElicitSpend(store.Spend)).
func TestSpend(t *testing.T) {
	url := testDatabase(t)
	a, _ := openStore(t, url)
	b, _ := openStore(t, url)
	ctx := testContext(t)
	soon := time.Now().Add(time.Hour)
	if first, err := a.Spend(ctx, "nonce", soon); err != nil || !first {
		t.Fatalf("first spend: %v, %v", first, err)
	}
	if first, err := b.Spend(ctx, "nonce", soon); err != nil || first {
		t.Fatalf("the same id on another replica: %v, %v", first, err)
	}
	past := time.Now().Add(-time.Second)
	if first, err := a.Spend(ctx, "old", past); err != nil || !first {
		t.Fatal(first, err)
	}
	if first, err := b.Spend(ctx, "old", soon); err != nil || !first {
		t.Errorf("an expired record gives way: %v, %v", first, err)
	}
}

func isCode(err error, code int64) bool {
	var e *taskclient.Error
	return errors.As(err, &e) && e.Code == code
}

// A task cancelled on B before its tool starts on A ends cancelled, and its tool never
// runs: the call waits on A for an approval that allows it only once its context
// ended.
func TestCancelBeforeStart(t *testing.T) {
	url := testDatabase(t)
	storeA, _ := openStore(t, url)
	storeB, _ := openStore(t, url)
	var runs atomic.Int32
	approving := make(chan struct{}, 1)
	ts, err := runtime.NewTool(runtime.Tool{
		Name: "gated", Description: "Needs an approval.", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: runtime.Annotations{Destructive: new(true)}, Task: runtime.TaskOptional,
	}, func(context.Context, json.RawMessage) (*runtime.Result, error) {
		runs.Add(1)
		return runtime.TextResult("ran"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ts = ts.WithApprover(func(ctx context.Context, _ runtime.ApprovalRequest) runtime.Decision {
		approving <- struct{}{}
		<-ctx.Done()
		return runtime.Allow()
	})
	a, b := as(replica(t, ts, storeA), "ann"), as(replica(t, ts, storeB), "ann")
	ctx := testContext(t)
	created, err := a.CallTool(ctx, "gated", nil)
	if err != nil || created.TaskID == "" {
		t.Fatalf("tools/call on A: %+v, %v", created, err)
	}
	select {
	case <-approving:
	case <-ctx.Done():
		t.Fatal("the task's call did not reach its approval on A")
	}
	if _, err := b.Cancel(ctx, created.TaskID); err != nil {
		t.Fatal(err)
	}
	done, err := b.Await(ctx, created.TaskID)
	if err != nil || done.Status != "cancelled" || done.Result != nil {
		t.Fatalf("%+v, %v", done, err)
	}
	if n := runs.Load(); n != 0 {
		t.Errorf("the tool ran %d times after its task was cancelled before it started", n)
	}
}

// Two replicas on one database share deferred approvals: a turn deferred on A is
// resumed on B, once, whichever replicas take it at once.
func TestPending(t *testing.T) {
	url := testDatabase(t)
	storeA, _ := openStore(t, url)
	storeB, _ := openStore(t, url)
	storetest.Pending(t, storeA, storeB)
}
