package gemini

import (
	"io"

	"github.com/toolgen/toolgen/runtime/internal/wire"
)

// ReadSSE reads a stream of server-sent events from r and calls fn with each event's
// name (empty when the event has none) and data (its data lines joined by newlines),
// until r ends or fn returns an error, which ReadSSE returns. Lines may end with CRLF,
// LF or a lone CR; a leading byte order mark, comments, ids and retry fields are
// skipped. An event cut off by the end of r without its blank line is still passed to
// fn, which finds out whether its data is complete. fn owns the slices it is given.
func ReadSSE(r io.Reader, fn func(event, data []byte) error) error {
	return wire.ReadSSE(r, wire.DeliverTail, fn)
}
