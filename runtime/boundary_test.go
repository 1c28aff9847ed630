package runtime

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime/internal/engine"
)

// The tests of this file attack the boundary as a model would: arguments built to cost
// more than their size, to make sensitive values escape, or to break the promise that
// every call is answered.

// TestCallMemoryBoundedBySize checks that a call with ninety thousand mistakes
// costs memory in proportion to its size, for the model's text, the result and the
// observer's event alike.
func TestCallMemoryBoundedBySize(t *testing.T) {
	var events []Event
	ts := newTestSet().WithObserver(func(_ context.Context, e Event) { events = append(events, e) })
	args := unknownKeys(90000) // about 1 MiB
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := ts.Call(context.Background(), "nothing", args)
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(args)) {
		t.Errorf("a call of %d bytes allocated %d bytes", len(args), alloc)
	}
	if !r.IsError || len(r.Text()) > DefaultMaxViolationBytes+512 {
		t.Errorf("result of %d bytes", len(r.Text()))
	}
	if e := events[0]; len(e.Violations) != DefaultMaxViolations || e.OmittedViolations != 90000-DefaultMaxViolations {
		t.Errorf("event: %d violations, %d omitted", len(e.Violations), e.OmittedViolations)
	}
}

// TestLongNamesCostLittle checks that a very long unknown property or tool name is cut
// in the text and not compared with the known names character by character.
func TestLongNamesCostLittle(t *testing.T) {
	long := strings.Repeat("x", 1<<20-10)
	args := []byte(`{"` + long + `":1}`)
	var r *Result
	allocs := testing.AllocsPerRun(2, func() { r = newTestSet().Call(context.Background(), "echo", args) })
	if allocs > 40 || len(r.Text()) > 300 || !strings.Contains(r.Text(), "/xxxx") {
		t.Errorf("%.0f allocations, text %q", allocs, r.Text())
	}
	allocs = testing.AllocsPerRun(2, func() { r = newTestSet().Call(context.Background(), long, nil) })
	if allocs > 40 || len(r.Text()) > 400 || !strings.Contains(r.Text(), "bytes)") {
		t.Errorf("%.0f allocations, text %q", allocs, r.Text())
	}
}

// secretText is a TextUnmarshaler whose parse error quotes its input, as netip.Addr's
// and many custom types' do.
type secretText struct{ s string }

func (s *secretText) UnmarshalText(b []byte) error {
	if !strings.HasPrefix(string(b), "ok") {
		return fmt.Errorf("bad token %q", b)
	}
	s.s = string(b)
	return nil
}

// TestSensitiveTextErrors checks that a sensitive value that fails to parse itself is
// not quoted by its own error, nor by the value got, nor through map keys.
func TestSensitiveTextErrors(t *testing.T) {
	for _, sensitive := range []bool{true, false} {
		d := engine.NewDecoder([]byte(`{"token":"hunter2","keys":{"hunter3":"hunter4"}}`), engine.Limits{})
		d.BeginObject()
		for d.NextField() {
			name := string(d.FieldName())
			if sensitive {
				d.EnterSensitive(name)
			} else {
				d.Enter(name)
			}
			switch name {
			case "token":
				var v secretText
				d.Text(&v)
			case "keys":
				d.BeginObject()
				for d.NextField() {
					d.Enter(string(d.FieldName()))
					var v secretText
					s, _ := d.String()
					d.SetText(&v, s)
					d.Leave()
				}
			}
			d.Leave()
		}
		d.Finish()
		var text []string
		for _, v := range d.Violations() {
			text = append(text, v.String())
		}
		all := strings.Join(text, "; ")
		if got := strings.Contains(all, "hunter"); got == sensitive {
			t.Errorf("sensitive=%v: %s", sensitive, all)
		}
		if sensitive && all != "/token: is not valid; /keys/*: is not valid" {
			t.Errorf("sensitive violations: %s", all)
		}
	}
	// Long parse errors are cut.
	d := engine.NewDecoder([]byte(strconv.Quote(strings.Repeat("y", 5000))), engine.Limits{})
	var v secretText
	d.Text(&v)
	if msg := d.Violations()[0].Message; len(msg) > 200+20 { // the decoder cuts them to 200 bytes (maxTextErrorBytes)
		t.Errorf("a parse error of %d bytes", len(msg))
	}
}

