package hostile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/openai"
)

// wire is one provider's wire format, for the tests below: its Provider, its first
// request, and response bodies calling tools.
type wire struct {
	name     string
	provider loop.Provider
	request  string
	// calls returns a response body making the given calls (id, name, arguments JSON).
	calls func(calls ...[3]string) string
	// answer returns a response body answering without tools.
	answer string
}

var wires = []wire{
	{
		name: "openai", provider: openai.Chat{},
		request: `{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
		calls: func(calls ...[3]string) string {
			var tc []string
			for _, c := range calls {
				tc = append(tc, `{"id":"`+c[0]+`","type":"function","function":{"name":"`+c[1]+`","arguments":`+jsonString(c[2])+`}}`)
			}
			return `{"id":"chatcmpl-1","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[` + strings.Join(tc, ",") + `]},"finish_reason":"tool_calls"}]}`
		},
		answer: `{"id":"chatcmpl-2","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"done"},"finish_reason":"stop"}]}`,
	},
	{
		name: "openai-responses", provider: openai.Responses{},
		request: `{"model":"m","input":"hi"}`,
		calls: func(calls ...[3]string) string {
			var items []string
			for i, c := range calls {
				items = append(items, fmt.Sprintf(`{"type":"function_call","id":"fc_%d","call_id":"%s","name":"%s","arguments":%s,"status":"completed"}`, i, c[0], c[1], jsonString(c[2])))
			}
			return `{"id":"resp_1","object":"response","status":"completed","model":"m","output":[` + strings.Join(items, ",") + `]}`
		},
		answer: `{"id":"resp_2","object":"response","status":"completed","model":"m","output":[{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"done","annotations":[]}]}]}`,
	},
	{
		name: "anthropic", provider: anthropic.Messages{},
		request: `{"model":"m","max_tokens":100,"messages":[{"role":"user","content":"hi"}]}`,
		calls: func(calls ...[3]string) string {
			var blocks []string
			for _, c := range calls {
				blocks = append(blocks, `{"type":"tool_use","id":"`+c[0]+`","name":"`+c[1]+`","input":`+c[2]+`}`)
			}
			return `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[` + strings.Join(blocks, ",") + `],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}}`
		},
		answer: `{"id":"msg_2","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"done"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`,
	},
	{
		name: "gemini", provider: gemini.GenerateContent{},
		request: `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`,
		calls: func(calls ...[3]string) string {
			var parts []string
			for _, c := range calls {
				id := ""
				if c[0] != "" {
					id = `"id":"` + c[0] + `",`
				}
				parts = append(parts, `{"functionCall":{`+id+`"name":"`+c[1]+`","args":`+c[2]+`}}`)
			}
			return `{"candidates":[{"content":{"role":"model","parts":[` + strings.Join(parts, ",") + `]},"finishReason":"STOP","index":0}],"modelVersion":"m"}`
		},
		answer: `{"candidates":[{"content":{"role":"model","parts":[{"text":"done"}]},"finishReason":"STOP","index":0}],"modelVersion":"m"}`,
	},
}

// script returns a SendFunc that answers with the given bodies in turn (the last one
// again once they run out), and keeps every request.
func script(bodies ...string) (loop.SendFunc, *[][]byte) {
	var mu sync.Mutex
	var requests [][]byte
	return func(_ context.Context, req []byte) ([]byte, error) {
		mu.Lock()
		defer mu.Unlock()
		requests = append(requests, bytes.Clone(req))
		i := len(requests) - 1
		if i >= len(bodies) {
			i = len(bodies) - 1
		}
		return []byte(bodies[i]), nil
	}, &requests
}

const payArgs = `{"amount":1,"at":"2030-01-02T03:04:05Z","card":"4111111111111111"}`

