// Package storetest checks a toolmcp.PendingStore, for the tests of toolmcp's
// MemoryStore and toolpostgres: a turn a loop.Loop deferred on one replica is
// resumed on another, once, whichever replicas take it at once.
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/openai"
	"github.com/toolgen/toolgen/toolmcp"
)

// deleteTool is a destructive tool that counts its runs: a Loop that defers approvals
// stops at a call of it.
func deleteTool(t *testing.T, runs *atomic.Int32) *runtime.Toolset {
	t.Helper()
	ts, err := runtime.NewTool(runtime.Tool{
		Name: "delete_file", Description: "Deletes a file.",
		Annotations: runtime.Annotations{Destructive: new(true)},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`),
	}, func(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
		runs.Add(1)
		return runtime.TextResult("deleted " + string(args)), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// model answers the first request with a call of delete_file, and any later one
// (which holds the call's answer) with text.
func model(_ context.Context, req []byte) ([]byte, error) {
	if strings.Contains(string(req), `"role":"tool"`) {
		return []byte(`{"choices":[{"message":{"role":"assistant","content":"done"},"finish_reason":"stop"}]}`), nil
	}
	return []byte(`{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"call_1","type":"function",` +
		`"function":{"name":"delete_file","arguments":"{\"path\":\"/tmp/a\"}"}}]},"finish_reason":"tool_calls"}]}`), nil
}

// Pending checks that a and b, two replicas' stores of one deployment (or one store
// twice), share deferred approvals: a turn deferred and saved on a is shown and taken
// on b, resumed there once, and taken by one replica alone when both take it at once;
// an id is taken until the turn is taken or expires; and a turn's JSON is kept up to
// toolmcp.MaxPendingBytes, not one byte more.
func Pending(t *testing.T, a, b toolmcp.PendingStore) {
	ctx := context.Background()
	var runs atomic.Int32
	lp := func() *loop.Loop {
		return &loop.Loop{Provider: openai.Chat{}, Tools: deleteTool(t, &runs), Send: model, DeferApprovals: true}
	}
	_, _, err := lp().Run(ctx, []byte(`{"model":"m","messages":[{"role":"user","content":"delete /tmp/a"}]}`))
	var p *loop.Pending
	if !errors.As(err, &p) {
		t.Fatalf("Run: %v, want a pending turn", err)
	}
	const id = "turn-1"
	expires := time.Now().Add(time.Hour)
	if err := a.SavePending(ctx, id, p, expires); err != nil {
		t.Fatal(err)
	}
	if err := b.SavePending(ctx, id, p, expires); err == nil {
		t.Error("SavePending of an id taken by a turn that has not expired succeeded")
	}
	shown, err := b.Pending(ctx, id)
	if err != nil || len(shown.Calls) != 1 || shown.Calls[0].Digest != p.Calls[0].Digest {
		t.Fatalf("Pending on b: %+v, %v", shown, err)
	}

	// Both replicas take it at once: one gets it.
	var wg sync.WaitGroup
	got := make([]*loop.Pending, 2)
	errs := make([]error, 2)
	for i, s := range []toolmcp.PendingStore{a, b} {
		wg.Go(func() { got[i], errs[i] = s.TakePending(ctx, id) })
	}
	wg.Wait()
	var taken *loop.Pending
	for i := range got {
		switch {
		case errs[i] == nil:
			if taken != nil {
				t.Fatal("both replicas took the turn")
			}
			taken = got[i]
		case !errors.Is(errs[i], toolmcp.ErrPendingNotFound):
			t.Fatalf("TakePending: %v", errs[i])
		}
	}
	if taken == nil {
		t.Fatal("neither replica took the turn")
	}
	resp, _, err := lp().Resume(ctx, taken, map[string]runtime.Decision{
		taken.Calls[0].Key: loop.Approved(taken.Calls[0].Digest),
	})
	if err != nil || !strings.Contains(string(resp), `"done"`) {
		t.Fatalf("Resume: %s, %v", resp, err)
	}
	if n := runs.Load(); n != 1 {
		t.Errorf("the approved call ran %d times, want once", n)
	}
	for _, s := range []toolmcp.PendingStore{a, b} {
		if _, err := s.TakePending(ctx, id); !errors.Is(err, toolmcp.ErrPendingNotFound) {
			t.Errorf("TakePending of a taken turn: %v", err)
		}
		if _, err := s.Pending(ctx, id); !errors.Is(err, toolmcp.ErrPendingNotFound) {
			t.Errorf("Pending of a taken turn: %v", err)
		}
	}
	// A taken id is free again.
	if err := b.SavePending(ctx, id, p, expires); err != nil {
		t.Errorf("SavePending of a taken id: %v", err)
	}

	// An expired turn is gone, and its id free; DeleteExpired deletes it.
	if err := a.SavePending(ctx, "turn-old", p, time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Pending(ctx, "turn-old"); !errors.Is(err, toolmcp.ErrPendingNotFound) {
		t.Errorf("Pending of an expired turn: %v", err)
	}
	if _, err := a.DeleteExpired(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := b.TakePending(ctx, "turn-old"); !errors.Is(err, toolmcp.ErrPendingNotFound) {
		t.Errorf("TakePending of an expired turn: %v", err)
	}
	if err := b.SavePending(ctx, "turn-old", p, expires); err != nil {
		t.Errorf("SavePending of an expired id: %v", err)
	}

	// The limit: a turn of MaxPendingBytes is kept, one a byte longer is not.
	sized := func(n int) *loop.Pending {
		q := &loop.Pending{Provider: p.Provider, Round: 1, Calls: []loop.PendingCall{{Key: "k", Tool: "delete_file", Arguments: json.RawMessage(`""`)}}}
		base, _ := json.Marshal(q)
		q.Calls[0].Arguments = json.RawMessage(`"` + strings.Repeat("x", n-len(base)) + `"`)
		return q
	}
	at := sized(toolmcp.MaxPendingBytes)
	if b, _ := json.Marshal(at); len(b) != toolmcp.MaxPendingBytes {
		t.Fatalf("the turn at the limit is %d bytes", len(b))
	}
	if err := a.SavePending(ctx, "turn-big", at, expires); err != nil {
		t.Errorf("a turn of MaxPendingBytes: %v", err)
	}
	if big, err := b.TakePending(ctx, "turn-big"); err != nil || len(big.Calls[0].Arguments) != len(at.Calls[0].Arguments) {
		t.Errorf("TakePending of the turn at the limit: %v", err)
	}
	if err := a.SavePending(ctx, "turn-past", sized(toolmcp.MaxPendingBytes+1), expires); !errors.Is(err, toolmcp.ErrPendingTooLarge) {
		t.Errorf("a turn of MaxPendingBytes+1: %v, want ErrPendingTooLarge", err)
	}
	if _, err := b.Pending(ctx, "turn-past"); !errors.Is(err, toolmcp.ErrPendingNotFound) {
		t.Errorf("the turn past the limit was stored: %v", err)
	}
}
