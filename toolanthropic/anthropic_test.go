package toolanthropic_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	rtanthropic "github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/toolanthropic"
	"github.com/toolgen/toolgen/tooltest"
)

const (
	model  = anthropic.ModelClaudeSonnet4_5
	prompt = "What is the weather in Paris and in Oslo?"
	intro  = "Let me look that up."
	final  = "Paris will be mild; I could not get Oslo's forecast for 30 days."
)

// use is one tool_use block the fake model writes.
type use struct{ id, name, input string }

// turn are the calls of the fake model's turn: a valid call, one whose input breaks
// the schema, one to a tool that does not exist, and one to the hand-written echo
// tool. Each input is an object, as the API writes it and takes it back in the
// assistant turn of the next request (TestInputNotAnObject has the inputs that are
// not).
var turn = []use{
	{"toolu_01", "get_weather", `{"city":"Paris","days":2}`},
	{"toolu_02", "get_weather", `{"city":"Oslo","days":30}`},
	{"toolu_03", "get_stock_price", `{"symbol":"ACME"}`},
	{"toolu_04", "echo", `{"input":"hi"}`},
}

// turnSays is a piece of what the answer to each call of turn says, and whether the
// answer is an error.
var turnSays = []struct {
	text  string
	fails bool
}{
	{`"city":"Paris"`, false},
	{"invalid arguments for get_weather: /days: must be at most 14 (got 30)", true},
	{`unknown tool "get_stock_price"`, true},
	{"hi", false},
}

// blocks returns the content of an assistant turn: a text block, then the tool_use
// blocks of uses.
func blocks(uses []use) []map[string]any {
	out := []map[string]any{{"type": "text", "text": intro}}
	for _, u := range uses {
		out = append(out, map[string]any{"type": "tool_use", "id": u.id, "name": u.name, "input": json.RawMessage(u.input)})
	}
	return out
}

// message returns a message with the given content and stop reason.
func message(content any, stop any) map[string]any {
	return map[string]any{"id": "msg_01", "type": "message", "role": "assistant", "model": string(model),
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 120, "output_tokens": 60}}
}

func callsReply(uses []use, stop string) string { return mustJSON(message(blocks(uses), stop)) }

var textReply = mustJSON(message([]any{map[string]any{"type": "text", "text": final}}, "end_turn"))

// streamEvents returns the events that stream a message of the text and the uses, as
// the API sends them.
func streamEvents(uses []use, stop string) []tooltest.Event {
	var events []tooltest.Event
	emit := func(typ string, fields map[string]any) {
		fields["type"] = typ
		events = append(events, tooltest.Event{Name: typ, Data: mustJSON(fields)})
	}
	emit("message_start", map[string]any{"message": message([]any{}, nil)})
	emit("ping", map[string]any{})
	for i, b := range blocks(uses) {
		switch b["type"] {
		case "text":
			emit("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			emit("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "text_delta", "text": b["text"]}})
		case "tool_use":
			emit("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			input := string(b["input"].(json.RawMessage))
			for _, piece := range []string{input[:len(input)/2], input[len(input)/2:]} {
				emit("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": piece}})
			}
		}
		emit("content_block_stop", map[string]any{"index": i})
	}
	emit("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 60}})
	emit("message_stop", map[string]any{})
	return events
}

