package interop_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/toolgen/toolgen/examples/payments/checkout"
	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/dialect"
	rtopenai "github.com/toolgen/toolgen/runtime/openai"
	"github.com/toolgen/toolgen/tooltest"
)

// newOpenAI returns an SDK client of the fake API. The SDK's base URL ends in /v1, as
// the real one (https://api.openai.com/v1/) does, so its paths are the API's.
func newOpenAI(srv *httptest.Server) openai.Client {
	return openai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey(apiKey), option.WithMaxRetries(0))
}

const chatPath = "/v1/chat/completions"

// chatRequest is what the fake API reads of a Chat Completions request.
type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []chatToolCall  `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Type     string `json:"type"`
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Strict      bool            `json:"strict"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

type chatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// checkChat returns the check of a Chat Completions request in scenario s over ts,
// which tooltest has found valid: the tools offered as the adapter lowers them, and the
// conversation so far, which after the calls (followUp) must hold the assistant
// message that made them, unchanged, and then the tool messages answering them.
func checkChat(ts *runtime.Toolset, s scenario, stream, followUp bool) func(*tooltest.Request) error {
	return func(r *tooltest.Request) error {
		var req chatRequest
		if err := json.Unmarshal(r.Body, &req); err != nil {
			return err
		}
		if r.Stream != stream {
			return fmt.Errorf("stream %v, want %v", r.Stream, stream)
		}
		var sent []sentTool
		for _, t := range req.Tools {
			if t.Type != "function" {
				return fmt.Errorf("tool of type %q", t.Type)
			}
			f := t.Function
			sent = append(sent, sentTool{f.Name, f.Description, f.Strict, f.Parameters})
		}
		if err := checkTools(ts, sent, func(t *runtime.Tool) dialect.Lowered { l, _ := dialect.OpenAI(t.InputSchema, t.Strict); return l }); err != nil {
			return err
		}
		msgs := req.Messages
		if len(msgs) == 0 || msgs[0].Role != "user" || asText(msgs[0].Content) != s.prompt {
			return errors.New("the conversation does not start with the user's prompt")
		}
		if !followUp {
			if len(msgs) != 1 {
				return fmt.Errorf("%d messages, want the prompt alone", len(msgs))
			}
			return nil
		}
		if len(msgs) != 2+len(s.calls) {
			return fmt.Errorf("%d messages, want the prompt, the assistant's calls and %d tool messages", len(msgs), len(s.calls))
		}
		if msgs[1].Role != "assistant" || mustJSON(msgs[1].ToolCalls) != mustJSON(chatCalls(s)) {
			return fmt.Errorf("the assistant message is not the one that made the calls: %+v", msgs[1])
		}
		return s.checkTurn(r, "call_", false)
	}
}

// chatCalls returns the scenario's calls as an assistant message's tool_calls.
func chatCalls(s scenario) []chatToolCall {
	calls := make([]chatToolCall, len(s.calls))
	for i, c := range s.calls {
		calls[i].ID, calls[i].Type = callID("call_", i), "function"
		calls[i].Function.Name, calls[i].Function.Arguments = c.name, c.args
	}
	return calls
}

// chatReply returns a chat completion whose message has the given content or calls.
func chatReply(content any, calls []chatToolCall, finish string) string {
	message := map[string]any{"role": "assistant", "content": content, "refusal": nil, "annotations": []any{}}
	if calls != nil {
		message["tool_calls"] = calls
	}
	return mustJSON(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1767225600, "model": "gpt-5-2025-08-07",
		"choices":            []any{map[string]any{"index": 0, "message": message, "logprobs": nil, "finish_reason": finish}},
		"usage":              map[string]any{"prompt_tokens": 120, "completion_tokens": 60, "total_tokens": 180},
		"service_tier":       "default",
		"system_fingerprint": nil,
	})
}

func chatCallsReply(s scenario) string { return chatReply(nil, chatCalls(s), "tool_calls") }
func chatTextReply(s scenario) string  { return chatReply(s.final, nil, "stop") }

