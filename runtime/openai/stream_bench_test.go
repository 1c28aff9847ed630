package openai_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime/openai"
)

// sseOf returns an event stream of at least size bytes: head, then events made by
// next(i) for i = 0, 1, ... until the size is reached, then tail; each as one "data:"
// event.
func sseOf(size int, head []string, next func(i int) string, tail ...string) []byte {
	var b bytes.Buffer
	for _, e := range head {
		b.WriteString("data: " + e + "\n\n")
	}
	for i := 0; b.Len() < size; i++ {
		b.WriteString("data: " + next(i) + "\n\n")
	}
	for _, e := range tail {
		b.WriteString("data: " + e + "\n\n")
	}
	return b.Bytes()
}

// BenchmarkStreamAdversarial reads hostile streams of 1 KiB, 64 KiB and 1 MiB through
// ReadSSE and a stream accumulator, with limits wide enough to take them: one call's
// arguments in one-byte deltas, and many calls, started in descending index order
// (Chat) or each named by its item id (Responses). ns/byte and B/byte stay flat
// across the sizes: the cost is linear in the input.
func BenchmarkStreamAdversarial(b *testing.B) {
	lim := openai.Limits{MaxArgumentBytes: 4 << 20}
	chatDelta := func(calls string) string {
		return `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[` + calls + `]}}]}`
	}
	chatFinish := `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`
	completed := `{"type":"response.completed","response":{"id":"r","status":"completed","output":[]}}`
	streams := []struct {
		name string
		make func(size int) []byte
		read func(body []byte) error
	}{
		{"chat-argument-deltas", func(size int) []byte {
			return sseOf(size, []string{chatDelta(`{"index":0,"id":"c","type":"function","function":{"name":"ping","arguments":"{\"s\":\""}}`)},
				func(int) string { return chatDelta(`{"index":0,"function":{"arguments":"x"}}`) },
				chatDelta(`{"index":0,"function":{"arguments":"\"}"}}`), chatFinish, "[DONE]")
		}, func(body []byte) error {
			s := openai.ChatStream{Limits: lim}
			if err := lim.ReadSSE(bytes.NewReader(body), func(_, d []byte) error { return s.Add(d) }); err != nil {
				return err
			}
			_, err := s.Calls()
			return err
		}},
		{"chat-many-calls", func(size int) []byte {
			return sseOf(size, nil, func(i int) string {
				return chatDelta(fmt.Sprintf(`{"index":%d,"id":"c%d","type":"function","function":{"name":"ping","arguments":"{}"}}`, 1<<30-i, i))
			}, chatFinish)
		}, func(body []byte) error {
			s := openai.ChatStream{Limits: lim}
			if err := lim.ReadSSE(bytes.NewReader(body), func(_, d []byte) error { return s.Add(d) }); err != nil {
				return err
			}
			_, err := s.Calls()
			return err
		}},
		{"responses-argument-deltas", func(size int) []byte {
			return sseOf(size, []string{`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc","call_id":"c","name":"ping","arguments":"{\"s\":\""}}`},
				func(int) string {
					return `{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":0,"delta":"x"}`
				},
				`{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":0,"delta":"\"}"}`, completed)
		}, func(body []byte) error {
			s := openai.ResponsesStream{Limits: lim}
			if err := lim.ReadSSE(bytes.NewReader(body), func(_, d []byte) error { return s.Add(d) }); err != nil {
				return err
			}
			_, err := s.Calls()
			return err
		}},
		{"responses-many-items", func(size int) []byte {
			return sseOf(size, nil, func(i int) string {
				if i%2 == 0 {
					return fmt.Sprintf(`{"type":"response.output_item.added","output_index":%d,"item":{"type":"function_call","id":"fc%d","call_id":"c%d","name":"ping","arguments":""}}`, i/2, i/2, i/2)
				}
				return fmt.Sprintf(`{"type":"response.function_call_arguments.delta","item_id":"fc%d","delta":"{}"}`, i/4)
			}, completed)
		}, func(body []byte) error {
			s := openai.ResponsesStream{Limits: lim}
			if err := lim.ReadSSE(bytes.NewReader(body), func(_, d []byte) error { return s.Add(d) }); err != nil {
				return err
			}
			_, err := s.Calls()
			return err
		}},
	}
	for _, st := range streams {
		for _, size := range wiretest.Sizes {
			body := st.make(size)
			if err := st.read(body); err != nil && st.name != "responses-many-items" {
				b.Fatalf("%s: %v", st.name, err)
			}
			b.Run(st.name+"/"+wiretest.SizeName(size), func(b *testing.B) {
				wiretest.PerByte(b, len(body), func() { _ = st.read(body) })
			})
		}
	}
}