// TestHalfCallsRefused (class 8): a whole body cut short while it held calls is an
// error, and no call of it runs.
func TestHalfCallsRefused(t *testing.T) {
	chatCut := func(reason string) string {
		return `{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"pay","arguments":` + jsonString(payArgs) + `}}]},"finish_reason":"` + reason + `"}]}`
	}
	respIncomplete := `{"id":"r","object":"response","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"pay","arguments":` + jsonString(payArgs) + `,"status":"completed"}]}`
	respItemIncomplete := `{"id":"r","object":"response","status":"completed","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"pay","arguments":` + jsonString(payArgs) + `,"status":"incomplete"}]}`
	anthropicCut := `{"id":"m","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_1","name":"pay","input":` + payArgs + `}],"stop_reason":"max_tokens","usage":{"input_tokens":1,"output_tokens":1}}`
	cases := []struct {
		name     string
		provider loop.Provider
		request  string
		body     string
		calls    func([]byte) ([]runtime.ToolCall, error)
	}{
		{"chat finish_reason length", openai.Chat{}, wires[0].request, chatCut("length"), openai.ChatCalls},
		{"chat finish_reason content_filter", openai.Chat{}, wires[0].request, chatCut("content_filter"), openai.ChatCalls},
		{"responses status incomplete", openai.Responses{}, wires[1].request, respIncomplete, openai.ResponsesCalls},
		{"responses item incomplete", openai.Responses{}, wires[1].request, respItemIncomplete, openai.ResponsesCalls},
		{"anthropic max_tokens inside tool_use", anthropic.Messages{}, wires[2].request, anthropicCut, anthropic.Calls},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if calls, err := tc.calls([]byte(tc.body)); err == nil {
				t.Errorf("Calls took the cut-off body: %d calls, no error", len(calls))
			} else {
				t.Logf("Calls: %v", err)
			}
			if _, err := tc.provider.Calls([]byte(tc.body)); err == nil {
				t.Errorf("Provider.Calls took the cut-off body")
			}
			v := NewVault()
			send, requests := script(tc.body, wires[0].answer)
			lp := loop.Loop{Provider: tc.provider, Tools: VaultTools(v), Send: send}
			_, _, err := lp.Run(context.Background(), []byte(tc.request))
			if err == nil {
				t.Errorf("Loop.Run: no error")
			}
			if v.paid != 0 {
				t.Errorf("the half call ran: %d payments", v.paid)
			}
			if len(*requests) != 1 {
				t.Errorf("%d requests sent, want 1", len(*requests))
			}
		})
	}
	t.Run("chat stream finish_reason length", func(t *testing.T) {
		var s openai.ChatStream
		for _, chunk := range []string{
			`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"ping","arguments":""}}]},"finish_reason":null}]}`,
			`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]},"finish_reason":null}]}`,
			`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"length"}]}`,
		} {
			if err := s.Add([]byte(chunk)); err != nil {
				t.Logf("Add: %v", err)
			}
		}
		if calls, err := s.Calls(); err == nil {
			t.Errorf("the stream cut by length gave %d calls", len(calls))
		}
	})
}

// TestDuplicateCallIDs (class 8): two calls with one id are an error for every provider,
// never answered twice.
func TestDuplicateCallIDs(t *testing.T) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			body := w.calls([3]string{"dup_1", "ping", "{}"}, [3]string{"dup_1", "pay", payArgs})
			if calls, err := w.provider.Calls([]byte(body)); err == nil {
				t.Errorf("Calls: %d calls, no error", len(calls))
			} else {
				t.Logf("Calls: %v", err)
			}
			v := NewVault()
			send, requests := script(body, w.answer)
			lp := loop.Loop{Provider: w.provider, Tools: VaultTools(v), Send: send}
			if _, _, err := lp.Run(context.Background(), []byte(w.request)); err == nil {
				t.Errorf("Loop.Run: no error; %d requests", len(*requests))
			}
			if len(*requests) > 1 {
				if w.name == "gemini" {
					t.Errorf("gemini takes two functionCall parts with one id (%q) and answers both: Calls gives no error, Loop.Run sends %s", "dup_1", clip(string((*requests)[1]), 700))
				}
				t.Errorf("a follow-up was sent: %s", clip(string((*requests)[1]), 600))
			}
		})
	}
}

