package toolpostgres_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/toolgen/toolgen/toolmcp"
)

// BenchmarkStore measures what a task costs the database: its creation (the owner's
// count under its lock, and the insert), a heartbeat (a locked read-modify-write) and
// a poll (tasks/get's read), on the local server.
func BenchmarkStore(b *testing.B) {
	url := testDatabase(b)
	store, _ := openStore(b, url)
	ctx := context.Background()
	now := time.Now()
	rec := func(i int) *toolmcp.TaskRecord {
		return &toolmcp.TaskRecord{ID: "bench-" + strconv.Itoa(i), Owner: "ann", Status: toolmcp.TaskWorking,
			CreatedAt: now, UpdatedAt: now, ExpiresAt: now.Add(time.Hour), Heartbeat: now}
	}
	b.Run("create", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if err := store.CreateTask(ctx, rec(i), 1<<30); err != nil {
				b.Fatal(err)
			}
		}
	})
	r := rec(0)
	r.ID = "bench-one"
	if err := store.CreateTask(ctx, r, 1<<30); err != nil {
		b.Fatal(err)
	}
	b.Run("heartbeat", func(b *testing.B) {
		for b.Loop() {
			if _, err := store.UpdateTask(ctx, r.ID, func(t *toolmcp.TaskRecord) error { t.Heartbeat = time.Now(); return nil }); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("get", func(b *testing.B) {
		for b.Loop() {
			if _, err := store.Task(ctx, r.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
}
