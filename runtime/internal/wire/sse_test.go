package wire_test

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/toolgen/toolgen/runtime/internal/wire"
)

type sseEvent struct{ event, data string }

// readAll reads input with ReadSSE, whole and one byte at a time, and returns the
// events, failing the test when the two readings differ.
func readAll(t *testing.T, input string, tail wire.Tail) []sseEvent {
	t.Helper()
	var runs [2][]sseEvent
	for i, r := range []io.Reader{strings.NewReader(input), iotest.OneByteReader(strings.NewReader(input))} {
		err := wire.ReadSSE(r, tail, wire.SSELimits{}, func(event, data []byte) error {
			runs[i] = append(runs[i], sseEvent{string(event), string(data)})
			return nil
		})
		if err != nil {
			t.Fatalf("ReadSSE(%q): %v", input, err)
		}
	}
	if !reflect.DeepEqual(runs[0], runs[1]) {
		t.Fatalf("ReadSSE(%q) = %q, but %q one byte at a time", input, runs[0], runs[1])
	}
	return runs[0]
}

func TestReadSSE(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input string
		// want is the same for both tails but for the cut-off event, last when
		// there is one.
		want    []sseEvent
		cut     *sseEvent
		comment string
	}{{
		name: "fields", // from openai's tests
		input: ": a comment\r\n" +
			"event: first\r\n" +
			"data: one\r\n" +
			"data:two\r\n" +
			"id: 7\r\n" +
			"retry: 100\r\n" +
			"\r\n" +
			"data: {\"x\": 1}\n" +
			"\n" +
			"\n" + // a blank line without data dispatches nothing
			"event: lone-cr\r" +
			"data: three\r" +
			"\r" +
			"event: empty\n" +
			"data\n" +
			"\n" +
			"data: cut off by the end",
		want: []sseEvent{{"first", "one\ntwo"}, {"", `{"x": 1}`}, {"lone-cr", "three"}, {"empty", ""}},
		cut:  &sseEvent{"", "cut off by the end"},
	}, {
		name:  "bom", // from anthropic's tests
		input: "\xef\xbb\xbf: a comment\r\nevent: one\r\ndata: {\"a\":\r\ndata:1}\r\nid: 7\r\n\r\n\n\nretry: 10\nevent: lonely\n\ndata:no space\n\ndata: last",
		want:  []sseEvent{{"one", "{\"a\":\n1}"}, {"", "no space"}},
		cut:   &sseEvent{"", "last"},
	}, {
		name:  "sdk shapes", // from gemini's tests: the shapes its SDK's stream tests serve
		input: "data:{\"key1\":\"value1\"}\r\n\r\n\r\n\r\ndata: {\"key2\":\"value2\"}\n\n: keep-alive\n\ndata:{\"key3\":\n data:3}",
		want:  []sseEvent{{"", `{"key1":"value1"}`}, {"", `{"key2":"value2"}`}},
		cut:   &sseEvent{"", `{"key3":`}, // " data" is a field of another name
	}, {
		name:  "bom first only",
		input: "data: a\n\n\xef\xbb\xbfdata: b\n\n",
		want:  []sseEvent{{"", "a"}},
	}, {
		name:  "lone CRs only",
		input: "event: e\rdata: a\rdata: b\r\rdata: c\r\r",
		want:  []sseEvent{{"e", "a\nb"}, {"", "c"}},
	}, {
		name:  "CR then CRLF",
		input: "data: a\r\r\ndata: b\r\n\r\n",
		want:  []sseEvent{{"", "a"}, {"", "b"}},
	}, {
		name:  "ended by a line end, not a blank line",
		input: "event: x\ndata: a\r\n",
		cut:   &sseEvent{"x", "a"},
	}, {
		name:  "an event name without data",
		input: "event: ping\n\nevent: x\n",
	}, {
		name:  "colons and spaces",
		input: "data:  two spaces\ndata: a: b\ndata\n\nevent:\ndata:\n\n",
		want:  []sseEvent{{"", " two spaces\na: b\n"}, {"", ""}},
	}, {
		name:  "names that are not quite data or event",
		input: "datadata: x\ndat: y\neventful: z\nevent\ndata:\x00\n\nDATA: w\n\n",
		want:  []sseEvent{{"", "\x00"}},
	}, {
		name:  "a field name without a colon at the end",
		input: "data: a\n\nevent: e\ndata",
		want:  []sseEvent{{"", "a"}},
		cut:   &sseEvent{"e", ""},
	}, {
		name:  "a later event field wins",
		input: "event: one\nevent: two\ndata: a\n\ndata: b\n\n",
		want:  []sseEvent{{"two", "a"}, {"", "b"}},
	}, {
		name: "empty",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if got := readAll(t, tc.input, wire.DropTail); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("DropTail: %q, want %q", got, tc.want)
			}
			want := tc.want
			if tc.cut != nil {
				want = append(want[:len(want):len(want)], *tc.cut)
			}
			if got := readAll(t, tc.input, wire.DeliverTail); !reflect.DeepEqual(got, want) {
				t.Errorf("DeliverTail: %q, want %q", got, want)
			}
		})
	}
}

