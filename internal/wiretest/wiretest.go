// Package wiretest holds what the tests of the provider packages (runtime/openai,
// runtime/anthropic, runtime/gemini) share with each other and with their checks
// against the official SDKs (in the nested module interop, which may import it as it
// is internal to github.com/toolgen/toolgen/...): a hand-written stand-in for a
// generated package, and helpers that compare and take apart JSON. It is for tests
// only, and like all of runtime/... depends on the standard library only.
package wiretest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/invalid"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// Tools returns the tools of Toolset, in this order: boom, which panics; fail, which
// fails with a message for the model; get_weather, strict, whose schema the adapters
// lower for each provider; and report, with its canonical schema
// alone, which returns a structured value. boom and fail have no schema. Each call
// returns a new slice, which the caller may change.
func Tools() []runtime.Tool {
	return []runtime.Tool{{
		Name:        "boom",
		Description: "Panics.",
	}, {
		Name:        "fail",
		Description: "Fails with a message for the model.",
	}, {
		Name:        "get_weather",
		Description: "Returns the weather of a city.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","minLength":1}},"required":["city"],"additionalProperties":false}`),
		Strict:      true,
	}, {
		Name:        "report",
		Description: "Returns a structured report.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"days":{"type":"integer","minimum":1,"maximum":14},"tags":{"type":"array","items":{"type":"string"}}},"additionalProperties":false}`),
	}}
}

// CustomTools returns a Toolset whose one tool, code_exec, serves a custom tool call:
// one string parameter, input, run as "ran <input>".
func CustomTools() *runtime.Toolset {
	return runtime.NewToolset([]runtime.Tool{{Name: "code_exec"}}, toolimpl.Direct(func(i int, d *toolimpl.Decoder) toolimpl.Invocation {
		var input string
		if d.BeginObject() {
			for d.NextField() {
				if string(d.FieldName()) != "input" {
					d.Unknown("input")
					continue
				}
				d.Enter("input")
				input, _ = d.String()
				d.Leave()
			}
		}
		if !d.Finish() {
			return nil
		}
		return func(context.Context) (*runtime.Result, error) { return runtime.TextResult("ran " + input), nil }
	}))
}

// Toolset returns the tools of Tools, as a generated package's Tools function would:
// get_weather answers "Sunny in <city>", report {"days":<days>,"ok":true}, fail the
// safe error "city <city> not found", and boom panics with "secret internal state".
// Any arguments that are a JSON object are accepted; others are an argument error, as
// a generated decoder gives.
func Toolset() *runtime.Toolset {
	tools := Tools()
	return runtime.NewToolset(tools, toolimpl.Direct(func(i int, d *toolimpl.Decoder) toolimpl.Invocation {
		raw, ok := d.Raw()
		if ok && raw[0] != '{' {
			d.Fail(invalid.Type, "must be an object")
		}
		if !d.Finish() {
			return nil
		}
		var args map[string]any
		_ = json.Unmarshal(raw, &args)
		switch tools[i].Name {
		case "boom":
			return func(context.Context) (*runtime.Result, error) { panic("secret internal state") }
		case "fail":
			return func(context.Context) (*runtime.Result, error) {
				return nil, runtime.ToolErrorf("city %v not found", args["city"])
			}
		case "get_weather":
			return func(context.Context) (*runtime.Result, error) {
				return runtime.TextResult(fmt.Sprintf("Sunny in %v", args["city"])), nil
			}
		case "report":
			return func(context.Context) (*runtime.Result, error) {
				return runtime.StructuredResult(map[string]any{"days": args["days"], "ok": true}, false)
			}
		}
		return nil
	}))
}

// ParallelCalls returns the calls of one turn to the tools of Toolset: get_weather for
// Paris, which works; get_wether, an unknown tool; boom, which panics; fail, which
// fails for Atlantis; and report for 3 days, which returns a structured value. ids are
// the calls' ids in that order; a call without one has none.
func ParallelCalls(ids ...string) []runtime.ToolCall {
	calls := []runtime.ToolCall{
		{Name: "get_weather", Arguments: []byte(`{"city":"Paris"}`)},
		{Name: "get_wether", Arguments: []byte(`{"city":"Oslo"}`)},
		{Name: "boom", Arguments: []byte(`{}`)},
		{Name: "fail", Arguments: []byte(`{"city":"Atlantis"}`)},
		{Name: "report", Arguments: []byte(`{"days":3}`)},
	}
	for i := range min(len(ids), len(calls)) {
		calls[i].ID = ids[i]
	}
	return calls
}

// Scripted returns a loop.SendFunc that answers the requests of a loop.Loop with
// bodies, in order, and records the requests in sent. A request beyond the script
// fails the test.
func Scripted(t testing.TB, sent *[][]byte, bodies ...[]byte) loop.SendFunc {
	return func(_ context.Context, req []byte) ([]byte, error) {
		*sent = append(*sent, req)
		if len(*sent) > len(bodies) {
			t.Fatalf("request %d was not expected: %s", len(*sent), req)
		}
		return bodies[len(*sent)-1], nil
	}
}

// MustMarshal returns the JSON encoding of v, failing the test when there is none.
func MustMarshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// JSONEqual reports whether a and b are the same JSON value, whatever their spacing
// and the order of their fields; it fails the test when either is not JSON.
func JSONEqual(t testing.TB, a, b []byte) bool {
	t.Helper()
	return reflect.DeepEqual(value(t, a), value(t, b))
}

