package toolmcp

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/progress"
)

// TasksExtension is the identifier of MCP's tasks extension (SEP-2663), which a
// server given WithStore advertises in its capabilities.
const TasksExtension = "io.modelcontextprotocol/tasks"

// The defaults and limits of tasks (WithStore).
const (
	// DefaultTaskTTL is how long a task is kept after its last sign of life: its
	// creation, its replica's heartbeat while it runs, its end. WithTaskTTL sets it.
	DefaultTaskTTL = time.Hour
	// DefaultTaskPollInterval is the interval between polls (tasks/get) a client is
	// asked to keep. WithTaskPollInterval sets it.
	DefaultTaskPollInterval = time.Second
	// DefaultTaskHeartbeat is how often the replica running a task says so in the
	// store, and looks there for a cancellation or answers another replica took; a
	// task whose heartbeat is older than three of them, and at least
	// MinTaskStaleness, lost its replica and fails.
	// WithTaskHeartbeat sets it.
	DefaultTaskHeartbeat = 2 * time.Second
	// MinTaskStaleness is the least age of a heartbeat that fails its task, however
	// short the heartbeat: a store slow to write one (a busy database) does not fail a
	// task whose replica still runs it.
	MinTaskStaleness = 2 * time.Second
	// DefaultMaxTasksPerIdentity is the most tasks one identity (WithTaskIdentity)
	// may have at once, finished ones included until they expire. A call past it is
	// refused with the JSON-RPC error -32603 and runs no tool. WithMaxTasksPerIdentity
	// sets it.
	DefaultMaxTasksPerIdentity = 100
	// DefaultMaxTaskResultBytes is the longest tools/call result, as JSON, a task
	// keeps; a task whose result is longer fails with the JSON-RPC error -32603
	// saying so. WithMaxTaskResultBytes sets it.
	DefaultMaxTaskResultBytes = 1 << 20
)

// taskIDBytes is the number of random bytes of a task id: 128 bits.
const taskIDBytes = 16

// The methods of the tasks extension.
const (
	methodTasksGet    = "tasks/get"
	methodTasksUpdate = "tasks/update"
	methodTasksCancel = "tasks/cancel"
)

// WithStore serves the tasks extension (io.modelcontextprotocol/tasks, SEP-2663) with
// store keeping the tasks: toolpostgres.New for replicas sharing PostgreSQL. Without
// it, Register serves the extension when a tool of the Toolset is a task, with a
// NewMemoryStore of its own. The server advertises the extension, and a call to a
// tool whose Task is TaskOptional or TaskRequired, from a client that declares the
// extension in the call's capabilities (per request under MCP 2026-07-28's _meta, or
// its session's), is answered at once with a task: the tool runs in the background,
// with the context WithContext derives from the call, and the client polls tasks/get
// for its status and, once completed, its result (or, once failed, the JSON-RPC
// error; a tool's error is a completed task whose result has isError set). A
// TaskRequired tool called by a client without the extension is refused with the
// JSON-RPC error -32021; a TaskOptional one runs as any call. Tools that are not tasks
// are served as ever. A task tool with a prelude (runtime.Tool.TaskPrelude) runs in its
// request first, as any call, its requests to the client answered in the call's
// rounds, until it calls client.StartTask: that round is answered with the task.
//
// While a task runs, its tool's client.Elicit and client.Sample (and ElicitApprover's
// approval) put their request in the task's inputRequests, and the task's status is
// input_required until the client answers with tasks/update; the answer reaches the
// waiting request, once. tasks/cancel cancels the tool's context and the task ends
// cancelled. progress.Report sets the task's statusMessage. The task's log
// records are dropped: the extension sends none.
//
// Calls of Register on one server serve one set of tasks methods, the last's: give them
// all the same store.
//
// Only the identity that created a task (WithTaskIdentity) may read, answer or cancel
// it; to any other its id is unknown (-32602), as an expired task's is. A task lives
// for its TTL (WithTaskTTL) after its last sign of life; a replica that stops while its
// task runs leaves it to fail, on any replica's next tasks/get, once its heartbeat is
// three WithTaskHeartbeat intervals old (and MinTaskStaleness): a tool's run is not
// resumed elsewhere.
func WithStore(store Store) Option {
	return func(c *config) { c.tasks.store = store }
}

