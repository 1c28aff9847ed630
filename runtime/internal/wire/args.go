package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ArgumentsMap returns the top-level arguments of a call, args being the JSON text of
// its arguments object (ToolCall.Arguments): a string argument as its value, any other
// value (a number, a boolean, null, an object, an array) as its compact JSON text. It
// serves logs, approval prompts and tests; tools receive their arguments through the
// generated decoders instead. Blank or null arguments give an empty map, as the
// Toolset reads them as no arguments; arguments that are not a JSON object are an
// error. Of a property given twice, the last one counts. It is the one implementation:
// the ArgumentsMap functions of the provider packages call it.
func ArgumentsMap(args []byte) (map[string]string, error) {
	fields, err := argumentFields(args)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(fields))
	for name, raw := range fields {
		out[name] = argumentText(raw)
	}
	return out, nil
}

// Argument returns the top-level argument name of a call as ArgumentsMap renders it,
// and whether the arguments are a JSON object that has it.
func Argument(args []byte, name string) (string, bool) {
	fields, err := argumentFields(args)
	if err != nil {
		return "", false
	}
	raw, ok := fields[name]
	if !ok {
		return "", false
	}
	return argumentText(raw), true
}

// argumentFields decodes the arguments object into its raw fields.
func argumentFields(args []byte) (map[string]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return map[string]json.RawMessage{}, nil
	}
	if trimmed[0] != '{' {
		return nil, fmt.Errorf("the arguments are not a JSON object: %.40s", trimmed)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &fields); err != nil {
		return nil, fmt.Errorf("the arguments are not a valid JSON object: %w", err)
	}
	return fields, nil
}

// argumentText renders one argument value: a string as itself, anything else as
// compact JSON.
func argumentText(raw json.RawMessage) string {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}
