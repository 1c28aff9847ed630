package runtime

import (
	"fmt"
	"testing"
)

// checkResults reports whether results answer calls, the calls of one model turn:
// one result per call, in the calls' order, each for the call of the same id and name,
// as RunCalls returns them. runtime/internal/wire.CheckAnswers,
// which the provider adapters check, checks it too.
func checkResults(calls []ToolCall, results []CallResult) error {
	if len(results) != len(calls) {
		return fmt.Errorf("%d results for %d tool calls: every call needs exactly one answer", len(results), len(calls))
	}
	for i, c := range calls {
		if r := results[i].Call; r.ID != c.ID || r.Name != c.Name {
			return fmt.Errorf("result %d answers call %s (%s), but call %d is %s (%s): answers must follow the calls' order", i, r.ID, r.Name, i, c.ID, c.Name)
		}
	}
	return nil
}

func TestCheckResults(t *testing.T) {
	calls := []ToolCall{{ID: "a", Name: "echo"}, {ID: "b", Name: "list"}}
	answer := func(cs ...ToolCall) []CallResult {
		out := make([]CallResult, len(cs))
		for i, c := range cs {
			out[i] = CallResult{Call: c, Result: TextResult("ok")}
		}
		return out
	}
	if err := checkResults(calls, answer(calls...)); err != nil {
		t.Errorf("checkResults of matching results: %v", err)
	}
	if err := checkResults(nil, nil); err != nil {
		t.Errorf("checkResults of no calls: %v", err)
	}
	for _, bad := range [][]CallResult{
		answer(calls[0]),
		answer(calls[1], calls[0]),
		answer(calls[0], calls[1], calls[1]),
		answer(calls[0], ToolCall{ID: "b", Name: "echo"}),
	} {
		if err := checkResults(calls, bad); err == nil {
			t.Errorf("checkResults accepted %d mismatched results", len(bad))
		}
	}
}
