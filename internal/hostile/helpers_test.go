package hostile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/invalid"
	"github.com/toolgen/toolgen/toolmcp"
)

// capture is a Toolset of the vault wired to everything that can see a call: an observer
// that keeps every event, a JSON and a text slog observer writing into buffers, argument
// logging on, and an approver that keeps every request's Redacted arguments and allows
// the call.
type capture struct {
	vault *Vault
	tools *runtime.Toolset

	mu        sync.Mutex
	events    []runtime.Event
	slogJSON  bytes.Buffer
	slogText  bytes.Buffer
	redacted  []json.RawMessage
	approvals []runtime.ApprovalRequest
}

// lockedWriter serializes writes into a buffer, for slog handlers used by parallel calls.
type lockedWriter struct {
	mu  *sync.Mutex
	buf *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func newCapture(t testing.TB, argLogging bool) *capture {
	c := &capture{vault: NewVault()}
	t.Cleanup(c.vault.Release)
	var wmu sync.Mutex
	jsonObs := runtime.SlogObserver(slog.New(slog.NewJSONHandler(lockedWriter{&wmu, &c.slogJSON}, &slog.HandlerOptions{Level: slog.LevelDebug})))
	textObs := runtime.SlogObserver(slog.New(slog.NewTextHandler(lockedWriter{&wmu, &c.slogText}, &slog.HandlerOptions{Level: slog.LevelDebug})))
	c.tools = VaultTools(c.vault).
		WithArgumentLogging(argLogging).
		WithObserver(func(ctx context.Context, e runtime.Event) {
			c.mu.Lock()
			c.events = append(c.events, e)
			c.mu.Unlock()
			jsonObs(ctx, e)
			textObs(ctx, e)
		}).
		WithApprover(func(ctx context.Context, req runtime.ApprovalRequest) runtime.Decision {
			c.mu.Lock()
			c.redacted = append(c.redacted, req.Redacted())
			c.approvals = append(c.approvals, req)
			c.mu.Unlock()
			return runtime.Allow()
		})
	return c
}

// reset forgets what was captured.
func (c *capture) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.events = nil
	c.slogJSON.Reset()
	c.slogText.Reset()
	c.redacted = nil
	c.approvals = nil
}

// surface is one place a value can be seen, and its text.
type surface struct {
	name string
	text string
}

// surfaces returns every text derived from a call's result and what the observers and
// the approver saw, except Result.Err and Event.Err when errOK is set (a tool's own
// error, which the contract sends to the log whole).
func (c *capture) surfaces(t testing.TB, toolName string, args []byte, res *runtime.Result, errOK bool) []surface {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	out := []surface{{"Result.Text()", res.Text()}}
	for i, b := range res.Content {
		out = append(out, surface{fmt.Sprintf("Result.Content[%d].Text", i), b.Text})
	}
	out = append(out, surface{"Result.Structured", string(res.Structured)})
	if res.Err != nil && !errOK {
		out = append(out, surface{"Result.Err.Error()", res.Err.Error()})
		out = append(out, surface{"Result.Err %+v", fmt.Sprintf("%+v", res.Err)})
		var ae *invalid.ArgumentError
		if errors.As(res.Err, &ae) {
			for _, v := range ae.Violations {
				out = append(out, surface{"ArgumentError.Violation", v.Path + "\x00" + v.Message + "\x00" + v.Got + "\x00" + v.String()})
			}
		}
	}
	mcpJSON, err := json.Marshal(toolmcp.Result(res))
	if err != nil {
		t.Fatalf("toolmcp.Result does not marshal: %v", err)
	}
	out = append(out, surface{"toolmcp.Result JSON", string(mcpJSON)})
	for i, e := range c.events {
		p := fmt.Sprintf("Event[%d].", i)
		for _, v := range e.Violations {
			out = append(out, surface{p + "Violations", v.Path + "\x00" + v.Message + "\x00" + v.Got + "\x00" + v.String()})
		}
		out = append(out, surface{p + "Arguments", string(e.Arguments)})
		out = append(out, surface{p + "Reason", e.Reason})
		if e.Err != nil && !errOK {
			out = append(out, surface{p + "Err", e.Err.Error()})
		}
	}
	if !errOK {
		out = append(out, surface{"SlogObserver JSON", c.slogJSON.String()})
		out = append(out, surface{"SlogObserver text", c.slogText.String()})
	}
	for i, r := range c.redacted {
		out = append(out, surface{fmt.Sprintf("ApprovalRequest[%d].Redacted()", i), string(r)})
	}
	if tool, ok := c.tools.Lookup(toolName); ok {
		out = append(out, surface{"runtime.Redact", string(runtime.Redact(tool, args))})
	}
	return out
}

// assertNoLeak fails for every surface that holds one of the secrets.
func assertNoLeak(t testing.TB, surfaces []surface, secrets ...string) {
	t.Helper()
	for _, s := range surfaces {
		for _, secret := range secrets {
			if secret != "" && strings.Contains(s.text, secret) {
				t.Errorf("%s leaks %q:\n%s", s.name, secret, clip(s.text, 600))
			}
		}
	}
}

// clip shortens s for a failure message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("... (%d bytes)", len(s))
}

// callDone runs a call on another goroutine and fails the test, instead of hanging it,
// when the call has not returned after a generous delay (this is a liveness check, not a
// timing assertion: the tools under test return in microseconds or never).
func callDone(t testing.TB, ts *runtime.Toolset, ctx context.Context, name string, args []byte) *runtime.Result {
	t.Helper()
	done := make(chan *runtime.Result, 1)
	panicked := make(chan any, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				panicked <- p
			}
		}()
		done <- ts.Call(ctx, name, args)
	}()
	select {
	case r := <-done:
		if r == nil {
			t.Fatalf("Call(%q) returned a nil result", name)
		}
		return r
	case p := <-panicked:
		t.Fatalf("Call(%q) panicked: %v", name, p)
	case <-time.After(20 * time.Second):
		t.Fatalf("Call(%q) never returned", name)
	}
	return nil
}

// allocs returns the bytes allocated while f ran (runtime.MemStats.TotalAlloc), with a
// garbage collection before, so that the measure is of f alone as far as the process
// allows. Tests that use it do not run in parallel.
func allocs(f func()) uint64 {
	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	f()
	goruntime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// jsonString returns s as a JSON string.
func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// jsonStringNoEscapeHTML returns s as a JSON string without encoding/json's escaping of
// <, > and &, as a model would write it.
func jsonStringNoEscapeHTML(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