// chatChunks returns the chunks that stream a message with the given text and calls:
// a role chunk, text deltas, each call's id and name and then its arguments in two
// pieces, the finish reason, a usage chunk (stream_options.include_usage) and [DONE].
func chatChunks(text string, calls []chatToolCall, finish string) []tooltest.Event {
	var events []tooltest.Event
	chunk := func(delta map[string]any, finish any) {
		choices := []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}
		events = append(events, tooltest.Event{Data: mustJSON(map[string]any{"id": "chatcmpl-2", "object": "chat.completion.chunk",
			"created": 1767225600, "model": "gpt-5-2025-08-07", "system_fingerprint": nil, "choices": choices})})
	}
	chunk(map[string]any{"role": "assistant", "content": "", "refusal": nil}, nil)
	for piece := range strings.SplitSeq(text, " ") {
		if piece != "" {
			chunk(map[string]any{"content": piece + " "}, nil)
		}
	}
	for i, c := range calls {
		chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Function.Name, "arguments": ""}}}}, nil)
		half := len(c.Function.Arguments) / 2
		for _, piece := range []string{c.Function.Arguments[:half], c.Function.Arguments[half:]} {
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": piece}}}}, nil)
		}
	}
	chunk(map[string]any{}, finish)
	events = append(events,
		tooltest.Event{Data: `{"id":"chatcmpl-2","object":"chat.completion.chunk","created":1767225600,"model":"gpt-5-2025-08-07","choices":[],"usage":{"prompt_tokens":120,"completion_tokens":60,"total_tokens":180}}`},
		tooltest.Event{Data: "[DONE]"})
	return events
}

// sdkChatCalls returns the calls of an SDK message, as the SDK parsed them.
func sdkChatCalls(calls []openai.ChatCompletionMessageToolCallUnion) []runtime.ToolCall {
	var out []runtime.ToolCall
	for _, c := range calls {
		out = append(out, runtime.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: []byte(c.Function.Arguments)})
	}
	return out
}

// TestOpenAIChatSDK runs the weather scenario through the SDK's Chat Completions client.
func TestOpenAIChatSDK(t *testing.T) {
	t.Run("weather", func(t *testing.T) { sdkOpenAIChatSDK(t, forecast.Tools(), weather) })
	t.Run("payments", func(t *testing.T) { sdkOpenAIChatSDK(t, checkout.ShopTools(checkout.New()), payments) })
}

// sdkOpenAIChatSDK runs scenario s over ts through the SDK.
func sdkOpenAIChatSDK(t *testing.T, ts *runtime.Toolset, s scenario) {
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: chatPath, Check: checkChat(ts, s, false, false), Reply: chatCallsReply(s)},
		tooltest.Round{Path: chatPath, Check: checkChat(ts, s, false, true), Reply: chatTextReply(s)},
	)
	client, ctx := newOpenAI(srv), t.Context()

	// The adapter's tool definitions become the SDK's tool params by a JSON round trip.
	var tools []openai.ChatCompletionToolUnionParam
	roundTrip(t, rtopenai.ChatTools(ts), &tools)
	params := openai.ChatCompletionNewParams{
		Model:             openai.ChatModelGPT5,
		Messages:          []openai.ChatCompletionMessageParamUnion{openai.UserMessage(s.prompt)},
		Tools:             tools,
		ToolChoice:        openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("auto")},
		ParallelToolCalls: openai.Bool(true),
	}
	completion, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}

	// The SDK keeps every response's body as it came (RawJSON): the adapter reads the
	// calls from those bytes, so nothing depends on how the SDK's types re-encode them.
	calls, err := rtopenai.ChatCalls([]byte(completion.RawJSON()))
	if err != nil {
		t.Fatal(err)
	}
	sameCalls(t, "adapter", calls, s.toolCalls("call_"))
	sameCalls(t, "SDK", sdkChatCalls(completion.Choices[0].Message.ToolCalls), calls)
	results := ts.RunCalls(ctx, calls, 0)

	// The assistant message goes back as the SDK's own param; the answers are the
	// adapter's tool messages, round-tripped into the SDK's message params.
	var answers []openai.ChatCompletionMessageParamUnion
	roundTrip(t, rtopenai.ChatToolMessages(results), &answers)
	params.Messages = append(params.Messages, completion.Choices[0].Message.ToParam())
	params.Messages = append(params.Messages, answers...)
	final, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got := final.Choices[0].Message.Content; got != s.final {
		t.Errorf("final text %q, want %q", got, s.final)
	}
}