// checkMessages returns the check of a Messages request over ts, which tooltest.Read
// has found valid (a model, max_tokens, every tool_use answered once, first in the
// next user message): the stream flag, the tools exactly as runtime/anthropic.Tools
// lowers them, and the conversation: the prompt, then, when uses is not nil, the
// assistant turn as it came and one user message whose content is the tool_result
// blocks of want, in order, each answering its tool_use with runtime/anthropic's text
// and error flag.
func checkMessages(ts *runtime.Toolset, stream bool, uses []use, want []rtanthropic.ToolResult) func(*tooltest.Request) error {
	return func(r *tooltest.Request) error {
		var req struct {
			Messages []struct {
				Role    string            `json:"role"`
				Content []json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(r.Body, &req); err != nil {
			return err
		}
		if r.Stream != stream {
			return fmt.Errorf("stream %v, want %v", r.Stream, stream)
		}
		if err := tooltest.CheckTools(r, rtanthropic.Tools(ts)); err != nil {
			return err
		}
		msgs := req.Messages
		if len(msgs) == 0 || msgs[0].Role != "user" || len(msgs[0].Content) != 1 ||
			!sameJSON(msgs[0].Content[0], []byte(mustJSON(map[string]string{"type": "text", "text": prompt}))) {
			return errors.New("the conversation does not start with the prompt")
		}
		if uses == nil {
			if len(msgs) != 1 {
				return fmt.Errorf("%d messages, want the prompt alone", len(msgs))
			}
			return nil
		}
		if len(msgs) != 3 || msgs[1].Role != "assistant" || msgs[2].Role != "user" {
			return fmt.Errorf("%d messages, want the prompt, the assistant's turn and the user's answers", len(msgs))
		}
		if !sameJSON([]byte(mustJSON(msgs[1].Content)), []byte(mustJSON(blocks(uses)))) {
			return fmt.Errorf("the assistant turn is %s, want it as it came", mustJSON(msgs[1].Content))
		}
		if len(msgs[2].Content) != len(want) {
			return fmt.Errorf("%d blocks in the answers, want the %d tool_result blocks", len(msgs[2].Content), len(want))
		}
		for i, w := range want {
			var b struct {
				Type      string          `json:"type"`
				ToolUseID string          `json:"tool_use_id"`
				IsError   bool            `json:"is_error"`
				Content   json.RawMessage `json:"content"`
			}
			if err := json.Unmarshal(msgs[2].Content[i], &b); err != nil {
				return err
			}
			if b.Type != "tool_result" || b.ToolUseID != w.ToolUseID || b.IsError != w.IsError || contentText(b.Content) != w.Content {
				return fmt.Errorf("answer %d is %s, want runtime/anthropic's %s", i, msgs[2].Content[i], mustJSON(w))
			}
		}
		return nil
	}
}

// contentText returns the text of a tool_result's content: a string, or text blocks.
func contentText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var parts []struct{ Type, Text string }
	json.Unmarshal(content, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// wantResults returns runtime/anthropic's answers to the calls of a message body, over
// a fresh copy of the test tools.
func wantResults(t *testing.T, body string) []rtanthropic.ToolResult {
	t.Helper()
	calls, err := rtanthropic.Calls([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return rtanthropic.ToolResults(testTools(new([]string), new(int)).RunCalls(t.Context(), calls, 0)).Content
}

// sameCall reports whether two calls are the same, arguments byte for byte.
func sameCall(a, b runtime.ToolCall) bool {
	return a.ID == b.ID && a.Name == b.Name && string(a.Arguments) == string(b.Arguments)
}

// resultsSay returns the tool_use ids, texts and error flags of tool_result blocks.
func resultsSay(t *testing.T, results []anthropic.ContentBlockParamUnion) (ids, texts []string, fails []bool) {
	t.Helper()
	for _, r := range results {
		tr := r.OfToolResult
		if tr == nil {
			t.Fatalf("block %s is not a tool_result", mustJSON(r))
		}
		ids = append(ids, tr.ToolUseID)
		var text strings.Builder
		for _, c := range tr.Content {
			if c.OfText != nil {
				text.WriteString(c.OfText.Text)
			}
		}
		texts = append(texts, text.String())
		fails = append(fails, tr.IsError.Value)
	}
	return ids, texts, fails
}

func newParams(ts *runtime.Toolset) anthropic.MessageNewParams {
	return anthropic.MessageNewParams{
		Model:     model,
		MaxTokens: 1024,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(prompt))},
		Tools:     toolanthropic.Tools(ts),
	}
}

// TestRoundTrip completes a tool round trip through the SDK's Messages client: the
// tools go as runtime/anthropic lowers them, and every tool_use of the turn (a valid
// one, input that breaks the schema, an unknown tool) is answered once, in order, in
// one user message of tool_result blocks that say what runtime/anthropic's say,
// failed calls with is_error.
func TestRoundTrip(t *testing.T) {
	var providers []string
	var echoed int
	ts := testTools(&providers, &echoed)
	reply := callsReply(turn, "tool_use")
	want := wantResults(t, reply)
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: messagesPath, Check: checkMessages(ts, false, nil, nil), Reply: reply},
		tooltest.Round{Path: messagesPath, Check: checkMessages(ts, false, turn, want), Reply: textReply},
	)
	client, ctx := newClient(srv), t.Context()
	params := newParams(ts)
	msg, err := client.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	calls, err := toolanthropic.Calls(msg)
	wantCalls, _ := rtanthropic.Calls([]byte(reply))
	if err != nil || !slices.EqualFunc(calls, wantCalls, sameCall) {
		t.Errorf("Calls = %q, %v; want runtime/anthropic's %q", calls, err, wantCalls)
	}
	results, err := toolanthropic.Run(ctx, ts, msg)
	if err != nil {
		t.Fatal(err)
	}
	ids, texts, fails := resultsSay(t, results)
	for i, s := range turnSays {
		if i >= len(ids) || ids[i] != turn[i].id || !strings.Contains(texts[i], s.text) || fails[i] != s.fails {
			t.Errorf("result %d: %s, want an answer to %s that says %q, error %v", i, mustJSON(results), turn[i].id, s.text, s.fails)
		}
	}
	if len(ids) != len(turn) {
		t.Errorf("%d results for %d calls", len(ids), len(turn))
	}
	if echoed != 1 || len(providers) != len(turn) || slices.ContainsFunc(providers, func(p string) bool { return p != "anthropic" }) {
		t.Errorf("echo ran %d times, observers saw %q: want 1, and %d calls from anthropic", echoed, providers, len(turn))
	}

	params.Messages = append(params.Messages, msg.ToParam(), anthropic.NewUserMessage(results...))
	msg, err = client.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.Content) != 1 || msg.Content[0].Text != final {
		t.Errorf("final content %s, want the text %q", msg.RawJSON(), final)
	}
}

