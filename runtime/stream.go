package runtime

import "context"

// Stream accumulates one streamed response, event by event, into what a whole
// response would have said. The provider packages give one per wire format through
// StreamProvider.Stream, all of this one shape; each keeps the bounds of its format
// (the arguments of one call, cut turns, duplicate call ids, malformed calls).
type Stream interface {
	// Add adds one server-sent event: its name (empty when it has none) and its data.
	// An event the format cannot take is an error, which the Stream keeps: later calls
	// of Add, Calls and Response return it again.
	Add(event, data []byte) error
	// Text returns the text the model has written so far. It only grows: the text of
	// a later call starts with that of an earlier one.
	Text() string
	// Calls returns the tool calls of the complete stream, in order. A stream cut
	// off, or one that holds half a call, is an error: Calls never returns half a call.
	Calls() ([]ToolCall, error)
	// Response returns the complete stream as the whole response body the API would
	// have answered without streaming, which the Provider's Calls and Continue read.
	// It fails as Calls does.
	Response() ([]byte, error)
	// Done reports whether the stream is complete and has no error.
	Done() bool
}

// StreamProvider is a Provider that can also read its responses streamed, for a Loop
// with a Stream function.
type StreamProvider interface {
	Provider
	// PrepareStream returns request prepared as Prepare does, and asking for a streamed
	// response: "stream": true in the body, for the formats that say it there. A format
	// that says it in the URL instead (Gemini's streamGenerateContent?alt=sse) leaves
	// the body as Prepare does: the URL is the StreamFunc's business.
	PrepareStream(request []byte, ts *Toolset, choice Choice) ([]byte, error)
	// Stream returns an empty Stream for one streamed response.
	Stream() Stream
}

// StreamFunc sends a request body to the provider's API, asking for a streamed
// response, and calls events with each server-sent event of the response, in order,
// as the provider packages' ReadSSE functions read them from the response body. It
// returns the first error of events, unchanged, or its own, and nil once the
// response has ended. Users supply it, as they supply a SendFunc.
type StreamFunc func(ctx context.Context, request []byte, events func(event, data []byte) error) error
