package openai

import (
	"encoding/json"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wire"
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
// {"type":"function","name":...,"description":...,"parameters":{...},"strict":...}.
// Strict is always sent, since the API's default for it is not documented reliably.
type ResponsesTool struct {
	// Type is always "function".
	Type string `json:"type"`
	// Name is the tool's name, which the model calls it by.
	Name string `json:"name"`
	// Description tells the model what the tool does and when to use it.
	Description string `json:"description,omitempty"`
	// Parameters is the JSON Schema of the arguments.
	Parameters json.RawMessage `json:"parameters"`
	// Strict asks for Structured Outputs, as ChatFunction.Strict does.
	Strict bool `json:"strict"`
}

// emptyParameters is the schema of a tool that takes no arguments.
const emptyParameters = `{"type":"object","properties":{}}`

// parameters returns the schema to send for t and whether it is strict: the schema
// toolgen lowered for OpenAI when there is one, else the tool's own schema, not strict.
func parameters(t *runtime.Tool) (json.RawMessage, bool) {
	if len(t.OpenAI.Parameters) > 0 {
		return t.OpenAI.Parameters, t.OpenAI.Strict
	}
	if len(t.InputSchema) > 0 {
		return t.InputSchema, false
	}
	return json.RawMessage(emptyParameters), false
}

// ChatTools returns the Chat Completions definitions of the tools of ts, sorted by name.
// A nil ts has no tools.
func ChatTools(ts *runtime.Toolset) []ChatTool {
	if ts == nil {
		return nil
	}
	tools := ts.Tools()
	out := make([]ChatTool, len(tools))
	for i, t := range tools {
		params, strict := parameters(t)
		out[i] = ChatTool{Type: "function", Function: ChatFunction{
			Name: t.Name, Description: t.Description, Strict: strict, Parameters: params,
		}}
	}
	return out
}

// ResponsesTools returns the Responses API definitions of the tools of ts, sorted by
// name. A nil ts has no tools.
func ResponsesTools(ts *runtime.Toolset) []ResponsesTool {
	if ts == nil {
		return nil
	}
	tools := ts.Tools()
	out := make([]ResponsesTool, len(tools))
	for i, t := range tools {
		params, strict := parameters(t)
		out[i] = ResponsesTool{
			Type: "function", Name: t.Name, Description: t.Description, Parameters: params, Strict: strict,
		}
	}
	return out
}

// ToolChoice returns the tool_choice value of c, for either API: "auto", "none" or
// "required". Any other Choice is sent as written.
func ToolChoice(c runtime.Choice) json.RawMessage {
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
// With runtime.ChoiceRequired the model must call one of them; with any other choice it
// may (mode "auto").
func ChatToolChoiceAllowed(c runtime.Choice, names ...string) json.RawMessage {
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
// With runtime.ChoiceRequired the model must call one of them; with any other choice it
// may (mode "auto").
func ResponsesToolChoiceAllowed(c runtime.Choice, names ...string) json.RawMessage {
	tools := make([]any, len(names))
	for i, n := range names {
		tools[i] = map[string]string{"type": "function", "name": n}
	}
	b, _ := wire.Marshal(map[string]any{"type": "allowed_tools", "mode": allowedMode(c), "tools": tools})
	return b
}

func allowedMode(c runtime.Choice) string {
	if c == runtime.ChoiceRequired {
		return "required"
	}
	return "auto"
}
