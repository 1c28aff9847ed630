package wire

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/toolgen/toolgen/runtime"
)

// HasCalls reports whether reading the calls of a response succeeded and found at
// least one: a package's HasToolCalls(body) is HasCalls(Calls(body)).
func HasCalls[Call any](calls []Call, err error) bool {
	return err == nil && len(calls) > 0
}

// UniqueIDs returns an error naming the first id two calls share: the API takes one
// answer per id, so a turn with a duplicated id cannot be answered call by call. Calls
// without an id (Gemini's may have none) are not compared.
func UniqueIDs(calls []runtime.ToolCall) error {
	if len(calls) < 2 {
		return nil
	}
	seen := make(map[string]int, len(calls))
	for i, c := range calls {
		if c.ID == "" {
			continue
		}
		if j, dup := seen[c.ID]; dup {
			return fmt.Errorf("calls %d (%s) and %d (%s) have the same id %q: each call needs its own id to be answered", j, calls[j].Name, i, c.Name, c.ID)
		}
		seen[c.ID] = i
	}
	return nil
}

// CheckAnswers reports whether results answer calls, the calls of one model turn, as
// runtime.Toolset.RunCalls returns them: one result per call, in the calls' order, each
// for the call of the same id and name, and more for a call without an id: its result
// must be for the same arguments too, since by id and name alone two calls of one tool
// answered in swapped order would pass. Provider adapters check it before building a
// follow-up, since providers reject a turn whose calls are not all answered.
func CheckAnswers(calls []runtime.ToolCall, results []runtime.CallResult) error {
	if len(results) != len(calls) {
		return fmt.Errorf("%d results for %d tool calls: every call needs exactly one answer", len(results), len(calls))
	}
	for i, c := range calls {
		if r := results[i].Call; r.ID != c.ID || r.Name != c.Name {
			return fmt.Errorf("result %d answers call %s (%s), but call %d is %s (%s): answers must follow the calls' order", i, r.ID, r.Name, i, c.ID, c.Name)
		}
	}
	for i, c := range calls {
		if r := results[i].Call; c.ID == "" && !SameJSON(r.Arguments, c.Arguments) {
			return fmt.Errorf("result %d answers a call of %s with other arguments than call %d: answers must follow the calls' order", i, c.Name, i)
		}
	}
	return nil
}

// SameJSON reports whether a and b are the same text, or the same once compacted.
func SameJSON(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// DefaultMaxArgumentBytes is what the stream accumulators hold of one call's
// arguments by default: runtime.DefaultMaxArgumentBytes, beyond which the Toolset
// refuses them anyway.
const DefaultMaxArgumentBytes = runtime.DefaultMaxArgumentBytes

// ArgumentBytes returns limit, or DefaultMaxArgumentBytes when limit is zero or less.
func ArgumentBytes(limit int) int { return orDefault(limit, DefaultMaxArgumentBytes) }

// CheckArguments returns an error when a call that holds have bytes of arguments
// cannot take more bytes under limit (see ArgumentBytes); what names the call.
func CheckArguments(what string, have, more, limit int) error {
	limit = ArgumentBytes(limit)
	if more <= limit-have {
		return nil
	}
	return fmt.Errorf("the arguments of %s are over %d bytes, the limit: raise Limits.MaxArgumentBytes, and the Toolset's runtime.Limits.MaxArgumentBytes, to accept them", what, limit)
}
