package gemini

import (
	"encoding/json"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wire"
)

// Content is a conversation turn of a request's "contents".
type Content struct {
	// Role is "user" for the answers to function calls.
	Role  string `json:"role"`
	Parts []Part `json:"parts"`
}

// Part is one part of a Content; this package writes function responses.
type Part struct {
	FunctionResponse *FunctionResponse `json:"functionResponse,omitempty"`
}

// FunctionResponse answers one function call.
type FunctionResponse struct {
	// ID echoes the id of the call, when it had one.
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	// Response holds "output", the result (its structured JSON, or its text as a
	// string), or "error", the error's text, for a failed call.
	Response map[string]json.RawMessage `json:"response"`
}

// FunctionResponses returns the user content that answers results, one
// functionResponse part per result, in the order of the calls, as the API wants them:
// calls FC1, FC2 are answered FR1, FR2. results are the answers to every function call
// of the turn, as runtime.Toolset.RunCalls returns them.
func FunctionResponses(results []runtime.CallResult) Content {
	parts := make([]Part, len(results))
	for i, r := range results {
		fr := Response(r)
		parts[i] = Part{FunctionResponse: &fr}
	}
	return Content{Role: "user", Parts: parts}
}

// Response returns the functionResponse that answers one call: {"output": ...} with
// the structured result, or the result's text for the model (blocks meant for the user
// alone are left out), or {"error": text} when the call failed. A structured result
// whose text the result budget cut (Result.Truncated) is sent as that text: the
// budget bounds what the model reads. So is a structured result with text blocks for
// the model besides its JSON (a tool of the shape (R, []runtime.Content, error) that
// adds blocks for the model), and one whose structured value is not its text: the
// model reads what the other providers send it, and what the budget measured.
func Response(r runtime.CallResult) FunctionResponse {
	res := r.Result
	if res == nil {
		res = runtime.ErrorResult(r.Call.Name+" returned no result", nil)
	}
	key, value := "output", json.RawMessage(nil)
	switch {
	case res.IsError:
		key = "error"
	case len(res.Structured) > 0 && json.Valid(res.Structured) && !truncated(res) && modelTextBlocks(res) <= 1 && sameJSON(res.Structured, res.Text()):
		value = res.Structured
	}
	if value == nil {
		value, _ = wire.Marshal(res.Text()) // a string always encodes
	}
	return FunctionResponse{ID: r.Call.ID, Name: r.Call.Name, Response: map[string]json.RawMessage{key: value}}
}

// sameJSON reports whether the structured value is what the model's text says, byte
// for byte (as StructuredResult makes them): only then is sending the value sending
// what the result budget measured. A hand-built Result whose Structured holds more
// than its text is sent as its text.
func sameJSON(structured json.RawMessage, text string) bool { return string(structured) == text }

// truncated reports whether the result budget cut res's text.
func truncated(res *runtime.Result) bool {
	_, cut := res.Truncated()
	return cut
}

// modelTextBlocks counts the text blocks of res meant for the model.
func modelTextBlocks(res *runtime.Result) int {
	n := 0
	for _, c := range res.Content {
		if c.Type == runtime.ContentText && c.ForModel() {
			n++
		}
	}
	return n
}