// WithTaskIdentity sets how the identity of a request is read, for the tasks it
// creates and the tasks it may see (WithStore): from the verified token of an
// authenticated HTTP request (extra.TokenInfo), or anything else the application
// trusts. The default is the token's UserID when there is a token, and "" otherwise:
// without authentication every client is one identity, and a task's unguessable id
// is all that guards it.
func WithTaskIdentity(f func(ctx context.Context, extra *mcp.RequestExtra) string) Option {
	return func(c *config) { c.tasks.identity = f }
}

// WithTaskTTL sets how long a task is kept after its last sign of life
// (DefaultTaskTTL when not set, or set to zero or less).
func WithTaskTTL(d time.Duration) Option { return func(c *config) { c.tasks.ttl = d } }

// WithTaskPollInterval sets the poll interval a task asks its client to keep
// (DefaultTaskPollInterval when not set, or set to zero or less).
func WithTaskPollInterval(d time.Duration) Option {
	return func(c *config) { c.tasks.pollInterval = d }
}

// WithTaskHeartbeat sets how often a replica running a task says so in the store
// (DefaultTaskHeartbeat when not set, or set to zero or less).
func WithTaskHeartbeat(d time.Duration) Option {
	return func(c *config) { c.tasks.heartbeat = d }
}

// WithMaxTasksPerIdentity sets the most tasks one identity may have at once
// (DefaultMaxTasksPerIdentity when not set, or set to zero or less).
func WithMaxTasksPerIdentity(n int) Option {
	return func(c *config) { c.tasks.maxPerIdentity = n }
}

// WithMaxTaskResultBytes sets the longest result a task keeps, in bytes of JSON
// (DefaultMaxTaskResultBytes when not set, or set to zero or less).
func WithMaxTaskResultBytes(n int) Option {
	return func(c *config) { c.tasks.maxResultBytes = n }
}

// taskConfig is the tasks part of Register's configuration.
type taskConfig struct {
	store          Store
	identity       func(ctx context.Context, extra *mcp.RequestExtra) string
	ttl            time.Duration
	pollInterval   time.Duration
	heartbeat      time.Duration
	maxPerIdentity int
	maxResultBytes int
}

func (c *taskConfig) setDefaults() {
	if c.ttl <= 0 {
		c.ttl = DefaultTaskTTL
	}
	if c.pollInterval <= 0 {
		c.pollInterval = DefaultTaskPollInterval
	}
	if c.heartbeat <= 0 {
		c.heartbeat = DefaultTaskHeartbeat
	}
	if c.maxPerIdentity <= 0 {
		c.maxPerIdentity = DefaultMaxTasksPerIdentity
	}
	if c.maxResultBytes <= 0 {
		c.maxResultBytes = DefaultMaxTaskResultBytes
	}
	if c.identity == nil {
		c.identity = defaultIdentity
	}
}

func defaultIdentity(_ context.Context, extra *mcp.RequestExtra) string {
	if extra != nil && extra.TokenInfo != nil {
		return "user:" + extra.TokenInfo.UserID
	}
	return ""
}

// taskServer serves the tasks of one Register: it runs the tasks this replica
// created, and answers the tasks methods from the store for any task.
type taskServer struct {
	ts  *runtime.Toolset
	cfg *config
	tc  taskConfig
	// replica names this process's runs in the store.
	replica string

	mu        sync.Mutex
	runs      map[string]*taskRun // the tasks running here, by id
	lastSweep time.Time           // when expired tasks were last deleted
}

// sweep deletes the store's expired tasks, at most once per TTL or minute, whichever
// is shorter: a task's result is deleted that long after it expired, at the latest,
// while tasks are created.
func (t *taskServer) sweep(ctx context.Context, now time.Time) {
	t.mu.Lock()
	due := now.Sub(t.lastSweep) >= min(t.tc.ttl, time.Minute)
	if due {
		t.lastSweep = now
	}
	t.mu.Unlock()
	if due {
		t.tc.store.DeleteExpired(ctx, now)
	}
}

func newTaskServer(ts *runtime.Toolset, c *config) *taskServer {
	t := &taskServer{ts: ts, cfg: c, tc: c.tasks, replica: randomID(), runs: map[string]*taskRun{}}
	t.tc.setDefaults()
	return t
}