func TestReadSSEErrors(t *testing.T) {
	stop := errors.New("stop")
	for _, tail := range []wire.Tail{wire.DropTail, wire.DeliverTail} {
		n := 0
		err := wire.ReadSSE(strings.NewReader("data: a\n\ndata: b\n\n"), tail, wire.SSELimits{}, func(_, _ []byte) error { n++; return stop })
		if err != stop || n != 1 {
			t.Errorf("tail %d: ReadSSE returned %v after %d events, want fn's error after 1", tail, err, n)
		}
		n = 0
		err = wire.ReadSSE(strings.NewReader("data: a"), tail, wire.SSELimits{}, func(_, _ []byte) error { n++; return stop })
		if want := map[wire.Tail]error{wire.DropTail: nil, wire.DeliverTail: stop}[tail]; err != want {
			t.Errorf("tail %d: ReadSSE of a cut-off event returned %v, want %v", tail, err, want)
		}
		err = wire.ReadSSE(iotest.ErrReader(io.ErrUnexpectedEOF), tail, wire.SSELimits{}, func(_, _ []byte) error { return nil })
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("tail %d: ReadSSE on a failing reader = %v", tail, err)
		}
		// A read error drops the event it cuts off, whatever the tail.
		r := io.MultiReader(strings.NewReader("data: a\n\ndata: b\n"), iotest.ErrReader(io.ErrUnexpectedEOF))
		var got []string
		err = wire.ReadSSE(r, tail, wire.SSELimits{}, func(_, d []byte) error { got = append(got, string(d)); return nil })
		if !errors.Is(err, io.ErrUnexpectedEOF) || !reflect.DeepEqual(got, []string{"a"}) {
			t.Errorf("tail %d: ReadSSE on a reader failing mid-event = %q, %v", tail, got, err)
		}
	}
}

// TestReadSSELongLine reads a line longer than any buffer: a big arguments delta.
func TestReadSSELongLine(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	var size int
	err := wire.ReadSSE(strings.NewReader("data: "+long+"\r\n\r\n"), wire.DropTail, wire.SSELimits{}, func(_, d []byte) error { size = len(d); return nil })
	if err != nil || size != len(long) {
		t.Errorf("a %d-byte line came out as %d bytes (%v)", len(long), size, err)
	}
}

// TestReadSSEOwnership keeps the slices fn is given: the reader does not reuse them.
func TestReadSSEOwnership(t *testing.T) {
	var names, data [][]byte
	err := wire.ReadSSE(strings.NewReader("event: a\ndata: 1\n\nevent: b\ndata: 2\n\n"), wire.DropTail, wire.SSELimits{}, func(e, d []byte) error {
		names, data = append(names, e), append(data, d)
		return nil
	})
	if err != nil || string(names[0]) != "a" || string(data[0]) != "1" || string(names[1]) != "b" || string(data[1]) != "2" {
		t.Errorf("ReadSSE = %q %q, %v", names, data, err)
	}
}