// TestInputNotAnObject: a tool_use block whose input is not an object (which the API
// does not write, and refuses in the assistant turn of a request, so no round trip
// carries one) is read from a message as the SDK decodes it as runtime/anthropic
// reads it: the input goes to the Toolset as it is, which reads a string holding a
// whole object as that object (the double-encoding leniency) and answers any other
// input with an argument error under its id, while the turn's other calls run.
func TestInputNotAnObject(t *testing.T) {
	uses := []use{
		{"toolu_01", "get_weather", `{"city":"Paris","days":2}`},
		{"toolu_02", "get_weather", `"{\"city\":\"Oslo\",\"days\":3}"`},
		{"toolu_03", "get_weather", `"Bergen"`},
		{"toolu_04", "get_weather", `[1,2]`},
		{"toolu_05", "echo", `{"input":"hi"}`},
	}
	says := []struct {
		text  string
		fails bool
	}{
		{`"city":"Paris"`, false},
		{`"city":"Oslo"`, false},
		{"invalid arguments for get_weather", true},
		{"invalid arguments for get_weather", true},
		{"hi", false},
	}
	body := callsReply(uses, "tool_use")
	var msg anthropic.Message
	if err := json.Unmarshal([]byte(body), &msg); err != nil {
		t.Fatal(err)
	}
	calls, err := toolanthropic.Calls(&msg)
	wantCalls, _ := rtanthropic.Calls([]byte(body))
	if err != nil || len(calls) != len(uses) || !slices.EqualFunc(calls, wantCalls, sameCall) {
		t.Fatalf("Calls = %q, %v; want runtime/anthropic's %q", calls, err, wantCalls)
	}
	for i, c := range calls {
		if string(c.Arguments) != uses[i].input {
			t.Errorf("call %d has arguments %s, want the input as it is: %s", i, c.Arguments, uses[i].input)
		}
	}
	var providers []string
	var echoed int
	results, err := toolanthropic.Run(t.Context(), testTools(&providers, &echoed), &msg)
	if err != nil {
		t.Fatal(err)
	}
	ids, texts, fails := resultsSay(t, results)
	if len(ids) != len(uses) {
		t.Fatalf("%d results for %d calls: %s", len(ids), len(uses), mustJSON(results))
	}
	want := wantResults(t, body)
	for i, s := range says {
		if ids[i] != uses[i].id || !strings.Contains(texts[i], s.text) || fails[i] != s.fails ||
			i >= len(want) || want[i].ToolUseID != ids[i] || want[i].IsError != fails[i] {
			t.Errorf("result %d: %s, want runtime/anthropic's answer to %s, which says %q, error %v", i, mustJSON(results[i]), uses[i].id, s.text, s.fails)
		}
	}
	if echoed != 1 || len(providers) != len(uses) {
		t.Errorf("echo ran %d times, observers saw %q: want 1, and %d calls", echoed, providers, len(uses))
	}
}

// streamTurn are the calls of the streamed turn.
var streamTurn = []use{
	{"toolu_01", "get_weather", `{"city":"Paris","days":2}`},
	{"toolu_02", "echo", `{"input":"hi"}`},
}