// TestMalformedCallOwnError (class 8): OpenAI arguments that are not a string give that
// call an error result while the other calls of the turn run.
func TestMalformedCallOwnError(t *testing.T) {
	for _, bad := range []string{`12345`, `true`, `["x"]`} {
		t.Run("chat arguments "+bad, func(t *testing.T) {
			body := `{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[` +
				`{"id":"c1","type":"function","function":{"name":"ping","arguments":"{}"}},` +
				`{"id":"c2","type":"function","function":{"name":"ping","arguments":` + bad + `}},` +
				`{"id":"c3","type":"function","function":{"name":"pay","arguments":` + jsonString(payArgs) + `}}]},"finish_reason":"tool_calls"}]}`
			v := NewVault()
			msgs, err := openai.RunChat(context.Background(), VaultTools(v), []byte(body))
			if err != nil {
				t.Fatalf("RunChat: %v", err)
			}
			if len(msgs) != 3 {
				t.Fatalf("%d answers, want 3: %+v", len(msgs), msgs)
			}
			if msgs[0].ToolCallID != "c1" || msgs[0].Content != "pong c1" {
				t.Errorf("c1 answered %+v", msgs[0])
			}
			if msgs[1].ToolCallID != "c2" || !strings.Contains(msgs[1].Content, "invalid arguments") {
				t.Errorf("c2 answered %+v", msgs[1])
			}
			if msgs[2].ToolCallID != "c3" || v.paid != 1 {
				t.Errorf("c3 answered %+v, %d payments", msgs[2], v.paid)
			}
			// Through the Loop: the turn is answered, call by call.
			send, requests := script(body, wires[0].answer)
			lp := loop.Loop{Provider: openai.Chat{}, Tools: VaultTools(NewVault()), Send: send}
			if _, _, err := lp.Run(context.Background(), []byte(wires[0].request)); err != nil {
				t.Fatalf("Loop.Run: %v", err)
			}
			if len(*requests) != 2 || !bytes.Contains((*requests)[1], []byte(`"tool_call_id":"c2"`)) {
				t.Errorf("the follow-up does not answer c2: %s", clip(string((*requests)[len(*requests)-1]), 800))
			}
		})
		t.Run("responses arguments "+bad, func(t *testing.T) {
			body := `{"id":"r","object":"response","status":"completed","output":[` +
				`{"type":"function_call","id":"fc_1","call_id":"c1","name":"ping","arguments":"{}","status":"completed"},` +
				`{"type":"function_call","id":"fc_2","call_id":"c2","name":"ping","arguments":` + bad + `,"status":"completed"},` +
				`{"type":"function_call","id":"fc_3","call_id":"c3","name":"pay","arguments":` + jsonString(payArgs) + `,"status":"completed"}]}`
			v := NewVault()
			outs, err := openai.RunResponses(context.Background(), VaultTools(v), []byte(body))
			if err != nil {
				t.Fatalf("RunResponses: %v", err)
			}
			if len(outs) != 3 || outs[0].Output != "pong c1" || outs[1].CallID != "c2" || !strings.Contains(outs[1].Output, "invalid arguments") || v.paid != 1 {
				t.Errorf("answers %+v, %d payments", outs, v.paid)
			}
		})
	}
}

