package toolopenai

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen/toolgen/runtime"
	rtopenai "github.com/toolgen/toolgen/runtime/openai"
)

// ResponsesTools returns the Responses API tool params of the tools of ts, sorted by
// name: the definitions runtime/openai.ResponsesTools gives (strict where the tool's
// schema meets strict mode, strict always sent), as the SDK's function tool params.
// A nil ts has no tools. When ts defers tools (runtime.Toolset.WithDefer), those have
// DeferLoading set, after the API's tool_search tool, as runtime/openai.Responses
// sends them without Namespaces.
func ResponsesTools(ts *runtime.Toolset) []responses.ToolUnionParam {
	defs := rtopenai.ResponsesTools(ts)
	out := make([]responses.ToolUnionParam, 0, len(defs)+1)
	if ts.HasDeferred() {
		out = append(out, responses.ToolUnionParam{OfToolSearch: &responses.ToolSearchToolParam{}})
	}
	for _, d := range defs {
		f := &responses.FunctionToolParam{Name: d.Name, Strict: openai.Bool(d.Strict)}
		if d.DeferLoading {
			f.DeferLoading = openai.Bool(true)
		}
		if d.Description != "" {
			f.Description = openai.String(d.Description)
		}
		if m, ok := schemaMap(d.Parameters); ok {
			f.Parameters = m
		} else {
			f.SetExtraFields(map[string]any{"parameters": d.Parameters})
		}
		out = append(out, responses.ToolUnionParam{OfFunction: f})
	}
	return out
}

// responseBody returns the body the SDK decoded r from. The SDK's output items keep
// their values in that JSON only (a function call's arguments among them), so a
// response that was not decoded from a body cannot be read.
func responseBody(r *responses.Response) ([]byte, error) {
	if r == nil {
		return nil, errors.New("toolopenai: no response")
	}
	raw := r.RawJSON()
	if raw == "" {
		return nil, errors.New("toolopenai: the response holds no JSON (RawJSON is empty): read responses the SDK decoded from the API's body")
	}
	return []byte(raw), nil
}

// ResponsesCalls returns the calls of a Responses API response, in order, as
// runtime/openai.ResponsesCalls reads them from the body the SDK received (r.RawJSON):
// function calls, and custom tool calls read as calls with the arguments {"input":
// <its text>}, each with its call_id as ID. Every refusal of that function holds: a
// failed response, an incomplete one (status "incomplete") with calls in it or a call
// itself incomplete, a call without its call_id or name and two calls with one call_id
// are errors. A call whose arguments are malformed is returned as it came, for the
// Toolset to answer with its argument error.
func ResponsesCalls(r *responses.Response) ([]runtime.ToolCall, error) {
	body, err := responseBody(r)
	if err != nil {
		return nil, err
	}
	return rtopenai.ResponsesCalls(body)
}

// ResponsesAnswers returns the input items that answer the calls of r with results,
// one per call, in the calls' order, as runtime/openai.ResponsesOutputsFor gives them: a
// function_call_output item for a function call, a custom_tool_call_output item for a
// custom tool call. results must answer every call of r once, matched by call_id, as
// runtime.Toolset.RunCalls gives them; anything else is an error, as is a response
// ResponsesCalls refuses.
func ResponsesAnswers(r *responses.Response, results []runtime.CallResult) (responses.ResponseInputParam, error) {
	body, err := responseBody(r)
	if err != nil {
		return nil, err
	}
	outputs, err := rtopenai.ResponsesOutputsFor(body, results)
	if err != nil {
		return nil, err
	}
	return inputItems(outputs), nil
}

// RunResponses runs the calls of a Responses API response with ts and returns the
// input items that answer them, in the calls' order, as ResponsesAnswers builds them;
// none when the model called no tool. The calls are read by ResponsesCalls and run by
// runtime.Toolset.RunCalls: in parallel, bounded, every call answered exactly once,
// observers and approvers told they come from provider "openai-responses". The error
// is about the response only: failed calls are answered with their error.
//
// Send the items with PreviousResponseID set to r.ID, or, for a conversation that is
// not stored, after the items of ResponsesTurn(r).
func RunResponses(ctx context.Context, ts *runtime.Toolset, r *responses.Response) (responses.ResponseInputParam, error) {
	body, err := responseBody(r)
	if err != nil {
		return nil, err
	}
	outputs, err := rtopenai.RunResponses(ctx, ts, body)
	if err != nil {
		return nil, err
	}
	return inputItems(outputs), nil
}

// inputItems returns runtime/openai's answers as the SDK's input items.
func inputItems(outputs []rtopenai.FunctionCallOutput) responses.ResponseInputParam {
	items := make(responses.ResponseInputParam, len(outputs))
	for i, o := range outputs {
		if o.Type == "custom_tool_call_output" {
			out := &responses.ResponseCustomToolCallOutputParam{CallID: o.CallID}
			out.Output.OfString = openai.String(o.Output)
			items[i] = responses.ResponseInputItemUnionParam{OfCustomToolCallOutput: out}
			continue
		}
		out := &responses.ResponseInputItemFunctionCallOutputParam{CallID: openai.String(o.CallID)}
		out.Output.OfString = openai.String(o.Output)
		items[i] = responses.ResponseInputItemUnionParam{OfFunctionCallOutput: out}
	}
	return items
}

// ResponsesTurn returns the output items of r as input items, exactly as they came
// (reasoning items with their encrypted content, messages, function calls), to send
// back before the answers to its calls in a conversation that is not stored
// (store false, no previous_response_id), as runtime/openai.Responses.Continue does.
func ResponsesTurn(r *responses.Response) (responses.ResponseInputParam, error) {
	body, err := responseBody(r)
	if err != nil {
		return nil, err
	}
	var resp struct {
		Output []json.RawMessage `json:"output"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, err
	}
	items := make(responses.ResponseInputParam, len(resp.Output))
	for i, raw := range resp.Output {
		if err := json.Unmarshal(raw, &items[i]); err != nil {
			return nil, err
		}
	}
	return items, nil
}
