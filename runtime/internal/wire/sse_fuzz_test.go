package wire_test

import (
	"bufio"
	"bytes"
	"io"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/toolgen/toolgen/runtime/internal/wire"
)

// referenceSSE is a plain reading of the event stream format, without limits: each
// line whole, then its field. FuzzReadSSE holds ReadSSE to it.
func referenceSSE(input []byte, tail wire.Tail) []sseEvent {
	input = bytes.TrimPrefix(input, []byte("\xef\xbb\xbf"))
	var lines [][]byte
	r := bufio.NewReader(bytes.NewReader(input))
	var line []byte
	ended := true // the input ends with a line ending (or is empty)
	for {
		b, err := r.ReadByte()
		if err != nil {
			break
		}
		switch b {
		case '\r':
			if next, err := r.ReadByte(); err == nil && next != '\n' {
				_ = r.UnreadByte()
			}
			fallthrough
		case '\n':
			lines, line, ended = append(lines, line), nil, true
		default:
			line, ended = append(line, b), false
		}
	}
	var events []sseEvent
	var name string
	var data []byte
	hasData := false
	apply := func(l []byte) {
		if len(l) > 0 && l[0] == ':' {
			return
		}
		field, value, _ := bytes.Cut(l, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			name = string(value)
		case "data":
			if hasData {
				data = append(data, '\n')
			}
			data, hasData = append(data, value...), true
		}
	}
	dispatch := func() {
		if hasData {
			events = append(events, sseEvent{name, string(data)})
		}
		name, data, hasData = "", nil, false
	}
	for _, l := range lines {
		if len(l) == 0 {
			dispatch()
			continue
		}
		apply(l)
	}
	if tail == wire.DeliverTail {
		if !ended {
			apply(line)
		}
		dispatch()
	}
	return events
}

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	fn()
	goruntime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// The cost bound FuzzReadSSE holds ReadSSE to: at most maxBytesPerByte bytes
// allocated per byte of input, beyond a fixed allowance for the reader's buffer.
const (
	maxBytesPerByte = 4
	fixedAllowance  = 16 << 10
)

// FuzzReadSSE reads any input with ReadSSE, whole and one byte at a time, with
// limits wide enough for the input and with limits of 64 bytes. With wide limits it
// must deliver what referenceSSE does; with narrow ones, a prefix of that and a limit
// error, or all of it. It never panics, never delivers an event over the limit, and
// allocates at most maxBytesPerByte bytes per input byte (beyond fixedAllowance).
func FuzzReadSSE(f *testing.F) {
	for _, seed := range []string{
		"",
		"data: a\n\n",
		wiretestCutSSE,
		"\xef\xbb\xbfevent: e\r\ndata: a\r\rdata: b\r\n\r\n",
		"data: " + strings.Repeat("x", 200),
		strings.Repeat("data\n", 100) + "\n",
		":" + strings.Repeat(" ", 300) + "\ndata: x\n\n",
		"event: " + strings.Repeat("e", 100) + "\ndata: y\n\n",
		strings.Repeat("data: 0123456789\n\n", 50),
		"datadata: x\ndata:y\r\r\n\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		wide := wire.SSELimits{MaxLineBytes: len(input) + 1, MaxEventBytes: len(input) + 1}
		narrow := wire.SSELimits{MaxLineBytes: 64, MaxEventBytes: 64}
		for _, tail := range []wire.Tail{wire.DropTail, wire.DeliverTail} {
			// The cost, with fn doing nothing but check the event's size.
			for _, lim := range []wire.SSELimits{wide, narrow} {
				var err error
				cost := allocated(func() {
					err = wire.ReadSSE(bytes.NewReader(input), tail, lim, func(_, data []byte) error {
						if len(data) > lim.EventBytes() {
							t.Errorf("an event of %d bytes passed the limit of %d", len(data), lim.EventBytes())
						}
						return nil
					})
				})
				if bound := uint64(maxBytesPerByte*len(input) + fixedAllowance); cost > bound {
					t.Errorf("ReadSSE allocated %d bytes for %d bytes of input, over %d", cost, len(input), bound)
				}
				if err != nil && (lim == wide || !strings.Contains(err.Error(), "the limit: raise Limits.Max")) {
					t.Errorf("limits %+v: %v", lim, err)
				}
			}

			// What it reads: with wide limits, what referenceSSE does, whole or a byte
			// at a time; with narrow ones, a prefix of that, all of it without an error.
			want := referenceSSE(input, tail)
			for _, lim := range []wire.SSELimits{wide, narrow} {
				for _, oneByte := range []bool{false, true} {
					var r io.Reader = bytes.NewReader(input)
					if oneByte {
						r = iotest.OneByteReader(r)
					}
					var got []sseEvent
					err := wire.ReadSSE(r, tail, lim, func(event, data []byte) error {
						got = append(got, sseEvent{string(event), string(data)})
						return nil
					})
					if len(got) > len(want) || !slices.Equal(got, want[:len(got)]) || err == nil && len(got) != len(want) {
						t.Fatalf("limits %+v, tail %d, one byte %v: ReadSSE(%q) = %q (%v), want %q", lim, tail, oneByte, input, got, err, want)
					}
				}
			}
		}
	})
}

// wiretestCutSSE is wiretest.CutSSE, which this package's tests cannot import.
const wiretestCutSSE = "event: e\r\ndata: a\r\r: ping\ndata: cut off"