// TestOpenAIChatSDKStream runs the weather scenario through the SDK's streaming Chat
// Completions client, feeding each chunk the SDK decodes to the adapter's ChatStream as
// well as to the SDK's own ChatCompletionAccumulator.
func TestOpenAIChatSDKStream(t *testing.T) {
	ts, s := forecast.Tools(), weather
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: chatPath, Check: checkChat(ts, s, true, false), Events: chatChunks("Let me look.", chatCalls(s), "tool_calls")},
		tooltest.Round{Path: chatPath, Check: checkChat(ts, s, true, true), Events: chatChunks(s.final, nil, "stop")},
	)
	client, ctx := newOpenAI(srv), t.Context()

	var tools []openai.ChatCompletionToolUnionParam
	roundTrip(t, rtopenai.ChatTools(ts), &tools)
	params := openai.ChatCompletionNewParams{
		Model:         openai.ChatModelGPT5,
		Messages:      []openai.ChatCompletionMessageParamUnion{openai.UserMessage(s.prompt)},
		Tools:         tools,
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	// stream reads one streamed completion both ways. The SDK's stream hides the SSE
	// framing and ends at [DONE]; each chunk's RawJSON is the payload of its data line,
	// which is what ChatStream.Add takes.
	stream := func() (*rtopenai.ChatStream, openai.ChatCompletionAccumulator) {
		t.Helper()
		var ours rtopenai.ChatStream
		var acc openai.ChatCompletionAccumulator
		st := client.Chat.Completions.NewStreaming(ctx, params)
		defer st.Close()
		for st.Next() {
			chunk := st.Current()
			if !acc.AddChunk(chunk) {
				t.Fatalf("the SDK's accumulator rejects %s", chunk.RawJSON())
			}
			if err := ours.Add([]byte(chunk.RawJSON())); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.Err(); err != nil {
			t.Fatal(err)
		}
		return &ours, acc
	}

	ours, acc := stream()
	calls, err := ours.Calls()
	if err != nil {
		t.Fatal(err)
	}
	sameCalls(t, "adapter", calls, s.toolCalls("call_"))
	sameCalls(t, "SDK accumulator", sdkChatCalls(acc.Choices[0].Message.ToolCalls), calls)
	if ours.Text() != acc.Choices[0].Message.Content || ours.FinishReason() != acc.Choices[0].FinishReason {
		t.Errorf("adapter text %q (%s), SDK %q (%s)", ours.Text(), ours.FinishReason(), acc.Choices[0].Message.Content, acc.Choices[0].FinishReason)
	}
	results := ts.RunCalls(ctx, calls, 0)

	// The assistant message is the adapter's (ChatStream.Message), which the SDK's
	// params take by a JSON round trip, like the tool messages after it.
	msg, err := ours.Message()
	if err != nil {
		t.Fatal(err)
	}
	var assistant openai.ChatCompletionMessageParamUnion
	roundTrip(t, msg, &assistant)
	var answers []openai.ChatCompletionMessageParamUnion
	roundTrip(t, rtopenai.ChatToolMessages(results), &answers)
	params.Messages = append(params.Messages, assistant)
	params.Messages = append(params.Messages, answers...)

	final, acc := stream()
	if calls, err := final.Calls(); err != nil || len(calls) != 0 {
		t.Errorf("final stream: calls %v, %v; want none", calls, err)
	}
	if final.Text() != s.final+" " || acc.Choices[0].Message.Content != final.Text() {
		t.Errorf("final text %q, SDK %q; want %q", final.Text(), acc.Choices[0].Message.Content, s.final+" ")
	}
}

// TestOpenAIChatLoop runs the banking scenario in a loop.Loop whose SendFunc posts
// the raw body through the SDK client (Client.Post with a []byte body and result): the
// SDK's base URL, auth and transport with toolgen's request bodies.
func TestOpenAIChatLoop(t *testing.T) {
	ts, s := bankTools(), banking
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: chatPath, Check: checkChat(ts, s, false, false), Reply: chatCallsReply(s)},
		tooltest.Round{Path: chatPath, Check: checkChat(ts, s, false, true), Reply: chatTextReply(s)},
	)
	client := newOpenAI(srv)
	send := func(ctx context.Context, body []byte) ([]byte, error) {
		var out []byte
		err := client.Post(ctx, "chat/completions", body, &out)
		return out, err
	}
	final := runLoop(t, rtopenai.Chat{}, send, mustJSON(map[string]any{
		"model": "gpt-5", "messages": []any{map[string]any{"role": "user", "content": s.prompt}}}))
	var completion openai.ChatCompletion
	if err := json.Unmarshal(final, &completion); err != nil || completion.Choices[0].Message.Content != s.final {
		t.Errorf("final response %s (%v), want the text %q", final, err, s.final)
	}
}
