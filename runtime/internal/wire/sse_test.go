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
		err := wire.ReadSSE(r, tail, func(event, data []byte) error {
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
		err := wire.ReadSSE(strings.NewReader("data: a\n\ndata: b\n\n"), tail, func(_, _ []byte) error { n++; return stop })
		if err != stop || n != 1 {
			t.Errorf("tail %d: ReadSSE returned %v after %d events, want fn's error after 1", tail, err, n)
		}
		n = 0
		err = wire.ReadSSE(strings.NewReader("data: a"), tail, func(_, _ []byte) error { n++; return stop })
		if want := map[wire.Tail]error{wire.DropTail: nil, wire.DeliverTail: stop}[tail]; err != want {
			t.Errorf("tail %d: ReadSSE of a cut-off event returned %v, want %v", tail, err, want)
		}
		err = wire.ReadSSE(iotest.ErrReader(io.ErrUnexpectedEOF), tail, func(_, _ []byte) error { return nil })
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("tail %d: ReadSSE on a failing reader = %v", tail, err)
		}
		// A read error drops the event it cuts off, whatever the tail.
		r := io.MultiReader(strings.NewReader("data: a\n\ndata: b\n"), iotest.ErrReader(io.ErrUnexpectedEOF))
		var got []string
		err = wire.ReadSSE(r, tail, func(_, d []byte) error { got = append(got, string(d)); return nil })
		if !errors.Is(err, io.ErrUnexpectedEOF) || !reflect.DeepEqual(got, []string{"a"}) {
			t.Errorf("tail %d: ReadSSE on a reader failing mid-event = %q, %v", tail, got, err)
		}
	}
}

// TestReadSSELongLine reads a line longer than any buffer: a big arguments delta.
func TestReadSSELongLine(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	var size int
	err := wire.ReadSSE(strings.NewReader("data: "+long+"\r\n\r\n"), wire.DropTail, func(_, d []byte) error { size = len(d); return nil })
	if err != nil || size != len(long) {
		t.Errorf("a %d-byte line came out as %d bytes (%v)", len(long), size, err)
	}
}

// TestReadSSEOwnership keeps the slices fn is given: the reader does not reuse them.
func TestReadSSEOwnership(t *testing.T) {
	var names, data [][]byte
	err := wire.ReadSSE(strings.NewReader("event: a\ndata: 1\n\nevent: b\ndata: 2\n\n"), wire.DropTail, func(e, d []byte) error {
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
		done <- wire.ReadSSE(pr, wire.DropTail, func(_, d []byte) error { got <- string(d); return nil })
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
