package gemini

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wire"
)

// functionCall is the functionCall of a part.
type functionCall struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Args         json.RawMessage `json:"args"`
	PartialArgs  json.RawMessage `json:"partialArgs"`
	WillContinue *bool           `json:"willContinue"`
}

// promptFeedback is the feedback on a blocked prompt.
type promptFeedback struct {
	BlockReason        string `json:"blockReason"`
	BlockReasonMessage string `json:"blockReasonMessage"`
}

// blocked returns an error for a response whose prompt was blocked, or nil.
func blocked(resp map[string]json.RawMessage) error {
	var fb promptFeedback
	_ = json.Unmarshal(resp["promptFeedback"], &fb)
	if fb.BlockReason == "" {
		return nil
	}
	if fb.BlockReasonMessage != "" {
		return fmt.Errorf("the prompt was blocked: %s: %s", fb.BlockReason, fb.BlockReasonMessage)
	}
	return fmt.Errorf("the prompt was blocked: %s", fb.BlockReason)
}

// Calls returns the function calls of a generateContent response body: the
// functionCall parts of its first candidate's content, in order (several parts are
// parallel calls), each with its id when the API gave one, its name and its args
// object as Arguments. A response without functionCall parts has no calls. Args that
// are not an object go to the Toolset as they are, which answers that call with an
// argument error while the others run. An error body, a blocked prompt, a candidate
// that finished with MALFORMED_FUNCTION_CALL or UNEXPECTED_TOOL_CALL, a functionCall
// without a name, two calls with one (non-empty) id, and calls in a candidate that
// stopped short (any finishReason but STOP: MAX_TOKENS, SAFETY, ...) are errors: a
// call is never returned half written.
func Calls(body []byte) ([]runtime.ToolCall, error) {
	_, calls, err := contentAndCalls(body)
	return calls, err
}

// contentAndCalls returns the raw content of a response body's first candidate (nil
// when it has none) and its calls.
func contentAndCalls(body []byte) (json.RawMessage, []runtime.ToolCall, error) {
	resp, err := wire.DecodeObject(body, "the response")
	if err != nil {
		return nil, nil, err
	}
	if err := errorOf(resp["error"]); err != nil {
		return nil, nil, err
	}
	candidates, err := wire.DecodeArray(resp, "candidates", "the response")
	if err != nil {
		return nil, nil, err
	}
	if len(candidates) == 0 {
		return nil, nil, blocked(resp)
	}
	cand, err := wire.DecodeObject(candidates[0], "candidates[0]")
	if err != nil {
		return nil, nil, err
	}
	var finish struct {
		FinishReason  string `json:"finishReason"`
		FinishMessage string `json:"finishMessage"`
	}
	_ = json.Unmarshal(candidates[0], &finish)
	switch finish.FinishReason {
	case "MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL":
		msg := fmt.Sprintf("the model's function call failed: %s", finish.FinishReason)
		if finish.FinishMessage != "" {
			msg += ": " + finish.FinishMessage
		}
		return nil, nil, errors.New(msg)
	}
	content := cand["content"]
	if wire.IsNull(content) {
		return nil, nil, nil
	}
	c, err := wire.DecodeObject(content, "candidates[0].content")
	if err != nil {
		return nil, nil, err
	}
	parts, err := wire.DecodeArray(c, "parts", "candidates[0].content")
	if err != nil {
		return nil, nil, err
	}
	var calls []runtime.ToolCall
	for i, raw := range parts {
		var p struct {
			FunctionCall json.RawMessage `json:"functionCall"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, nil, fmt.Errorf("part %d is not a part: %w", i, err)
		}
		if wire.IsNull(p.FunctionCall) {
			continue
		}
		call, err := readCall(p.FunctionCall)
		if err != nil {
			return nil, nil, fmt.Errorf("part %d: %w", i, err)
		}
		calls = append(calls, call)
	}
	if err := wire.UniqueIDs(calls); err != nil {
		return nil, nil, fmt.Errorf("the response's function calls: %w", err)
	}
	if err := cut(finish.FinishReason, calls); err != nil {
		return nil, nil, err
	}
	return content, calls, nil
}

// cut returns an error when a candidate with calls stopped short: by MAX_TOKENS its
// last call may be half written; by a filter, or any reason but STOP, the turn is not
// what the model meant to send.
func cut(finish string, calls []runtime.ToolCall) error {
	switch finish {
	case "", "STOP", "FINISH_REASON_UNSPECIFIED":
		return nil
	}
	if len(calls) == 0 {
		return nil
	}
	why := "the candidate stopped short"
	if finish == "MAX_TOKENS" {
		why = "it reached maxOutputTokens; raise it"
	}
	last := calls[len(calls)-1]
	return fmt.Errorf("the response was cut short (finishReason %s: %s) with %d function call(s), the last %s maybe incomplete: none is taken", finish, why, len(calls), last.Name)
}

// readCall reads one functionCall.
func readCall(raw json.RawMessage) (runtime.ToolCall, error) {
	var fc functionCall
	if err := json.Unmarshal(raw, &fc); err != nil {
		return runtime.ToolCall{}, fmt.Errorf("functionCall is not an object: %w", err)
	}
	switch {
	case fc.Name == "":
		return runtime.ToolCall{}, errors.New("functionCall without a name")
	case !wire.IsNull(fc.PartialArgs) || fc.WillContinue != nil && *fc.WillContinue:
		return runtime.ToolCall{}, fmt.Errorf("functionCall %s streams its arguments (partialArgs), which this package does not assemble: leave streamFunctionCallArguments unset", fc.Name)
	case wire.IsNull(fc.Args):
		fc.Args = json.RawMessage(`{}`)
	}
	return runtime.ToolCall{ID: fc.ID, Name: fc.Name, Arguments: fc.Args}, nil
}

// HasToolCalls reports whether a generateContent response body holds function calls
// that Calls can read.
func HasToolCalls(body []byte) bool {
	return wire.HasCalls(Calls(body))
}

// ArgumentsMap returns the top-level arguments of call, strings as their value and
// other values as their JSON text. Blank or null arguments give an empty map, as the Toolset reads them as no arguments; arguments
// that are not a JSON object are an error. The other provider packages' ArgumentsMap
// behave the same.
func ArgumentsMap(call runtime.ToolCall) (map[string]string, error) {
	return wire.ArgumentsMap(call.Arguments)
}

// Argument returns one top-level argument of call as ArgumentsMap renders it, and
// whether the call has it.
func Argument(call runtime.ToolCall, name string) (string, bool) {
	return wire.Argument(call.Arguments, name)
}
