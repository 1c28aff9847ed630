// Package gemini adapts a runtime.Toolset to the Gemini API's generateContent and
// streamGenerateContent methods.
//
// It declares the tools (Tools, ToolConfigFor, ForceFunctions), reads the function
// calls a model makes from a whole response body (Calls) or a stream (Stream, fed by
// ReadSSE from streamGenerateContent?alt=sse), and builds the user content that
// answers them (FunctionResponses). Running the calls is runtime.Toolset.RunCalls,
// which answers every call exactly once, in order. GenerateContent implements
// loop.Provider over raw JSON bodies for loop.Loop.
//
// The package works on JSON bodies and depends on the standard library only: it fits
// any HTTP client, and the official SDK's types (google.golang.org/genai) marshal to and
// from the bodies it reads and writes.
//
// What a model sends is untrusted, and a reader never takes half a call for a whole
// one: function calls in a candidate that stopped short (any finishReason but STOP,
// MAX_TOKENS first), two calls with one id, or a stream without its finishReason are
// an error; answers to calls without ids are checked by position and args. A call
// whose args are malformed gets its own argument error while the others run. A stream
// is bounded by Limits: the line and the event ReadSSE holds (DefaultMaxLineBytes,
// DefaultMaxEventBytes, 16 MiB each) and each functionCall's args
// (runtime.DefaultMaxArgumentBytes, 1 MiB).
//
// One round by hand, with the tools of a generated package weather:
//
//	tools := weather.Tools()
//	req := map[string]any{"contents": contents, "tools": gemini.Tools(tools)}
//	body := send(req) // the response body
//	calls, err := gemini.Calls(body)
//	if err != nil || len(calls) == 0 {
//		return body, err
//	}
//	turn, err := gemini.ModelContent(body) // candidates[0].content, thought signatures and all
//	contents = append(contents, turn, gemini.FunctionResponses(tools.RunCalls(ctx, calls, 0)))
//
// loop.Loop with GenerateContent{} does all of that, round after round.
package gemini
