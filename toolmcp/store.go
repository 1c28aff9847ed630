package toolmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/toolgen/toolgen/runtime/loop"
)

// A Store keeps what the servers of one deployment share: the tasks of the MCP tasks
// extension (WithStore), and the approval states ElicitApprover accepted (its spent
// records, ElicitSpendIn). Every replica behind a load balancer is given the same store,
// so that a task created on one is polled, answered, cancelled and finished on any
// other. NewMemoryStore keeps it in one process; the nested module
// github.com/toolgen/toolgen/toolpostgres keeps it in PostgreSQL.
//
// A Store is safe for concurrent use. Its methods fail with an error wrapping
// ErrTaskNotFound for a task it does not hold (never created, or deleted past its
// expiry), and with ErrTaskLimit when CreateTask would give an owner more tasks than
// allowed.
type Store interface {
	// CreateTask stores t, a new task, unless its owner already has maxPerOwner tasks
	// that have not expired (ErrTaskLimit). It fails when t.ID is taken.
	CreateTask(ctx context.Context, t *TaskRecord, maxPerOwner int) error
	// Task returns a copy of the task id, whoever owns it: toolmcp checks the owner.
	// A task past its ExpiresAt is not found, whether or not it was deleted yet.
	Task(ctx context.Context, id string) (*TaskRecord, error)
	// UpdateTask changes the task id atomically: update gets a copy of the task as it
	// is and changes it; the store keeps the change, unless update fails, and returns
	// the task as it then is. No other change to the task comes between the read and
	// the write (a transaction, or a lock), so replicas that update one task at once
	// each see the other's change. update may be called more than once.
	UpdateTask(ctx context.Context, id string, update func(*TaskRecord) error) (*TaskRecord, error)
	// DeleteExpired deletes the tasks whose ExpiresAt is before now, and the spent
	// records (and, in a PendingStore, the deferred approvals) whose time is over,
	// and returns how many tasks it deleted.
	DeleteExpired(ctx context.Context, now time.Time) (int, error)
	// Spend records id until expires and reports whether it was not recorded before:
	// an atomic set-if-absent, shared by every replica (see ElicitSpend).
	Spend(ctx context.Context, id string, expires time.Time) (first bool, err error)
}

// ErrTaskNotFound is the error of a Store asked for a task it does not hold.
var ErrTaskNotFound = errors.New("toolmcp: task not found")

// ErrTaskLimit is the error of a Store whose CreateTask would give an owner more
// tasks than allowed.
var ErrTaskLimit = errors.New("toolmcp: too many tasks for this identity")

// TaskStatus is the status of a task, as the tasks extension names it.
type TaskStatus string

// The statuses of a task. Completed, failed and cancelled are terminal: a task in one
// of them does not change again.
const (
	TaskWorking       TaskStatus = "working"
	TaskInputRequired TaskStatus = "input_required"
	TaskCompleted     TaskStatus = "completed"
	TaskFailed        TaskStatus = "failed"
	TaskCancelled     TaskStatus = "cancelled"
)

// Terminal reports whether s is a status a task does not leave.
func (s TaskStatus) Terminal() bool {
	return s == TaskCompleted || s == TaskFailed || s == TaskCancelled
}

