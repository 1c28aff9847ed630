package gemini

import (
	"bytes"
	"fmt"
	goruntime "runtime"
	"strings"
	"testing"
)

// retainedShapes are hostile streams for TestStreamRetains: each chunk small, and each
// adding what a Stream keeps.
var retainedShapes = []struct {
	name string
	next func(i int) string
}{
	{"new-top-level-fields", func(i int) string { return fmt.Sprintf(`{"k%d":1}`, i) }},
	{"new-candidate-fields", func(i int) string { return fmt.Sprintf(`{"candidates":[{"k%d":1}]}`, i) }},
	{"empty-object-parts", func(i int) string {
		return `{"candidates":[{"content":{"parts":[` + strings.Repeat(`{},`, 200) + `{}]}}]}`
	}},
	{"one-letter-text-chunks", func(i int) string { return `{"candidates":[{"content":{"parts":[{"text":"x"}]}}]}` }},
}

// heap returns the bytes of live heap.
func heap() uint64 {
	var m goruntime.MemStats
	goruntime.GC()
	goruntime.GC() // and what sync.Pools held
	goruntime.ReadMemStats(&m)
	return m.HeapAlloc
}

// held returns the bytes of heap that the accumulator that add feeds holds after
// reading body: the heap while it lives, less the heap once it is gone.
func held[S any](t *testing.T, body []byte, newStream func() (*S, func(event, data []byte) error)) float64 {
	t.Helper()
	s, add := newStream()
	if err := ReadSSE(bytes.NewReader(body), add); err != nil {
		t.Fatal(err)
	}
	add = nil
	with := heap()
	goruntime.KeepAlive(s)
	s = nil
	without := heap()
	if with < without {
		return 0
	}
	return float64(with-without) / float64(len(body))
}

// TestStreamRetains: what a Stream keeps of a hostile stream of 1 MiB is at most 12
// times its size, however its chunks are shaped; the most is for parts {} (a part of 3
// bytes held in 26), about as before it read each chunk in one pass. Top-level and
// candidate fields, each new key kept, cost less: a bound on their number would bound
// nothing the stream's own length does not.
func TestStreamRetains(t *testing.T) {
	for _, sh := range retainedShapes {
		var buf bytes.Buffer
		for i := 0; buf.Len() < 1<<20; i++ {
			buf.WriteString("data: " + sh.next(i) + "\n\n")
		}
		body := buf.Bytes()
		got := held(t, body, func() (*Stream, func(_, _ []byte) error) { s := new(Stream); return s, s.Add })
		was := held(t, body, func() (*referenceStream, func(_, _ []byte) error) { s := new(referenceStream); return s, s.Add })
		t.Logf("%s: %.1f B held per byte of stream (before the one-pass reading: %.1f)", sh.name, got, was)
		if got > 12 {
			t.Errorf("%s: a Stream holds %.1f B per byte of the stream, over 12", sh.name, got)
		}
	}
}
