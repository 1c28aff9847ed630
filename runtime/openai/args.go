package openai

import (
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wire"
)

// ArgumentsMap returns the top-level arguments of call, rendered: strings unquoted, other values (numbers, booleans, null, objects, arrays) as
// their compact JSON text. It suits code that shows or logs a call; running it is the
// Toolset's job. Blank or null arguments give an empty map, as the Toolset reads them
// as no arguments; arguments that are not a JSON object are an error. The anthropic
// and gemini packages' ArgumentsMap behave the same.
func ArgumentsMap(call runtime.ToolCall) (map[string]string, error) {
	return wire.ArgumentsMap(call.Arguments)
}

// Argument returns the named argument of a call as ArgumentsMap gives it, and whether
// the call has it.
func Argument(call runtime.ToolCall, name string) (string, bool) {
	return wire.Argument(call.Arguments, name)
}
