package openai

import (
	"encoding/json"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/dialect"
	"github.com/toolgen/toolgen/runtime/internal/wire"
	"github.com/toolgen/toolgen/runtime/loop"
)

// ChatTool is a tool definition in Chat Completions' format:
// {"type":"function","function":{"name":...,"description":...,"strict":...,"parameters":{...}}}.
type ChatTool struct {
	// Type is always "function".
	Type string `json:"type"`
	// Function describes the function.
	Function ChatFunction `json:"function"`
}

// ChatFunction is the function a ChatTool describes.
type ChatFunction struct {
	// Name is the tool's name, which the model calls it by.
	Name string `json:"name"`
	// Description tells the model what the tool does and when to use it.
	Description string `json:"description,omitempty"`
	// Strict asks for Structured Outputs: the model's arguments then always match
	// Parameters, which must meet strict mode's rules.
	Strict bool `json:"strict"`
	// Parameters is the JSON Schema of the arguments.
	Parameters json.RawMessage `json:"parameters"`
}

// ResponsesTool is a function tool definition in the Responses API's flat format:
// {"type":"function","name":...,"description":...,"strict":...,"parameters":{...}}.
// Strict is always sent, since the API's default for it is not documented reliably.
type ResponsesTool struct {
	// Type is always "function".
	Type string `json:"type"`
	// Name is the tool's name, which the model calls it by.
	Name string `json:"name"`
	// Description tells the model what the tool does and when to use it.
	Description string `json:"description,omitempty"`
	// Strict asks for Structured Outputs, as ChatFunction.Strict does.
	Strict bool `json:"strict"`
	// Parameters is the JSON Schema of the arguments.
	Parameters json.RawMessage `json:"parameters"`
	// DeferLoading keeps the function out of the model's context until the API's
	// tool_search loads it (see Responses.Prepare).
	DeferLoading bool `json:"defer_loading,omitempty"`
}

// ResponsesNamespace groups functions under a name in a Responses request's "tools":
// {"type":"namespace","name":...,"description":...,"tools":[...]}. The model sees the
// namespace's name and description up front, and its deferred functions once
// tool_search loads them; it calls a function by its own name, with the namespace in
// the function_call's "namespace".
type ResponsesNamespace struct {
	// Type is always "namespace".
	Type string `json:"type"`
	// Name is the namespace's name.
	Name string `json:"name"`
	// Description tells the model what the namespace's functions are for.
	Description string `json:"description"`
	// Tools are the namespace's functions.
	Tools []ResponsesTool `json:"tools"`
}

// ResponsesToolSearch is the Responses API's tool search tool, {"type":"tool_search"},
// run by the API ("execution" left out: the server).
type ResponsesToolSearch struct {
	// Type is always "tool_search".
	Type string `json:"type"`
}

// emptyParameters is the schema of a tool that takes no arguments.
const emptyParameters = `{"type":"object","properties":{}}`

// loweredKey is the key of the OpenAI lowering in runtime.Lowered's cache.
const loweredKey = "github.com/toolgen/toolgen/runtime/openai"

// lower returns the schema to send for t and whether it is strict: its input schema
// lowered by dialect.OpenAI, strict when t asks for it and the schema allows it.
func lower(t *runtime.Tool) dialect.Lowered {
	schema := t.InputSchema
	if len(schema) == 0 {
		schema = json.RawMessage(emptyParameters)
	}
	l, _ := dialect.OpenAI(schema, t.Strict)
	return l
}

// parameters returns the schema to send for t, a tool of ts, and whether it is strict,
// lowered once per tool.
func parameters(ts *runtime.Toolset, t *runtime.Tool) (json.RawMessage, bool) {
	l := runtime.Lowered(ts, t, loweredKey, lower)
	return l.Parameters, l.Strict
}

