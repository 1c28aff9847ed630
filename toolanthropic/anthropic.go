package toolanthropic

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/toolgen/toolgen/runtime"
	rtanthropic "github.com/toolgen/toolgen/runtime/anthropic"
)

// Tools returns the tool params of the tools of ts, sorted by name: the definitions
// runtime/anthropic.Tools gives (strict where toolgen found the schema fit for strict
// mode), as the SDK's custom tool params, each input schema sent as runtime/anthropic
// sends it (its properties in their order). A nil ts has no tools. When ts defers
// tools (runtime.Toolset.WithDefer), those have DeferLoading set, and the API's BM25
// tool search tool comes first, as runtime/anthropic.Messages sends them.
func Tools(ts *runtime.Toolset) []anthropic.ToolUnionParam {
	if ts == nil {
		return nil // runtime/anthropic.Tools does not take a nil Toolset
	}
	defs := rtanthropic.Tools(ts)
	out := make([]anthropic.ToolUnionParam, 0, len(defs)+1)
	if ts.HasDeferred() {
		out = append(out, anthropic.ToolUnionParam{OfToolSearchToolBm25_20251119: &anthropic.ToolSearchToolBm25_20251119Param{
			Type: anthropic.ToolSearchToolBm25_20251119TypeToolSearchToolBm25_20251119,
		}})
	}
	for _, d := range defs {
		p := &anthropic.ToolParam{Name: d.Name}
		if d.DeferLoading {
			p.DeferLoading = anthropic.Bool(true)
		}
		if d.Description != "" {
			p.Description = anthropic.String(d.Description)
		}
		if d.Strict {
			p.Strict = anthropic.Bool(true)
		}
		extra := map[string]any{}
		if schema, ok := inputSchema(d.InputSchema); ok {
			p.InputSchema = schema
		} else {
			extra["input_schema"] = d.InputSchema
		}
		if examples, ok := inputExamples(d.InputExamples); ok {
			p.InputExamples = examples
		} else if len(d.InputExamples) > 0 {
			extra["input_examples"] = d.InputExamples
		}
		if len(extra) > 0 {
			p.SetExtraFields(extra)
		}
		out = append(out, anthropic.ToolUnionParam{OfTool: p})
	}
	return out
}

// inputExamples returns input examples as the SDK's InputExamples, each member's value
// kept as the JSON text it was (the SDK's encoder writes a json.Number as a string),
// and whether each is a JSON object, as the SDK's field takes them; otherwise they go
// as given, in the params' extra fields.
func inputExamples(examples []json.RawMessage) ([]map[string]any, bool) {
	if len(examples) == 0 {
		return nil, false
	}
	out := make([]map[string]any, len(examples))
	for i, ex := range examples {
		var members map[string]json.RawMessage
		if json.Unmarshal(ex, &members) != nil || members == nil {
			return nil, false
		}
		out[i] = make(map[string]any, len(members))
		for k, v := range members {
			out[i][k] = v
		}
	}
	return out, true
}

// inputSchema returns a JSON Schema object as the SDK's input schema param, each
// keyword's value kept as the JSON text it was (so the order of properties stays), and
// whether the SDK's param can carry the schema as it is: an object of type "object".
func inputSchema(schema json.RawMessage) (anthropic.ToolInputSchemaParam, bool) {
	var p anthropic.ToolInputSchemaParam
	var kw map[string]json.RawMessage
	if json.Unmarshal(schema, &kw) != nil || kw == nil {
		return p, false
	}
	var typ string
	if raw, ok := kw["type"]; !ok || json.Unmarshal(raw, &typ) != nil || typ != "object" {
		return p, false
	}
	if raw, ok := kw["required"]; ok && json.Unmarshal(raw, &p.Required) != nil {
		return p, false
	}
	for k, v := range kw {
		switch k {
		case "type", "required":
		case "properties":
			p.Properties = v
		default:
			if p.ExtraFields == nil {
				p.ExtraFields = map[string]any{}
			}
			p.ExtraFields[k] = v
		}
	}
	return p, true
}

