package interop_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen/toolgen/examples/payments/checkout"
	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/dialect"
	rtopenai "github.com/toolgen/toolgen/runtime/openai"
	"github.com/toolgen/toolgen/tooltest"
)

const responsesPath = "/v1/responses"

// reasoningItem is the reasoning output item of the turn with calls. The requests are
// stateless (store: false), so the API wants it back, encrypted content and all, right
// before the calls it led to.
var reasoningItem = map[string]any{"type": "reasoning", "id": "rs_01", "summary": []any{},
	"encrypted_content": "gAAAAABpZ2VuY3J5cHRlZC1yZWFzb25pbmc="}

// responsesItem is what the fake API reads of an input item.
type responsesItem struct {
	Type             string          `json:"type"`
	Role             string          `json:"role"`
	ID               string          `json:"id"`
	CallID           string          `json:"call_id"`
	Name             string          `json:"name"`
	Arguments        string          `json:"arguments"`
	Content          json.RawMessage `json:"content"`
	Output           json.RawMessage `json:"output"`
	EncryptedContent string          `json:"encrypted_content"`
}

// checkResponses returns the check of a Responses request in scenario s over ts, which
// tooltest has found valid: the tools offered, flat, as the adapter lowers them, and
// the input so far, which after the calls (followUp) must hold the reasoning item and
// the function_call items as they came, then their function_call_output items.
func checkResponses(ts *runtime.Toolset, s scenario, stream, followUp bool) func(*tooltest.Request) error {
	return func(r *tooltest.Request) error {
		var req struct {
			Model string          `json:"model"`
			Input json.RawMessage `json:"input"`
			Tools []struct {
				Type        string          `json:"type"`
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Strict      *bool           `json:"strict"`
				Parameters  json.RawMessage `json:"parameters"`
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
			if t.Type != "function" || t.Strict == nil {
				return fmt.Errorf("tool %q of type %q, strict %v: want a function with strict sent", t.Name, t.Type, t.Strict)
			}
			sent = append(sent, sentTool{t.Name, t.Description, *t.Strict, t.Parameters})
		}
		if err := checkTools(ts, sent, func(t *runtime.Tool) dialect.Lowered { l, _ := dialect.OpenAI(t.InputSchema, t.Strict); return l }); err != nil {
			return err
		}
		var items []responsesItem
		if json.Unmarshal(req.Input, &items) != nil {
			if followUp || asText(req.Input) != s.prompt {
				return fmt.Errorf("input %s, want the prompt", req.Input)
			}
			return nil
		}
		if len(items) == 0 || items[0].Role != "user" || items[0].Type != "" && items[0].Type != "message" || contentText(items[0].Content) != s.prompt {
			return errors.New("the input does not start with the user's prompt")
		}
		if !followUp {
			if len(items) != 1 {
				return fmt.Errorf("%d input items, want the prompt alone", len(items))
			}
			return nil
		}
		n := len(s.calls)
		if len(items) != 2+2*n {
			return fmt.Errorf("%d input items, want the prompt, the reasoning item, %d function calls and their outputs", len(items), n)
		}
		if r := items[1]; r.Type != "reasoning" || r.ID != reasoningItem["id"] || r.EncryptedContent != reasoningItem["encrypted_content"] {
			return fmt.Errorf("input item 1 is %+v, want the reasoning item as it came", r)
		}
		for i, c := range s.calls {
			if it := items[2+i]; it.Type != "function_call" || it.ID != callID("fc_", i) || it.CallID != callID("call_", i) ||
				it.Name != c.name || it.Arguments != c.args {
				return fmt.Errorf("input item %d is %+v, want function call %d as it came", 2+i, it, i)
			}
		}
		for _, it := range items[2+n:] {
			if it.Type != "function_call_output" {
				return fmt.Errorf("input item %+v after the calls, want a function_call_output", it)
			}
		}
		return s.checkTurn(r, "call_", false)
	}
}

// responsesCallItems returns the scenario's calls as function_call output items.
func responsesCallItems(s scenario) []any {
	items := []any{reasoningItem}
	for i, c := range s.calls {
		items = append(items, map[string]any{"type": "function_call", "id": callID("fc_", i), "call_id": callID("call_", i),
			"name": c.name, "arguments": c.args, "status": "completed"})
	}
	return items
}

// responsesMessage returns an assistant message output item saying text.
func responsesMessage(text string) map[string]any {
	return map[string]any{"type": "message", "id": "msg_01", "status": "completed", "role": "assistant",
		"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}, "logprobs": []any{}}}}
}

// responsesObject returns a response object with the given status and output items.
func responsesObject(status string, output []any) map[string]any {
	return map[string]any{
		"id": "resp_01", "object": "response", "created_at": 1767225600, "status": status, "error": nil,
		"incomplete_details": nil, "model": "gpt-5-2025-08-07", "output": output, "parallel_tool_calls": true,
		"tool_choice": "auto", "tools": []any{}, "store": false, "temperature": 1.0, "top_p": 1.0,
		"usage": map[string]any{"input_tokens": 120, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 60, "output_tokens_details": map[string]any{"reasoning_tokens": 20}, "total_tokens": 180},
	}
}

func responsesCallsReply(s scenario) string {
	return mustJSON(responsesObject("completed", responsesCallItems(s)))
}
func responsesTextReply(s scenario) string {
	return mustJSON(responsesObject("completed", []any{responsesMessage(s.final)}))
}

// responsesEvents returns the events that stream a response of the given output items,
// as the API sends them: response.created, each item added, its arguments or text in
// deltas, each item done, and response.completed with the whole response.
func responsesEvents(output []any) []tooltest.Event {
	var events []tooltest.Event
	emit := func(typ string, fields map[string]any) {
		fields["type"], fields["sequence_number"] = typ, len(events)
		events = append(events, tooltest.Event{Name: typ, Data: mustJSON(fields)})
	}
	emit("response.created", map[string]any{"response": responsesObject("in_progress", []any{})})
	for i, v := range output {
		item := v.(map[string]any)
		started := map[string]any{}
		for k, v := range item {
			started[k] = v
		}
		switch item["type"] {
		case "function_call":
			started["arguments"], started["status"] = "", "in_progress"
			emit("response.output_item.added", map[string]any{"output_index": i, "item": started})
			args := item["arguments"].(string)
			for _, piece := range []string{args[:len(args)/2], args[len(args)/2:]} {
				emit("response.function_call_arguments.delta", map[string]any{"item_id": item["id"], "output_index": i, "delta": piece})
			}
			emit("response.function_call_arguments.done", map[string]any{"item_id": item["id"], "output_index": i, "name": item["name"], "arguments": args})
		case "message":
			started["content"], started["status"] = []any{}, "in_progress"
			emit("response.output_item.added", map[string]any{"output_index": i, "item": started})
			part := map[string]any{"type": "output_text", "text": "", "annotations": []any{}, "logprobs": []any{}}
			emit("response.content_part.added", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "part": part})
			full := item["content"].([]any)[0].(map[string]any)["text"].(string)
			for piece := range strings.SplitAfterSeq(full, " ") {
				emit("response.output_text.delta", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "delta": piece, "logprobs": []any{}})
			}
			emit("response.output_text.done", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "text": full, "logprobs": []any{}})
			emit("response.content_part.done", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "part": item["content"].([]any)[0]})
		default:
			emit("response.output_item.added", map[string]any{"output_index": i, "item": started})
		}
		emit("response.output_item.done", map[string]any{"output_index": i, "item": item})
	}
	emit("response.completed", map[string]any{"response": responsesObject("completed", output)})
	return events
}

