package toolopenai_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	rtopenai "github.com/toolgen/toolgen/runtime/openai"
	"github.com/toolgen/toolgen/toolopenai"
	"github.com/toolgen/toolgen/tooltest"
)

const (
	chatPath = "/v1/chat/completions"
	prompt   = "What is the weather in Paris and in Oslo?"
	final    = "Paris will be mild; I could not get Oslo's forecast for 30 days."
)

// call is one call the fake model makes.
type call struct{ id, name, args string }

// chatTurn are the calls of the fake model's turn: a valid call, one whose arguments
// break the schema, one whose arguments are not JSON, one to a tool that does not
// exist, and one to the hand-written echo tool.
var chatTurn = []call{
	{"call_01", "get_weather", `{"city":"Paris","days":2}`},
	{"call_02", "get_weather", `{"city":"Oslo","days":30}`},
	{"call_03", "get_weather", `{"city":`},
	{"call_04", "get_stock_price", `{"symbol":"ACME"}`},
	{"call_05", "echo", `{"input":"hi"}`},
}

// chatAnswersSay is a piece of what the answer to each call of chatTurn says.
var chatAnswersSay = []string{
	`"city":"Paris"`,
	"invalid arguments for get_weather: /days: must be at most 14 (got 30)",
	"invalid arguments for get_weather",
	`unknown tool "get_stock_price"`,
	"hi",
}

// chatToolCalls returns calls as an assistant message's tool_calls.
func chatToolCalls(calls []call) []map[string]any {
	out := []map[string]any{}
	for _, c := range calls {
		out = append(out, map[string]any{"id": c.id, "type": "function",
			"function": map[string]any{"name": c.name, "arguments": c.args}})
	}
	return out
}

// chatCompletion returns a chat completion whose message has the given content and
// calls.
func chatCompletion(content any, calls []call, finish string) string {
	msg := map[string]any{"role": "assistant", "content": content, "refusal": nil, "annotations": []any{}}
	if calls != nil {
		msg["tool_calls"] = chatToolCalls(calls)
	}
	return mustJSON(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1767225600, "model": "gpt-5-2025-08-07",
		"choices": []any{map[string]any{"index": 0, "message": msg, "logprobs": nil, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 120, "completion_tokens": 60, "total_tokens": 180},
	})
}

// chatChunks returns the chunks that stream a message with the given calls: a role
// chunk, each call's id and name and then its arguments in two pieces, the finish
// reason (unless finish is empty: a stream cut off), a usage chunk and [DONE].
func chatChunks(calls []call, finish string) []string {
	var out []string
	chunk := func(delta map[string]any, finish any) {
		out = append(out, mustJSON(map[string]any{"id": "chatcmpl-2", "object": "chat.completion.chunk",
			"created": 1767225600, "model": "gpt-5-2025-08-07",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}}))
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil)
	for i, c := range calls {
		chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.id, "type": "function",
			"function": map[string]any{"name": c.name, "arguments": ""}}}}, nil)
		half := len(c.args) / 2
		for _, piece := range []string{c.args[:half], c.args[half:]} {
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": piece}}}}, nil)
		}
	}
	if finish == "" {
		return out
	}
	chunk(map[string]any{}, finish)
	return append(out,
		`{"id":"chatcmpl-2","object":"chat.completion.chunk","created":1767225600,"model":"gpt-5-2025-08-07","choices":[],"usage":{"prompt_tokens":120,"completion_tokens":60,"total_tokens":180}}`,
		"[DONE]")
}

// chatRequest is what the fake API reads of a Chat Completions request.
type chatRequest struct {
	Messages []json.RawMessage `json:"messages"`
	Stream   bool              `json:"stream"`
}

