package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// TestNewToolExamples checks that NewTool keeps the input examples its schema accepts
// and refuses, with an *ExampleError naming each, those it does not, and those that are
// not JSON objects (which the decoder's leniency would read as arguments: null, empty,
// an object written as a string).
func TestNewToolExamples(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","minLength":1},"days":{"type":"integer","maximum":14}},"required":["city"],"additionalProperties":false}`)
	run := func(context.Context, json.RawMessage) (*runtime.Result, error) {
		t.Error("the tool ran while its examples were checked")
		return runtime.TextResult("ran"), nil
	}
	good := []json.RawMessage{json.RawMessage(`{"city":"Paris"}`), json.RawMessage(` {"city":"Tokyo","days":3}`)}
	ts, err := runtime.NewTool(runtime.Tool{Name: "forecast", InputSchema: schema, Examples: good}, run)
	if err != nil {
		t.Fatal(err)
	}
	tool, _ := ts.Lookup("forecast")
	good[0] = json.RawMessage(`{"city":"changed"}`)
	if len(tool.Examples) != 2 || string(tool.Examples[0]) != `{"city":"Paris"}` {
		t.Errorf("Examples = %s, want the two given, as given then", tool.Examples)
	}

	bad := []json.RawMessage{
		json.RawMessage(`{"city":"Paris"}`),
		json.RawMessage(`{"city":"","days":30}`),
		json.RawMessage(`{"town":"Paris"}`),
		json.RawMessage(`null`),
		json.RawMessage(``),
		json.RawMessage(`"{\"city\":\"Paris\"}"`),
		json.RawMessage(`{"city":`),
	}
	_, err = runtime.NewTool(runtime.Tool{Name: "forecast", InputSchema: schema, Examples: bad}, run)
	var ee *runtime.ExampleError
	if !errors.As(err, &ee) {
		t.Fatalf("err = %v, want an *ExampleError", err)
	}
	var got []string
	for _, x := range ee.Invalid {
		got = append(got, fmt.Sprintf("%d %s", x.Index, x.Message()))
	}
	want := []string{
		`1 /city: must be at least 1 character long (got ""); /days: must be at most 14 (got 30)`,
		`2 /town: unknown property; expected one of "city", "days"; /city: missing required property`,
		`3 not a JSON object`,
		`4 not a JSON object`,
		`5 not a JSON object`,
		`6 not a JSON object`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("invalid examples:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.HasPrefix(err.Error(), `runtime: tool "forecast": input example 1: /city: `) {
		t.Errorf("Error() = %q", err)
	}
}

// FuzzNewToolExamples checks that NewTool's check of an input example is the call's:
// it accepts an example exactly when the example is a JSON object written as such and
// a call with those arguments is accepted, and it never panics.
func FuzzNewToolExamples(f *testing.F) {
	schema := json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","minLength":1,"pattern":"^[A-Z]"},"days":{"type":"integer","minimum":1,"maximum":14},"tags":{"type":"array","items":{"type":"string","enum":["a","b"]},"uniqueItems":true},"at":{"type":"string","format":"date-time"}},"required":["city"],"additionalProperties":false}`)
	for _, s := range []string{`{"city":"Paris"}`, `{"city":"Paris","days":3,"tags":["a","b"]}`, `{"city":"paris"}`, `null`, ``, `"{\"city\":\"Paris\"}"`,
		`{"city":"Paris","city":"Rome"}`, ` {"city":"P"} `, `{"city":"P","at":"2026-01-02T03:04:05Z"}`, `{"city":"P"}{}`, `[]`, `{"city":"P","days":2.0}`} {
		f.Add([]byte(s))
	}
	run := func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult("ok"), nil }
	f.Fuzz(func(t *testing.T, ex []byte) {
		_, err := runtime.NewTool(runtime.Tool{Name: "t", InputSchema: schema, Examples: []json.RawMessage{ex}}, run)
		var ee *runtime.ExampleError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("NewTool: %v, not an *ExampleError", err)
		}
		plain, err2 := runtime.NewTool(runtime.Tool{Name: "t", InputSchema: schema}, run)
		if err2 != nil {
			t.Fatal(err2)
		}
		trimmed := strings.TrimLeft(string(ex), " \t\r\n")
		object := strings.HasPrefix(trimmed, "{") && json.Valid(ex)
		callOK := !plain.Call(context.Background(), "t", ex).IsError
		if accepted := err == nil; accepted != (object && callOK) {
			t.Fatalf("example %q: accepted %t, but a JSON object %t and a call accepted %t (%v)", ex, accepted, object, callOK, err)
		}
	})
}
