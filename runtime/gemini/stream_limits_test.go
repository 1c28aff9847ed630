package gemini_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
	tgg "github.com/toolgen/toolgen/runtime/gemini"
)

// callChunk is a stream chunk with one functionCall whose args are n bytes of compact
// JSON, written with spaces that do not count.
func callChunk(n int) string {
	return `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args": {"s" : "` + strings.Repeat("x", n-8) + `"} }}]}}]}`
}

const stopChunk = `{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP"}]}`

// TestStreamArgsLimit takes a functionCall whose args are Limits.MaxArgumentBytes of
// compact JSON, and refuses one of a byte more, from the Add that brings it.
func TestStreamArgsLimit(t *testing.T) {
	for _, limit := range []int{100, 0} { // 0: runtime.DefaultMaxArgumentBytes
		max := limit
		if max == 0 {
			max = runtime.DefaultMaxArgumentBytes
		}
		for _, n := range []int{max, max + 1} {
			s := tgg.Stream{Limits: tgg.Limits{MaxArgumentBytes: limit}}
			addErr := s.Add(nil, []byte(callChunk(n)))
			if addErr == nil {
				addErr = s.Add(nil, []byte(stopChunk))
			}
			calls, err := s.Calls()
			if n == max {
				if addErr != nil || err != nil || len(calls) != 1 || len(calls[0].Arguments) != n {
					t.Errorf("limit %d, %d bytes: %v, %v", limit, n, addErr, err)
				}
				continue
			}
			want := fmt.Sprintf("the arguments of functionCall f (part 0 of stream chunk 1) are over %d bytes, the limit: raise Limits.MaxArgumentBytes", max)
			if addErr == nil || !strings.Contains(addErr.Error(), want) || err == nil {
				t.Errorf("limit %d, %d bytes: Add = %v, Calls = %v; want %q", limit, n, addErr, err, want)
			}
		}
	}
}

// TestStreamCut: calls in a stream that finished with MAX_TOKENS are not taken, nor two
// calls with one id.
func TestStreamCut(t *testing.T) {
	for _, tc := range []struct {
		chunks []string
		want   string
	}{
		{[]string{callChunk(20), `{"candidates":[{"finishReason":"MAX_TOKENS"}]}`}, "finishReason MAX_TOKENS"},
		{[]string{
			`{"candidates":[{"content":{"parts":[{"functionCall":{"id":"a","name":"f","args":{}}}]}}]}`,
			`{"candidates":[{"content":{"parts":[{"functionCall":{"id":"a","name":"g","args":{}}}]}}]}`,
			stopChunk,
		}, `calls 0 (f) and 1 (g) have the same id "a"`},
	} {
		s, err := feed(t, tc.chunks...)
		if err != nil {
			t.Fatal(err)
		}
		if calls, err := s.Calls(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Calls = %s, %v; want %q", wiretest.CallsText(calls), err, tc.want)
		}
	}
}

// TestLimitsReadSSE reads with the limits given, and the defaults when zero.
func TestLimitsReadSSE(t *testing.T) {
	input := "data: " + strings.Repeat("x", 100) + "\n\n"
	read := func(l tgg.Limits) error {
		return l.ReadSSE(strings.NewReader(input), func(_, _ []byte) error { return nil })
	}
	if err := read(tgg.Limits{MaxLineBytes: 106}); err != nil {
		t.Errorf("a line at the limit: %v", err)
	}
	if err := read(tgg.Limits{MaxLineBytes: 105}); err == nil || !strings.Contains(err.Error(), "over 105 bytes long, the limit: raise Limits.MaxLineBytes") {
		t.Errorf("a line over the limit: %v", err)
	}
	if err := read(tgg.Limits{MaxEventBytes: 99}); err == nil || !strings.Contains(err.Error(), "Limits.MaxEventBytes") {
		t.Errorf("an event over the limit: %v", err)
	}
	if err := read(tgg.Limits{}); err != nil || tgg.DefaultMaxLineBytes != 16<<20 || tgg.DefaultMaxEventBytes != 16<<20 {
		t.Errorf("defaults: %v", err)
	}
}

// BenchmarkStreamAdversarial reads hostile streams of 1 KiB, 64 KiB and 1 MiB through
// ReadSSE and a Stream: many chunks of one small functionCall each; many chunks of one
// character of text each, each with a new top-level field; and many chunks of many
// small parts each (text, thoughts, empty text with a signature), each with a nested
// usageMetadata. ns/byte and B/byte stay flat across the sizes: the cost is linear in
// the input.
func BenchmarkStreamAdversarial(b *testing.B) {
	for _, st := range []struct {
		name string
		next func(i int) string
	}{
		{"many-calls", func(i int) string {
			return fmt.Sprintf(`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"c%d","name":"f","args":{"i":%d}}}]}}]}`, i, i)
		}},
		{"many-text-chunks", func(i int) string {
			return fmt.Sprintf(`{"candidates":[{"content":{"role":"model","parts":[{"text":"x"}]}}],"k%d":1}`, i)
		}},
		{"many-small-parts", func(i int) string {
			parts := strings.Repeat(`{"text":"a"},{"text":"b","thought":true},{"text":"","thoughtSignature":"c2ln"},{"text":""},`, 4)
			return fmt.Sprintf(`{"candidates":[{"content":{"role":"model","parts":[%s{"text":"z"}]},"index":0}],"usageMetadata":{"promptTokenCount":%d,"promptTokensDetails":[{"modality":"TEXT","tokenCount":%d}],"totalTokenCount":%d},"modelVersion":"gemini-2.5-flash"}`, parts, i, i, i)
		}},
	} {
		for _, size := range wiretest.Sizes {
			var buf bytes.Buffer
			for i := 0; buf.Len() < size; i++ {
				buf.WriteString("data: " + st.next(i) + "\r\n\r\n")
			}
			buf.WriteString("data: " + stopChunk + "\r\n\r\n")
			body := buf.Bytes()
			read := func() error {
				var s tgg.Stream
				if err := tgg.ReadSSE(bytes.NewReader(body), s.Add); err != nil {
					return err
				}
				_, err := s.Calls()
				return err
			}
			if err := read(); err != nil {
				b.Fatalf("%s: %v", st.name, err)
			}
			b.Run(st.name+"/"+wiretest.SizeName(size), func(b *testing.B) {
				wiretest.PerByte(b, len(body), func() { _ = read() })
			})
		}
	}
}