// TestStreamRoundTrip completes a round trip whose first turn is streamed and
// accumulated with the SDK's Message.Accumulate: Calls refuses the message until its
// message_stop, then reads the calls runtime/anthropic's Stream reads, and Answers
// carries their results.
func TestStreamRoundTrip(t *testing.T) {
	var providers []string
	var echoed int
	ts := testTools(&providers, &echoed)
	events := streamEvents(streamTurn, "tool_use")
	var ours rtanthropic.Stream
	for _, e := range events {
		if err := ours.Add([]byte(e.Name), []byte(e.Data)); err != nil {
			t.Fatal(err)
		}
	}
	body, err := ours.Response()
	if err != nil {
		t.Fatal(err)
	}
	want := wantResults(t, string(body))
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: messagesPath, Check: checkMessages(ts, true, nil, nil), Events: events},
		tooltest.Round{Path: messagesPath, Check: checkMessages(ts, false, streamTurn, want), Reply: textReply},
	)
	client, ctx := newClient(srv), t.Context()
	params := newParams(ts)
	var msg anthropic.Message
	stream := client.Messages.NewStreaming(ctx, params)
	for stream.Next() {
		ev := stream.Current()
		if calls, err := toolanthropic.Calls(&msg); err == nil {
			t.Fatalf("Calls of the message before %s = %q, want an error", ev.Type, calls)
		}
		if err := msg.Accumulate(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	stream.Close()
	calls, err := toolanthropic.Calls(&msg)
	wantCalls, _ := ours.Calls()
	if err != nil || !slices.EqualFunc(calls, wantCalls, sameCall) {
		t.Fatalf("Calls = %q, %v; want runtime/anthropic's %q", calls, err, wantCalls)
	}
	answer := toolanthropic.Answers(ts.RunCalls(ctx, calls, 0))
	if answer.OfUser == nil || len(answer.OfUser.Content) != len(streamTurn) {
		t.Fatalf("Answers = %s, want a user message of %d tool_result blocks", mustJSON(answer), len(streamTurn))
	}
	params.Messages = append(params.Messages, msg.ToParam(), answer)
	final2, err := client.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if len(final2.Content) != 1 || final2.Content[0].Text != final {
		t.Errorf("final content %s, want the text %q", final2.RawJSON(), final)
	}
}

// TestCutTurn: a message cut short by max_tokens with tool_use blocks in it, as the
// SDK client returns it, is an error, runtime/anthropic's, and no call runs.
func TestCutTurn(t *testing.T) {
	var providers []string
	var echoed int
	ts := testTools(&providers, &echoed)
	reply := callsReply([]use{{"toolu_01", "echo", `{"input":"hi"}`}, {"toolu_02", "echo", `{"input":"th"}`}}, "max_tokens")
	srv := tooltest.NewRoundServer(t, tooltest.Round{Path: messagesPath, Check: checkMessages(ts, false, nil, nil), Reply: reply})
	client, ctx := newClient(srv), t.Context()
	msg, err := client.Messages.New(ctx, newParams(ts))
	if err != nil {
		t.Fatal(err)
	}
	results, err := toolanthropic.Run(ctx, ts, msg)
	_, want := rtanthropic.Calls([]byte(reply))
	if err == nil || want == nil || err.Error() != want.Error() || results != nil {
		t.Errorf("Run = %v, %v; want no results and runtime/anthropic's error %v", results, err, want)
	}
	if echoed != 0 || len(providers) != 0 {
		t.Errorf("echo ran %d times, observers saw %q: want no call run", echoed, providers)
	}
}

// TestRefusals: every message runtime/anthropic.Calls refuses, Calls and Run refuse
// with the same error, and no call runs.
func TestRefusals(t *testing.T) {
	echo := []use{{"toolu_01", "echo", `{"input":"a"}`}, {"toolu_02", "echo", `{"input":"b"}`}}
	tests := []struct{ name, body string }{
		{"cut by max_tokens", callsReply(echo, "max_tokens")},
		{"cut by the context window", callsReply(echo, "model_context_window_exceeded")},
		{"a refusal", callsReply(echo, "refusal")},
		{"two blocks with one id", callsReply([]use{echo[0], {"toolu_01", "echo", `{"input":"b"}`}}, "tool_use")},
		{"a block without an id", callsReply([]use{echo[0], {"", "echo", `{"input":"b"}`}}, "tool_use")},
		{"a block without a name", callsReply([]use{echo[0], {"toolu_02", "", `{"input":"b"}`}}, "tool_use")},
		{"an error body", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m anthropic.Message
			if err := json.Unmarshal([]byte(tt.body), &m); err != nil {
				t.Fatal(err)
			}
			_, want := rtanthropic.Calls([]byte(tt.body))
			if want == nil {
				t.Fatalf("runtime/anthropic takes %s", tt.body)
			}
			if calls, err := toolanthropic.Calls(&m); err == nil || err.Error() != want.Error() {
				t.Errorf("Calls = %q, %v; want runtime/anthropic's error %v", calls, err, want)
			}
			var providers []string
			var echoed int
			if results, err := toolanthropic.Run(t.Context(), testTools(&providers, &echoed), &m); err == nil || results != nil || len(providers) != 0 {
				t.Errorf("Run = %v, %v, calls run %q; want an error and no call run", results, err, providers)
			}
		})
	}
	var built anthropic.Message // built in Go, with no stop_reason
	built.Content = []anthropic.ContentBlockUnion{{Type: "tool_use", ID: "toolu_01", Name: "echo", Input: json.RawMessage(`{"input":"a"}`)}}
	if calls, err := toolanthropic.Calls(&built); err == nil {
		t.Errorf("Calls of a message without stop_reason = %q, want an error", calls)
	}
	built.StopReason = anthropic.StopReasonToolUse
	if calls, err := toolanthropic.Calls(&built); err != nil || len(calls) != 1 || calls[0].ID != "toolu_01" {
		t.Errorf("Calls of a message built in Go = %q, %v; want its call", calls, err)
	}
	if _, err := toolanthropic.Calls(nil); err == nil {
		t.Error("Calls(nil) takes no message for a turn without calls")
	}
}