// checkChat returns the check of a Chat Completions request over ts: a model, the
// stream flag, the tools exactly as runtime/openai.ChatTools lowers them, and the
// conversation: the prompt, then, when calls is not nil, the assistant message that
// made them and the tool messages want, exactly: every call answered once, in order,
// as runtime/openai answers it.
func checkChat(ts *runtime.Toolset, stream bool, calls []call, want []rtopenai.ChatToolMessage) func(*tooltest.Request) error {
	return func(r *tooltest.Request) error {
		body := r.Body
		var req chatRequest
		if err := json.Unmarshal(body, &req); err != nil {
			return err
		}
		if req.Stream != stream {
			return fmt.Errorf("stream %v, want %v", req.Stream, stream)
		}
		if err := tooltest.CheckTools(r, rtopenai.ChatTools(ts)); err != nil {
			return err
		}
		msgs := req.Messages
		if len(msgs) == 0 || !sameJSON(msgs[0], []byte(mustJSON(map[string]string{"role": "user", "content": prompt}))) {
			return errors.New("the conversation does not start with the prompt")
		}
		if calls == nil {
			if len(msgs) != 1 {
				return fmt.Errorf("%d messages, want the prompt alone", len(msgs))
			}
			return nil
		}
		if len(msgs) != 2+len(want) {
			return fmt.Errorf("%d messages, want the prompt, the assistant's calls and %d tool messages", len(msgs), len(want))
		}
		var asst struct {
			Role      string          `json:"role"`
			ToolCalls json.RawMessage `json:"tool_calls"`
		}
		if err := json.Unmarshal(msgs[1], &asst); err != nil || asst.Role != "assistant" ||
			!sameJSON(asst.ToolCalls, []byte(mustJSON(chatToolCalls(calls)))) {
			return fmt.Errorf("message 1 is %s, want the assistant message that made the calls", msgs[1])
		}
		for i, w := range want {
			if !sameJSON(msgs[2+i], []byte(mustJSON(w))) {
				return fmt.Errorf("message %d is %s, want the answer to %s: %s", 2+i, msgs[2+i], w.ToolCallID, mustJSON(w))
			}
		}
		return nil
	}
}

