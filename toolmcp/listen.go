package toolmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults of TaskListener's limits.
const (
	// DefaultMaxListenTaskIDs is the most task ids one subscriptions/listen request may list.
	DefaultMaxListenTaskIDs = 64
	// DefaultMaxListenStreams is the most listen streams one identity may hold open at once.
	DefaultMaxListenStreams = 8
	// DefaultListenLifetime is how long a listen stream stays open at most.
	DefaultListenLifetime = 10 * time.Minute
	// DefaultListenPollInterval is how often a listen stream reads its tasks from the store.
	DefaultListenPollInterval = 500 * time.Millisecond
)

const (
	methodSubscriptionsListen = "subscriptions/listen"
	methodTasksNotification   = "notifications/tasks"
	methodAcknowledged        = "notifications/subscriptions/acknowledged"
	metaSubscriptionID        = "io.modelcontextprotocol/subscriptionId"
)

// TaskListener serves SEP-2575 subscriptions/listen requests asking for SEP-2663
// notifications/tasks, of clients that declare the tasks extension in the request's
// _meta (others get -32021, as a task tool's call does): an SSE stream that acknowledges the subscription, sends a
// notifications/tasks for each listed task of the caller at every status change
// (and its current status first), and ends with the request's result when every
// listed task of the caller is terminal, at MaxLifetime, or when the client goes.
// It reads the tasks from Store every PollInterval, so a change made by any
// replica sharing the store reaches it. A task of another identity is treated
// exactly as an unknown one: it is never sent. Set it as HTTPScreen.Listen.
type TaskListener struct {
	// Store is the store the tasks are read from: the one given to WithStore.
	Store Store
	// Identity returns the identity of a request, as WithTaskIdentity's function;
	// nil means the OAuth user, as the tasks do by default.
	Identity func(ctx context.Context, extra *mcp.RequestExtra) string
	// MaxTaskIDs is the most task ids a request may list; zero means DefaultMaxListenTaskIDs.
	MaxTaskIDs int
	// MaxStreams is the most open streams per identity; zero means DefaultMaxListenStreams.
	MaxStreams int
	// MaxLifetime bounds a stream's life; zero means DefaultListenLifetime.
	MaxLifetime time.Duration
	// PollInterval is how often the store is read; zero means DefaultListenPollInterval.
	PollInterval time.Duration

	mu   sync.Mutex
	open map[string]int // open streams by identity
}

type listenRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Meta struct {
			Capabilities *mcp.ClientCapabilities `json:"io.modelcontextprotocol/clientCapabilities"`
		} `json:"_meta"`
		Notifications struct {
			TaskIDs []string `json:"taskIds"`
		} `json:"notifications"`
	} `json:"params"`
}

// isListen reports whether body is a subscriptions/listen request.
func isListen(body []byte) bool {
	var m struct {
		Method string `json:"method"`
	}
	return json.Unmarshal(body, &m) == nil && m.Method == methodSubscriptionsListen
}

func (l *TaskListener) identity(r *http.Request) (id string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = errors.New("the request's identity could not be read")
		}
	}()
	extra := &mcp.RequestExtra{TokenInfo: auth.TokenInfoFromContext(r.Context()), Header: r.Header}
	if l.Identity == nil {
		return defaultIdentity(r.Context(), extra), nil
	}
	return l.Identity(r.Context(), extra), nil
}

func (l *TaskListener) acquire(who string) bool {
	limit := l.MaxStreams
	if limit <= 0 {
		limit = DefaultMaxListenStreams
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open == nil {
		l.open = map[string]int{}
	}
	if l.open[who] >= limit {
		return false
	}
	l.open[who]++
	return true
}

func (l *TaskListener) release(who string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[who]--; l.open[who] <= 0 {
		delete(l.open, who)
	}
}

// OpenStreams returns how many listen streams are open now.
func (l *TaskListener) OpenStreams() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, c := range l.open {
		n += c
	}
	return n
}