// TestToolResults: tool_result blocks say what runtime/anthropic's say: text as a
// text block, images for the model as base64 image blocks, blocks meant for the user
// alone left out, is_error on failures, and no content for a result without any.
func TestToolResults(t *testing.T) {
	ts := testTools(new([]string), new(int))
	calls := []runtime.ToolCall{
		{ID: "toolu_01", Name: "picture", Arguments: []byte(`{}`)},
		{ID: "toolu_02", Name: "echo", Arguments: []byte(`{"input":""}`)},
		{ID: "toolu_03", Name: "nope", Arguments: []byte(`{}`)},
	}
	results := ts.RunCalls(t.Context(), calls, 0)
	got := toolanthropic.ToolResults(results)
	for i, r := range results {
		want := rtanthropic.Result(r)
		var g struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			IsError   bool            `json:"is_error"`
			Content   json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal([]byte(mustJSON(got[i])), &g); err != nil {
			t.Fatal(err)
		}
		if g.Type != "tool_result" || g.ToolUseID != want.ToolUseID || g.IsError != want.IsError {
			t.Errorf("block %d is %s, want %s", i, mustJSON(got[i]), mustJSON(want))
		}
		switch c := want.Content.(type) {
		case []rtanthropic.ResultBlock: // text and images: the same blocks
			if !sameJSON(g.Content, []byte(mustJSON(c))) {
				t.Errorf("block %d has content %s, want %s", i, g.Content, mustJSON(c))
			}
		case string:
			if contentText(g.Content) != c {
				t.Errorf("block %d says %s, want %q", i, g.Content, c)
			}
		case nil:
			if g.Content != nil {
				t.Errorf("block %d has content %s, want none", i, g.Content)
			}
		}
	}
	if strings.Contains(mustJSON(got), "for your eyes only") {
		t.Error("a block meant for the user reaches the model")
	}
	if answer := toolanthropic.Answers(results); answer.OfUser == nil || len(answer.OfUser.Content) != 3 {
		t.Errorf("Answers = %s, want a user message of the three blocks", mustJSON(answer))
	}
}

// TestTools: the tool params are runtime/anthropic's definitions, strict where
// toolgen found the schema fit and not for the hand-written tools.
func TestTools(t *testing.T) {
	ts := runtime.Join(forecast.Tools(), handTools(new(int)))
	got := toolanthropic.Tools(ts)
	if !sameJSON([]byte(mustJSON(got)), []byte(mustJSON(rtanthropic.Tools(ts)))) {
		t.Errorf("Tools = %s\nwant %s", mustJSON(got), mustJSON(rtanthropic.Tools(ts)))
	}
	strict := map[string]bool{}
	for _, tool := range got {
		strict[tool.OfTool.Name] = tool.OfTool.Strict.Value
	}
	if !strict["get_weather"] || !strict["hello_world"] || strict["echo"] || strict["picture"] || len(strict) != 4 {
		t.Errorf("strict flags %v, want get_weather and hello_world strict, echo and picture not", strict)
	}
	if len(toolanthropic.Tools(nil)) != 0 {
		t.Error("a nil Toolset has tools")
	}
}
