package toolopenai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/toolgen/toolgen/runtime"
	rtopenai "github.com/toolgen/toolgen/runtime/openai"
)

// ChatTools returns the Chat Completions tool params of the tools of ts, sorted by
// name: the definitions runtime/openai.ChatTools gives (strict where the tool's
// schema meets strict mode), as the SDK's function tool params. A nil ts has no tools.
func ChatTools(ts *runtime.Toolset) []openai.ChatCompletionToolUnionParam {
	defs := rtopenai.ChatTools(ts)
	out := make([]openai.ChatCompletionToolUnionParam, len(defs))
	for i, d := range defs {
		f := shared.FunctionDefinitionParam{Name: d.Function.Name, Strict: openai.Bool(d.Function.Strict)}
		if d.Function.Description != "" {
			f.Description = openai.String(d.Function.Description)
		}
		if m, ok := schemaMap(d.Function.Parameters); ok {
			f.Parameters = m
		} else {
			f.SetExtraFields(map[string]any{"parameters": d.Function.Parameters})
		}
		out[i] = openai.ChatCompletionToolUnionParam{OfFunction: &openai.ChatCompletionFunctionToolParam{Function: f}}
	}
	return out
}

// schemaMap returns a JSON Schema object as the map the SDK's params take, each
// keyword's value kept as the JSON text it was (so the order of properties stays), and
// whether the schema is an object at all.
func schemaMap(schema json.RawMessage) (map[string]any, bool) {
	var kw map[string]json.RawMessage
	if json.Unmarshal(schema, &kw) != nil || kw == nil {
		return nil, false
	}
	m := make(map[string]any, len(kw))
	for k, v := range kw {
		m[k] = v
	}
	return m, true
}

// ChatCalls returns the tool calls of a chat completion, in order, as
// runtime/openai.ChatCalls reads them from its JSON, with every refusal of that
// function: a completion cut short with calls in it (finish_reason "length" or
// "content_filter"), two calls with one id, a call without an id or a name and a call
// of a type that cannot be answered are errors. A call whose arguments are malformed
// is returned as it came, for the Toolset to answer with its argument error.
//
// The JSON read is the body the SDK received (c.RawJSON), so nothing depends on how
// the SDK's types encode again. A completion the SDK did not decode from a body, such
// as the one a ChatCompletionAccumulator assembles, is read as AccumulatorCalls reads
// it: as a stream, which must have finished.
func ChatCalls(c *openai.ChatCompletion) ([]runtime.ToolCall, error) {
	if c == nil {
		return nil, errors.New("toolopenai: no chat completion")
	}
	if raw := c.RawJSON(); raw != "" {
		return rtopenai.ChatCalls([]byte(raw))
	}
	return streamCalls(c)
}

// AccumulatorCalls returns the tool calls of a streamed chat completion that
// acc accumulated, in order, as runtime/openai.ChatStream reads them from the stream,
// with every refusal of ChatStream.Calls: a stream that has not finished (no
// finish_reason: it was cut off, or is still running), one cut short with calls
// (finish_reason "length" or "content_filter"), a call without an id or a name, two
// calls with one id, a call that is not a function call and arguments that are not
// complete JSON are errors. Arguments that are complete JSON but wrong are returned
// as they came, for the Toolset to answer with its argument error.
func AccumulatorCalls(acc *openai.ChatCompletionAccumulator) ([]runtime.ToolCall, error) {
	if acc == nil {
		return nil, errors.New("toolopenai: no chat completion accumulator")
	}
	return streamCalls(&acc.ChatCompletion)
}

// streamCalls reads the calls of a completion assembled from a stream: its first
// choice's tool calls and finish reason go to a runtime/openai ChatStream as one
// chunk, whose Calls applies the rules of a stream.
func streamCalls(c *openai.ChatCompletion) ([]runtime.ToolCall, error) {
	type function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	}
	type toolCall struct {
		Index    int      `json:"index"`
		ID       string   `json:"id,omitempty"`
		Type     string   `json:"type,omitempty"`
		Function function `json:"function"`
	}
	type choice struct {
		Index int64 `json:"index"`
		Delta struct {
			ToolCalls []toolCall `json:"tool_calls,omitempty"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	}
	var s rtopenai.ChatStream
	if len(c.Choices) > 0 {
		chunk := struct {
			ID      string   `json:"id"`
			Object  string   `json:"object"`
			Choices []choice `json:"choices"`
		}{ID: c.ID, Object: "chat.completion.chunk"}
		for _, ch := range c.Choices {
			out := choice{Index: ch.Index, FinishReason: ch.FinishReason}
			for i, tc := range ch.Message.ToolCalls {
				out.Delta.ToolCalls = append(out.Delta.ToolCalls, toolCall{Index: i, ID: tc.ID, Type: tc.Type,
					Function: function{Name: tc.Function.Name, Arguments: tc.Function.Arguments}})
			}
			chunk.Choices = append(chunk.Choices, out)
		}
		data, err := json.Marshal(chunk)
		if err != nil {
			return nil, err
		}
		if err := s.Add(data); err != nil {
			return nil, fmt.Errorf("the accumulated chat completion: %w", err)
		}
	}
	calls, err := s.Calls()
	if err != nil {
		return nil, fmt.Errorf("the accumulated chat completion: %w", err)
	}
	return calls, nil
}

// ChatAnswers returns the tool messages that answer results, one per result, in order,
// to append to the conversation after the assistant message that made the calls
// (its ToParam). Each holds what runtime/openai.ChatToolMessages gives: the result's
// text for the model, or its error message.
func ChatAnswers(results []runtime.CallResult) []openai.ChatCompletionMessageParamUnion {
	msgs := rtopenai.ChatToolMessages(results)
	out := make([]openai.ChatCompletionMessageParamUnion, len(msgs))
	for i, m := range msgs {
		out[i] = openai.ToolMessage(m.Content, m.ToolCallID)
	}
	return out
}

// RunChat runs the tool calls of a chat completion with ts and returns the tool
// messages that answer them, in the calls' order; none when the model called no tool.
// The calls are read by ChatCalls and run by runtime.Toolset.RunCalls: in parallel,
// bounded, every call answered exactly once, observers and approvers told they come
// from provider "openai". The error is about the completion only: failed calls are
// answered with their error.
func RunChat(ctx context.Context, ts *runtime.Toolset, c *openai.ChatCompletion) ([]openai.ChatCompletionMessageParamUnion, error) {
	calls, err := ChatCalls(c)
	if err != nil || len(calls) == 0 {
		return nil, err
	}
	return ChatAnswers(run(ctx, ts, rtopenai.Chat{}.Name(), calls)), nil
}

// RunAccumulator runs the tool calls of the streamed chat completion acc accumulated,
// read by AccumulatorCalls, as RunChat does. Append acc.Choices[0].Message.ToParam()
// and then the answers.
func RunAccumulator(ctx context.Context, ts *runtime.Toolset, acc *openai.ChatCompletionAccumulator) ([]openai.ChatCompletionMessageParamUnion, error) {
	calls, err := AccumulatorCalls(acc)
	if err != nil || len(calls) == 0 {
		return nil, err
	}
	return ChatAnswers(run(ctx, ts, rtopenai.Chat{}.Name(), calls)), nil
}

// run runs calls with ts, telling observers and approvers which provider they come
// from, as runtime/openai's Run functions do.
func run(ctx context.Context, ts *runtime.Toolset, provider string, calls []runtime.ToolCall) []runtime.CallResult {
	ctx = runtime.ContextWithCall(ctx, runtime.CallInfo{Provider: provider})
	return ts.RunCalls(ctx, calls, 0)
}
