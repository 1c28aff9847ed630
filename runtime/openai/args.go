package openai

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/toolgen/toolgen/runtime"
)

// ArgumentsMap returns a call's arguments as a map from name to text: strings
// unquoted, other values (numbers, booleans, null, objects, arrays) as their compact
// JSON text, as runtime.ArgumentsMap renders them. It suits code that shows or logs a
// call; running it is the Toolset's job. Blank arguments give an empty map; arguments
// that are not a JSON object, null included, are an error.
func ArgumentsMap(call runtime.ToolCall) (map[string]string, error) {
	if string(bytes.TrimSpace(call.Arguments)) == "null" {
		return nil, errors.New("the arguments of " + call.Name + " are null, not an object")
	}
	args, err := runtime.ArgumentsMap(call.Arguments)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", call.Name, err)
	}
	return args, nil
}

// Argument returns the named argument of a call as ArgumentsMap gives it, and whether
// the call has it (see runtime.Argument).
func Argument(call runtime.ToolCall, name string) (string, bool) {
	return runtime.Argument(call.Arguments, name)
}