// echoOutput returns the output items of a Responses body as input items for the
// next request. The SDK has no converter from its output items to input params, but
// every output item is a valid input item: the input param union takes the output
// array as it came, reasoning items and their encrypted content included.
func echoOutput(t *testing.T, body []byte) responses.ResponseInputParam {
	t.Helper()
	var resp struct {
		Output json.RawMessage `json:"output"`
	}
	var items responses.ResponseInputParam
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(resp.Output, &items); err != nil {
		t.Fatalf("the SDK's input params do not take the output items %s: %v", resp.Output, err)
	}
	return items
}

// sdkResponsesCalls returns the function calls of an SDK response, as the SDK parsed
// them.
func sdkResponsesCalls(resp *responses.Response) []runtime.ToolCall {
	var out []runtime.ToolCall
	for _, item := range resp.Output {
		if item.Type == "function_call" {
			fc := item.AsFunctionCall()
			out = append(out, runtime.ToolCall{ID: fc.CallID, Name: fc.Name, Arguments: []byte(fc.Arguments)})
		}
	}
	return out
}

// responsesParams returns the stateless request of scenario s offering the tools of
// ts, converted into the SDK's tool params by a JSON round trip.
func responsesParams(t *testing.T, ts *runtime.Toolset, s scenario) responses.ResponseNewParams {
	var tools []responses.ToolUnionParam
	roundTrip(t, rtopenai.ResponsesTools(ts), &tools)
	return responses.ResponseNewParams{
		Model: openai.ChatModelGPT5,
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{
			responses.ResponseInputItemParamOfMessage(s.prompt, responses.EasyInputMessageRoleUser)}},
		Tools:   tools,
		Store:   openai.Bool(false),
		Include: []responses.ResponseIncludable{responses.ResponseIncludableReasoningEncryptedContent},
	}
}

// TestOpenAIResponsesSDK runs the weather scenario through the SDK's Responses client,
// statelessly: each request carries the whole conversation.
func TestOpenAIResponsesSDK(t *testing.T) {
	t.Run("weather", func(t *testing.T) { sdkOpenAIResponsesSDK(t, forecast.Tools(), weather) })
	t.Run("payments", func(t *testing.T) { sdkOpenAIResponsesSDK(t, checkout.ShopTools(checkout.New()), payments) })
}

