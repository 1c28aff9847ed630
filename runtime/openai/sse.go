package openai

import (
	"io"

	"github.com/toolgen/toolgen/runtime/internal/wire"
)

const (
	// DefaultMaxLineBytes is the longest line of an event stream ReadSSE reads by
	// default: 16 MiB, room for a response.completed event that repeats a whole
	// response.
	DefaultMaxLineBytes = 16 << 20
	// DefaultMaxEventBytes is the most data one event of a stream holds by default:
	// 16 MiB.
	DefaultMaxEventBytes = 16 << 20
)

// Limits bound what reading a stream holds in memory, so that a stream that never
// ends a line, or sends endless argument deltas, costs an error instead of all the
// memory there is. A zero or negative field takes its default. ReadSSE uses the
// defaults; Limits.ReadSSE the limits given, and a ChatStream or ResponsesStream its
// Limits field.
type Limits struct {
	// MaxLineBytes bounds one line of the event stream, its ending left out
	// (DefaultMaxLineBytes).
	MaxLineBytes int
	// MaxEventBytes bounds the data of one event, its data lines joined
	// (DefaultMaxEventBytes).
	MaxEventBytes int
	// MaxArgumentBytes bounds the arguments (or custom tool input) of one call as a
	// stream accumulator joins their deltas (runtime.DefaultMaxArgumentBytes, 1 MiB,
	// which the Toolset's runtime.Limits.MaxArgumentBytes also applies: raise both).
	MaxArgumentBytes int
}

// ReadSSE reads a server-sent event stream, such as the body of a streaming OpenAI
// response, and calls fn with each event's name ("" when the event has none) and data
// (its "data:" lines joined by newlines), in order. Lines may end with CRLF, LF or a
// lone CR; a leading byte order mark, comments and the id and retry fields are
// skipped; an event cut off by the end of the stream is not delivered, as the SSE
// specification asks. fn owns the slices it is given. ReadSSE returns fn's first
// error, the reader's, or an error for a line or an event over its limit (see
// Limits; ReadSSE uses the defaults), and nil at the end of the stream.
//
// To accumulate a stream:
//
//	var s openai.ChatStream
//	err := openai.ReadSSE(resp.Body, func(_, data []byte) error { return s.Add(data) })
//	calls, err := s.Calls()
func ReadSSE(r io.Reader, fn func(event, data []byte) error) error {
	return Limits{}.ReadSSE(r, fn)
}

// ReadSSE reads a server-sent event stream as the package's ReadSSE does, with the
// line and event limits of l.
func (l Limits) ReadSSE(r io.Reader, fn func(event, data []byte) error) error {
	return wire.ReadSSE(r, wire.DropTail, wire.SSELimits{MaxLineBytes: l.MaxLineBytes, MaxEventBytes: l.MaxEventBytes}, fn)
}
