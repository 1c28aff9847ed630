package openai

import (
	"io"

	"github.com/toolgen/toolgen/runtime/internal/wire"
)

// ReadSSE reads a server-sent event stream, such as the body of a streaming OpenAI
// response, and calls fn with each event's name ("" when the event has none) and data
// (its "data:" lines joined by newlines), in order. Lines may end with CRLF, LF or a
// lone CR; a leading byte order mark, comments and the id and retry fields are
// skipped; an event cut off by the end of the stream is not delivered, as the SSE
// specification asks. fn owns the slices it is given. ReadSSE returns fn's first
// error, or the reader's, and nil at the end of the stream.
//
// To accumulate a stream:
//
//	var s openai.ChatStream
//	err := openai.ReadSSE(resp.Body, func(_, data []byte) error { return s.Add(data) })
//	calls, err := s.Calls()
func ReadSSE(r io.Reader, fn func(event, data []byte) error) error {
	return wire.ReadSSE(r, wire.DropTail, fn)
}