// A TaskRecord is a task as a Store keeps it: plain data, JSON-serializable (a store
// may keep it as one JSON document, as toolpostgres does, with its ID, Owner and
// ExpiresAt beside it for its indexes).
type TaskRecord struct {
	// ID is the task's id: 128 random bits, unguessable, base64url.
	ID string `json:"id"`
	// Owner is the identity that created the task (WithTaskIdentity); only it may read,
	// answer or cancel it.
	Owner string `json:"owner"`
	// Tool is the name of the tool the task runs.
	Tool string `json:"tool"`
	// Status is where the task is; StatusMessage says more (the tool's last progress
	// report, or why it failed).
	Status        TaskStatus `json:"status"`
	StatusMessage string     `json:"statusMessage,omitempty"`
	// CreatedAt and UpdatedAt are when the task was created and last changed.
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	// ExpiresAt is when the store may delete the task: a TTL (WithTaskTTL) after its
	// last sign of life (its creation, the running replica's heartbeat, its end).
	ExpiresAt time.Time `json:"expiresAt"`
	// PollInterval is the interval between polls the client is asked to keep.
	PollInterval time.Duration `json:"pollInterval"`
	// Runner names the replica running the task, and Heartbeat is when it last said
	// it still does: a task whose heartbeat is older than three heartbeat intervals
	// (and MinTaskStaleness) lost its replica, and fails.
	Runner    string    `json:"runner,omitempty"`
	Heartbeat time.Time `json:"heartbeat"`
	// CancelRequested reports that the owner asked for the task to be cancelled: the
	// replica running it cancels the tool's context.
	CancelRequested bool `json:"cancelRequested,omitempty"`
	// InputRequests are the tool's requests to the client not answered yet, by key
	// (elicitation/create, sampling/createMessage, as JSON); InputResponses the
	// owner's answers to them that the tool has not taken yet. A key is never used
	// twice in a task's life.
	InputRequests  map[string]json.RawMessage `json:"inputRequests,omitempty"`
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
	// Result is the tools/call result of a completed task; Error the JSON-RPC error
	// of a failed one.
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// Clone returns a deep copy of t.
func (t *TaskRecord) Clone() *TaskRecord {
	c := *t
	c.InputRequests = maps.Clone(t.InputRequests)
	c.InputResponses = maps.Clone(t.InputResponses)
	return &c
}

// MemoryStore is a Store in the memory of one process, and a PendingStore: the default
// of WithStore. Its tasks and deferred approvals end with the process, and replicas
// do not share it.
type MemoryStore struct {
	mu      sync.Mutex
	tasks   map[string]*TaskRecord
	spent   map[string]time.Time
	pending map[string]pendingEntry // deferred approvals, by id
	sweepAt int                     // the size of spent at which expired records are dropped
}

var _ PendingStore = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{tasks: map[string]*TaskRecord{}, spent: map[string]time.Time{}}
}

// CreateTask implements Store.
func (m *MemoryStore) CreateTask(_ context.Context, t *TaskRecord, maxPerOwner int) error {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.tasks[t.ID]; ok {
		return errors.New("toolmcp: task id taken")
	}
	n := 0
	for id, o := range m.tasks {
		if now.After(o.ExpiresAt) {
			delete(m.tasks, id)
			continue
		}
		if o.Owner == t.Owner {
			n++
		}
	}
	if n >= maxPerOwner {
		return ErrTaskLimit
	}
	m.tasks[t.ID] = t.Clone()
	return nil
}

// Task implements Store.
func (m *MemoryStore) Task(_ context.Context, id string) (*TaskRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok || time.Now().After(t.ExpiresAt) {
		return nil, ErrTaskNotFound
	}
	return t.Clone(), nil
}

// UpdateTask implements Store.
func (m *MemoryStore) UpdateTask(_ context.Context, id string, update func(*TaskRecord) error) (*TaskRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok || time.Now().After(t.ExpiresAt) {
		return nil, ErrTaskNotFound
	}
	c := t.Clone()
	if err := update(c); err != nil {
		return nil, err
	}
	m.tasks[id] = c
	return c.Clone(), nil
}

// DeleteExpired implements Store.
func (m *MemoryStore) DeleteExpired(_ context.Context, now time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for id, t := range m.tasks {
		if now.After(t.ExpiresAt) {
			delete(m.tasks, id)
			n++
		}
	}
	for id, exp := range m.spent {
		if now.After(exp) {
			delete(m.spent, id)
		}
	}
	for id, e := range m.pending {
		if now.After(e.expires) {
			delete(m.pending, id)
		}
	}
	return n, nil
}

// Spend implements Store.
func (m *MemoryStore) Spend(_ context.Context, id string, expires time.Time) (bool, error) {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if exp, ok := m.spent[id]; ok && !now.After(exp) {
		return false, nil
	}
	// As ElicitApprover's own record does: the expired records are dropped when there
	// are twice as many as after the last sweep.
	if len(m.spent) >= m.sweepAt {
		for k, exp := range m.spent {
			if now.After(exp) {
				delete(m.spent, k)
			}
		}
		m.sweepAt = max(2*len(m.spent), minSweep)
	}
	m.spent[id] = expires
	return true, nil
}