// register adds the tasks methods and the middleware that creates tasks to s.
func (t *taskServer) register(s *mcp.Server) {
	mcp.AddReceivingCustomMethod(s, methodTasksGet, func(ctx context.Context, _ *mcp.ServerSession, p *taskIDParams) (*getTaskResult, error) {
		return t.get(ctx, p)
	})
	mcp.AddReceivingCustomMethod(s, methodTasksUpdate, func(ctx context.Context, _ *mcp.ServerSession, p *taskUpdateParams) (*ackResult, error) {
		return t.update(ctx, p)
	})
	mcp.AddReceivingCustomMethod(s, methodTasksCancel, func(ctx context.Context, _ *mcp.ServerSession, p *taskIDParams) (*ackResult, error) {
		return t.cancel(ctx, p)
	})
	s.AddReceivingMiddleware(t.middleware)
}

type taskRequestKey struct{}

// middleware advertises the extension, hands a task tool's call to call, and gives
// the tasks methods their request.
func (t *taskServer) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case methodTasksGet, methodTasksUpdate, methodTasksCancel:
			if !negotiated(req) {
				return nil, missingTasksError()
			}
			return next(context.WithValue(ctx, taskRequestKey{}, req), method, req)
		case "tools/call":
			if cr, ok := req.(*mcp.CallToolRequest); ok && cr.Params != nil {
				if tool, ok := t.ts.Lookup(cr.Params.Name); ok && tool.Task != runtime.TaskForbidden {
					if negotiated(req) {
						if tool.TaskPrelude {
							return t.prelude(ctx, method, cr, tool, next)
						}
						return t.create(ctx, cr, tool)
					}
					if tool.Task == runtime.TaskRequired {
						return nil, missingTasksError()
					}
				}
			}
		}
		res, err := next(ctx, method, req)
		switch r := res.(type) {
		case *mcp.InitializeResult:
			if r != nil && r.Capabilities != nil {
				r.Capabilities.AddExtension(TasksExtension, map[string]any{})
			}
		case *mcp.DiscoverResult:
			if r != nil && r.Capabilities != nil {
				r.Capabilities.AddExtension(TasksExtension, map[string]any{})
			}
		}
		return res, err
	}
}

// negotiated reports whether the request's client declares the tasks extension under
// MCP 2026-07-28 or later: in the request's _meta, or its session's initialize. The
// extension is not defined under older versions.
func negotiated(req mcp.Request) bool {
	r, ok := req.(interface {
		ProtocolVersion() string
		ClientCapabilities() *mcp.ClientCapabilities
	})
	if !ok || r.ProtocolVersion() < "2026-07-28" {
		return false
	}
	caps := r.ClientCapabilities()
	if caps == nil {
		return false
	}
	_, ok = caps.Extensions[TasksExtension]
	return ok
}

func missingTasksError() error {
	data, _ := json.Marshal(mcp.MissingRequiredClientCapabilityData{
		RequiredCapabilities: &mcp.ClientCapabilities{Extensions: map[string]any{TasksExtension: map[string]any{}}},
	})
	return &jsonrpc.Error{
		Code:    mcp.CodeMissingRequiredClientCapabilities,
		Message: "Missing required client capability: the tool runs as a task, and the client does not declare " + TasksExtension,
		Data:    data,
	}
}

