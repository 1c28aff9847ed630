package wire

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/bits"
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

const (
	// DefaultMaxLineBytes is the longest line ReadSSE reads by default, its ending
	// left out: 16 MiB, room for a Responses stream's response.completed event, which
	// repeats the whole response, several calls of 1 MiB of arguments included.
	DefaultMaxLineBytes = 16 << 20
	// DefaultMaxEventBytes is the most data one event holds by default, its data lines
	// joined: 16 MiB.
	DefaultMaxEventBytes = 16 << 20
)

// SSELimits bound what ReadSSE holds in memory. A zero or negative field takes its
// default.
type SSELimits struct {
	// MaxLineBytes bounds one line, its ending left out (DefaultMaxLineBytes).
	MaxLineBytes int
	// MaxEventBytes bounds the data of one event, its data lines joined by newlines
	// (DefaultMaxEventBytes).
	MaxEventBytes int
}

// LineBytes returns MaxLineBytes, or its default.
func (l SSELimits) LineBytes() int { return orDefault(l.MaxLineBytes, DefaultMaxLineBytes) }

// EventBytes returns MaxEventBytes, or its default.
func (l SSELimits) EventBytes() int { return orDefault(l.MaxEventBytes, DefaultMaxEventBytes) }

func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// ReadSSE reads a stream of server-sent events from r and calls fn with each event's
// name (empty when the event has none) and data (its "data" lines joined by
// newlines), in order, until r ends or fn returns an error.
//
// It reads the event stream format of the HTML standard: lines end with CRLF, LF or
// a lone CR; a blank line ends an event, and an event without data lines is not
// delivered; a leading byte order mark is skipped; one space after the colon is
// dropped; comments (lines starting with ':'), the id and retry fields and unknown
// fields are skipped. tail says what happens to an event the end of r cuts off.
//
// A line longer than lim's MaxLineBytes, or an event whose data would pass its
// MaxEventBytes, is an error that names the limit. ReadSSE reads no more than a
// buffer's worth (4 KiB) past the limit, and holds no more than the data of one
// event, its name and that buffer, however long a line a server sends: a line is
// not buffered whole but goes, as it comes, to the event's data or name, or nowhere.
//
// fn owns the slices it is given. ReadSSE returns fn's first error, r's or a limit's,
// and nil at the end of r.
func ReadSSE(r io.Reader, tail Tail, lim SSELimits, fn func(event, data []byte) error) error {
	s := sseReader{r: bufio.NewReader(r), maxLine: lim.LineBytes(), maxEvent: lim.EventBytes()}
	if bom, _ := s.r.Peek(3); string(bom) == "\xef\xbb\xbf" {
		_, _ = s.r.Discard(3)
	}
	for {
		n, err := s.line()
		if err != nil {
			if !errors.Is(err, io.EOF) || tail == DropTail {
				return ignoreEOF(err)
			}
			return s.dispatch(fn)
		}
		if n == 0 {
			if err := s.dispatch(fn); err != nil {
				return err
			}
		}
	}
}

func ignoreEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// sseReader reads the lines of a stream into the event they make.
type sseReader struct {
	r                 *bufio.Reader
	maxLine, maxEvent int
	skipLF            bool // the last line ended with CR: a LF right after it belongs to it

	name    buffer // the event's name
	data    buffer // the event's data
	hasData bool
}

// The parts of a line: the field's name, up to the first ':', the space that may
// follow the colon, and the value.
const (
	inName = iota
	atSpace
	inValue
)

