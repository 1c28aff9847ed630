package toolmcp

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/toolgen/toolgen/runtime"
)

// FuzzTaskMethods sends tasks/get, tasks/update and tasks/cancel with any task id and
// any inputResponses to a server holding one task that asks two questions: no request
// panics, an id not the task's is unknown (-32602), and after any update the task
// holds answers only to the questions it asked, each question asked or answered, never
// both, and no question it did not ask.
func FuzzTaskMethods(f *testing.F) {
	f.Add("", []byte(`{}`))
	f.Add("AAAAAAAAAAAAAAAAAAAAAA", []byte(`{"toolgen_ask_1":{"action":"accept","content":{}}}`))
	f.Add("task", []byte(`{"toolgen_ask_2":null,"x":1}`))
	f.Add("task", []byte(`{"toolgen_ask_1":{"action":"decline"},"toolgen_ask_1 ":{}}`))
	f.Fuzz(func(t *testing.T, id string, responses []byte) {
		ts, err := runtime.NewTool(runtime.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`), Task: runtime.TaskOptional},
			func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult(""), nil })
		if err != nil {
			t.Fatal(err)
		}
		store := NewMemoryStore()
		srv := newTaskServer(ts, &config{tasks: taskConfig{store: store}})
		now := time.Now()
		taskID := randomID()
		asked := map[string]json.RawMessage{
			"toolgen_ask_1": json.RawMessage(`{"method":"elicitation/create","params":{}}`),
			"toolgen_ask_2": json.RawMessage(`{"method":"elicitation/create","params":{}}`),
		}
		rec := &TaskRecord{ID: taskID, Status: TaskInputRequired, CreatedAt: now, UpdatedAt: now,
			ExpiresAt: now.Add(time.Hour), Heartbeat: now.Add(time.Hour), InputRequests: asked}
		if err := store.CreateTask(context.Background(), rec, 1); err != nil {
			t.Fatal(err)
		}
		if id == "task" {
			id = taskID
		}
		var answers map[string]json.RawMessage
		if json.Unmarshal(responses, &answers) != nil {
			answers = map[string]json.RawMessage{}
		}
		ctx := context.Background()
		unknown := func(err error) bool {
			var e *jsonrpc.Error
			return errors.As(err, &e) && e.Code == jsonrpc.CodeInvalidParams
		}
		_, getErr := srv.get(ctx, &taskIDParams{TaskID: id})
		_, updErr := srv.update(ctx, &taskUpdateParams{TaskID: id, InputResponses: answers})
		if id != taskID {
			if !unknown(getErr) || !unknown(updErr) {
				t.Fatalf("id %q: get %v, update %v; want -32602", id, getErr, updErr)
			}
			if _, err := srv.cancel(ctx, &taskIDParams{TaskID: id}); !unknown(err) {
				t.Fatalf("cancel of %q: %v", id, err)
			}
		} else if getErr != nil || updErr != nil {
			t.Fatalf("get %v, update %v", getErr, updErr)
		}
		got, err := store.Task(ctx, taskID)
		if err != nil {
			t.Fatal(err)
		}
		for k := range got.InputResponses {
			if _, ok := asked[k]; !ok {
				t.Errorf("an answer to %q, never asked", k)
			}
			if _, ok := got.InputRequests[k]; ok {
				t.Errorf("%q both asked and answered", k)
			}
		}
		for k := range asked {
			_, q := got.InputRequests[k]
			_, a := got.InputResponses[k]
			if q == a {
				t.Errorf("%q: asked %v, answered %v", k, q, a)
			}
		}
		for k := range got.InputRequests {
			if _, ok := asked[k]; !ok {
				t.Errorf("a question %q the task never asked", k)
			}
		}
		if (len(got.InputRequests) == 0) != (got.Status == TaskWorking) {
			t.Errorf("status %s with %d questions outstanding", got.Status, len(got.InputRequests))
		}
	})
}

// MemoryStore.Spend records an id once until it expires, and its record of expired
// ids does not grow without bound.
func TestMemoryStoreSpend(t *testing.T) {
	m := NewMemoryStore()
	ctx := context.Background()
	soon, past := time.Now().Add(time.Hour), time.Now().Add(-time.Second)
	if first, _ := m.Spend(ctx, "a", soon); !first {
		t.Fatal("first spend refused")
	}
	if first, _ := m.Spend(ctx, "a", soon); first {
		t.Fatal("second spend accepted")
	}
	if first, _ := m.Spend(ctx, "old", past); !first {
		t.Fatal("first spend of old refused")
	}
	if first, _ := m.Spend(ctx, "old", soon); !first {
		t.Error("an expired record does not give way")
	}
	for i := range 10 * minSweep {
		m.Spend(ctx, string(rune('A'+i%26))+strconv.Itoa(i), past)
	}
	if n := len(m.spent); n > 2*minSweep+2 {
		t.Errorf("%d records kept, most of them expired", n)
	}
}