// TestChatCustomToolCallAnswered (class 8): a Chat custom tool call echoed in the
// assistant message gets an answer in the follow-up, or the turn is an error; never an
// unanswered id.
func TestChatCustomToolCallAnswered(t *testing.T) {
	body := `{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[` +
		`{"id":"c1","type":"function","function":{"name":"ping","arguments":"{}"}},` +
		`{"id":"c2","type":"custom","custom":{"name":"grammar","input":"select 1"}}]},"finish_reason":"tool_calls"}]}`
	send, requests := script(body, wires[0].answer)
	lp := loop.Loop{Provider: openai.Chat{}, Tools: VaultTools(NewVault()), Send: send}
	_, _, err := lp.Run(context.Background(), []byte(wires[0].request))
	if err != nil {
		t.Logf("Loop.Run refused the turn: %v", err)
		if len(*requests) > 1 {
			t.Errorf("and yet sent a follow-up")
		}
		return
	}
	if len(*requests) != 2 {
		t.Fatalf("%d requests", len(*requests))
	}
	var req struct {
		Messages []struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			Content    any    `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal((*requests)[1], &req); err != nil {
		t.Fatal(err)
	}
	answered := map[string]bool{}
	for _, m := range req.Messages {
		if m.Role == "tool" {
			answered[m.ToolCallID] = true
		}
	}
	if !answered["c1"] || !answered["c2"] {
		t.Errorf("answered %v, want c1 and c2: %s", answered, (*requests)[1])
	}
}

// TestGeminiSwappedAnswers (class 8): two calls of one tool without ids, answered in
// swapped order, are refused by Continue.
func TestGeminiSwappedAnswers(t *testing.T) {
	body := wires[3].calls([3]string{"", "list_secrets", `{"prefix":"a","limit":1}`}, [3]string{"", "list_secrets", `{"prefix":"b","limit":2}`})
	calls, err := gemini.Calls([]byte(body))
	if err != nil || len(calls) != 2 {
		t.Fatalf("Calls: %v, %d", err, len(calls))
	}
	results := VaultTools(NewVault()).RunCalls(context.Background(), calls, 0)
	if _, err := (gemini.GenerateContent{}).Continue([]byte(wires[3].request), []byte(body), results); err != nil {
		t.Fatalf("Continue in order: %v", err)
	}
	swapped := []runtime.CallResult{results[1], results[0]}
	// By id and name alone the swapped answers pass (both are the same here); the
	// provider must tell them apart by their arguments.
	if req, err := (gemini.GenerateContent{}).Continue([]byte(wires[3].request), []byte(body), swapped); err == nil {
		t.Errorf("gemini Continue takes the answers of two id-less calls of one tool swapped: %s", clip(string(req), 700))
	}
}

// endless is a reader that never ends: repeat, forever. It counts what it gave.
type endless struct {
	repeat []byte
	off    int
	read   int64
	max    int64 // give up (io.EOF) past this, so a test cannot eat all memory
}

func (r *endless) Read(p []byte) (int, error) {
	if r.read >= r.max {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.repeat[r.off:])
		n += c
		r.off = (r.off + c) % len(r.repeat)
	}
	r.read += int64(n)
	return n, nil
}

// TestStreamsBounded (class 9): an SSE line with no end, an event with no end, and
// endless argument deltas are refused with an error at a cost bounded by the limits.
func TestStreamsBounded(t *testing.T) {
	type reader struct {
		name     string
		def      func(io.Reader, func(event, data []byte) error) error
		limited  func(line, event int) func(io.Reader, func(event, data []byte) error) error
		defLimit int
	}
	readers := []reader{
		{"openai", openai.ReadSSE, func(l, e int) func(io.Reader, func(event, data []byte) error) error {
			return openai.Limits{MaxLineBytes: l, MaxEventBytes: e}.ReadSSE
		}, openai.DefaultMaxLineBytes},
		{"anthropic", anthropic.ReadSSE, func(l, e int) func(io.Reader, func(event, data []byte) error) error {
			return anthropic.Limits{MaxLineBytes: l, MaxEventBytes: e}.ReadSSE
		}, anthropic.DefaultMaxLineBytes},
		{"gemini", gemini.ReadSSE, func(l, e int) func(io.Reader, func(event, data []byte) error) error {
			return gemini.Limits{MaxLineBytes: l, MaxEventBytes: e}.ReadSSE
		}, gemini.DefaultMaxLineBytes},
	}
	const giveUp = 256 << 20
	for _, r := range readers {
		for _, tc := range []struct {
			name   string
			repeat string
			read   func(io.Reader, func(event, data []byte) error) error
			limit  int
		}{
			{"endless line, default limits", "data: aaaaaaaaaaaaaaa", r.def, r.defLimit},
			{"endless line, 64 KiB", "data: aaaaaaaaaaaaaaa", r.limited(64<<10, 0), 64 << 10},
			{"endless comment line, 64 KiB", ": aaaaaaaaaaaaaaaaaaa", r.limited(64<<10, 0), 64 << 10},
			{"endless event, default limits", "data: aaaaaaaaaaaaa\n", r.def, r.defLimit},
			{"endless event, 64 KiB", "data: aaaaaaaaaaaaa\n", r.limited(0, 64<<10), 64 << 10},
			{"endless event of empty data lines, 64 KiB", "data:\n", r.limited(0, 64<<10), 64 << 10},
		} {
			t.Run(r.name+"/"+tc.name, func(t *testing.T) {
				src := &endless{repeat: []byte(tc.repeat), max: giveUp}
				events := 0
				var err error
				var panicked any
				alloc := allocs(func() {
					defer func() { panicked = recover() }()
					err = tc.read(src, func(event, data []byte) error { events++; return nil })
				})
				if panicked != nil {
					t.Errorf("ReadSSE panics (%v) after reading %d bytes of one line, under its limit of %d; see TestSSELongLineUnderLimit", panicked, src.read, tc.limit)
				}
				t.Logf("read %d bytes, allocated %d, %d events: %v", src.read, alloc, events, err)
				if err == nil {
					t.Fatalf("no error after %d bytes", src.read)
				}
				if src.read >= giveUp {
					t.Errorf("read %d bytes before giving up, limit %d", src.read, tc.limit)
				}
				if alloc > uint64(4*tc.limit+(1<<20)) {
					t.Errorf("allocated %d bytes for a limit of %d", alloc, tc.limit)
				}
			})
		}
	}

	// Endless argument deltas: each accumulator refuses arguments past 1 MiB (the default
	// of its Limits.MaxArgumentBytes) when they arrive, not at the end of the stream.
	delta := strings.Repeat("a", 64<<10)
	feeders := []struct {
		name  string
		start []string
		delta string
		add   func() func([]byte) error
	}{}
	var chat openai.ChatStream
	var resp openai.ResponsesStream
	var anth anthropic.Stream
	feeders = append(feeders,
		struct {
			name  string
			start []string
			delta string
			add   func() func([]byte) error
		}{"openai chat", []string{`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"ping","arguments":""}}]},"finish_reason":null}]}`},
			`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"` + delta + `"}}]},"finish_reason":null}]}`,
			func() func([]byte) error { chat = openai.ChatStream{}; return chat.Add }},
		struct {
			name  string
			start []string
			delta string
			add   func() func([]byte) error
		}{"openai responses", []string{`{"type":"response.created","response":{"id":"r","object":"response","status":"in_progress","output":[]}}`,
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"ping","arguments":"","status":"in_progress"}}`},
			`{"type":"response.function_call_arguments.delta","output_index":0,"item_id":"fc_1","delta":"` + delta + `"}`,
			func() func([]byte) error { resp = openai.ResponsesStream{}; return resp.Add }},
		struct {
			name  string
			start []string
			delta string
			add   func() func([]byte) error
		}{"anthropic", []string{`{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}`,
			`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"ping","input":{}}}`},
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"` + delta + `"}}`,
			func() func([]byte) error {
				anth = anthropic.Stream{}
				return func(b []byte) error { return anth.Add(nil, b) }
			}},
	)
	for _, f := range feeders {
		t.Run("endless deltas/"+f.name, func(t *testing.T) {
			add := f.add()
			for _, s := range f.start {
				if err := add([]byte(s)); err != nil {
					t.Fatalf("start: %v", err)
				}
			}
			fed := 0
			var err error
			d := []byte(f.delta)
			alloc := allocs(func() {
				for fed < 4<<20 {
					if err = add(d); err != nil {
						break
					}
					fed += len(delta)
				}
			})
			t.Logf("fed %d bytes of arguments, allocated %d: %v", fed, alloc, err)
			if err == nil {
				t.Fatalf("4 MiB of argument deltas taken without an error")
			}
			if fed > runtime.DefaultMaxArgumentBytes+len(delta) {
				t.Errorf("the error came after %d bytes, limit %d", fed, runtime.DefaultMaxArgumentBytes)
			}
			if alloc > 32<<20 {
				t.Errorf("allocated %d bytes", alloc)
			}
		})
	}
	t.Run("endless deltas/gemini args over 1 MiB", func(t *testing.T) {
		var s gemini.Stream
		big := `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"ping","args":{"x":"` + strings.Repeat("a", 3<<19) + `"}}}]},"index":0}]}`
		err := s.Add(nil, []byte(big))
		if err == nil {
			err = s.Add(nil, []byte(`{"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP","index":0}]}`))
			if err == nil {
				_, err = s.Calls()
			}
		}
		t.Logf("%v", err)
		if err == nil {
			t.Errorf("gemini.Stream takes a functionCall whose args are 1.5 MiB (Add, Add of the finishing chunk and Calls give no error), past its Limits.MaxArgumentBytes default of %d", runtime.DefaultMaxArgumentBytes)
		}
	})
}

// TestSSELongLineUnderLimit (class 9): a stream line longer than a few MiB but under
// the default limit (16 MiB, "room for a response.completed event that repeats a whole
// response") is read whole, for every provider, and one over a small limit is an error.
func TestSSELongLineUnderLimit(t *testing.T) {
	readers := map[string]func(io.Reader, func(event, data []byte) error) error{
		"openai": openai.ReadSSE, "anthropic": anthropic.ReadSSE, "gemini": gemini.ReadSSE,
	}
	for _, n := range []int{1 << 20, 4 << 20, 12 << 20} {
		for name, read := range readers {
			t.Run(fmt.Sprintf("%s/%d MiB", name, n>>20), func(t *testing.T) {
				stream := "event: e\ndata: " + strings.Repeat("a", n) + "\n\n"
				got := -1
				var err error
				var panicked any
				func() {
					defer func() { panicked = recover() }()
					err = read(strings.NewReader(stream), func(_, data []byte) error { got = len(data); return nil })
				}()
				if panicked != nil {
					t.Errorf("%s.ReadSSE panics (%v) on a data line of %d bytes, under DefaultMaxLineBytes (%d)", name, panicked, n+6, openai.DefaultMaxLineBytes)
				}
				if err != nil || got != n {
					t.Errorf("err %v, data of %d bytes, want %d", err, got, n)
				}
			})
		}
	}
}

// TestLoopMaxRounds (class 10): a model that keeps calling tools past MaxRounds makes
// Run return the last response with an error wrapping runtime.ErrMaxRounds, for every
// provider.
func TestLoopMaxRounds(t *testing.T) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			var mu sync.Mutex
			n := 0
			var last []byte
			send := func(_ context.Context, req []byte) ([]byte, error) {
				mu.Lock()
				defer mu.Unlock()
				n++
				last = []byte(w.calls([3]string{fmt.Sprintf("call_%d", n), "ping", "{}"}))
				return last, nil
			}
			lp := loop.Loop{Provider: w.provider, Tools: VaultTools(NewVault()), Send: send, MaxRounds: 2}
			resp, _, err := lp.Run(context.Background(), []byte(w.request))
			if !errors.Is(err, runtime.ErrMaxRounds) {
				t.Errorf("err %v, want ErrMaxRounds", err)
			}
			if !bytes.Equal(resp, last) {
				t.Errorf("response is not the last one")
			}
			if n != 3 {
				t.Errorf("%d requests, want MaxRounds+1 = 3", n)
			}
		})
	}
}