// TestRedactEveryForm checks that Redact hides sensitive values however they arrive:
// in an object sent as a string, in arguments encoded twice, or in a value of another
// type than the schema's.
func TestRedactEveryForm(t *testing.T) {
	tool := &Tool{Sensitive: []string{"/password", "/card/number", "/users/*/token"}}
	for _, args := range []string{
		`{"password":"s3cr3t","card":{"number":"4111"},"users":[{"token":"tk1"}]}`,
		`{"password":"s3cr3t","card":"{\"number\":\"4111\"}","users":"[{\"token\":\"tk1\"}]"}`,
		`"{\"password\":\"s3cr3t\",\"card\":{\"number\":\"4111\"},\"users\":[{\"token\":\"tk1\"}]}"`,
		`{"password":{"x":"s3cr3t"},"card":"4111","users":["tk1"]}`,
		`{"password":"s3cr3t","card":"{\"number\":\"4111\"","users":[4111]}`,
		`{"card":4111,"users":{"0":{"token":"tk1"}}}`,
		`{"c\u0061rd":{"n\u0075mber":"4111"}}`,
	} {
		out := string(Redact(tool, []byte(args)))
		for _, secret := range []string{"s3cr3t", "4111", "tk1"} {
			if strings.Contains(out, secret) {
				t.Errorf("Redact(%s) = %s", args, out)
			}
		}
		if !strings.Contains(out, Redacted) {
			t.Errorf("Redact(%s) = %s, redacting nothing", args, out)
		}
	}
	if out := string(Redact(tool, []byte(`{"other":"visible","card":{"brand":"visa"}}`))); out != `{"card":{"brand":"visa"},"other":"visible"}` {
		t.Errorf("Redact hid what is not sensitive: %s", out)
	}
}

// goexitTools: a tool that ends its goroutine, as a test helper's t.FailNow does.
var goexitTools = [...]Tool{{Name: "goexit"}, {Name: "ok"}}

func dispatchGoexit(i int, d *engine.Decoder) invocation {
	d.EmptyObject()
	if !d.Finish() {
		return nil
	}
	if i == 0 {
		return func(context.Context) (*Result, error) {
			runtime.Goexit()
			return nil, nil
		}
	}
	return func(context.Context) (*Result, error) { return TextResult("fine"), nil }
}

// TestCallAlwaysAnswers checks the promise that Call returns a result, and RunCalls one
// per call under its id, whatever the tool does and whatever the caller passes.
func TestCallAlwaysAnswers(t *testing.T) {
	ts := NewToolset(goexitTools[:], runLater(dispatchGoexit))
	done := make(chan *Result, 1)
	go func() { done <- ts.Call(context.Background(), "goexit", nil) }()
	r := <-done
	if !r.IsError || r.Outcome != OutcomeInternalError || r.Text() != "goexit failed with an internal error" ||
		r.Err == nil || !strings.Contains(r.Err.Error(), "Goexit") {
		t.Errorf("goexit: %v %q %v", r.IsError, r.Text(), r.Err)
	}
	calls := []ToolCall{{ID: "a", Name: "goexit"}, {ID: "b", Name: "ok"}, {ID: "c", Name: "goexit"}}
	results := ts.RunCalls(context.Background(), calls, 0)
	if err := checkResults(calls, results); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false, true} {
		if results[i].Call.ID != calls[i].ID || results[i].Result == nil || results[i].Result.IsError != want {
			t.Errorf("result %d: %+v", i, results[i])
		}
	}
	//lint:ignore SA1012 a nil context is what this checks
	if r := ts.Call(nil, "ok", nil); r.IsError || r.Text() != "fine" { //nolint:staticcheck
		t.Errorf("nil context: %v %q", r.IsError, r.Text())
	}
	if r := (*Toolset)(nil).Call(context.Background(), "ok", nil); !r.IsError || r.Outcome != OutcomeUnknownTool {
		t.Errorf("nil Toolset: %v %q", r.IsError, r.Text())
	}
	panicky := ts.WithObserver(func(context.Context, Event) { panic("observer bug") })
	if r := panicky.Call(context.Background(), "ok", nil); r.IsError || r.Text() != "fine" {
		t.Errorf("panicking observer: %v %q", r.IsError, r.Text())
	}
}

