package wire

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Tail says what ReadSSE does with the last event of a stream that ends without the
// blank line that would end that event.
type Tail int

const (
	// DropTail drops the cut-off event, as the SSE specification asks: a stream cut
	// short never delivers half an event.
	DropTail Tail = iota
	// DeliverTail delivers the cut-off event, its last line included even without
	// its line ending, for servers that end a stream without the final blank line;
	// fn then finds out whether the data is complete.
	DeliverTail
)

// ReadSSE reads a stream of server-sent events from r and calls fn with each event's
// name (empty when the event has none) and data (its "data" lines joined by
// newlines), in order, until r ends or fn returns an error.
//
// It reads the event stream format of the HTML standard: lines end with CRLF, LF or
// a lone CR; a blank line ends an event, and an event without data lines is not
// delivered; a leading byte order mark is skipped; one space after the colon is
// dropped; comments (lines starting with ':'), the id and retry fields and unknown
// fields are skipped. Lines may be of any length. tail says what happens to an event
// the end of r cuts off.
//
// fn owns the slices it is given. ReadSSE returns fn's first error, or r's, and nil
// at the end of r.
func ReadSSE(r io.Reader, tail Tail, fn func(event, data []byte) error) error {
	lines := lineReader{r: bufio.NewReader(r)}
	var ev event
	for first := true; ; first = false {
		line, err := lines.next()
		if first {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return err
			}
			if tail == DropTail {
				return nil
			}
			if len(line) > 0 {
				ev.field(line)
			}
			return ev.dispatch(fn)
		}
		if len(line) == 0 {
			if err := ev.dispatch(fn); err != nil {
				return err
			}
			continue
		}
		ev.field(line)
	}
}

// event is the event being read.
type event struct {
	name, data []byte
	hasData    bool
}

// field applies one non-blank line to the event.
func (e *event) field(line []byte) {
	if line[0] == ':' {
		return // a comment
	}
	name, value, _ := bytes.Cut(line, []byte(":"))
	value = bytes.TrimPrefix(value, []byte(" "))
	switch string(name) {
	case "event":
		e.name = bytes.Clone(value)
	case "data":
		if e.hasData {
			e.data = append(e.data, '\n')
		}
		e.data, e.hasData = append(e.data, value...), true
	}
}

// dispatch passes the event to fn if it has data, and starts the next event.
func (e *event) dispatch(fn func(event, data []byte) error) error {
	name, data, hasData := e.name, e.data, e.hasData
	*e = event{}
	if !hasData {
		return nil
	}
	return fn(name, data)
}

// lineReader splits a stream into lines ended by CRLF, LF or a lone CR. It returns a
// line as soon as its end arrives, so that an event ended by CRs is not held back
// waiting for a LF.
type lineReader struct {
	r      *bufio.Reader
	line   []byte
	skipLF bool // the last line ended with CR: a LF right after it belongs to it
}

// next returns the next line without its ending; the slice is valid until the next
// call. At the end of the stream, or on a read error, it returns the rest read after
// the last line ending, maybe empty, and the error (io.EOF at the end).
func (l *lineReader) next() ([]byte, error) {
	l.line = l.line[:0]
	for {
		head, err := l.r.Peek(1)
		if err != nil {
			return l.line, err
		}
		if l.skipLF {
			l.skipLF = false
			if head[0] == '\n' {
				_, _ = l.r.Discard(1)
				continue
			}
		}
		buf, _ := l.r.Peek(l.r.Buffered())
		if i := bytes.IndexAny(buf, "\r\n"); i >= 0 {
			l.line = append(l.line, buf[:i]...)
			l.skipLF = buf[i] == '\r'
			_, _ = l.r.Discard(i + 1)
			return l.line, nil
		}
		l.line = append(l.line, buf...)
		_, _ = l.r.Discard(len(buf))
	}
}