// SameJSON reports an error unless got and want are the same JSON value; what names
// them in the message.
func SameJSON(t testing.TB, what string, got, want []byte) {
	t.Helper()
	if !JSONEqual(t, got, want) {
		t.Errorf("%s differ:\n got  %s\n want %s", what, got, want)
	}
}

// value decodes JSON text into a generic value.
func value(t testing.TB, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	return v
}

// Fields decodes a JSON object into its raw fields, failing the test when body is not
// an object.
func Fields(t testing.TB, body []byte) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, body)
	}
	return m
}

// Kept reports an error for each field of the JSON object before, but those named in
// changed, that after lacks or holds with another JSON value: the fields a Prepare or
// a Continue does not own go through unchanged.
func Kept(t testing.TB, before, after []byte, changed ...string) {
	t.Helper()
	b, a := Fields(t, before), Fields(t, after)
	for k, v := range b {
		if slices.Contains(changed, k) {
			continue
		}
		if got, ok := a[k]; !ok {
			t.Errorf("field %q was dropped", k)
		} else if !JSONEqual(t, got, v) {
			t.Errorf("field %q changed: %s, was %s", k, got, v)
		}
	}
}

// Prepare returns request prepared by p with the tools of ts and choice, failing the
// test on an error, and checks what every Prepare does: the fields of request but those
// named in changed stay as they were, and preparing the result again, as the Loop does
// each round, changes nothing.
func Prepare(t testing.TB, p loop.Provider, ts *runtime.Toolset, request []byte, choice loop.Choice, changed ...string) []byte {
	t.Helper()
	out, err := p.Prepare(request, ts, choice)
	if err != nil {
		t.Fatalf("%s: Prepare: %v", p.Name(), err)
	}
	Kept(t, request, out, changed...)
	again, err := p.Prepare(out, ts, choice)
	if err != nil {
		t.Fatalf("%s: Prepare of a prepared request: %v", p.Name(), err)
	}
	SameJSON(t, p.Name()+": a request prepared once and twice", again, out)
	return out
}

// Round runs one round of loop.Loop by hand: it reads the calls of response with p,
// runs them with ts and continues request with their results, failing the test on an
// error. It checks that the continued request keeps the fields of request but those
// named in changed, and that Continue refuses results that leave a call unanswered.
func Round(t testing.TB, p loop.Provider, ts *runtime.Toolset, request, response []byte, changed ...string) (next []byte, results []runtime.CallResult) {
	t.Helper()
	calls, err := p.Calls(response)
	if err != nil {
		t.Fatalf("%s: Calls: %v", p.Name(), err)
	}
	results = ts.RunCalls(context.Background(), calls, 0)
	next, err = p.Continue(request, response, results)
	if err != nil {
		t.Fatalf("%s: Continue: %v", p.Name(), err)
	}
	Kept(t, request, next, changed...)
	if len(results) > 0 {
		for _, bad := range [][]runtime.CallResult{results[:len(results)-1], nil} {
			if _, err := p.Continue(request, response, bad); err == nil {
				t.Errorf("%s: Continue accepted %d results for %d calls", p.Name(), len(bad), len(calls))
			}
		}
	}
	return next, results
}

// CallsText shows calls one a line, "<id> <name> <arguments>", to compare and print.
func CallsText(calls []runtime.ToolCall) string {
	var b strings.Builder
	for _, c := range calls {
		b.WriteString(c.ID + " " + c.Name + " " + string(c.Arguments) + "\n")
	}
	return b.String()
}

// CutSSE is an event stream cut off inside its second event, with CRLF and lone CR
// line endings and a comment: the first event is "e" with data "a", the second has the
// data "cut off" and no name.
const CutSSE = "event: e\r\ndata: a\r\r: ping\ndata: cut off"

// SSE reads input with read, a package's ReadSSE, and returns the events it passes
// on, "<event>|<data>" each, joined by commas, failing the test on an error.
func SSE(t testing.TB, read func(io.Reader, func(event, data []byte) error) error, input string) string {
	t.Helper()
	var events []string
	err := read(strings.NewReader(input), func(event, data []byte) error {
		events = append(events, string(event)+"|"+string(data))
		return nil
	})
	if err != nil {
		t.Fatalf("ReadSSE(%q): %v", input, err)
	}
	return strings.Join(events, ",")
}

// ReadFile returns the content of a file, failing the test when it cannot be read.
func ReadFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Sizes are the input sizes of the adversarial benchmarks: 1 KiB, 64 KiB and 1 MiB.
var Sizes = []int{1 << 10, 64 << 10, 1 << 20}

// SizeName names a size in a benchmark: "1KiB", "64KiB", "1MiB".
func SizeName(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

// PerByte runs fn b.N times, fn reading an input of size bytes, and reports the cost
// per input byte: ns/byte, the time, and B/byte, the bytes allocated, so that runs at
// several sizes show whether the cost is linear in the input.
func PerByte(b *testing.B, size int, fn func()) {
	b.Helper()
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	b.ResetTimer()
	for range b.N {
		fn()
	}
	b.StopTimer()
	goruntime.ReadMemStats(&after)
	n := float64(b.N) * float64(size)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/byte")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/n, "B/byte")
}
