package interop_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/toolgen/toolgen/examples/payments/checkout"
	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	rtanthropic "github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/dialect"
	"github.com/toolgen/toolgen/tooltest"
)

// newAnthropic returns an SDK client of the fake API. The SDK's base URL is the host
// alone (https://api.anthropic.com/): its paths start with /v1. The client reads no
// credentials, profiles or base URL from the environment.
func newAnthropic(srv *httptest.Server) anthropic.Client {
	return anthropic.NewClient(option.WithoutEnvironmentDefaults(), option.WithBaseURL(srv.URL),
		option.WithAPIKey(apiKey), option.WithMaxRetries(0))
}

const (
	messagesPath   = "/v1/messages"
	anthropicModel = anthropic.Model("claude-sonnet-4-5")
	anthropicIntro = "Let me look that up."
)

// anthropicBlock is a content block of an assistant turn.
type anthropicBlock struct {
	Type  string          `json:"type"`
	Text  string          `json:"text,omitempty"`
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
}

// checkMessages returns the check of a Messages request in scenario s over ts, which
// tooltest has found valid: the tools offered as the adapter lowers them, and the
// conversation so far, which after the calls (followUp) must hold the assistant turn
// as it came, then the user message of tool_result blocks answering them, failed calls
// with is_error.
func checkMessages(ts *runtime.Toolset, s scenario, stream, followUp bool) func(*tooltest.Request) error {
	return func(r *tooltest.Request) error {
		var req struct {
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
			Tools []struct {
				Type        string          `json:"type"`
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Strict      bool            `json:"strict"`
				InputSchema json.RawMessage `json:"input_schema"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(r.Body, &req); err != nil {
			return err
		}
		if r.Stream != stream {
			return fmt.Errorf("stream %v, want %v", r.Stream, stream)
		}
		var sent []sentTool
		for _, t := range req.Tools {
			if t.Type != "" && t.Type != "custom" {
				return fmt.Errorf("tool %q of type %q", t.Name, t.Type)
			}
			sent = append(sent, sentTool{t.Name, t.Description, t.Strict, t.InputSchema})
		}
		if err := checkTools(ts, sent, func(t *runtime.Tool) dialect.Lowered { l, _ := dialect.Anthropic(t.InputSchema, t.Strict); return l }); err != nil {
			return err
		}
		msgs := req.Messages
		if len(msgs) == 0 || msgs[0].Role != "user" || contentText(msgs[0].Content) != s.prompt {
			return errors.New("the conversation does not start with the user's prompt")
		}
		if !followUp {
			if len(msgs) != 1 {
				return fmt.Errorf("%d messages, want the prompt alone", len(msgs))
			}
			return nil
		}
		if len(msgs) != 3 || msgs[1].Role != "assistant" || msgs[2].Role != "user" {
			return fmt.Errorf("%d messages, want the prompt, the assistant's turn and the user's answers", len(msgs))
		}
		var turn []anthropicBlock
		if err := json.Unmarshal(msgs[1].Content, &turn); err != nil {
			return fmt.Errorf("assistant content: %v", err)
		}
		if want := messagesBlocks(s); !sameBlocks(turn, want) {
			return fmt.Errorf("the assistant turn is %+v, want it as it came: %+v", turn, want)
		}
		return s.checkTurn(r, "toolu_", true)
	}
}

// messagesBlocks returns the content of the assistant turn with the scenario's calls:
// a text block, then one tool_use block per call.
func messagesBlocks(s scenario) []anthropicBlock {
	blocks := []anthropicBlock{{Type: "text", Text: anthropicIntro}}
	for i, c := range s.calls {
		blocks = append(blocks, anthropicBlock{Type: "tool_use", ID: callID("toolu_", i), Name: c.name, Input: json.RawMessage(c.args)})
	}
	return blocks
}

// sameBlocks reports whether got holds the blocks of want, inputs compared as JSON
// values.
func sameBlocks(got, want []anthropicBlock) bool {
	if len(got) != len(want) {
		return false
	}
	for i, g := range got {
		w := want[i]
		if g.Type != w.Type || g.Text != w.Text || g.ID != w.ID || g.Name != w.Name {
			return false
		}
		if w.Input == nil && g.Input != nil || w.Input != nil && !jsonEqual(g.Input, w.Input) {
			return false
		}
	}
	return true
}

// messagesObject returns a message with the given content blocks and stop reason.
func messagesObject(content any, stop any) map[string]any {
	return map[string]any{"id": "msg_01", "type": "message", "role": "assistant", "model": string(anthropicModel),
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 120, "output_tokens": 60, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}
}

func messagesCallsReply(s scenario) string {
	return mustJSON(messagesObject(messagesBlocks(s), "tool_use"))
}

func messagesTextReply(s scenario) string {
	return mustJSON(messagesObject([]anthropicBlock{{Type: "text", Text: s.final}}, "end_turn"))
}

// messagesEvents returns the events that stream a message of the given blocks, as the
// API sends them: message_start, a ping, each block started, its text or input in
// deltas and stopped, message_delta with the stop reason, message_stop.
func messagesEvents(blocks []anthropicBlock, stop string) []tooltest.Event {
	var events []tooltest.Event
	emit := func(typ string, fields map[string]any) {
		fields["type"] = typ
		events = append(events, tooltest.Event{Name: typ, Data: mustJSON(fields)})
	}
	emit("message_start", map[string]any{"message": messagesObject([]any{}, nil)})
	emit("ping", map[string]any{})
	for i, b := range blocks {
		switch b.Type {
		case "text":
			emit("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			for piece := range strings.SplitAfterSeq(b.Text, " ") {
				emit("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "text_delta", "text": piece}})
			}
		case "tool_use":
			emit("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{}}})
			half := len(b.Input) / 2
			for _, piece := range []json.RawMessage{b.Input[:half], b.Input[half:]} {
				emit("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(piece)}})
			}
		}
		emit("content_block_stop", map[string]any{"index": i})
	}
	emit("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 60}})
	emit("message_stop", map[string]any{})
	return events
}

// sdkMessageCalls returns the tool_use blocks of an SDK message, as the SDK parsed them.
func sdkMessageCalls(m *anthropic.Message) []runtime.ToolCall {
	var out []runtime.ToolCall
	for _, b := range m.Content {
		if b.Type == "tool_use" {
			u := b.AsToolUse()
			out = append(out, runtime.ToolCall{ID: u.ID, Name: u.Name, Arguments: u.Input})
		}
	}
	return out
}

// messagesParams returns the request of scenario s offering the tools of ts, converted
// into the SDK's tool params by a JSON round trip.
func messagesParams(t *testing.T, ts *runtime.Toolset, s scenario) anthropic.MessageNewParams {
	var tools []anthropic.ToolUnionParam
	roundTrip(t, rtanthropic.Tools(ts), &tools)
	return anthropic.MessageNewParams{
		Model:     anthropicModel,
		MaxTokens: 1024,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(s.prompt))},
		Tools:     tools,
	}
}

// TestAnthropicSDK runs the weather scenario through the SDK's Messages client.
func TestAnthropicSDK(t *testing.T) {
	t.Run("weather", func(t *testing.T) { sdkAnthropicSDK(t, forecast.Tools(), weather) })
	t.Run("payments", func(t *testing.T) { sdkAnthropicSDK(t, checkout.ShopTools(checkout.New()), payments) })
}

// sdkAnthropicSDK runs scenario s over ts through the SDK.
func sdkAnthropicSDK(t *testing.T, ts *runtime.Toolset, s scenario) {
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: messagesPath, Check: checkMessages(ts, s, false, false), Reply: messagesCallsReply(s)},
		tooltest.Round{Path: messagesPath, Check: checkMessages(ts, s, false, true), Reply: messagesTextReply(s)},
	)
	client, ctx := newAnthropic(srv), t.Context()
	params := messagesParams(t, ts, s)
	msg, err := client.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}

	// The SDK keeps every response's body as it came (RawJSON), which the adapter reads.
	calls, err := rtanthropic.Calls([]byte(msg.RawJSON()))
	if err != nil {
		t.Fatal(err)
	}
	sameCalls(t, "adapter", calls, s.toolCalls("toolu_"))
	sameCalls(t, "SDK", sdkMessageCalls(msg), calls)
	results := ts.RunCalls(ctx, calls, 0)

	// The assistant turn goes back as the SDK's own param (Message.ToParam); the answers
	// are the adapter's user message, round-tripped into the SDK's message param.
	var answers anthropic.MessageParam
	roundTrip(t, rtanthropic.ToolResults(results), &answers)
	params.Messages = append(params.Messages, msg.ToParam(), answers)
	final, err := client.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if len(final.Content) != 1 || final.Content[0].Text != s.final {
		t.Errorf("final content %s, want the text %q", final.RawJSON(), s.final)
	}
}

// TestAnthropicSDKStream runs the weather scenario through the SDK's streaming Messages
// client, feeding each event the SDK decodes to the adapter's Stream as well as to the
// SDK's own accumulator (Message.Accumulate).
func TestAnthropicSDKStream(t *testing.T) {
	ts, s := forecast.Tools(), weather
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: messagesPath, Check: checkMessages(ts, s, true, false), Events: messagesEvents(messagesBlocks(s), "tool_use")},
		tooltest.Round{Path: messagesPath, Check: checkMessages(ts, s, true, true), Events: messagesEvents([]anthropicBlock{{Type: "text", Text: s.final}}, "end_turn")},
	)
	client, ctx := newAnthropic(srv), t.Context()
	params := messagesParams(t, ts, s)
	// stream reads one streamed message both ways. Each event's RawJSON is the data of
	// its SSE event and its Type the event's name, which is what Stream.Add takes.
	stream := func() (*rtanthropic.Stream, *anthropic.Message) {
		t.Helper()
		var ours rtanthropic.Stream
		var acc anthropic.Message
		st := client.Messages.NewStreaming(ctx, params)
		defer st.Close()
		for st.Next() {
			ev := st.Current()
			if err := acc.Accumulate(ev); err != nil {
				t.Fatalf("the SDK's accumulator: %v", err)
			}
			if err := ours.Add([]byte(ev.Type), []byte(ev.RawJSON())); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.Err(); err != nil {
			t.Fatal(err)
		}
		if !ours.Done() {
			t.Fatal("the adapter's stream is not done")
		}
		return &ours, &acc
	}

	ours, acc := stream()
	calls, err := ours.Calls()
	if err != nil {
		t.Fatal(err)
	}
	sameCalls(t, "adapter", calls, s.toolCalls("toolu_"))
	sameCalls(t, "SDK accumulator", sdkMessageCalls(acc), calls)
	results := ts.RunCalls(ctx, calls, 0)

	// The assistant turn is the adapter's, from the message it assembled
	// (Stream.Response, then AssistantMessage), round-tripped into the SDK's param.
	body, err := ours.Response()
	if err != nil {
		t.Fatal(err)
	}
	turn, err := rtanthropic.AssistantMessage(body)
	if err != nil {
		t.Fatal(err)
	}
	var assistant, answers anthropic.MessageParam
	roundTrip(t, turn, &assistant)
	roundTrip(t, rtanthropic.ToolResults(results), &answers)
	params.Messages = append(params.Messages, assistant, answers)

	final, acc := stream()
	body, err = final.Response()
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Content []anthropicBlock }
	if err := json.Unmarshal(body, &got); err != nil || len(got.Content) != 1 || got.Content[0].Text != s.final ||
		len(acc.Content) != 1 || acc.Content[0].Text != s.final {
		t.Errorf("final message %s, SDK's %+v; want the text %q", body, acc.Content, s.final)
	}
}

// TestAnthropicLoop runs the banking scenario in a loop.Loop whose SendFunc posts the
// raw body through the SDK client (Client.Post with a []byte body and result).
func TestAnthropicLoop(t *testing.T) {
	ts, s := bankTools(), banking
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: messagesPath, Check: checkMessages(ts, s, false, false), Reply: messagesCallsReply(s)},
		tooltest.Round{Path: messagesPath, Check: checkMessages(ts, s, false, true), Reply: messagesTextReply(s)},
	)
	client := newAnthropic(srv)
	send := func(ctx context.Context, body []byte) ([]byte, error) {
		var out []byte
		err := client.Post(ctx, "v1/messages", body, &out)
		return out, err
	}
	final := runLoop(t, rtanthropic.Messages{}, send, mustJSON(map[string]any{
		"model": anthropicModel, "max_tokens": 1024, "messages": []any{map[string]any{"role": "user", "content": s.prompt}}}))
	var msg anthropic.Message
	if err := json.Unmarshal(final, &msg); err != nil || len(msg.Content) != 1 || msg.Content[0].Text != s.final {
		t.Errorf("final response %s (%v), want the text %q", final, err, s.final)
	}
}
