package toolgenai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"google.golang.org/genai"

	"github.com/toolgen/toolgen/runtime"
	rtgemini "github.com/toolgen/toolgen/runtime/gemini"
)

// Tools returns the tools of ts as the SDK's tools, sorted by name: one genai.Tool
// declaring them all, with the declarations runtime/gemini.Tools gives (the input
// schema lowered to Gemini's dialect as Parameters, or, for a schema the lowering
// cannot read, its JSON Schema as ParametersJsonSchema), or none for an empty or nil
// set. Gemini has no deferred loading: the tools ts defers (runtime.Toolset.WithDefer)
// are left out, as runtime/gemini.Tools leaves them, for a loop.Loop's search tool.
//
// genai.Schema holds the keywords of Gemini's schema subset, which is what
// runtime/dialect lowers to; a Gemini schema it cannot hold as it is (a keyword it has no field for, a
// value of another type) is an error naming the tool, rather than a schema silently
// changed.
func Tools(ts *runtime.Toolset) ([]*genai.Tool, error) {
	if ts == nil {
		return nil, nil
	}
	var out []*genai.Tool
	for _, entry := range rtgemini.Tools(ts) {
		tool := &genai.Tool{}
		for _, d := range entry.FunctionDeclarations {
			fd := &genai.FunctionDeclaration{Name: d.Name, Description: d.Description}
			if d.Parameters != nil {
				s, err := schema(d.Parameters)
				if err != nil {
					return nil, fmt.Errorf("toolgenai: the Gemini schema of tool %s: %w", d.Name, err)
				}
				fd.Parameters = s
			}
			if d.ParametersJSONSchema != nil {
				fd.ParametersJsonSchema = d.ParametersJSONSchema
			}
			tool.FunctionDeclarations = append(tool.FunctionDeclarations, fd)
		}
		out = append(out, tool)
	}
	return out, nil
}

// schema returns a Gemini schema as a genai.Schema, checking that it says the same
// once encoded again.
func schema(raw json.RawMessage) (*genai.Schema, error) {
	var s genai.Schema
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, err
	}
	again, err := json.Marshal(&s)
	if err != nil {
		return nil, err
	}
	var want, got any
	if err := json.Unmarshal(raw, &want); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(again, &got); err != nil {
		return nil, err
	}
	if !reflect.DeepEqual(dropEmpty(want), dropEmpty(got)) {
		return nil, fmt.Errorf("genai.Schema does not hold it as it is: %s becomes %s", raw, again)
	}
	return &s, nil
}

// dropEmpty returns a JSON value without the empty strings, arrays and objects of its
// objects, which genai.Schema leaves out and which say nothing.
func dropEmpty(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			switch e := e.(type) {
			case string:
				if e == "" {
					continue
				}
			case []any:
				if len(e) == 0 {
					continue
				}
			case map[string]any:
				if len(e) == 0 {
					continue
				}
			}
			out[k] = dropEmpty(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = dropEmpty(e)
		}
		return out
	}
	return v
}

// Calls returns the function calls of a response: the functionCall parts of its first
// candidate, in order, as runtime/gemini.Calls reads them from the response's JSON
// (the SDK keeps no body: resp is marshalled, as the SDK's types encode the API's
// JSON), each with its id when the API gave one, its name and its args. Every refusal
// of that function holds: calls in a candidate that stopped short (any finishReason but
// STOP: MAX_TOKENS, SAFETY, ...), a candidate that finished with
// MALFORMED_FUNCTION_CALL or UNEXPECTED_TOOL_CALL, a blocked prompt, a call without a
// name and two calls with one id are errors. Args that break the tool's schema are
// returned as they came, for the Toolset to answer with its argument error.
func Calls(resp *genai.GenerateContentResponse) ([]runtime.ToolCall, error) {
	if resp == nil {
		return nil, errors.New("toolgenai: no response")
	}
	body, err := json.Marshal(resp)
	if err != nil {
		return nil, err
	}
	return rtgemini.Calls(body)
}

// Answers returns the parts that answer results, one functionResponse part per
// result, in the calls' order, as runtime/gemini.FunctionResponses builds them: each
// with its call's id (when it had one) and name, and a response of "output" (the
// structured result, or the text for the model) or, for a failed call, "error". The
// response's values are those of the JSON runtime/gemini sends, decoded as
// encoding/json decodes into an any, numbers as json.Number so that none changes.
// Send them as one user content after the model's turn:
// genai.NewContentFromParts(parts, genai.RoleUser).
func Answers(results []runtime.CallResult) []*genai.Part {
	content := rtgemini.FunctionResponses(results)
	parts := make([]*genai.Part, len(content.Parts))
	for i, p := range content.Parts {
		fr := p.FunctionResponse
		response := make(map[string]any, len(fr.Response))
		for k, v := range fr.Response {
			response[k] = decode(v)
		}
		parts[i] = &genai.Part{FunctionResponse: &genai.FunctionResponse{ID: fr.ID, Name: fr.Name, Response: response}}
	}
	return parts
}

// decode returns a JSON value as a Go value, numbers as json.Number; JSON it cannot
// decode stays as it is.
func decode(raw json.RawMessage) any {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return raw
	}
	return v
}

// Run runs the function calls of a response with ts and returns the parts that answer
// them, in the calls' order; none when the model called no function. Send them after
// the model's turn:
//
//	parts, err := toolgenai.Run(ctx, tools, resp)
//	...
//	contents = append(contents, resp.Candidates[0].Content, genai.NewContentFromParts(parts, genai.RoleUser))
//
// The calls are read by Calls and run by runtime.Toolset.RunCalls: in parallel,
// bounded, every call answered exactly once, observers and approvers told they come
// from provider "gemini". The error is about the response only: failed calls are
// answered with their error.
func Run(ctx context.Context, ts *runtime.Toolset, resp *genai.GenerateContentResponse) ([]*genai.Part, error) {
	calls, err := Calls(resp)
	if err != nil || len(calls) == 0 {
		return nil, err
	}
	ctx = runtime.ContextWithCall(ctx, runtime.CallInfo{Provider: rtgemini.GenerateContent{}.Name()})
	return Answers(ts.RunCalls(ctx, calls, 0)), nil
}