// TestReadSSELive delivers an event as soon as the line that ends it arrives, lone CR
// included, without waiting for more of the stream.
func TestReadSSELive(t *testing.T) {
	pr, pw := io.Pipe()
	got := make(chan string)
	done := make(chan error)
	go func() {
		done <- wire.ReadSSE(pr, wire.DropTail, wire.SSELimits{}, func(_, d []byte) error { got <- string(d); return nil })
	}()
	for _, chunk := range []string{"data: a\n\n", "data: b\r\r", "data: c\r\n\r"} {
		if _, err := io.WriteString(pw, chunk); err != nil {
			t.Fatal(err)
		}
		select {
		case d := <-got:
			if want := chunk[len("data: ") : len("data: ")+1]; d != want {
				t.Errorf("after %q: got %q, want %q", chunk, d, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("the event of %q was not delivered until more came", chunk)
		}
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Error(err)
	}
}

// TestReadSSELimits reads lines and events exactly at their limit, which pass, and
// one byte over it, which are errors naming the limit, whatever the line endings and
// however the reader splits the stream.
func TestReadSSELimits(t *testing.T) {
	const limit = 64
	line := func(n int) string { return "data: " + strings.Repeat("x", n-len("data: ")) }
	value := func(n int) string { return strings.Repeat("y", n) }
	lineLimit := wire.SSELimits{MaxLineBytes: limit, MaxEventBytes: 1 << 20}
	eventLimit := wire.SSELimits{MaxLineBytes: 1 << 20, MaxEventBytes: limit}
	for _, tc := range []struct {
		name  string
		lim   wire.SSELimits
		input string
		want  string // the error, "" when the stream is read
	}{
		{"line at the limit, LF", lineLimit, line(limit) + "\n\n", ""},
		{"line over the limit, LF", lineLimit, line(limit+1) + "\n\n", "over 64 bytes long, the limit: raise Limits.MaxLineBytes"},
		{"line at the limit, CRLF", lineLimit, line(limit) + "\r\n\r\n", ""},
		{"line over the limit, CRLF", lineLimit, line(limit+1) + "\r\n\r\n", "Limits.MaxLineBytes"},
		{"line at the limit, CR", lineLimit, line(limit) + "\r\r", ""},
		{"line over the limit, CR", lineLimit, line(limit+1) + "\r\r", "Limits.MaxLineBytes"},
		{"line at the limit at the end", lineLimit, line(limit), ""},
		{"line over the limit at the end", lineLimit, line(limit + 1), "Limits.MaxLineBytes"},
		{"comment at the limit", lineLimit, ":" + value(limit-1) + "\ndata: a\n\n", ""},
		{"comment over the limit", lineLimit, ":" + value(limit) + "\ndata: a\n\n", "Limits.MaxLineBytes"},
		{"event name over the limit", lineLimit, "event: " + value(limit-6) + "\n", "Limits.MaxLineBytes"},
		{"event at the limit, one line", eventLimit, "data: " + value(limit) + "\n\n", ""},
		{"event over the limit, one line", eventLimit, "data: " + value(limit+1) + "\n\n", "over 64 bytes of data, the limit: raise Limits.MaxEventBytes"},
		// The newlines that join data lines count: 31 + 1 + 32 = 64.
		{"event at the limit, two lines", eventLimit, "data: " + value(31) + "\ndata:" + value(32) + "\n\n", ""},
		{"event over the limit, two lines", eventLimit, "data: " + value(32) + "\ndata:" + value(32) + "\n\n", "Limits.MaxEventBytes"},
		{"event at the limit, empty lines", eventLimit, strings.Repeat("data\n", limit+1) + "\n", ""},
		{"event over the limit, empty lines", eventLimit, strings.Repeat("data\n", limit+2) + "\n", "Limits.MaxEventBytes"},
		{"event at the limit at the end", eventLimit, "data: " + value(limit), ""},
		{"event over the limit at the end", eventLimit, "data: " + value(limit+1), "Limits.MaxEventBytes"},
		// Each event has its own budget.
		{"events at the limit", eventLimit, strings.Repeat("data: "+value(limit)+"\n\n", 4), ""},
	} {
		for _, tail := range []wire.Tail{wire.DropTail, wire.DeliverTail} {
			want := tc.want
			for _, r := range []io.Reader{strings.NewReader(tc.input), iotest.OneByteReader(strings.NewReader(tc.input)), iotest.HalfReader(strings.NewReader(tc.input))} {
				var sizes []int
				err := wire.ReadSSE(r, tail, tc.lim, func(_, d []byte) error { sizes = append(sizes, len(d)); return nil })
				switch {
				case want == "" && err != nil:
					t.Errorf("%s (tail %d, %T): %v", tc.name, tail, r, err)
				case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
					t.Errorf("%s (tail %d, %T) = %v, want an error with %q", tc.name, tail, r, err, want)
				}
				for _, n := range sizes {
					if n > tc.lim.EventBytes() {
						t.Errorf("%s: an event of %d bytes came through", tc.name, n)
					}
				}
			}
		}
	}
}

// endless is a stream that never ends and never ends a line; it counts what it gives.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.n += len(p)
	return len(p), nil
}

// TestReadSSEEndlessLine stops reading a line that never ends at the limit, the
// default one included, instead of buffering it whole.
func TestReadSSEEndlessLine(t *testing.T) {
	for _, lim := range []wire.SSELimits{{MaxLineBytes: 1000}, {}} {
		r := &endless{}
		err := wire.ReadSSE(r, wire.DeliverTail, lim, func(_, _ []byte) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "Limits.MaxLineBytes") {
			t.Errorf("%+v: ReadSSE of an endless line = %v", lim, err)
		}
		if max := lim.LineBytes() + 4096; r.n > max {
			t.Errorf("%+v: ReadSSE read %d bytes of an endless line, want at most %d", lim, r.n, max)
		}
	}
	if (wire.SSELimits{}).LineBytes() != wire.DefaultMaxLineBytes || (wire.SSELimits{MaxEventBytes: -1}).EventBytes() != wire.DefaultMaxEventBytes {
		t.Error("zero or negative limits do not take the defaults")
	}
}

// TestReadSSELongLineUnderLimit reads lines and events far longer than the buffer's
// largest block, under the default limits: they are read whole, never a panic.
func TestReadSSELongLineUnderLimit(t *testing.T) {
	for _, n := range []int{3<<20 + 1, 12 << 20} {
		line := strings.Repeat("a", n)
		var got int
		err := wire.ReadSSE(strings.NewReader("event: e\ndata: "+line+"\n\n"), wire.DeliverTail, wire.SSELimits{}, func(event, data []byte) error {
			got = len(data)
			return nil
		})
		if err != nil || got != n {
			t.Errorf("a data line of %d bytes: read %d, %v", n, got, err)
		}
	}
}
