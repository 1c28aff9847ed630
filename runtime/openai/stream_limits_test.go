package openai_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/openai"
)

// argsOf returns arguments of n bytes: {"s":"xxx…"}.
func argsOf(n int) string { return `{"s":"` + strings.Repeat("x", n-8) + `"}` }

// chatArgsChunks streams a call whose arguments come in pieces of size bytes.
func chatArgsChunks(args string, size int) [][]byte {
	chunks := [][]byte{chunk(`{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"ping","arguments":""}}]}`, "")}
	for piece := range chunkString(args, size) {
		chunks = append(chunks, chunk(`{"tool_calls":[{"index":0,"function":{"arguments":`+strconv.Quote(piece)+`}}]}`, ""))
	}
	return append(chunks, chunk(`{}`, "tool_calls"))
}

func chunkString(s string, n int) func(func(string) bool) {
	return func(yield func(string) bool) {
		for len(s) > 0 {
			k := min(n, len(s))
			if !yield(s[:k]) {
				return
			}
			s = s[k:]
		}
	}
}

// TestChatStreamArgumentLimit joins arguments up to Limits.MaxArgumentBytes, and
// refuses them one byte past it, from the Add that passes it.
func TestChatStreamArgumentLimit(t *testing.T) {
	for _, limit := range []int{100, 0} { // 0: runtime.DefaultMaxArgumentBytes
		max := limit
		if max == 0 {
			max = runtime.DefaultMaxArgumentBytes
		}
		for _, n := range []int{max, max + 1} {
			s := openai.ChatStream{Limits: openai.Limits{MaxArgumentBytes: limit}}
			var addErr error
			for _, c := range chatArgsChunks(argsOf(n), max/16+1) {
				if err := s.Add(c); err != nil {
					addErr = err
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
			want := fmt.Sprintf("the arguments of tool call 0 (ping, c) are over %d bytes, the limit: raise Limits.MaxArgumentBytes", max)
			if addErr == nil || !strings.Contains(addErr.Error(), want) || err == nil || err.Error() != addErr.Error() {
				t.Errorf("limit %d, %d bytes: Add = %v, Calls = %v; want %q", limit, n, addErr, err, want)
			}
		}
	}
}

// TestResponsesStreamArgumentLimit applies Limits.MaxArgumentBytes to deltas, to done
// events and to whole items, of function calls and of custom tool calls.
func TestResponsesStreamArgumentLimit(t *testing.T) {
	const limit = 64
	added := `{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc","call_id":"c","name":"ping","arguments":""}}`
	addedCustom := `{"type":"response.output_item.added","output_index":0,"item":{"type":"custom_tool_call","id":"fc","call_id":"c","name":"code_exec","input":""}}`
	for _, tc := range []struct {
		name   string
		events func(n int) []string
	}{
		{"deltas", func(n int) []string {
			var evs []string
			for piece := range chunkString(argsOf(n), 5) {
				evs = append(evs, `{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":0,"delta":`+strconv.Quote(piece)+`}`)
			}
			return append([]string{added}, evs...)
		}},
		{"done", func(n int) []string {
			return []string{added, `{"type":"response.function_call_arguments.done","item_id":"fc","output_index":0,"arguments":` + strconv.Quote(argsOf(n)) + `}`}
		}},
		{"item done", func(n int) []string {
			return []string{added, `{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc","call_id":"c","name":"ping","arguments":` + strconv.Quote(argsOf(n)) + `}}`}
		}},
		{"custom deltas", func(n int) []string {
			var evs []string
			for piece := range chunkString(strings.Repeat("y", n), 5) {
				evs = append(evs, `{"type":"response.custom_tool_call_input.delta","item_id":"fc","output_index":0,"delta":`+strconv.Quote(piece)+`}`)
			}
			return append([]string{addedCustom}, evs...)
		}},
		{"custom done", func(n int) []string {
			return []string{addedCustom, `{"type":"response.custom_tool_call_input.done","item_id":"fc","output_index":0,"input":` + strconv.Quote(strings.Repeat("y", n)) + `}`}
		}},
	} {
		for _, n := range []int{limit, limit + 1} {
			s := openai.ResponsesStream{Limits: openai.Limits{MaxArgumentBytes: limit}}
			var addErr error
			events := append(tc.events(n), `{"type":"response.completed","response":{"id":"r","status":"completed","output":[]}}`)
			for _, e := range events {
				if addErr = s.Add([]byte(e)); addErr != nil {
					break
				}
			}
			calls, err := s.Calls()
			if n == limit {
				if err != nil || len(calls) != 1 {
					t.Errorf("%s, %d bytes: %s, %v", tc.name, n, wiretest.CallsText(calls), err)
				}
				continue
			}
			if addErr == nil || !strings.Contains(addErr.Error(), "are over 64 bytes, the limit: raise Limits.MaxArgumentBytes") || err == nil {
				t.Errorf("%s, %d bytes: Add = %v, Calls = %v", tc.name, n, addErr, err)
			}
		}
	}
}

// TestChatStreamCut: a stream that finished with finish_reason "length" or
// "content_filter" while calling tools gives no call, even one whose arguments happen
// to be complete JSON; a text answer cut so is no error.
func TestChatStreamCut(t *testing.T) {
	for _, finish := range []string{"length", "content_filter"} {
		var s openai.ChatStream
		for _, c := range [][]byte{
			chunk(`{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"ping","arguments":"{}"}}]}`, ""),
			chunk(`{}`, finish),
		} {
			if err := s.Add(c); err != nil {
				t.Fatal(err)
			}
		}
		calls, err := s.Calls()
		if want := `the chat completion was cut short (finish_reason "` + finish + `"`; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: Calls = %s, %v; want %q", finish, wiretest.CallsText(calls), err, want)
		}
		if _, err := s.Completion(); err == nil {
			t.Errorf("%s: Completion does not fail", finish)
		}
	}
	var s openai.ChatStream
	for _, c := range [][]byte{chunk(`{"content":"Once upon a"}`, ""), chunk(`{}`, "length")} {
		if err := s.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	if calls, err := s.Calls(); err != nil || len(calls) != 0 {
		t.Errorf("a text cut by length: %s, %v", wiretest.CallsText(calls), err)
	}
}

// TestChatStreamManyCalls: calls started in any order of index come out in index
// order, and the same id on two indexes is an error.
func TestChatStreamManyCalls(t *testing.T) {
	var s openai.ChatStream
	const n = 50
	for i := n - 1; i >= 0; i-- {
		c := chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":"c%d","type":"function","function":{"name":"ping","arguments":"{}"}}]}`, i*3, i), "")
		if err := s.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Add(chunk(`{}`, "tool_calls")); err != nil {
		t.Fatal(err)
	}
	calls, err := s.Calls()
	if err != nil || len(calls) != n {
		t.Fatalf("Calls = %d calls, %v", len(calls), err)
	}
	for i, c := range calls {
		if c.ID != fmt.Sprintf("c%d", i) {
			t.Fatalf("call %d is %s", i, c.ID)
		}
	}

	var dup openai.ChatStream
	for _, c := range [][]byte{
		chunk(`{"tool_calls":[{"index":0,"id":"same","type":"function","function":{"name":"ping","arguments":"{}"}}]}`, ""),
		chunk(`{"tool_calls":[{"index":1,"id":"same","type":"function","function":{"name":"add","arguments":"{}"}}]}`, ""),
		chunk(`{}`, "tool_calls"),
	} {
		if err := dup.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := dup.Calls(); err == nil || !strings.Contains(err.Error(), `calls 0 (ping) and 1 (add) have the same id "same"`) {
		t.Errorf("Calls with a duplicated id = %v", err)
	}
}

// TestResponsesStreamCustomCall assembles a custom tool call from its input deltas, as
// ResponsesCalls reads it from the completed response.
func TestResponsesStreamCustomCall(t *testing.T) {
	completed := `{"type":"response.completed","response":{"id":"r","status":"completed","output":[
		{"type":"custom_tool_call","id":"ctc","call_id":"call_c","name":"code_exec","input":"print(1)"},
		{"type":"function_call","id":"fc","call_id":"call_f","name":"ping","arguments":"{}"}]}}`
	events := []string{
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"custom_tool_call","id":"ctc","call_id":"call_c","name":"code_exec","input":""}}`,
		`{"type":"response.custom_tool_call_input.delta","item_id":"ctc","output_index":0,"delta":"print("}`,
		`{"type":"response.custom_tool_call_input.delta","item_id":"ctc","output_index":0,"delta":"1)"}`,
		`{"type":"response.custom_tool_call_input.done","item_id":"ctc","output_index":0,"input":"print(1)"}`,
		`{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc","call_id":"call_f","name":"ping","arguments":"{}"}}`,
		completed,
	}
	var s openai.ResponsesStream
	for _, e := range events {
		if err := s.Add([]byte(e)); err != nil {
			t.Fatal(err)
		}
	}
	calls, err := s.Calls()
	if err != nil {
		t.Fatal(err)
	}
	want := []runtime.ToolCall{call("call_c", "code_exec", `{"input":"print(1)"}`), call("call_f", "ping", "{}")}
	sameCalls(t, "stream", calls, want...)
	body, _ := s.Response()
	fromBody, err := openai.ResponsesCalls(body)
	if err != nil {
		t.Fatal(err)
	}
	sameCalls(t, "response", fromBody, want...)
}

// TestLimitsReadSSE reads with the limits given, and the defaults when zero.
func TestLimitsReadSSE(t *testing.T) {
	input := "data: " + strings.Repeat("x", 100) + "\n\n"
	read := func(l openai.Limits) error {
		return l.ReadSSE(strings.NewReader(input), func(_, _ []byte) error { return nil })
	}
	if err := read(openai.Limits{MaxLineBytes: 106}); err != nil {
		t.Errorf("a line at the limit: %v", err)
	}
	if err := read(openai.Limits{MaxLineBytes: 105}); err == nil || !strings.Contains(err.Error(), "over 105 bytes long, the limit: raise Limits.MaxLineBytes") {
		t.Errorf("a line over the limit: %v", err)
	}
	if err := read(openai.Limits{MaxEventBytes: 99}); err == nil || !strings.Contains(err.Error(), "Limits.MaxEventBytes") {
		t.Errorf("an event over the limit: %v", err)
	}
	if err := read(openai.Limits{}); err != nil || openai.DefaultMaxLineBytes != 16<<20 || openai.DefaultMaxEventBytes != 16<<20 {
		t.Errorf("defaults: %v", err)
	}
}