// A PendingStore is a Store that also keeps deferred approvals: the turns a
// loop.Loop with DeferApprovals stopped at (*loop.Pending), while people decide,
// so that a turn stopped on one replica is resumed on any other. It is optional: a
// Store may implement it, as NewMemoryStore's and toolpostgres's do.
//
// A turn is resumed once: TakePending deletes it as it returns it, and of the replicas
// that take one id at once, one gets it. Resume it with what TakePending returned, and
// only that; what Pending returns is for showing the calls to people.
type PendingStore interface {
	Store
	// SavePending stores p under id, chosen by the application (unguessable when
	// people reach it by its id), until expires. It fails when id is taken by a
	// turn that has not expired, and with ErrPendingTooLarge when p's JSON is longer
	// than MaxPendingBytes.
	SavePending(ctx context.Context, id string, p *loop.Pending, expires time.Time) error
	// Pending returns a copy of the turn id, as stored: an error wrapping
	// ErrPendingNotFound when there is none (never saved, taken, or expired).
	Pending(ctx context.Context, id string) (*loop.Pending, error)
	// TakePending deletes the turn id and returns it, or fails as Pending does.
	TakePending(ctx context.Context, id string) (*loop.Pending, error)
}

// MaxPendingBytes is the longest deferred approval, as JSON, a PendingStore keeps: a
// loop.Pending holds the conversation so far (its request and response).
const MaxPendingBytes = 8 << 20

// ErrPendingNotFound is the error of a PendingStore asked for a turn it does not hold.
var ErrPendingNotFound = errors.New("toolmcp: pending turn not found")

// ErrPendingTooLarge is the error of a PendingStore given a turn whose JSON is longer
// than MaxPendingBytes.
var ErrPendingTooLarge = errors.New("toolmcp: the pending turn is longer than MaxPendingBytes")

// EncodePending returns p as a PendingStore keeps it, its JSON, or an error wrapping
// ErrPendingTooLarge when that is longer than MaxPendingBytes.
func EncodePending(p *loop.Pending) ([]byte, error) {
	if p == nil {
		return nil, errors.New("toolmcp: no pending turn to store")
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("toolmcp: encoding the pending turn: %w", err)
	}
	if len(b) > MaxPendingBytes {
		return nil, fmt.Errorf("%w (%d bytes, at most %d)", ErrPendingTooLarge, len(b), MaxPendingBytes)
	}
	return b, nil
}

// DecodePending reads a turn EncodePending wrote: a new value, never resumed.
func DecodePending(b []byte) (*loop.Pending, error) {
	var p loop.Pending
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("toolmcp: decoding the pending turn: %w", err)
	}
	return &p, nil
}

// pendingEntry is a deferred approval a MemoryStore keeps.
type pendingEntry struct {
	data    []byte
	expires time.Time
}

// SavePending implements PendingStore.
func (m *MemoryStore) SavePending(_ context.Context, id string, p *loop.Pending, expires time.Time) error {
	b, err := EncodePending(p)
	if err != nil {
		return err
	}
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.pending[id]; ok && !now.After(e.expires) {
		return fmt.Errorf("toolmcp: the pending turn %q is taken", id)
	}
	if m.pending == nil {
		m.pending = map[string]pendingEntry{}
	}
	m.pending[id] = pendingEntry{data: b, expires: expires}
	return nil
}

// Pending implements PendingStore.
func (m *MemoryStore) Pending(_ context.Context, id string) (*loop.Pending, error) {
	m.mu.Lock()
	e, ok := m.pending[id]
	m.mu.Unlock()
	if !ok || time.Now().After(e.expires) {
		return nil, ErrPendingNotFound
	}
	return DecodePending(e.data)
}

// TakePending implements PendingStore.
func (m *MemoryStore) TakePending(_ context.Context, id string) (*loop.Pending, error) {
	m.mu.Lock()
	e, ok := m.pending[id]
	delete(m.pending, id)
	m.mu.Unlock()
	if !ok || time.Now().After(e.expires) {
		return nil, ErrPendingNotFound
	}
	return DecodePending(e.data)
}
