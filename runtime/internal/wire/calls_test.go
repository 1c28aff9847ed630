package wire_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wire"
)

func TestHasCalls(t *testing.T) {
	if !wire.HasCalls([]string{"call"}, nil) {
		t.Error("HasCalls of a call = false")
	}
	if wire.HasCalls([]string{}, nil) || wire.HasCalls[string](nil, nil) {
		t.Error("HasCalls of no call = true")
	}
	if wire.HasCalls([]string{"call"}, errors.New("malformed")) {
		t.Error("HasCalls of an error = true")
	}
}

func tc(id, name, args string) runtime.ToolCall {
	return runtime.ToolCall{ID: id, Name: name, Arguments: []byte(args)}
}

func TestUniqueIDs(t *testing.T) {
	for _, tt := range []struct {
		calls []runtime.ToolCall
		want  string
	}{
		{nil, ""},
		{[]runtime.ToolCall{tc("a", "f", "{}")}, ""},
		{[]runtime.ToolCall{tc("a", "f", "{}"), tc("b", "f", "{}")}, ""},
		{[]runtime.ToolCall{tc("", "f", "{}"), tc("", "f", "{}")}, ""},
		{[]runtime.ToolCall{tc("a", "f", "{}"), tc("b", "g", "{}"), tc("a", "h", "{}")}, `calls 0 (f) and 2 (h) have the same id "a"`},
	} {
		err := wire.UniqueIDs(tt.calls)
		if (tt.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("UniqueIDs(%v) = %v, want %q", tt.calls, err, tt.want)
		}
	}
}

func TestCheckAnswers(t *testing.T) {
	answer := func(calls ...runtime.ToolCall) []runtime.CallResult {
		out := make([]runtime.CallResult, len(calls))
		for i, c := range calls {
			out[i] = runtime.CallResult{Call: c, Result: runtime.TextResult("ok")}
		}
		return out
	}
	paris, tokyo := tc("", "get_weather", `{"city":"Paris"}`), tc("", "get_weather", `{"city":"Tokyo"}`)
	withID := tc("x", "get_weather", `{"city":"Oslo"}`)
	for _, tt := range []struct {
		name    string
		calls   []runtime.ToolCall
		results []runtime.CallResult
		want    string
	}{
		{"in order", []runtime.ToolCall{paris, tokyo, withID}, answer(paris, tokyo, withID), ""},
		{"spacing differs", []runtime.ToolCall{paris}, answer(tc("", "get_weather", ` { "city" : "Paris" } `)), ""},
		{"swapped, no ids", []runtime.ToolCall{paris, tokyo}, answer(tokyo, paris), "result 0 answers a call of get_weather with other arguments than call 0"},
		{"swapped, ids", []runtime.ToolCall{paris, withID}, answer(withID, paris), "answers must follow the calls' order"},
		{"one missing", []runtime.ToolCall{paris, tokyo}, answer(paris), "2 tool calls"},
	} {
		err := wire.CheckAnswers(tt.calls, tt.results)
		if (tt.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: CheckAnswers = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestCheckArguments(t *testing.T) {
	for _, tt := range []struct {
		have, more, limit int
		ok                bool
	}{
		{0, 10, 10, true},
		{0, 11, 10, false},
		{5, 5, 10, true},
		{5, 6, 10, false},
		{0, runtime.DefaultMaxArgumentBytes, 0, true},
		{1, runtime.DefaultMaxArgumentBytes, -1, false},
	} {
		err := wire.CheckArguments("tool call 0 (f, c)", tt.have, tt.more, tt.limit)
		if (err == nil) != tt.ok {
			t.Errorf("CheckArguments(%d, %d, %d) = %v, want ok %v", tt.have, tt.more, tt.limit, err, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "the arguments of tool call 0 (f, c) are over") {
			t.Errorf("CheckArguments: %v does not name the call", err)
		}
	}
}
