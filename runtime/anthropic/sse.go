package anthropic

import (
	"io"

	"github.com/toolgen/toolgen/runtime/internal/wire"
)

const (
	// DefaultMaxLineBytes is the longest line of an event stream ReadSSE reads by
	// default: 16 MiB.
	DefaultMaxLineBytes = 16 << 20
	// DefaultMaxEventBytes is the most data one event of a stream holds by default:
	// 16 MiB.
	DefaultMaxEventBytes = 16 << 20
)

// Limits bound what reading a stream holds in memory, so that a stream that never
// ends a line, or sends endless input deltas, costs an error instead of all the memory
// there is. A zero or negative field takes its default. ReadSSE uses the defaults;
// Limits.ReadSSE the limits given, and a Stream its Limits field.
type Limits struct {
	// MaxLineBytes bounds one line of the event stream, its ending left out
	// (DefaultMaxLineBytes).
	MaxLineBytes int
	// MaxEventBytes bounds the data of one event, its data lines joined
	// (DefaultMaxEventBytes).
	MaxEventBytes int
	// MaxArgumentBytes bounds the input of one content block as a Stream joins its
	// input_json_delta pieces (runtime.DefaultMaxArgumentBytes, 1 MiB, which the
	// Toolset's runtime.Limits.MaxArgumentBytes also applies: raise both).
	MaxArgumentBytes int
}

// ReadSSE reads a stream of server-sent events from r, such as the body of a streamed
// response, and calls fn with each event's name (empty when the event has none) and
// data (its data lines joined by newlines), in order, until r ends or fn returns an
// error, which ReadSSE returns. Lines may end with CRLF, LF or a lone CR; a leading
// byte order mark, comments, ids and retry fields are skipped. An event cut off by
// the end of r, without the blank line that ends it, is still passed to fn, its last
// line even without its line ending: the Stream it feeds finds out whether its data is
// complete, and a stream cut short is an error of the Stream's Calls and Response,
// never half a call. fn owns the slices it is given. A line or an event over its
// limit is an error (see Limits; ReadSSE uses the defaults). The ReadSSE functions of
// the openai, anthropic and gemini packages behave the same.
func ReadSSE(r io.Reader, fn func(event, data []byte) error) error {
	return Limits{}.ReadSSE(r, fn)
}

// ReadSSE reads a stream of server-sent events as the package's ReadSSE does, with
// the line and event limits of l.
func (l Limits) ReadSSE(r io.Reader, fn func(event, data []byte) error) error {
	return wire.ReadSSE(r, wire.DeliverTail, wire.SSELimits{MaxLineBytes: l.MaxLineBytes, MaxEventBytes: l.MaxEventBytes}, fn)
}