// wantChatAnswers returns runtime/openai's answers to the calls of a chat completion
// body, over a fresh copy of the test tools.
func wantChatAnswers(t *testing.T, body string) []rtopenai.ChatToolMessage {
	t.Helper()
	var providers []string
	var echoed int
	want, err := rtopenai.RunChat(t.Context(), testTools(&providers, &echoed), []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// checkSaid checks that each answer says what it must.
func checkSaid(t *testing.T, texts, says []string) {
	t.Helper()
	if len(texts) != len(says) {
		t.Fatalf("%d answers, want %d", len(texts), len(says))
	}
	for i, s := range says {
		if !strings.Contains(texts[i], s) {
			t.Errorf("answer %d says %q, want it to contain %q", i, texts[i], s)
		}
	}
}

// TestChatRoundTrip completes a tool round trip through the SDK's Chat Completions
// client: the tools go as runtime/openai lowers them, every call of the turn (a valid
// one, invalid and malformed arguments, an unknown tool) is answered once, in order,
// with runtime/openai's answer, and the model's final text comes back.
func TestChatRoundTrip(t *testing.T) {
	var providers []string
	var echoed int
	ts := testTools(&providers, &echoed)
	reply := chatCompletion(nil, chatTurn, "tool_calls")
	want := wantChatAnswers(t, reply)
	srv := startAPI(t,
		round{path: chatPath, check: checkChat(ts, false, nil, nil), reply: reply},
		round{path: chatPath, check: checkChat(ts, false, chatTurn, want), reply: chatCompletion(final, nil, "stop")},
	)
	client, ctx := newClient(srv), t.Context()

	params := openai.ChatCompletionNewParams{
		Model:    openai.ChatModelGPT5,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(prompt)},
		Tools:    toolopenai.ChatTools(ts),
	}
	completion, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	calls, err := toolopenai.ChatCalls(completion)
	if err != nil {
		t.Fatal(err)
	}
	wantCalls, _ := rtopenai.ChatCalls([]byte(reply))
	if !slices.EqualFunc(calls, wantCalls, sameCall) {
		t.Errorf("ChatCalls = %q, want runtime/openai's %q", calls, wantCalls)
	}
	answers, err := toolopenai.RunChat(ctx, ts, completion)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for i, a := range answers {
		if a.OfTool == nil || a.OfTool.ToolCallID != chatTurn[i].id {
			t.Fatalf("answer %d is %s, want a tool message to %s", i, mustJSON(a), chatTurn[i].id)
		}
		texts = append(texts, a.OfTool.Content.OfString.Value)
	}
	checkSaid(t, texts, chatAnswersSay)
	if echoed != 1 || len(providers) != len(chatTurn) || slices.ContainsFunc(providers, func(p string) bool { return p != "openai" }) {
		t.Errorf("echo ran %d times, observers saw providers %q: want 1, and %d calls from openai", echoed, providers, len(chatTurn))
	}

	params.Messages = append(params.Messages, completion.Choices[0].Message.ToParam())
	params.Messages = append(params.Messages, answers...)
	completion, err = client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got := completion.Choices[0].Message.Content; got != final {
		t.Errorf("final text %q, want %q", got, final)
	}
}

// sameCall reports whether two calls are the same, arguments byte for byte.
func sameCall(a, b runtime.ToolCall) bool {
	return a.ID == b.ID && a.Name == b.Name && string(a.Arguments) == string(b.Arguments)
}

// streamTurn are the calls of the streamed turn.
var streamTurn = []call{
	{"call_01", "get_weather", `{"city":"Paris","days":2}`},
	{"call_02", "get_weather", `{"city":"Oslo","days":30}`},
	{"call_03", "echo", `{"input":"hi"}`},
}

// TestChatStreamRoundTrip completes a round trip whose first turn is streamed: the
// chunks the SDK decodes go to its ChatCompletionAccumulator, which AccumulatorCalls
// refuses until the stream has finished, and RunAccumulator answers like
// runtime/openai's ChatStream would.
func TestChatStreamRoundTrip(t *testing.T) {
	var providers []string
	var echoed int
	ts := testTools(&providers, &echoed)
	chunks := chatChunks(streamTurn, "tool_calls")
	var ours rtopenai.ChatStream
	for _, c := range chunks {
		if err := ours.Add([]byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	completion, err := ours.Completion()
	if err != nil {
		t.Fatal(err)
	}
	want := wantChatAnswers(t, string(completion))
	srv := startAPI(t,
		round{path: chatPath, check: checkChat(ts, true, nil, nil), events: chunks},
		round{path: chatPath, check: checkChat(ts, false, streamTurn, want), reply: chatCompletion(final, nil, "stop")},
	)
	client, ctx := newClient(srv), t.Context()

	params := openai.ChatCompletionNewParams{
		Model:    openai.ChatModelGPT5,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(prompt)},
		Tools:    toolopenai.ChatTools(ts),
	}
	var acc openai.ChatCompletionAccumulator
	stream := client.Chat.Completions.NewStreaming(ctx, params)
	for stream.Next() {
		if !acc.AddChunk(stream.Current()) {
			t.Fatalf("the SDK's accumulator rejects %s", stream.Current().RawJSON())
		}
		finished := len(acc.Choices) > 0 && acc.Choices[0].FinishReason != ""
		if calls, err := toolopenai.AccumulatorCalls(&acc); !finished && err == nil {
			t.Fatalf("AccumulatorCalls of a stream not finished = %q, want an error", calls)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	stream.Close()
	calls, err := toolopenai.AccumulatorCalls(&acc)
	if err != nil {
		t.Fatal(err)
	}
	wantCalls, _ := ours.Calls()
	if !slices.EqualFunc(calls, wantCalls, sameCall) {
		t.Errorf("AccumulatorCalls = %q, want runtime/openai's %q", calls, wantCalls)
	}
	answers, err := toolopenai.RunAccumulator(ctx, ts, &acc)
	if err != nil {
		t.Fatal(err)
	}
	if echoed != 1 || len(providers) != len(streamTurn) {
		t.Errorf("echo ran %d times, observers saw %q: want 1, and %d calls", echoed, providers, len(streamTurn))
	}

	params.Messages = append(params.Messages, acc.Choices[0].Message.ToParam())
	params.Messages = append(params.Messages, answers...)
	final2, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got := final2.Choices[0].Message.Content; got != final {
		t.Errorf("final text %q, want %q", got, final)
	}
}

// TestChatCutTurn: a completion cut short by the token limit with calls in it, as the
// SDK client returns it, is an error, runtime/openai's, and no call runs.
func TestChatCutTurn(t *testing.T) {
	var providers []string
	var echoed int
	ts := testTools(&providers, &echoed)
	cut := []call{{"call_01", "echo", `{"input":"hi"}`}, {"call_02", "echo", `{"input":"th`}}
	reply := chatCompletion(nil, cut, "length")
	srv := startAPI(t, round{path: chatPath, check: checkChat(ts, false, nil, nil), reply: reply})
	client, ctx := newClient(srv), t.Context()
	completion, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:    openai.ChatModelGPT5,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(prompt)},
		Tools:    toolopenai.ChatTools(ts),
	})
	if err != nil {
		t.Fatal(err)
	}
	answers, err := toolopenai.RunChat(ctx, ts, completion)
	_, want := rtopenai.ChatCalls([]byte(reply))
	if err == nil || want == nil || err.Error() != want.Error() || answers != nil {
		t.Errorf("RunChat = %v, %v; want no answers and runtime/openai's error %v", answers, err, want)
	}
	if echoed != 0 || len(providers) != 0 {
		t.Errorf("echo ran %d times, observers saw %q: want no call run", echoed, providers)
	}
}

// TestChatRefusals: every completion runtime/openai.ChatCalls refuses, ChatCalls and
// RunChat refuse with the same error, and no call runs.
func TestChatRefusals(t *testing.T) {
	echo := []call{{"call_01", "echo", `{"input":"a"}`}, {"call_02", "echo", `{"input":"b"}`}}
	tests := []struct{ name, body string }{
		{"cut by the token limit", chatCompletion(nil, echo, "length")},
		{"cut by the content filter", chatCompletion(nil, echo, "content_filter")},
		{"two calls with one id", chatCompletion(nil, []call{echo[0], {"call_01", "echo", `{"input":"b"}`}}, "tool_calls")},
		{"a call without an id", chatCompletion(nil, []call{echo[0], {"", "echo", `{"input":"b"}`}}, "tool_calls")},
		{"a call without a name", chatCompletion(nil, []call{echo[0], {"call_02", "", `{"input":"b"}`}}, "tool_calls")},
		{"a call of an unknown type", strings.Replace(chatCompletion(nil, echo, "tool_calls"), `"type":"function"`, `"type":"web_search"`, 1)},
		{"an error body", `{"error":{"message":"the server had an error","type":"server_error"}}`},
		{"no choices", `{"id":"chatcmpl-1","object":"chat.completion","choices":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c openai.ChatCompletion
			if err := json.Unmarshal([]byte(tt.body), &c); err != nil {
				t.Fatal(err)
			}
			_, want := rtopenai.ChatCalls([]byte(tt.body))
			if want == nil {
				t.Fatalf("runtime/openai takes %s", tt.body)
			}
			if calls, err := toolopenai.ChatCalls(&c); err == nil || err.Error() != want.Error() {
				t.Errorf("ChatCalls = %q, %v; want runtime/openai's error %v", calls, err, want)
			}
			var providers []string
			var echoed int
			if answers, err := toolopenai.RunChat(t.Context(), testTools(&providers, &echoed), &c); err == nil || answers != nil || echoed != 0 {
				t.Errorf("RunChat = %v, %v, echo ran %d times; want an error and no call run", answers, err, echoed)
			}
		})
	}
	if _, err := toolopenai.ChatCalls(nil); err == nil {
		t.Error("ChatCalls(nil) takes no completion for a turn without calls")
	}
	if _, err := toolopenai.AccumulatorCalls(nil); err == nil {
		t.Error("AccumulatorCalls(nil) takes no accumulator for a turn without calls")
	}
}

// TestAccumulatorRefusals: every stream runtime/openai's ChatStream refuses, whose
// chunks the SDK's accumulator took, AccumulatorCalls and RunAccumulator refuse too,
// ChatCalls refuses the completion the accumulator assembled, and no call runs.
func TestAccumulatorRefusals(t *testing.T) {
	paris := call{"call_01", "get_weather", `{"city":"Paris"}`}
	tests := []struct {
		name   string
		chunks []string
	}{
		{"a stream that did not finish", chatChunks([]call{paris, {"call_02", "echo", `{"input":"hi"}`}}, "")},
		{"cut by the token limit", chatChunks([]call{paris, {"call_02", "echo", `{"input":"hi"}`}}, "length")},
		{"cut by the content filter", chatChunks([]call{paris}, "content_filter")},
		{"arguments that are not complete JSON", chatChunks([]call{paris, {"call_02", "echo", `{"input":"h`}}, "tool_calls")},
		{"two calls with one id", chatChunks([]call{paris, {"call_01", "echo", `{"input":"hi"}`}}, "tool_calls")},
		{"no chunk at all", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var acc openai.ChatCompletionAccumulator
			var ours rtopenai.ChatStream
			var addErr error
			for _, data := range tt.chunks {
				if data == "[DONE]" {
					continue
				}
				var chunk openai.ChatCompletionChunk
				if err := json.Unmarshal([]byte(data), &chunk); err != nil {
					t.Fatal(err)
				}
				if !acc.AddChunk(chunk) {
					t.Fatalf("the SDK's accumulator rejects %s", data)
				}
				if err := ours.Add([]byte(data)); err != nil && addErr == nil {
					addErr = err
				}
			}
			if calls, err := ours.Calls(); err == nil {
				t.Fatalf("runtime/openai's ChatStream takes the stream: %q", calls)
			}
			if calls, err := toolopenai.AccumulatorCalls(&acc); err == nil {
				t.Errorf("AccumulatorCalls = %q, want an error", calls)
			} else {
				t.Log(err)
			}
			if calls, err := toolopenai.ChatCalls(&acc.ChatCompletion); err == nil {
				t.Errorf("ChatCalls of the accumulated completion = %q, want an error", calls)
			}
			var providers []string
			var echoed int
			if answers, err := toolopenai.RunAccumulator(t.Context(), testTools(&providers, &echoed), &acc); err == nil || answers != nil || len(providers) != 0 {
				t.Errorf("RunAccumulator = %v, %v, calls run %q; want an error and no call run", answers, err, providers)
			}
		})
	}
}

// TestChatTools: the tool params are runtime/openai's definitions, strict for the
// generated tools, which ask for it, and not for the hand-written tool, which does not.
func TestChatTools(t *testing.T) {
	var echoed int
	ts := runtime.Join(forecast.Tools(), echoTools(&echoed))
	got := toolopenai.ChatTools(ts)
	if !sameJSON([]byte(mustJSON(got)), []byte(mustJSON(rtopenai.ChatTools(ts)))) {
		t.Errorf("ChatTools = %s\nwant %s", mustJSON(got), mustJSON(rtopenai.ChatTools(ts)))
	}
	strict := map[string]bool{}
	for _, tool := range got {
		strict[tool.OfFunction.Function.Name] = tool.OfFunction.Function.Strict.Value
	}
	if !strict["get_weather"] || !strict["hello_world"] || strict["echo"] || len(strict) != 3 {
		t.Errorf("strict flags %v, want get_weather and hello_world strict, echo not", strict)
	}
	if len(toolopenai.ChatTools(nil)) != 0 || len(toolopenai.ResponsesTools(nil)) != 0 {
		t.Error("a nil Toolset has tools")
	}
}
