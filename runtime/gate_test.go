package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime/internal/argcheck"
	"github.com/toolgen/toolgen/runtime/internal/engine"
)

// gateTools: "delete" is destructive, "peek" read-only, "touch" unannotated (so
// presumed destructive); each echoes its decoded "id" argument.
var gateTools = [...]Tool{
	{Name: "delete", Annotations: Annotations{Destructive: new(true)}},
	{Name: "peek", Annotations: Annotations{ReadOnly: new(true)}, Sensitive: []string{"/secret"}},
	{Name: "touch", Timeout: 0},
}

func dispatchGate(i int, d *engine.Decoder) invocation {
	var id int64
	var secret string
	if d.BeginObject() {
		var seen [2]argcheck.Presence
		for d.NextField() {
			switch string(d.FieldName()) {
			case "id":
				if d.Property(&seen[0], "id", argcheck.Required) {
					if n, ok := d.Int(1, 100); ok {
						id = n
					}
					d.Leave()
				}
			case "secret":
				if d.Property(&seen[1], "secret", argcheck.Optional|argcheck.Sensitive) {
					if s, ok := d.String(); ok {
						d.MinLength(s, 8)
						secret = s
					}
					d.Leave()
				}
			default:
				d.Unknown("id", "secret")
			}
		}
		if seen[0] == argcheck.Absent {
			d.Missing("id")
		}
	}
	if !d.Finish() {
		return nil
	}
	_ = secret
	name := gateTools[i].Name
	return func(ctx context.Context) (*Result, error) {
		info, _ := CallFromContext(ctx)
		if id == 99 {
			panic("boom: " + secret)
		}
		if id == 98 {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return TextResult(name + " " + strings.Repeat("#", int(id)) + " " + info.ID), nil
	}
}

func gateSet() *Toolset { return NewToolset(gateTools[:], runLater(dispatchGate)) }

func TestApprovalGate(t *testing.T) {
	var asked []string
	var mu sync.Mutex
	approver := func(ctx context.Context, req ApprovalRequest) Decision {
		mu.Lock()
		asked = append(asked, req.Tool.Name+" "+string(req.Arguments))
		mu.Unlock()
		switch string(req.Arguments) {
		case `{"id":1}`:
			return Allow()
		case `{"id":2}`:
			return Deny("the user said no")
		case `{"id":3}`:
			return AllowWith(json.RawMessage(`{"id":4}`))
		case `{"id":5}`:
			return AllowWith(json.RawMessage(`{"id":500}`))
		}
		panic("approver bug")
	}
	ts := gateSet().WithApprover(approver)
	ctx := context.Background()
	for _, tc := range []struct {
		tool, args string
		outcome    Outcome
		text       string
	}{
		{"delete", `{"id":1}`, OutcomeOK, "delete # "},
		{"delete", `{"id":2}`, OutcomeDenied, "delete was denied: the user said no"},
		{"delete", `{"id":3}`, OutcomeOK, "delete #### "},
		{"delete", `{"id":5}`, OutcomeInvalidArguments, "the approved change to the arguments is invalid: invalid arguments for delete: /id: must be at most 100 (got 500)"},
		{"delete", `{"id":6}`, OutcomeDenied, "delete was denied: the approval failed"},
		{"delete", `{"id":0}`, OutcomeInvalidArguments, "invalid arguments for delete: /id: must be at least 1 (got 0)"},
		{"touch", `{"id":2}`, OutcomeDenied, "touch was denied: the user said no"},
		{"peek", `{"id":2}`, OutcomeOK, "peek ## "},
	} {
		r := ts.Call(ctx, tc.tool, []byte(tc.args))
		if r.Outcome != tc.outcome || r.Text() != tc.text || r.IsError != (tc.outcome != OutcomeOK) {
			t.Errorf("%s %s: got %s %q, want %s %q", tc.tool, tc.args, r.Outcome, r.Text(), tc.outcome, tc.text)
		}
	}
	// Invalid arguments never reach the approver; read-only tools are never gated.
	want := []string{`delete {"id":1}`, `delete {"id":2}`, `delete {"id":3}`, `delete {"id":5}`, `delete {"id":6}`, `touch {"id":2}`}
	if strings.Join(asked, "|") != strings.Join(want, "|") {
		t.Errorf("approver asked for %q, want %q", asked, want)
	}
}

func TestPolicies(t *testing.T) {
	ctx := context.Background()
	if r := gateSet().Call(ctx, "delete", []byte(`{"id":1}`)); r.IsError {
		t.Errorf("default policy: %s (gating is opt-in: with no approver every tool runs)", r.Text())
	}
	ts := gateSet().WithPolicy(DenyDestructive)
	if r := ts.Call(ctx, "touch", []byte(`{"id":1}`)); r.Outcome != OutcomeDenied {
		t.Errorf("DenyDestructive, unannotated tool: %s %q", r.Outcome, r.Text())
	}
	if r := ts.Call(ctx, "peek", []byte(`{"id":1}`)); r.IsError {
		t.Errorf("DenyDestructive, read-only tool: %q", r.Text())
	}
	// A canceled approval denies the call instead of running it.
	cctx, cancel := context.WithCancel(ctx)
	ts = gateSet().WithApprover(func(ctx context.Context, req ApprovalRequest) Decision {
		cancel()
		return Allow()
	})
	if r := ts.Call(cctx, "delete", []byte(`{"id":1}`)); r.Outcome != OutcomeCanceled {
		t.Errorf("canceled during approval: %s %q", r.Outcome, r.Text())
	}
}

func TestDeniedCallsAreAnsweredOnce(t *testing.T) {
	ts := gateSet().WithApprover(func(context.Context, ApprovalRequest) Decision { return Deny("no") })
	calls := []ToolCall{{ID: "a", Name: "delete", Arguments: []byte(`{"id":1}`)}, {ID: "b", Name: "peek", Arguments: []byte(`{"id":1}`)}, {ID: "c", Name: "touch", Arguments: []byte(`{"id":1}`)}}
	got := ts.RunCalls(context.Background(), calls, 0)
	if err := checkResults(calls, got); err != nil {
		t.Fatal(err)
	}
	if got[0].Result.Outcome != OutcomeDenied || got[1].Result.Outcome != OutcomeOK || got[2].Result.Outcome != OutcomeDenied {
		t.Errorf("outcomes %s %s %s", got[0].Result.Outcome, got[1].Result.Outcome, got[2].Result.Outcome)
	}
	if got[1].Result.Text() != "peek # b" {
		t.Errorf("the call id did not reach the tool through its context: %q", got[1].Result.Text())
	}
}

func TestObserver(t *testing.T) {
	var mu sync.Mutex
	var events []Event
	obs := func(_ context.Context, e Event) { mu.Lock(); events = append(events, e); mu.Unlock() }
	ts := gateSet().WithObserver(obs).WithTimeout(20 * time.Millisecond).
		WithApprover(func(_ context.Context, r ApprovalRequest) Decision { return Deny("no") })
	ctx := ContextWithCall(context.Background(), CallInfo{ID: "call_1", Provider: "test"})
	for _, c := range []struct{ name, args string }{
		{"peek", `{"id":1}`},
		{"peek", `{"id":1,"secret":"short"}`},
		{"peek", `{"id":99,"secret":"hunter2hunter2"}`},
		{"peek", `{"id":98}`},
		{"delete", `{"id":1}`},
		{"nope", `{}`},
	} {
		r := ts.Call(ctx, c.name, []byte(c.args))
		if strings.Contains(r.Text(), "hunter2") || strings.Contains(r.Text(), "short") || strings.Contains(r.Text(), "boom") {
			t.Errorf("%s: the result shows a sensitive value or an internal error: %q", c.args, r.Text())
		}
	}
	want := []Outcome{OutcomeOK, OutcomeInvalidArguments, OutcomeInternalError, OutcomeTimeout, OutcomeDenied, OutcomeUnknownTool}
	if len(events) != len(want) {
		t.Fatalf("%d events, want %d", len(events), len(want))
	}
	for i, e := range events {
		if e.Outcome != want[i] || e.CallID != "call_1" || e.Provider != "test" {
			t.Errorf("event %d: %+v, want outcome %s", i, e, want[i])
		}
		if e.Arguments != nil {
			t.Errorf("event %d holds arguments although argument logging is off", i)
		}
		text := e.Reason + " " + e.Tool
		for _, v := range e.Violations {
			text += v.String()
		}
		if strings.Contains(text, "short") || strings.Contains(text, "hunter2") {
			t.Errorf("event %d shows an argument value: %+v", i, e)
		}
	}
	if !strings.Contains(events[2].Err.Error(), "boom") {
		t.Errorf("the internal error is kept for the log: %v", events[2].Err)
	}
	if events[1].Violations[0].Path != "/secret" || events[1].Violations[0].Got != "" {
		t.Errorf("violations: %+v", events[1].Violations)
	}
	if events[4].Reason != "no" {
		t.Errorf("denied reason: %q", events[4].Reason)
	}
}

func TestArgumentLoggingRedacts(t *testing.T) {
	var got []string
	ts := gateSet().WithArgumentLogging(true).WithObserver(func(_ context.Context, e Event) { got = append(got, string(e.Arguments)) })
	ts.Call(context.Background(), "peek", []byte(`{"id":1,"secret":"hunter2hunter2"}`))
	ts.Call(context.Background(), "peek", []byte(`{"id":1,"secret":"hunter2hun`))
	want := []string{`{"id":1,"secret":"[redacted]"}`, `"[invalid arguments of a tool with sensitive properties, not shown]"`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("logged %q, want %q", got, want)
	}
	tool := &Tool{Sensitive: []string{"/users/*/token", "/a~1b"}}
	if r := string(Redact(tool, []byte(`{"users":[{"token":"x","name":"n"},{"token":"y"}],"a/b":1}`))); r != `{"a/b":"[redacted]","users":[{"name":"n","token":"[redacted]"},{"token":"[redacted]"}]}` {
		t.Errorf("Redact = %s", r)
	}
}

func TestSlogObserver(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	ts := gateSet().WithObserver(SlogObserver(logger))
	ctx := ContextWithCall(context.Background(), CallInfo{ID: "c1", Provider: "openai"})
	ts.Call(ctx, "peek", []byte(`{"id":1}`))
	ts.Call(ctx, "peek", []byte(`{"id":99,"secret":"hunter2hunter2"}`))
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("logged %d lines: %s", len(lines), buf.String())
	}
	var first, second map[string]any
	json.Unmarshal([]byte(lines[0]), &first)
	json.Unmarshal([]byte(lines[1]), &second)
	if first["level"] != "INFO" || first["tool"] != "peek" || first["outcome"] != "ok" || first["call_id"] != "c1" || first["provider"] != "openai" {
		t.Errorf("first line: %v", first)
	}
	if second["level"] != "ERROR" || second["outcome"] != "internal_error" || !strings.Contains(second["error"].(string), "boom") {
		t.Errorf("second line: %v", second)
	}
}
