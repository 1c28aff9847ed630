package anthropic_test

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
	tga "github.com/toolgen/toolgen/runtime/anthropic"
)

// toolStream returns the events of a message with one tool_use block whose input, n
// bytes, comes in pieces of size bytes.
func toolStream(n, size int) []string {
	input := `{"s":"` + strings.Repeat("x", n-8) + `"}`
	events := []string{
		`{"type":"message_start","message":{"id":"m","content":[],"usage":{"input_tokens":3}}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}`,
	}
	for len(input) > 0 {
		k := min(size, len(input))
		events = append(events, `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":`+strconv.Quote(input[:k])+`}}`)
		input = input[k:]
	}
	return append(events, `{"type":"content_block_stop","index":0}`,
		`{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":9}}`, `{"type":"message_stop"}`)
}

// TestStreamInputLimit joins a tool_use block's input up to Limits.MaxArgumentBytes,
// and refuses it one byte past, from the Add that passes it.
func TestStreamInputLimit(t *testing.T) {
	for _, limit := range []int{100, 0} { // 0: runtime.DefaultMaxArgumentBytes
		max := limit
		if max == 0 {
			max = runtime.DefaultMaxArgumentBytes
		}
		for _, n := range []int{max, max + 1} {
			s := tga.Stream{Limits: tga.Limits{MaxArgumentBytes: limit}}
			var addErr error
			for _, e := range toolStream(n, max/16+1) {
				if addErr = s.Add(nil, []byte(e)); addErr != nil {
					break
				}
			}
			calls, err := s.Calls()
			if n == max {
				if addErr != nil || err != nil || len(calls) != 1 || len(calls[0].Arguments) != n {
					t.Errorf("limit %d, %d bytes: %v, %v", limit, n, addErr, err)
				}
				continue
			}
			want := fmt.Sprintf("the arguments of tool_use block 0 (f, t) are over %d bytes, the limit: raise Limits.MaxArgumentBytes", max)
			if addErr == nil || !strings.Contains(addErr.Error(), want) || err == nil {
				t.Errorf("limit %d, %d bytes: Add = %v, Calls = %v; want %q", limit, n, addErr, err, want)
			}
		}
	}
}

// TestStreamUsage merges the usage of message_start and of every message_delta, the
// later value of a field winning.
func TestStreamUsage(t *testing.T) {
	var s tga.Stream
	for _, e := range []string{
		`{"type":"message_start","message":{"content":[],"usage":{"input_tokens":3,"output_tokens":1,"cache_creation":{"ephemeral_5m_input_tokens":0}}}}`,
		`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":5}}`,
		`{"type":"message_delta","delta":{},"usage":{"output_tokens":7,"server_tool_use":{"web_search_requests":1}}}`,
		`{"type":"message_stop"}`,
	} {
		if err := s.Add(nil, []byte(e)); err != nil {
			t.Fatal(err)
		}
	}
	body, err := s.Response()
	want := `{"content":[],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":7,"cache_creation":{"ephemeral_5m_input_tokens":0},"server_tool_use":{"web_search_requests":1}}}`
	if err != nil || !wiretest.JSONEqual(t, body, []byte(want)) {
		t.Errorf("Response = %s, %v; want %s", body, err, want)
	}
}

// TestStreamDuplicateIDs: two tool_use blocks with one id are an error, as in a whole
// message.
func TestStreamDuplicateIDs(t *testing.T) {
	var s tga.Stream
	for _, e := range []string{
		`{"type":"message_start","message":{"content":[]}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"g","input":{}}}`,
		`{"type":"content_block_stop","index":1}`,
		`{"type":"message_delta","delta":{"stop_reason":"tool_use"}}`,
		`{"type":"message_stop"}`,
	} {
		if err := s.Add(nil, []byte(e)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Calls(); err == nil || !strings.Contains(err.Error(), `calls 0 (f) and 1 (g) have the same id "t"`) {
		t.Errorf("Calls = %v", err)
	}
}

// TestLimitsReadSSE reads with the limits given, and the defaults when zero.
func TestLimitsReadSSE(t *testing.T) {
	input := "data: " + strings.Repeat("x", 100) + "\n\n"
	read := func(l tga.Limits) error {
		return l.ReadSSE(strings.NewReader(input), func(_, _ []byte) error { return nil })
	}
	if err := read(tga.Limits{MaxLineBytes: 106}); err != nil {
		t.Errorf("a line at the limit: %v", err)
	}
	if err := read(tga.Limits{MaxLineBytes: 105}); err == nil || !strings.Contains(err.Error(), "over 105 bytes long, the limit: raise Limits.MaxLineBytes") {
		t.Errorf("a line over the limit: %v", err)
	}
	if err := read(tga.Limits{MaxEventBytes: 99}); err == nil || !strings.Contains(err.Error(), "Limits.MaxEventBytes") {
		t.Errorf("an event over the limit: %v", err)
	}
	if err := read(tga.Limits{}); err != nil || tga.DefaultMaxLineBytes != 16<<20 || tga.DefaultMaxEventBytes != 16<<20 {
		t.Errorf("defaults: %v", err)
	}
}

// BenchmarkStreamAdversarial reads hostile streams of 1 KiB, 64 KiB and 1 MiB through
// ReadSSE and a Stream, with limits wide enough to take them: a tool_use block's input
// in one-byte deltas, and message_delta events each adding a field to the usage.
// ns/byte and B/byte stay flat across the sizes: the cost is linear in the input.
func BenchmarkStreamAdversarial(b *testing.B) {
	lim := tga.Limits{MaxArgumentBytes: 4 << 20}
	stream := func(size int, head []string, next func(i int) string, tail ...string) []byte {
		var buf bytes.Buffer
		for _, e := range head {
			buf.WriteString("data: " + e + "\n\n")
		}
		for i := 0; buf.Len() < size; i++ {
			buf.WriteString("data: " + next(i) + "\n\n")
		}
		for _, e := range tail {
			buf.WriteString("data: " + e + "\n\n")
		}
		return buf.Bytes()
	}
	start := `{"type":"message_start","message":{"id":"m","content":[],"usage":{"input_tokens":3}}}`
	for _, st := range []struct {
		name string
		make func(size int) []byte
	}{
		{"input-deltas", func(size int) []byte {
			return stream(size, []string{start,
				`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"s\":\""}}`,
			}, func(int) string {
				return `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"x"}}`
			}, `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"}"}}`,
				`{"type":"content_block_stop","index":0}`, `{"type":"message_stop"}`)
		}},
		{"usage-deltas", func(size int) []byte {
			return stream(size, []string{start}, func(i int) string {
				return fmt.Sprintf(`{"type":"message_delta","delta":{},"usage":{"k%d":%d}}`, i, i)
			}, `{"type":"message_stop"}`)
		}},
	} {
		for _, size := range wiretest.Sizes {
			body := st.make(size)
			read := func() error {
				s := tga.Stream{Limits: lim}
				if err := lim.ReadSSE(bytes.NewReader(body), s.Add); err != nil {
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
