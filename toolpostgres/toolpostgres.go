// Package toolpostgres keeps toolmcp's Store in PostgreSQL, so that MCP servers on
// several replicas share their tasks (toolmcp.WithStore) and the approval states they
// accepted (toolmcp.ElicitSpend): a task created on one replica is polled, answered,
// cancelled and finished on any other, and outlives the replica that started it.
//
//	pool, err := pgxpool.New(ctx, "postgres://mcp@db/mcp")
//	...
//	store, err := toolpostgres.New(ctx, pool)
//	...
//	toolmcp.Register(server, tools, toolmcp.WithStore(store))
//
// New creates its tables when they are missing: toolmcp_tasks, one row per task (its
// id, owner and expiry as columns, the rest as the JSON of toolmcp.TaskRecord),
// toolmcp_spent, one row per spent approval state, and toolmcp_pending, one row per
// deferred approval (a loop.Pending, as JSON), which a replica takes by deleting
// it, so that a turn is resumed once. A change to a task is a
// transaction that locks its row, and the limit on an owner's tasks is counted under a
// transaction-scoped advisory lock on the owner, so replicas that act on one task, or
// one owner, at once see each other's changes. Times are the replicas' clocks, which
// should agree to well within a heartbeat (toolmcp.WithTaskHeartbeat).
package toolpostgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/toolmcp"
)

// schema creates the tables and indexes the Store uses, when they are missing.
const schema = `
CREATE TABLE IF NOT EXISTS toolmcp_tasks (
	id         text PRIMARY KEY,
	owner      text NOT NULL,
	expires_at timestamptz NOT NULL,
	record     text NOT NULL
);
CREATE INDEX IF NOT EXISTS toolmcp_tasks_owner ON toolmcp_tasks (owner, expires_at);
CREATE INDEX IF NOT EXISTS toolmcp_tasks_expires ON toolmcp_tasks (expires_at);
CREATE TABLE IF NOT EXISTS toolmcp_spent (
	id         text PRIMARY KEY,
	expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS toolmcp_spent_expires ON toolmcp_spent (expires_at);
CREATE TABLE IF NOT EXISTS toolmcp_pending (
	id         text PRIMARY KEY,
	expires_at timestamptz NOT NULL,
	record     text NOT NULL
);
CREATE INDEX IF NOT EXISTS toolmcp_pending_expires ON toolmcp_pending (expires_at);
`

// Store is a toolmcp.Store in PostgreSQL, and a toolmcp.PendingStore.
type Store struct {
	pool *pgxpool.Pool
}

var _ toolmcp.PendingStore = (*Store)(nil)

// New returns the Store of the database pool connects to, after creating its tables
// there when they are missing (in one transaction, under an advisory lock, so that
// replicas starting at once do not race).
func New(ctx context.Context, pool *pgxpool.Pool) (*Store, error) {
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('toolmcp_schema'))`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, schema)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("toolpostgres: creating the tables: %w", err)
	}
	return &Store{pool: pool}, nil
}

// Open connects a pool to the database url names (a postgres:// URL, or a key=value
// connection string, as pgxpool.New reads them) and returns its Store, after New, with
// the pool, which the caller closes once done with the Store.
func Open(ctx context.Context, url string) (*Store, *pgxpool.Pool, error) {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, nil, fmt.Errorf("toolpostgres: connecting: %w", err)
	}
	store, err := New(ctx, pool)
	if err != nil {
		pool.Close()
		return nil, nil, err
	}
	return store, pool, nil
}

// CreateTask implements toolmcp.Store.
func (s *Store) CreateTask(ctx context.Context, t *toolmcp.TaskRecord, maxPerOwner int) error {
	record, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("toolpostgres: encoding task %s: %w", t.ID, err)
	}
	now := time.Now()
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, "toolmcp_owner:"+t.Owner); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM toolmcp_tasks WHERE owner = $1 AND expires_at > $2`, t.Owner, now).Scan(&n); err != nil {
			return err
		}
		if n >= maxPerOwner {
			return toolmcp.ErrTaskLimit
		}
		_, err := tx.Exec(ctx, `INSERT INTO toolmcp_tasks (id, owner, expires_at, record) VALUES ($1, $2, $3, $4)`,
			t.ID, t.Owner, t.ExpiresAt, string(record))
		return err
	})
	if err != nil && !errors.Is(err, toolmcp.ErrTaskLimit) {
		return fmt.Errorf("toolpostgres: creating task %s: %w", t.ID, err)
	}
	return err
}

// Task implements toolmcp.Store.
func (s *Store) Task(ctx context.Context, id string) (*toolmcp.TaskRecord, error) {
	var record string
	err := s.pool.QueryRow(ctx, `SELECT record FROM toolmcp_tasks WHERE id = $1 AND expires_at > $2`, id, time.Now()).Scan(&record)
	return decode(id, record, err)
}