// sdkOpenAIResponsesSDK runs scenario s over ts through the SDK.
func sdkOpenAIResponsesSDK(t *testing.T, ts *runtime.Toolset, s scenario) {
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: responsesPath, Check: checkResponses(ts, s, false, false), Reply: responsesCallsReply(s)},
		tooltest.Round{Path: responsesPath, Check: checkResponses(ts, s, false, true), Reply: responsesTextReply(s)},
	)
	client, ctx := newOpenAI(srv), t.Context()
	params := responsesParams(t, ts, s)
	resp, err := client.Responses.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}

	// As for Chat Completions, the adapter reads the body the SDK kept (RawJSON).
	calls, err := rtopenai.ResponsesCalls([]byte(resp.RawJSON()))
	if err != nil {
		t.Fatal(err)
	}
	sameCalls(t, "adapter", calls, s.toolCalls("call_"))
	sameCalls(t, "SDK", sdkResponsesCalls(resp), calls)
	results := ts.RunCalls(ctx, calls, 0)

	var outputs responses.ResponseInputParam
	roundTrip(t, rtopenai.ResponsesOutputs(results), &outputs)
	params.Input.OfInputItemList = append(params.Input.OfInputItemList, echoOutput(t, []byte(resp.RawJSON()))...)
	params.Input.OfInputItemList = append(params.Input.OfInputItemList, outputs...)
	final, err := client.Responses.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got := final.OutputText(); got != s.final {
		t.Errorf("final text %q, want %q", got, s.final)
	}
}

// TestOpenAIResponsesSDKStream runs the weather scenario through the SDK's streaming
// Responses client, feeding each event the SDK decodes to the adapter's
// ResponsesStream. The SDK has no accumulator for Responses streams: the calls are
// compared with those of the response that its response.completed event carries.
func TestOpenAIResponsesSDKStream(t *testing.T) {
	ts, s := forecast.Tools(), weather
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: responsesPath, Check: checkResponses(ts, s, true, false), Events: responsesEvents(responsesCallItems(s))},
		tooltest.Round{Path: responsesPath, Check: checkResponses(ts, s, true, true), Events: responsesEvents([]any{responsesMessage(s.final)})},
	)
	client, ctx := newOpenAI(srv), t.Context()
	params := responsesParams(t, ts, s)
	stream := func() (*rtopenai.ResponsesStream, *responses.Response) {
		t.Helper()
		var ours rtopenai.ResponsesStream
		var completed *responses.Response
		st := client.Responses.NewStreaming(ctx, params)
		defer st.Close()
		for st.Next() {
			ev := st.Current()
			if err := ours.Add([]byte(ev.RawJSON())); err != nil {
				t.Fatal(err)
			}
			if ev.Type == "response.completed" {
				done := ev.AsResponseCompleted()
				completed = &done.Response
			}
		}
		if err := st.Err(); err != nil {
			t.Fatal(err)
		}
		if completed == nil || !ours.Completed() {
			t.Fatal("the stream did not complete")
		}
		return &ours, completed
	}

	ours, completed := stream()
	calls, err := ours.Calls()
	if err != nil {
		t.Fatal(err)
	}
	sameCalls(t, "adapter", calls, s.toolCalls("call_"))
	sameCalls(t, "SDK", sdkResponsesCalls(completed), calls)
	results := ts.RunCalls(ctx, calls, 0)

	// The output items go back as the adapter assembled them (ResponsesStream.Response).
	body, err := ours.Response()
	if err != nil {
		t.Fatal(err)
	}
	var outputs responses.ResponseInputParam
	roundTrip(t, rtopenai.ResponsesOutputs(results), &outputs)
	params.Input.OfInputItemList = append(params.Input.OfInputItemList, echoOutput(t, body)...)
	params.Input.OfInputItemList = append(params.Input.OfInputItemList, outputs...)

	final, completed := stream()
	if got := final.Text(); got != s.final || completed.OutputText() != s.final {
		t.Errorf("final text %q, SDK %q; want %q", got, completed.OutputText(), s.final)
	}
}

// TestOpenAIResponsesLoop runs the banking scenario in a loop.Loop whose SendFunc
// posts the raw body through the SDK client, as TestOpenAIChatLoop does.
func TestOpenAIResponsesLoop(t *testing.T) {
	ts, s := bankTools(), banking
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: responsesPath, Check: checkResponses(ts, s, false, false), Reply: responsesCallsReply(s)},
		tooltest.Round{Path: responsesPath, Check: checkResponses(ts, s, false, true), Reply: responsesTextReply(s)},
	)
	client := newOpenAI(srv)
	send := func(ctx context.Context, body []byte) ([]byte, error) {
		var out []byte
		err := client.Post(ctx, "responses", body, &out)
		return out, err
	}
	final := runLoop(t, rtopenai.Responses{}, send, mustJSON(map[string]any{
		"model": "gpt-5", "input": s.prompt, "store": false, "include": []string{"reasoning.encrypted_content"}}))
	var resp responses.Response
	if err := json.Unmarshal(final, &resp); err != nil || resp.OutputText() != s.final {
		t.Errorf("final response %s (%v), want the text %q", final, err, s.final)
	}
}
