package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolgen/toolgen/runtime"
)

// ArgumentsMap returns a call's arguments as a map from name to text: strings
// unquoted, other values (numbers, booleans, null, objects, arrays) as their compact
// JSON text. It suits code that shows or logs a call; running it is the Toolset's job.
// Arguments that are not a JSON object are an error.
func ArgumentsMap(call runtime.ToolCall) (map[string]string, error) {
	args := call.Arguments
	if len(bytes.TrimSpace(args)) == 0 {
		args = []byte("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(args, &fields); err != nil {
		return nil, fmt.Errorf("the arguments of %s are not a JSON object: %w", call.Name, err)
	}
	if fields == nil {
		return nil, errors.New("the arguments of " + call.Name + " are null, not an object")
	}
	out := make(map[string]string, len(fields))
	for name, raw := range fields {
		out[name] = valueText(raw)
	}
	return out, nil
}

// Argument returns the named argument of a call as ArgumentsMap gives it, and whether
// the call has it.
func Argument(call runtime.ToolCall, name string) (string, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(call.Arguments, &fields) != nil {
		return "", false
	}
	raw, ok := fields[name]
	if !ok {
		return "", false
	}
	return valueText(raw), true
}

// valueText returns a JSON value as text: a string unquoted, anything else compact.
func valueText(raw json.RawMessage) string {
	var s string
	if raw = bytes.TrimSpace(raw); len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}