// TestRedactWrongShapes checks that Redact hides what stands where a sensitive path
// goes on in another shape than the schema's, and that an observer is given no
// rejected arguments of a tool with sensitive properties.
func TestRedactWrongShapes(t *testing.T) {
	tool := &Tool{Name: "vault", Sensitive: []string{"/password", "/login/pin"}}
	for _, args := range []string{
		`[{"password":"s3cr3t"}]`,
		`{"login":[{"pin":"s3cr3t"}]}`,
		`{"login":[["s3cr3t"]]}`,
		`"[{\"password\":\"s3cr3t\"}]"`,
	} {
		if out := string(Redact(tool, []byte(args))); strings.Contains(out, "s3cr3t") {
			t.Errorf("Redact(%s) = %s", args, out)
		}
	}
	var got []Event
	tools := [...]Tool{{Name: "vault", Sensitive: []string{"/password"}}}
	ts := NewToolset(tools[:], runLater(func(int, *engine.Decoder) invocation { return nil })).
		WithArgumentLogging(true).
		WithObserver(func(_ context.Context, e Event) { got = append(got, e) })
	ts.Call(context.Background(), "vault", []byte(`{"pasword":"s3cr3t"}`))
	if len(got) != 1 || strings.Contains(string(got[0].Arguments), "s3cr3t") || got[0].Arguments == nil {
		t.Errorf("event arguments: %s", got[0].Arguments)
	}
}

// TestApproverGoexit checks that an approver that ends its goroutine denies the call
// instead of leaving Call without an answer.
func TestApproverGoexit(t *testing.T) {
	ts := NewToolset(goexitTools[:], runLater(dispatchGoexit)).
		WithApprover(func(context.Context, ApprovalRequest) Decision { runtime.Goexit(); return Allow() })
	done := make(chan *Result, 1)
	go func() { done <- ts.Call(context.Background(), "ok", nil) }()
	r := <-done
	if !r.IsError || r.Outcome != OutcomeDenied || r.Err == nil || !strings.Contains(r.Err.Error(), "Goexit") {
		t.Errorf("got %v %s %q %v", r.IsError, r.Outcome, r.Text(), r.Err)
	}
}

// TestUnknownToolEventCut checks that an unknown tool's name reaches observers cut and
// valid UTF-8, as the model's message has it.
func TestUnknownToolEventCut(t *testing.T) {
	var got Event
	ts := newTestSet().WithObserver(func(_ context.Context, e Event) { got = e })
	ts.Call(context.Background(), strings.Repeat("n", 1<<20)+"\xff", nil)
	if len(got.Tool) > 2*64 || // names are cut to 64 bytes (engine.CutName)
		!utf8.ValidString(got.Tool) || got.Outcome != OutcomeUnknownTool {
		t.Errorf("event tool of %d bytes, outcome %s", len(got.Tool), got.Outcome)
	}
}

// TestRedactCaseFolded checks that a sensitive property sent under another casing, which
// the decoder refuses, is redacted all the same.
func TestRedactCaseFolded(t *testing.T) {
	tool := &Tool{Sensitive: []string{"/secret", "/login/password"}}
	out := string(Redact(tool, []byte(`{"SECRET":"s3cr3t","Login":{"passWord":"pw-s3cr3t"}}`)))
	if strings.Contains(out, "s3cr3t") {
		t.Errorf("Redact = %s", out)
	}
}

// TestNilToolset checks that a nil *Toolset reads as an empty one, for the adapters
// that list its tools.
func TestNilToolset(t *testing.T) {
	var ts *Toolset
	if ts.Tools() != nil || ts.Len() != 0 {
		t.Error("a nil Toolset has tools")
	}
	if _, ok := ts.Lookup("x"); ok {
		t.Error("a nil Toolset looks a tool up")
	}
	calls := []ToolCall{{ID: "a", Name: "x"}, {ID: "b", Name: "y"}}
	results := ts.RunCalls(context.Background(), calls, 0)
	if err := checkResults(calls, results); err != nil || results[0].Result.Outcome != OutcomeUnknownTool {
		t.Errorf("RunCalls on a nil Toolset: %v", err)
	}
	if ts.Group("g").Len() != 0 || ts.Select("x").Len() != 0 || ts.WithTimeout(time.Second).Len() != 0 {
		t.Error("a view of a nil Toolset has tools")
	}
	if n := Join(nil, newTestSet(), nil).Len(); n != newTestSet().Len() {
		t.Errorf("Join with nil sets: %d tools", n)
	}
}

// unknownKeys returns an object of n properties k0, k1, ….
func unknownKeys(n int) []byte {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":0`, i)
	}
	b.WriteByte('}')
	return []byte(b.String())
}
