package gemini

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wire"
	"github.com/toolgen/toolgen/runtime/loop"
)

// GenerateContent is the generateContent method as a loop.Provider, for
// loop.Loop. It works on raw request and response bodies and keeps every field it
// does not own. It is a loop.StreamProvider too, for a Loop that streams: the
// StreamFunc then sends the request to streamGenerateContent?alt=sse instead of
// generateContent, since Gemini asks for a stream in the URL, not in the body.
type GenerateContent struct {
	// Limits bound the streams of Stream: their MaxArgumentBytes (see Limits). The
	// line and event limits are the StreamFunc's, which reads the events (with
	// Limits.ReadSSE).
	Limits Limits
}

var (
	_ loop.Provider       = GenerateContent{}
	_ loop.StreamProvider = GenerateContent{}
)

// PrepareStream returns request prepared as Prepare does: the body of a streamed
// request is that of a whole one, and the StreamFunc sends it to
// models/<model>:streamGenerateContent?alt=sse.
func (g GenerateContent) PrepareStream(request []byte, ts *runtime.Toolset, choice loop.Choice) ([]byte, error) {
	return g.Prepare(request, ts, choice)
}

// Stream returns an empty Stream, with the GenerateContent's Limits.
func (g GenerateContent) Stream() loop.Stream { return &Stream{Limits: g.Limits} }

// Name returns "gemini".
func (GenerateContent) Name() string { return "gemini" }

// Prepare returns request with the tools of ts declared in its "tools" array and the
// mode of "toolConfig.functionCallingConfig" set to choice (AUTO, ANY for
// loop.ChoiceRequired, NONE). Other entries of "tools" (Google Search, code
// execution, functions named like none of ts) stay before the declarations of ts, and
// the other fields of "toolConfig" stay too. Without any tool, "tools" and the
// function calling config are removed. Fields spelled in snake_case, which the API
// also accepts, are rewritten in camelCase.
func (GenerateContent) Prepare(request []byte, ts *runtime.Toolset, choice loop.Choice) ([]byte, error) {
	cfg, err := ToolConfigFor(choice)
	if err != nil {
		return nil, err
	}
	req, existing, err := wire.DecodeRequest(request, "tools", wire.DecodeArray)
	if err != nil {
		return nil, err
	}
	var tools []json.RawMessage
	for i, raw := range existing {
		entry, err := wire.DecodeObject(raw, fmt.Sprintf("tools[%d] of the request", i))
		if err != nil {
			return nil, err
		}
		if field(entry, "functionDeclarations", "function_declarations") == nil {
			tools = append(tools, raw)
			continue
		}
		decls, err := wire.DecodeArray(entry, "functionDeclarations", fmt.Sprintf("tools[%d] of the request", i))
		if err != nil {
			return nil, err
		}
		kept := slices.DeleteFunc(decls, func(d json.RawMessage) bool {
			_, ours := ts.Lookup(wire.NameOf(d))
			return ours
		})
		delete(entry, "functionDeclarations")
		if len(kept) > 0 {
			if entry["functionDeclarations"], err = wire.Marshal(kept); err != nil {
				return nil, err
			}
		}
		if len(entry) > 0 {
			raw, err := wire.Marshal(entry)
			if err != nil {
				return nil, err
			}
			tools = append(tools, raw)
		}
	}
	if tools, err = wire.AppendJSON(tools, Tools(ts)...); err != nil {
		return nil, err
	}

	toolConfig := map[string]json.RawMessage{}
	if raw := field(req, "toolConfig", "tool_config"); !wire.IsNull(raw) {
		if toolConfig, err = wire.DecodeObject(raw, "the toolConfig of the request"); err != nil {
			return nil, err
		}
	}
	calling := map[string]json.RawMessage{}
	if raw := field(toolConfig, "functionCallingConfig", "function_calling_config"); !wire.IsNull(raw) {
		if calling, err = wire.DecodeObject(raw, "the functionCallingConfig of the request"); err != nil {
			return nil, err
		}
	}
	delete(toolConfig, "functionCallingConfig")
	if len(tools) == 0 {
		delete(req, "tools")
	} else {
		if req["tools"], err = wire.Marshal(tools); err != nil {
			return nil, err
		}
		field(calling, "allowedFunctionNames", "allowed_function_names")
		delete(calling, "allowedFunctionNames")
		if calling["mode"], err = wire.Marshal(cfg.FunctionCallingConfig.Mode); err != nil {
			return nil, err
		}
		if toolConfig["functionCallingConfig"], err = wire.Marshal(calling); err != nil {
			return nil, err
		}
	}
	delete(req, "toolConfig")
	if len(toolConfig) > 0 {
		if req["toolConfig"], err = wire.Marshal(toolConfig); err != nil {
			return nil, err
		}
	}
	return wire.Marshal(req)
}

// Calls returns the function calls of a response body; see the package function
// Calls.
func (GenerateContent) Calls(response []byte) ([]runtime.ToolCall, error) { return Calls(response) }

// Continue returns request with two contents appended to its "contents": the model
// turn of response, candidates[0].content as received (thought signatures and every
// other part unchanged), and the user content of FunctionResponses(results). results
// must answer every function call of the response, in order, as
// runtime.Toolset.RunCalls does: each for the call at its position, of the same id and
// name, and, for a call without an id, of the same args, so that two calls of one tool
// answered in swapped order are refused. A response without calls adds the model turn
// alone.
func (GenerateContent) Continue(request, response []byte, results []runtime.CallResult) ([]byte, error) {
	req, contents, err := wire.DecodeRequest(request, "contents", wire.RequireArray)
	if err != nil {
		return nil, err
	}
	content, calls, err := contentAndCalls(response)
	if err != nil {
		return nil, err
	}
	if err := wire.CheckAnswers(calls, results); err != nil {
		return nil, err
	}
	if content != nil {
		turn, err := modelContent(content)
		if err != nil {
			return nil, err
		}
		contents = append(contents, turn)
	}
	if len(results) > 0 {
		if contents, err = wire.AppendJSON(contents, FunctionResponses(results)); err != nil {
			return nil, fmt.Errorf("encode the function responses: %w", err)
		}
	}
	return wire.With(req, "contents", contents)
}

// ModelContent returns the model turn of a generateContent response body, to append
// to the request's "contents" before the answers to its calls: candidates[0].content
// as received, its parts unchanged, so that thought signatures go back as the API
// requires. It is nil for a response without content.
func ModelContent(response []byte) (json.RawMessage, error) {
	content, _, err := contentAndCalls(response)
	if err != nil || content == nil {
		return nil, err
	}
	return modelContent(content)
}

// modelContent returns content, with the role "model" added when it has none.
func modelContent(content json.RawMessage) (json.RawMessage, error) {
	c, err := wire.DecodeObject(content, "candidates[0].content")
	if err != nil {
		return nil, err
	}
	if _, ok := c["role"]; ok {
		return content, nil
	}
	c["role"] = json.RawMessage(`"model"`)
	return wire.Marshal(c)
}