// line reads one line and applies it to the event, a part at a time, as it comes. It
// returns the line's length, its ending left out, and an error for a line over the
// limit, r's error or io.EOF at the end of r, in or after the line (a line cut off by
// the end has been applied).
func (s *sseReader) line() (n int, err error) {
	var (
		part  = inName
		name  [len("event") + 1]byte
		nameN int
		dst   *buffer // where the value goes; nil: nowhere
		limit int     // the most dst holds
	)
	// begin starts the value of the field named so far.
	begin := func() error {
		switch string(name[:min(nameN, len(name))]) {
		case "data":
			if s.hasData {
				if s.data.n+1 > s.maxEvent {
					return s.eventTooLong()
				}
				s.data.write([]byte{'\n'})
			}
			s.hasData, dst, limit = true, &s.data, s.maxEvent
		case "event":
			s.name.reset()
			dst, limit = &s.name, s.maxLine
		}
		return nil
	}
	for {
		if _, err := s.r.Peek(1); err != nil {
			if part == inName && n > 0 {
				if err := begin(); err != nil {
					return n, err
				}
			}
			return n, err
		}
		buf, _ := s.r.Peek(s.r.Buffered())
		if s.skipLF {
			s.skipLF = false
			if buf[0] == '\n' {
				_, _ = s.r.Discard(1)
				continue
			}
		}
		end := bytes.IndexAny(buf, "\r\n")
		chunk := buf
		if end >= 0 {
			chunk = buf[:end]
		}
		if len(chunk) > s.maxLine-n {
			return n, fmt.Errorf("a line of the stream is over %d bytes long, the limit: raise Limits.MaxLineBytes to read it", s.maxLine)
		}
		n += len(chunk)
		for len(chunk) > 0 {
			switch part {
			case inName:
				i := bytes.IndexByte(chunk, ':')
				head := chunk
				if i >= 0 {
					head = chunk[:i]
				}
				copy(name[min(nameN, len(name)):], head)
				nameN += len(head) // a name too long to fit matches none
				if i < 0 {
					chunk = nil
					continue
				}
				chunk, part = chunk[i+1:], atSpace
				if err := begin(); err != nil {
					return n, err
				}
			case atSpace:
				if chunk[0] == ' ' {
					chunk = chunk[1:]
				}
				part = inValue
			case inValue:
				if dst != nil {
					if len(chunk) > limit-dst.n {
						if dst == &s.data {
							return n, s.eventTooLong()
						}
						return n, fmt.Errorf("a line of the stream is over %d bytes long, the limit: raise Limits.MaxLineBytes to read it", s.maxLine)
					}
					dst.write(chunk)
				}
				chunk = nil
			}
		}
		if end < 0 {
			_, _ = s.r.Discard(len(buf))
			continue
		}
		if part == inName && n > 0 {
			if err := begin(); err != nil {
				return n, err
			}
		}
		s.skipLF = buf[end] == '\r'
		_, _ = s.r.Discard(end + 1)
		return n, nil
	}
}

func (s *sseReader) eventTooLong() error {
	return fmt.Errorf("an event of the stream has over %d bytes of data, the limit: raise Limits.MaxEventBytes to read it", s.maxEvent)
}

// dispatch passes the event to fn if it has data, and starts the next event.
func (s *sseReader) dispatch(fn func(event, data []byte) error) error {
	hasData := s.hasData
	name, data := s.name.bytes(), s.data.bytes()
	s.name.reset()
	s.data.reset()
	s.hasData = false
	if !hasData {
		return nil
	}
	return fn(name, data)
}

// buffer holds the bytes of an event's data or name in blocks, kept from event to
// event, so that growing it to n bytes allocates about n bytes in all, not the 2n to
// 4n of a slice that doubles.
type buffer struct {
	blocks   [][]byte // of minBlock bytes, then twice as many up to maxBlock
	cur, off int      // where the next byte goes: block cur, at off
	n        int      // the bytes held
}

const (
	minBlock = 512
	maxBlock = 64 << 10
)

// write appends p.
func (b *buffer) write(p []byte) {
	for len(p) > 0 {
		if b.cur == len(b.blocks) {
			size := maxBlock
			if n := len(b.blocks); n < bits.Len(maxBlock/minBlock) {
				size = minBlock << n // doubling up to maxBlock; a larger shift would overflow
			}
			b.blocks = append(b.blocks, make([]byte, size))
		}
		c := copy(b.blocks[b.cur][b.off:], p)
		p, b.off, b.n = p[c:], b.off+c, b.n+c
		if b.off == len(b.blocks[b.cur]) {
			b.cur, b.off = b.cur+1, 0
		}
	}
}

// bytes returns a copy of the bytes held, nil when there are none.
func (b *buffer) bytes() []byte {
	if b.n == 0 {
		return nil
	}
	out := make([]byte, 0, b.n)
	for _, blk := range b.blocks[:b.cur] {
		out = append(out, blk...)
	}
	if b.off > 0 {
		out = append(out, b.blocks[b.cur][:b.off]...)
	}
	return out
}

// reset empties the buffer, keeping its blocks.
func (b *buffer) reset() { b.cur, b.off, b.n = 0, 0, 0 }