// ChatTools returns the Chat Completions definitions of the tools of ts, sorted by name.
// Each tool's input schema is lowered by dialect.OpenAI, strict when the tool asks for
// it and its schema allows it, once per tool. A nil ts has no tools. Chat Completions
// has no deferred loading: the tools ts defers (Toolset.WithDefer) are left out, and a
// loop.Loop offers its search tool for them.
func ChatTools(ts *runtime.Toolset) []ChatTool {
	if ts == nil {
		return nil
	}
	ts = ts.Offered()
	tools := ts.Tools()
	out := make([]ChatTool, len(tools))
	for i, t := range tools {
		params, strict := parameters(ts, t)
		out[i] = ChatTool{Type: "function", Function: ChatFunction{
			Name: t.Name, Description: t.Description, Strict: strict, Parameters: params,
		}}
	}
	return out
}

// ResponsesTools returns the Responses API definitions of the tools of ts, sorted by
// name. A nil ts has no tools. The tools ts defers (runtime.Toolset.WithDefer) have
// DeferLoading set: the request needs the tool_search tool too (ResponsesToolSearch),
// as Responses.Prepare adds.
func ResponsesTools(ts *runtime.Toolset) []ResponsesTool {
	if ts == nil {
		return nil
	}
	tools := ts.Tools()
	out := make([]ResponsesTool, len(tools))
	for i, t := range tools {
		out[i] = responsesTool(ts, t)
	}
	return out
}

// responsesTool is the definition of t, a tool of ts, deferred when ts defers it.
func responsesTool(ts *runtime.Toolset, t *runtime.Tool) ResponsesTool {
	params, strict := parameters(ts, t)
	return ResponsesTool{
		Type: "function", Name: t.Name, Description: t.Description, Strict: strict, Parameters: params,
		DeferLoading: ts.Deferred(t),
	}
}

// ToolChoice returns the tool_choice value of c, for either API: "auto", "none" or
// "required". Any other Choice is sent as written.
func ToolChoice(c loop.Choice) json.RawMessage {
	b, _ := wire.Marshal(string(c))
	return b
}

// ChatToolChoiceFunction returns the Chat Completions tool_choice that makes the model
// call the named function: {"type":"function","function":{"name":name}}.
func ChatToolChoiceFunction(name string) json.RawMessage {
	b, _ := wire.Marshal(map[string]any{"type": "function", "function": map[string]string{"name": name}})
	return b
}

// ResponsesToolChoiceFunction returns the Responses tool_choice that makes the model
// call the named function: {"type":"function","name":name}.
func ResponsesToolChoiceFunction(name string) json.RawMessage {
	b, _ := wire.Marshal(map[string]string{"type": "function", "name": name})
	return b
}

// ChatToolChoiceAllowed returns the Chat Completions tool_choice that limits the model
// to the named functions while every tool stays listed (which keeps prompt caching):
// {"type":"allowed_tools","allowed_tools":{"mode":..,"tools":[{"type":"function","function":{"name":..}},..]}}.
// With loop.ChoiceRequired the model must call one of them; with any other choice it
// may (mode "auto").
func ChatToolChoiceAllowed(c loop.Choice, names ...string) json.RawMessage {
	tools := make([]any, len(names))
	for i, n := range names {
		tools[i] = map[string]any{"type": "function", "function": map[string]string{"name": n}}
	}
	b, _ := wire.Marshal(map[string]any{
		"type":          "allowed_tools",
		"allowed_tools": map[string]any{"mode": allowedMode(c), "tools": tools},
	})
	return b
}

// ResponsesToolChoiceAllowed returns the Responses tool_choice that limits the model to
// the named functions: {"type":"allowed_tools","mode":..,"tools":[{"type":"function","name":..},..]}.
// With loop.ChoiceRequired the model must call one of them; with any other choice it
// may (mode "auto").
func ResponsesToolChoiceAllowed(c loop.Choice, names ...string) json.RawMessage {
	tools := make([]any, len(names))
	for i, n := range names {
		tools[i] = map[string]string{"type": "function", "name": n}
	}
	b, _ := wire.Marshal(map[string]any{"type": "allowed_tools", "mode": allowedMode(c), "tools": tools})
	return b
}

func allowedMode(c loop.Choice) string {
	if c == loop.ChoiceRequired {
		return "required"
	}
	return "auto"
}