// serve answers the subscriptions/listen request r, whose body is body.
func (l *TaskListener) serve(w http.ResponseWriter, r *http.Request, body []byte) {
	var req listenRequest
	if err := json.Unmarshal(body, &req); err != nil || len(req.ID) == 0 {
		writeAnswer(w, http.StatusBadRequest, answer(nil, jsonrpc.CodeInvalidRequest, "Invalid request: subscriptions/listen is a request with an id"))
		return
	}
	if caps := req.Params.Meta.Capabilities; caps == nil || caps.Extensions[TasksExtension] == nil {
		writeAnswer(w, http.StatusOK, rpcAnswer(req.ID, missingTasksError()))
		return
	}
	maxIDs := l.MaxTaskIDs
	if maxIDs <= 0 {
		maxIDs = DefaultMaxListenTaskIDs
	}
	ids := req.Params.Notifications.TaskIDs
	if len(ids) > maxIDs {
		writeAnswer(w, http.StatusOK, answer(req.ID, jsonrpc.CodeInvalidParams, fmt.Sprintf("Invalid params: more than %d taskIds", maxIDs)))
		return
	}
	who, err := l.identity(r)
	if err != nil {
		writeAnswer(w, http.StatusOK, answer(req.ID, jsonrpc.CodeInternalError, "Internal error: "+err.Error()))
		return
	}
	if !l.acquire(who) {
		writeAnswer(w, http.StatusTooManyRequests, answer(req.ID, jsonrpc.CodeInvalidRequest, "Invalid request: too many open subscriptions/listen streams"))
		return
	}
	defer l.release(who)
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	meta := map[string]json.RawMessage{metaSubscriptionID: req.ID}
	send := func(v any) bool {
		b, err := json.Marshal(v)
		if err != nil {
			return false
		}
		var buf bytes.Buffer
		buf.WriteString("event: message\ndata: ")
		buf.Write(b)
		buf.WriteString("\n\n")
		if _, err := w.Write(buf.Bytes()); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	// The acknowledgement lists every id asked for, known or not: no oracle.
	if ids == nil {
		ids = []string{}
	}
	if !send(map[string]any{"jsonrpc": "2.0", "method": methodAcknowledged,
		"params": map[string]any{"_meta": meta, "notifications": map[string]any{"taskIds": ids}}}) {
		return
	}
	lifetime := l.MaxLifetime
	if lifetime <= 0 {
		lifetime = DefaultListenLifetime
	}
	every := l.PollInterval
	if every <= 0 {
		every = DefaultListenPollInterval
	}
	ctx, cancel := context.WithTimeout(r.Context(), lifetime)
	defer cancel()
	tick := time.NewTicker(every)
	defer tick.Stop()
	last := map[string]TaskStatus{} // the status last sent of each task
	for {
		live := 0
		for _, id := range ids {
			if !wellFormedID(id) {
				continue
			}
			rec, err := l.Store.Task(ctx, id)
			if err != nil || rec.Owner != who {
				continue // unknown, foreign and unreadable alike
			}
			if last[id] != rec.Status {
				last[id] = rec.Status
				if !send(map[string]any{"jsonrpc": "2.0", "method": methodTasksNotification,
					"params": taskNotification(rec, meta)}) {
					return
				}
			}
			if !rec.Status.Terminal() {
				live++
			}
		}
		if live == 0 {
			send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"resultType": "complete", "_meta": meta}})
			return
		}
		select {
		case <-ctx.Done():
			if r.Context().Err() == nil {
				send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"resultType": "complete", "_meta": meta}})
			}
			return
		case <-tick.C:
		}
	}
}

// taskNotification returns the params of a notifications/tasks for rec.
func taskNotification(rec *TaskRecord, meta map[string]json.RawMessage) map[string]any {
	b, _ := json.Marshal(wireOf(rec))
	var p map[string]any
	json.Unmarshal(b, &p)
	if p == nil {
		p = map[string]any{}
	}
	p["_meta"] = meta
	return p
}

// rpcAnswer returns the JSON-RPC error response of err to the request id.
func rpcAnswer(id json.RawMessage, err error) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": err})
	return b
}
