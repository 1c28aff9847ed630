package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolgen/toolgen/internal/taskclient"
)

// testDatabase creates a database for the test on the local PostgreSQL (its socket,
// peer authentication, as .ci/run sets it up; TOOLPOSTGRES_URL names another server's
// admin database), dropped at the test's end, and returns its postgres:// URL. Without
// a server the test is skipped, except under CI, where it fails.
func testDatabase(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	admin := os.Getenv("TOOLPOSTGRES_URL")
	if admin == "" {
		admin = "postgres:///postgres?host=/var/run/postgresql"
	}
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no PostgreSQL at %q: %v", admin, err)
		}
		t.Skipf("no PostgreSQL at %q (set TOOLPOSTGRES_URL): %v", admin, err)
	}
	b := make([]byte, 6)
	rand.Read(b)
	name := "conformance_test_" + hex.EncodeToString(b)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		conn.Close(ctx)
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)")
		conn.Close(ctx)
	})
	u, _, _ := strings.Cut(admin, "?")
	u = u[:strings.LastIndex(u, "/")+1] + name
	if _, q, ok := strings.Cut(admin, "?"); ok {
		u += "?" + q
	}
	return u
}

// The server takes -store postgres://: two of them on one database serve one task,
// slow_compute started on one and polled to its end on the other; -store memory
// tasks are the server's own. A value that is neither is a usage error.
func TestStoreFlag(t *testing.T) {
	db := testDatabase(t)
	a := &taskclient.Client{URL: startServer(t, "-store", db)}
	b := &taskclient.Client{URL: startServer(t, "-store", db)}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	created, err := a.CallTool(ctx, "slow_compute", map[string]any{"seconds": 1, "label": "shared"})
	if err != nil || created.ResultType != "task" {
		t.Fatalf("tools/call on A: %+v, %v", created, err)
	}
	done, err := b.Await(ctx, created.TaskID)
	if err != nil || done.Status != "completed" || !strings.Contains(string(done.Result), `Computed \"shared\" in 1 seconds.`) {
		t.Fatalf("tasks/get on B: %+v, %v", done, err)
	}

	mem := &taskclient.Client{URL: startServer(t, "-store", "memory")}
	if _, err := mem.Get(ctx, created.TaskID); err == nil || !strings.Contains(err.Error(), "-32602") {
		t.Errorf("the task on a memory store's server: %v, want unknown (-32602)", err)
	}

	bin := t.TempDir() + "/conformance"
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "-http", "127.0.0.1:0", "-store", "redis://x").CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(out), "want memory or a postgres:// URL") {
		t.Errorf("-store redis://x: exit %d, %s", code, out)
	}
}

// exitCode is the exit status of a command that ended with err.
func exitCode(err error) int {
	var e *exec.ExitError
	if errors.As(err, &e) {
		return e.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