// decode reads the record of task id that a query returned, with its error.
func decode(id, record string, err error) (*toolmcp.TaskRecord, error) {
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, toolmcp.ErrTaskNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("toolpostgres: reading task: %w", err)
	}
	var t toolmcp.TaskRecord
	if err := json.Unmarshal([]byte(record), &t); err != nil {
		return nil, fmt.Errorf("toolpostgres: decoding task: %w", err)
	}
	if t.ID != id {
		return nil, fmt.Errorf("toolpostgres: the row of task %q holds task %q", id, t.ID)
	}
	return &t, nil
}

// UpdateTask implements toolmcp.Store: the task's row is locked from the read to the
// write.
func (s *Store) UpdateTask(ctx context.Context, id string, update func(*toolmcp.TaskRecord) error) (*toolmcp.TaskRecord, error) {
	var out *toolmcp.TaskRecord
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var record string
		err := tx.QueryRow(ctx, `SELECT record FROM toolmcp_tasks WHERE id = $1 AND expires_at > $2 FOR UPDATE`, id, time.Now()).Scan(&record)
		t, err := decode(id, record, err)
		if err != nil {
			return err
		}
		if err := update(t); err != nil {
			return err
		}
		b, err := json.Marshal(t)
		if err != nil {
			return fmt.Errorf("toolpostgres: encoding task: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE toolmcp_tasks SET owner = $2, expires_at = $3, record = $4 WHERE id = $1`,
			id, t.Owner, t.ExpiresAt, string(b)); err != nil {
			return fmt.Errorf("toolpostgres: writing task: %w", err)
		}
		out = t
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteExpired implements toolmcp.Store.
func (s *Store) DeleteExpired(ctx context.Context, now time.Time) (int, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM toolmcp_tasks WHERE expires_at < $1`, now)
	if err != nil {
		return 0, fmt.Errorf("toolpostgres: deleting expired tasks: %w", err)
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM toolmcp_spent WHERE expires_at < $1`, now); err != nil {
		return int(tag.RowsAffected()), fmt.Errorf("toolpostgres: deleting expired records: %w", err)
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM toolmcp_pending WHERE expires_at < $1`, now); err != nil {
		return int(tag.RowsAffected()), fmt.Errorf("toolpostgres: deleting expired pending turns: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// SavePending implements toolmcp.PendingStore: an insert that only an expired turn
// gives way to.
func (s *Store) SavePending(ctx context.Context, id string, p *loop.Pending, expires time.Time) error {
	b, err := toolmcp.EncodePending(p)
	if err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO toolmcp_pending (id, expires_at, record) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at, record = EXCLUDED.record
		WHERE toolmcp_pending.expires_at < $4`, id, expires, string(b), time.Now())
	if err != nil {
		return fmt.Errorf("toolpostgres: saving pending turn %q: %w", id, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("toolpostgres: the pending turn %q is taken", id)
	}
	return nil
}

// Pending implements toolmcp.PendingStore.
func (s *Store) Pending(ctx context.Context, id string) (*loop.Pending, error) {
	var record string
	err := s.pool.QueryRow(ctx, `SELECT record FROM toolmcp_pending WHERE id = $1 AND expires_at > $2`, id, time.Now()).Scan(&record)
	return decodePending(id, record, err)
}

// TakePending implements toolmcp.PendingStore: one DELETE of the row, which of
// replicas taking it at once one alone returns.
func (s *Store) TakePending(ctx context.Context, id string) (*loop.Pending, error) {
	var record string
	var expires time.Time
	err := s.pool.QueryRow(ctx, `DELETE FROM toolmcp_pending WHERE id = $1 RETURNING record, expires_at`, id).Scan(&record, &expires)
	if err == nil && !expires.After(time.Now()) {
		return nil, toolmcp.ErrPendingNotFound
	}
	return decodePending(id, record, err)
}

// decodePending reads the pending turn id that a query returned, with its error.
func decodePending(id, record string, err error) (*loop.Pending, error) {
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, toolmcp.ErrPendingNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("toolpostgres: reading pending turn %q: %w", id, err)
	}
	return toolmcp.DecodePending([]byte(record))
}

// Spend implements toolmcp.Store: an insert that only an expired record gives way to.
func (s *Store) Spend(ctx context.Context, id string, expires time.Time) (bool, error) {
	tag, err := s.pool.Exec(ctx, `INSERT INTO toolmcp_spent (id, expires_at) VALUES ($1, $2)
		ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE toolmcp_spent.expires_at < $3`,
		id, expires, time.Now())
	if err != nil {
		return false, fmt.Errorf("toolpostgres: recording %s: %w", id, err)
	}
	return tag.RowsAffected() == 1, nil
}