// The wire shapes of the extension.
type (
	taskIDParams struct {
		mcp.ParamsBase
		TaskID string `json:"taskId"`
	}
	taskUpdateParams struct {
		mcp.ParamsBase
		TaskID         string                     `json:"taskId"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
	}
	// taskWire is a Task.
	taskWire struct {
		TaskID         string     `json:"taskId"`
		Status         TaskStatus `json:"status"`
		StatusMessage  string     `json:"statusMessage,omitempty"`
		CreatedAt      string     `json:"createdAt"`
		LastUpdatedAt  string     `json:"lastUpdatedAt"`
		TTLMs          int64      `json:"ttlMs"`
		PollIntervalMs int64      `json:"pollIntervalMs,omitempty"`
	}
	createTaskResult struct {
		mcp.ResultBase
		ResultType string `json:"resultType"`
		taskWire
	}
	getTaskResult struct {
		mcp.ResultBase
		ResultType string `json:"resultType"`
		taskWire
		InputRequests map[string]json.RawMessage `json:"inputRequests,omitempty"`
		Result        json.RawMessage            `json:"result,omitempty"`
		Error         json.RawMessage            `json:"error,omitempty"`
	}
	ackResult struct {
		mcp.ResultBase
		ResultType string `json:"resultType"`
	}
)

func wireOf(r *TaskRecord) taskWire {
	return taskWire{
		TaskID:         r.ID,
		Status:         r.Status,
		StatusMessage:  r.StatusMessage,
		CreatedAt:      r.CreatedAt.UTC().Format(time.RFC3339Nano),
		LastUpdatedAt:  r.UpdatedAt.UTC().Format(time.RFC3339Nano),
		TTLMs:          max(r.ExpiresAt.Sub(r.CreatedAt).Milliseconds(), 1),
		PollIntervalMs: max(r.PollInterval.Milliseconds(), 1),
	}
}

func randomID() string {
	b := make([]byte, taskIDBytes)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// wellFormedID reports whether id is spelled as randomID spells an id.
func wellFormedID(id string) bool {
	if len(id) != base64.RawURLEncoding.EncodedLen(taskIDBytes) {
		return false
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(id)
	return err == nil && base64.RawURLEncoding.EncodeToString(b) == id
}

// errUnknownTask is the answer to a task id this identity has no task under: never
// created, expired, or another identity's, alike.
func errUnknownTask(id string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Invalid params: no task " + quoteID(id)}
}

// quoteID quotes a task id a client sent, cut to the length of an id toolmcp makes.
func quoteID(id string) string {
	const most = 64
	if len(id) > most {
		id = id[:most] + "…"
	}
	return fmt.Sprintf("%q", id)
}

// identityOf returns the identity of the request req of ctx. WithTaskIdentity's
// function is the application's code: a panic there fails the request, not the server.
func (t *taskServer) identityOf(ctx context.Context, req mcp.Request) (id string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: the request's identity could not be read"}
		}
	}()
	var extra *mcp.RequestExtra
	if req != nil {
		extra = req.GetExtra()
	}
	return t.tc.identity(ctx, extra), nil
}

// create creates the task of a call to tool and starts it.
func (t *taskServer) create(ctx context.Context, req *mcp.CallToolRequest, tool *runtime.Tool) (mcp.Result, error) {
	owner, err := t.identityOf(ctx, req)
	if err != nil {
		return nil, err
	}
	rec, err := t.newTask(ctx, owner, tool)
	if err != nil {
		return nil, err
	}
	// The run keeps the request's values (what the application's HTTP middleware put
	// there), not its end: the task outlives the request.
	t.start(context.WithoutCancel(ctx), rec.ID, req, req.ClientCapabilities())
	return &createTaskResult{ResultType: "task", taskWire: wireOf(rec)}, nil
}

// newTask stores a new task of owner running tool on this replica, and returns it,
// or the JSON-RPC error that answers the call instead.
func (t *taskServer) newTask(ctx context.Context, owner string, tool *runtime.Tool) (*TaskRecord, error) {
	now := time.Now()
	t.sweep(ctx, now)
	rec := &TaskRecord{
		ID:           randomID(),
		Owner:        owner,
		Tool:         tool.Name,
		Status:       TaskWorking,
		CreatedAt:    now,
		UpdatedAt:    now,
		ExpiresAt:    now.Add(t.tc.ttl),
		PollInterval: t.tc.pollInterval,
		Runner:       t.replica,
		Heartbeat:    now,
	}
	if err := t.tc.store.CreateTask(ctx, rec, t.tc.maxPerIdentity); err != nil {
		if errors.Is(err, ErrTaskLimit) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
				Message: fmt.Sprintf("Too many tasks: this identity has %d, the most it may have until some expire", t.tc.maxPerIdentity)}
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: the task could not be stored"}
	}
	return rec, nil
}

// preludeRun is a call to a tool with a prelude (runtime.Tool.TaskPrelude) from a
// client that negotiated the extension: it runs in its request, as any call does (the
// SDK's tools/call and toolmcp's handler), its requests to the client answered in the
// call's rounds, until the tool calls client.StartTask, which creates the task,
// answers the request with it, and leaves the run to go on as the task's.
type preludeRun struct {
	t      *taskServer
	tool   *runtime.Tool
	req    *mcp.CallToolRequest
	owner  string
	reqCtx context.Context // the request's context
	runCtx context.Context // the run's, which stop cancels
	stop   context.CancelFunc
	unlink func() bool                   // stops the request's end from cancelling the run
	answer chan preludeAnswer            // what answers the request, sent once
	client atomic.Pointer[sessionClient] // the call's client, once the handler runs

	mu    sync.Mutex
	run   *taskRun // the task, once started
	ended bool     // the tool returned: there is no task to start
	sent  bool     // the answer was sent
}

// preludeAnswer answers the request of a call with a prelude.
type preludeAnswer struct {
	res mcp.Result
	err error
}

type preludeKey struct{}

// preludeOf returns the prelude the call of ctx runs in, or nil.
func preludeOf(ctx context.Context) *preludeRun {
	p, _ := ctx.Value(preludeKey{}).(*preludeRun)
	return p
}

// prelude serves the call req to tool, which has a prelude, with next (the SDK's
// tools/call, and toolmcp's handler) in its request, until the tool starts the task
// (client.StartTask) or returns.
func (t *taskServer) prelude(ctx context.Context, method string, req *mcp.CallToolRequest, tool *runtime.Tool, next mcp.MethodHandler) (mcp.Result, error) {
	owner, err := t.identityOf(ctx, req)
	if err != nil {
		return nil, err
	}
	// The run keeps the request's values, not its end, which cancels it only in the
	// prelude: a task outlives the request.
	runCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	p := &preludeRun{t: t, tool: tool, req: req, owner: owner, reqCtx: ctx, runCtx: runCtx, stop: stop,
		unlink: context.AfterFunc(ctx, stop), answer: make(chan preludeAnswer, 1)}
	go func() {
		res, err := next(context.WithValue(runCtx, preludeKey{}, p), method, req)
		stop()
		p.mu.Lock()
		run, sent := p.run, p.sent
		p.sent = true
		p.mu.Unlock()
		if run != nil {
			t.mu.Lock()
			delete(t.runs, run.id)
			t.mu.Unlock()
		}
		if !sent {
			p.answer <- preludeAnswer{res, err}
		}
	}()
	a := <-p.answer
	return a.res, a.err
}

// ran reports whether the call, whose tool returned r, runs as a task, and then
// keeps r as the task's result: the request was answered with the task.
func (p *preludeRun) ran(r *runtime.Result) bool {
	p.mu.Lock()
	run := p.run
	p.ended = true
	p.mu.Unlock()
	if run == nil {
		return false
	}
	run.finish(p.runCtx.Err() != nil, r)
	return true
}

// start creates the task of the call, answers the request with it, and has the run
// go on as the task's; it reports whether the call runs as a task.
func (p *preludeRun) start() bool {
	client := p.client.Load()
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.run != nil:
		return true
	case p.ended, p.sent, client == nil, !client.live(), client.call.asking(), p.reqCtx.Err() != nil:
		// The call returned, or this round ends asking the client, or the request
		// is gone: there is no request to answer with a task.
		return false
	}
	rec, err := p.t.newTask(p.reqCtx, p.owner, p.tool)
	if err != nil {
		p.sent = true
		p.stop()
		p.answer <- preludeAnswer{nil, err}
		return false
	}
	// Should the request have ended while the task was stored, the run was
	// cancelled, and the task ends cancelled.
	p.unlink()
	run := &taskRun{t: p.t, id: rec.ID, caps: p.req.ClientCapabilities(), stop: p.stop, wakeCh: make(chan struct{}, 1)}
	p.t.mu.Lock()
	p.t.runs[rec.ID] = run
	p.t.mu.Unlock()
	client.mu.Lock()
	client.task = run
	client.mu.Unlock()
	p.run = run
	p.sent = true
	go run.watch(p.runCtx)
	p.answer <- preludeAnswer{&createTaskResult{ResultType: "task", taskWire: wireOf(rec)}, nil}
	return true
}

// get answers tasks/get: the task as it is, after failing it when its replica is gone.
func (t *taskServer) get(ctx context.Context, p *taskIDParams) (*getTaskResult, error) {
	rec, err := t.owned(ctx, p.TaskID)
	if err != nil {
		return nil, err
	}
	if rec = t.reap(ctx, rec); rec == nil {
		return nil, errUnknownTask(p.TaskID)
	}
	out := &getTaskResult{ResultType: "complete", taskWire: wireOf(rec)}
	switch rec.Status {
	case TaskInputRequired:
		out.InputRequests = rec.InputRequests
	case TaskCompleted:
		out.Result = rec.Result
	case TaskFailed:
		out.Error = rec.Error
	}
	return out, nil
}

// owned returns the task id when the request's identity owns it, checking the
// request's Mcp-Name header against the id.
func (t *taskServer) owned(ctx context.Context, id string) (*TaskRecord, error) {
	req, _ := ctx.Value(taskRequestKey{}).(mcp.Request)
	if req != nil {
		if extra := req.GetExtra(); extra != nil {
			if names := extra.Header.Values("Mcp-Name"); len(names) > 0 &&
				(len(names) > 1 || strings.TrimSpace(names[0]) != id) {
				return nil, &jsonrpc.Error{Code: mcp.CodeHeaderMismatch,
					Message: "Header mismatch: the Mcp-Name header is not the request's taskId"}
			}
		}
	}
	if !wellFormedID(id) {
		return nil, errUnknownTask(id) // no store reads an id toolmcp never makes
	}
	rec, err := t.tc.store.Task(ctx, id)
	if errors.Is(err, ErrTaskNotFound) {
		return nil, errUnknownTask(id)
	}
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: the task could not be read"}
	}
	owner, err := t.identityOf(ctx, req)
	if err != nil {
		return nil, err
	}
	if rec.Owner != owner {
		return nil, errUnknownTask(id)
	}
	return rec, nil
}

// reap fails a task whose replica stopped beating, and returns the task as it is
// then (nil when it is gone).
func (t *taskServer) reap(ctx context.Context, rec *TaskRecord) *TaskRecord {
	stale := max(3*t.tc.heartbeat, MinTaskStaleness)
	if rec.Status.Terminal() || time.Since(rec.Heartbeat) < stale {
		return rec
	}
	out, err := t.tc.store.UpdateTask(ctx, rec.ID, func(r *TaskRecord) error {
		if r.Status.Terminal() || time.Since(r.Heartbeat) < stale {
			return nil
		}
		t.end(r, TaskFailed)
		r.StatusMessage = "the server running the task stopped"
		r.Error = rpcError(jsonrpc.CodeInternalError, "Internal error: the server running the task stopped before it finished")
		return nil
	})
	if err != nil {
		return rec
	}
	return out
}

// end puts r in the terminal status s, to be kept for the TTL from now.
func (t *taskServer) end(r *TaskRecord, s TaskStatus) {
	now := time.Now()
	r.Status = s
	r.UpdatedAt = now
	r.ExpiresAt = now.Add(t.tc.ttl)
	r.InputRequests, r.InputResponses = nil, nil
}

func rpcError(code int64, msg string) json.RawMessage {
	b, _ := json.Marshal(struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg})
	return b
}

// update answers tasks/update: the answers to requests the task has outstanding are
// kept for the tool, any other is ignored.
func (t *taskServer) update(ctx context.Context, p *taskUpdateParams) (*ackResult, error) {
	if p.InputResponses == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Invalid params: inputResponses must be an object"}
	}
	if _, err := t.owned(ctx, p.TaskID); err != nil {
		return nil, err
	}
	_, err := t.tc.store.UpdateTask(ctx, p.TaskID, func(r *TaskRecord) error {
		for k, v := range p.InputResponses {
			if _, asked := r.InputRequests[k]; !asked {
				continue // unknown, or answered already: ignored
			}
			if r.InputResponses == nil {
				r.InputResponses = map[string]json.RawMessage{}
			}
			r.InputResponses[k] = v
			delete(r.InputRequests, k)
		}
		if r.Status == TaskInputRequired && len(r.InputRequests) == 0 {
			r.Status = TaskWorking
		}
		r.UpdatedAt = time.Now()
		return nil
	})
	if err != nil && !errors.Is(err, ErrTaskNotFound) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: the task could not be updated"}
	}
	t.wake(p.TaskID)
	return &ackResult{ResultType: "complete"}, nil
}

// cancel answers tasks/cancel: the task's tool has its context cancelled, on
// whichever replica runs it. A finished task stays as it ended.
func (t *taskServer) cancel(ctx context.Context, p *taskIDParams) (*ackResult, error) {
	if _, err := t.owned(ctx, p.TaskID); err != nil {
		return nil, err
	}
	_, err := t.tc.store.UpdateTask(ctx, p.TaskID, func(r *TaskRecord) error {
		if !r.Status.Terminal() {
			r.CancelRequested = true
			r.UpdatedAt = time.Now()
		}
		return nil
	})
	if err != nil && !errors.Is(err, ErrTaskNotFound) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: the task could not be cancelled"}
	}
	t.wake(p.TaskID)
	return &ackResult{ResultType: "complete"}, nil
}

// wake has the run of task id, when it runs here, look at the store at once.
func (t *taskServer) wake(id string) {
	t.mu.Lock()
	r := t.runs[id]
	t.mu.Unlock()
	if r != nil {
		r.poke()
	}
}

// taskRun is a task running on this replica.
type taskRun struct {
	t    *taskServer
	id   string
	caps *mcp.ClientCapabilities

	stop   context.CancelFunc
	wakeCh chan struct{}

	mu       sync.Mutex
	asks     int                      // the tool's requests so far
	waiting  map[string]chan struct{} // the requests waiting for an answer, by key
	progress string                   // the last progress report, for the statusMessage
}

type taskRunKey struct{}

// taskRunOf returns the task the call of ctx runs as, or nil.
func taskRunOf(ctx context.Context) *taskRun {
	r, _ := ctx.Value(taskRunKey{}).(*taskRun)
	return r
}

// observeProgress keeps the tool's last progress report, which the next heartbeat
// writes in the task's statusMessage.
func (r *taskRun) observeProgress(_ context.Context, p progress.Event) {
	msg := strconv.FormatFloat(p.Done, 'f', -1, 64)
	if p.Total > 0 {
		msg += "/" + strconv.FormatFloat(p.Total, 'f', -1, 64)
	}
	if p.Message != "" {
		msg += ": " + p.Message
	}
	r.mu.Lock()
	r.progress = msg
	r.mu.Unlock()
}

// inputRequestJSON returns params as an entry of inputRequests: its method and params.
func inputRequestJSON(params mcp.InputRequest) (json.RawMessage, error) {
	b, err := json.Marshal(mcp.InputRequestMap{"r": params})
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return m["r"], nil
}

// ask puts params in the task's inputRequests, under a key never used before in the
// task, and waits for the owner's answer (tasks/update, on any replica), which it
// takes from the store: an answer is taken once.
func (r *taskRun) ask(ctx context.Context, params mcp.InputRequest) (mcp.InputResponse, error) {
	raw, err := inputRequestJSON(params)
	if err != nil {
		return nil, fmt.Errorf("the request does not marshal: %w", err)
	}
	store := r.t.tc.store
	ch := make(chan struct{}, 1)
	r.mu.Lock()
	r.asks++
	key := askKeyPrefix + strconv.Itoa(r.asks)
	if r.waiting == nil {
		r.waiting = map[string]chan struct{}{}
	}
	r.waiting[key] = ch
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.waiting, key)
		r.mu.Unlock()
	}()
	_, err = store.UpdateTask(ctx, r.id, func(t *TaskRecord) error {
		if t.Status.Terminal() || t.CancelRequested {
			return errors.New("the task ended")
		}
		if t.InputRequests == nil {
			t.InputRequests = map[string]json.RawMessage{}
		}
		t.InputRequests[key] = raw
		t.Status = TaskInputRequired
		t.UpdatedAt = time.Now()
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("the task's request could not be stored: %w", err)
	}
	// Should the wait end unanswered, the request is withdrawn.
	defer func() {
		clean, done := context.WithTimeout(context.Background(), 10*time.Second)
		defer done()
		store.UpdateTask(clean, r.id, func(t *TaskRecord) error {
			if _, ok := t.InputRequests[key]; !ok || t.Status.Terminal() {
				return nil
			}
			delete(t.InputRequests, key)
			if len(t.InputRequests) == 0 && t.Status == TaskInputRequired {
				t.Status = TaskWorking
			}
			return nil
		})
	}()
	for {
		var answer json.RawMessage
		_, err := store.UpdateTask(ctx, r.id, func(t *TaskRecord) error {
			answer = nil
			if v, ok := t.InputResponses[key]; ok {
				answer = v
				delete(t.InputResponses, key)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("the task could not be read: %w", err)
		}
		if answer != nil {
			var m mcp.InputResponseMap
			if err := json.Unmarshal([]byte(`{"a":`+string(answer)+`}`), &m); err != nil || m["a"] == nil {
				return nil, fmt.Errorf("the client's answer is not one to this request")
			}
			return m["a"], nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-ch:
		}
	}
}

func (r *taskRun) poke() {
	select {
	case r.wakeCh <- struct{}{}:
	default:
	}
}

// start runs the tool of the task id, for the call req, in the background.
func (t *taskServer) start(parent context.Context, id string, req *mcp.CallToolRequest, caps *mcp.ClientCapabilities) {
	ctx, stop := context.WithCancel(parent)
	run := &taskRun{t: t, id: id, caps: caps, stop: stop, wakeCh: make(chan struct{}, 1)}
	t.mu.Lock()
	t.runs[id] = run
	t.mu.Unlock()
	go run.watch(ctx)
	go run.run(ctx, req)
}

// watch keeps the task's heartbeat, and cancels the run when the task's owner asked
// or the task is gone, until the run ends.
func (r *taskRun) watch(ctx context.Context) {
	tick := time.NewTicker(r.t.tc.heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-r.wakeCh:
		}
		rec, err := r.t.tc.store.UpdateTask(ctx, r.id, func(t *TaskRecord) error {
			now := time.Now()
			t.Heartbeat = now
			t.ExpiresAt = now.Add(r.t.tc.ttl)
			r.mu.Lock()
			if r.progress != "" && t.Status == TaskWorking {
				t.StatusMessage = r.progress
			}
			r.mu.Unlock()
			return nil
		})
		switch {
		case errors.Is(err, ErrTaskNotFound):
			r.stop()
			return
		case err == nil && (rec.CancelRequested || rec.Status.Terminal()):
			r.stop()
			return
		}
		r.broadcast()
	}
}

// answers wakes the requests that wait for an answer.
func (r *taskRun) broadcast() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ch := range r.waiting {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// run runs the tool and stores how it ended.
func (r *taskRun) run(ctx context.Context, req *mcp.CallToolRequest) {
	t := r.t
	defer func() {
		r.stop()
		t.mu.Lock()
		delete(t.runs, r.id)
		t.mu.Unlock()
	}()
	var res *runtime.Result
	// A cancel that reached the store before the run began (on another replica,
	// say) ends the task without running its tool.
	if rec, err := t.tc.store.Task(ctx, r.id); err == nil && rec.CancelRequested {
		r.stop()
	}
	func() {
		if ctx.Err() != nil {
			res = runtime.ErrorResult("the task was cancelled before its tool started", ctx.Err())
			return
		}
		defer func() {
			if p := recover(); p != nil {
				res = runtime.ErrorResult(req.Params.Name+" failed with an internal error",
					fmt.Errorf("toolmcp: running task %s of %s panicked: %v\n%s", r.id, req.Params.Name, p, debug.Stack()))
			}
		}()
		callCtx, _, client := callContext(ctx, req, t.cfg, r)
		defer client.end()
		var args []byte
		if req.Params != nil {
			args = req.Params.Arguments
		}
		res = t.ts.Call(callCtx, req.Params.Name, args)
	}()
	r.finish(ctx.Err() != nil, res)
}

// finish stores how the task's run ended: with res, or cancelled.
func (r *taskRun) finish(cancelled bool, res *runtime.Result) {
	t := r.t
	body, merr := json.Marshal(Result(res))
	// The run's context is done; the store's writes get one of their own.
	store, done := context.WithTimeout(context.Background(), 30*time.Second)
	defer done()
	t.tc.store.UpdateTask(store, r.id, func(rec *TaskRecord) error {
		if rec.Status.Terminal() {
			return nil
		}
		switch {
		case rec.CancelRequested || cancelled:
			t.end(rec, TaskCancelled)
			rec.StatusMessage = "cancelled"
		case merr != nil || res.Outcome == runtime.OutcomeInternalError:
			t.end(rec, TaskFailed)
			rec.StatusMessage = res.Text()
			rec.Error = rpcError(jsonrpc.CodeInternalError, "Internal error: "+res.Text())
		case len(body) > t.tc.maxResultBytes:
			t.end(rec, TaskFailed)
			rec.StatusMessage = fmt.Sprintf("the result of %d bytes is longer than the %d a task keeps", len(body), t.tc.maxResultBytes)
			rec.Error = rpcError(jsonrpc.CodeInternalError, "Internal error: "+rec.StatusMessage)
		default:
			t.end(rec, TaskCompleted)
			rec.StatusMessage = ""
			rec.Result = body
		}
		return nil
	})
}