// Calls returns the tool calls of a message: its tool_use blocks, in order, as
// runtime/anthropic.Calls reads them from the body the SDK received (m.RawJSON, or m
// marshalled for a message built in Go), each with its id, name and input as
// Arguments. Every refusal of that function holds: tool_use blocks in a turn cut short
// (stop_reason max_tokens, model_context_window_exceeded or refusal), a block without
// its id or name, two blocks with one id and an error body are errors. An input that
// is malformed (not an object, or not what the tool's schema says) is returned as it
// came, for the Toolset to answer with its argument error.
//
// A message the SDK's Message.Accumulate assembles from a stream is read once the
// stream has ended: before message_delta it has no stop_reason, and before
// message_stop its JSON holds none of its content blocks, and Calls refuses it rather
// than read a turn without calls.
func Calls(m *anthropic.Message) ([]runtime.ToolCall, error) {
	if m == nil {
		return nil, errors.New("toolanthropic: no message")
	}
	raw := []byte(m.RawJSON())
	if len(raw) == 0 {
		var err error
		if raw, err = json.Marshal(m); err != nil {
			return nil, err
		}
	}
	calls, err := rtanthropic.Calls(raw)
	if err != nil {
		return nil, err
	}
	if m.StopReason == "" {
		return nil, errors.New("toolanthropic: the message has no stop_reason: it is not a whole response (a stream accumulated before its message_delta?)")
	}
	var probe struct {
		Content []json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &probe) == nil && len(probe.Content) != len(m.Content) {
		return nil, fmt.Errorf("toolanthropic: the message's JSON holds %d content blocks and the message %d: it is not a whole response (a stream accumulated before its message_stop?)", len(probe.Content), len(m.Content))
	}
	return calls, nil
}

// ToolResults returns the tool_result blocks that answer results, one per result, in
// order, as runtime/anthropic.Result builds them: the result's text (and images) for
// the model, blocks meant for the user alone left out, is_error set for a failed call.
func ToolResults(results []runtime.CallResult) []anthropic.ContentBlockParamUnion {
	out := make([]anthropic.ContentBlockParamUnion, len(results))
	for i, r := range results {
		tr := rtanthropic.Result(r)
		block := &anthropic.ToolResultBlockParam{ToolUseID: tr.ToolUseID}
		if tr.IsError {
			block.IsError = anthropic.Bool(true)
		}
		switch c := tr.Content.(type) {
		case string:
			block.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: c}}}
		case []rtanthropic.ResultBlock:
			for _, b := range c {
				if b.Type == "image" && b.Source != nil {
					block.Content = append(block.Content, anthropic.ToolResultBlockParamContentUnion{OfImage: &anthropic.ImageBlockParam{
						Source: anthropic.ImageBlockParamSourceUnion{OfBase64: &anthropic.Base64ImageSourceParam{
							Data:      base64.StdEncoding.EncodeToString(b.Source.Data),
							MediaType: anthropic.Base64ImageSourceMediaType(b.Source.MediaType),
						}}}})
					continue
				}
				block.Content = append(block.Content, anthropic.ToolResultBlockParamContentUnion{OfText: &anthropic.TextBlockParam{Text: b.Text}})
			}
		}
		out[i] = anthropic.ContentBlockParamUnion{OfToolResult: block}
	}
	return out
}

// Answers returns the user message that answers results, the answers to every tool_use
// of one assistant turn as runtime.Toolset.RunCalls returns them: one tool_result block
// per result, in order, as the API wants them, in one user message with the tool_result
// blocks first. Append it after the assistant turn (the message's ToParam).
func Answers(results []runtime.CallResult) anthropic.MessageParam {
	return anthropic.NewUserMessage(ToolResults(results)...)
}

// Run runs the tool calls of a message with ts and returns the tool_result blocks that
// answer them, in the calls' order; none when the model called no tool. Send them in
// one user message after the assistant turn:
//
//	results, err := toolanthropic.Run(ctx, tools, msg)
//	...
//	params.Messages = append(params.Messages, msg.ToParam(), anthropic.NewUserMessage(results...))
//
// The calls are read by Calls and run by runtime.Toolset.RunCalls: in parallel,
// bounded, every call answered exactly once, observers and approvers told they come
// from provider "anthropic". The error is about the message only: failed calls are
// answered with their error.
func Run(ctx context.Context, ts *runtime.Toolset, m *anthropic.Message) ([]anthropic.ContentBlockParamUnion, error) {
	calls, err := Calls(m)
	if err != nil || len(calls) == 0 {
		return nil, err
	}
	ctx = runtime.ContextWithCall(ctx, runtime.CallInfo{Provider: rtanthropic.Messages{}.Name()})
	return ToolResults(ts.RunCalls(ctx, calls, 0)), nil
}
