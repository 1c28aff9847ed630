package anthropic

import (
	"encoding/json"
	"fmt"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/dialect"
)

// Tool is the definition of one tool in a Messages request's "tools" array.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// InputSchema is the JSON Schema of the tool's input; its root is an object.
	InputSchema json.RawMessage `json:"input_schema"`
	// Strict asks the API to guarantee that the input matches InputSchema.
	Strict bool `json:"strict,omitempty"`
	// InputExamples are the tool's input examples (runtime.Tool.Examples), each an
	// input the schema accepts. The Messages API takes them on any tool, strict or
	// not, with no beta header (anthropic-sdk-go v2.15.0's ToolParam.InputExamples;
	// docs/DESIGN.md, "Input examples").
	InputExamples []json.RawMessage `json:"input_examples,omitempty"`
}

// emptyObjectSchema is the input schema of a tool that declares none.
const emptyObjectSchema = `{"type":"object"}`

// loweredKey is the key of the Anthropic lowering in runtime.Lowered's cache.
const loweredKey = "github.com/toolgen/toolgen/runtime/anthropic"

// Definition returns the definition of t: its input schema lowered by
// dialect.Anthropic, strict when t asks for it and the schema allows it, and its input
// examples. Tools, which lowers each tool once, is cheaper for the tools of a Toolset.
func Definition(t *runtime.Tool) Tool {
	schema := t.InputSchema
	if len(schema) == 0 {
		schema = json.RawMessage(emptyObjectSchema)
	}
	l, _ := dialect.Anthropic(schema, t.Strict)
	return Tool{Name: t.Name, Description: t.Description, InputSchema: l.Parameters, Strict: l.Strict, InputExamples: t.Examples}
}

// Tools returns the definitions of the tools of ts, sorted by name, for a request's
// "tools" array, each computed by Definition once per tool.
func Tools(ts *runtime.Toolset) []Tool {
	tools := ts.Tools()
	out := make([]Tool, len(tools))
	for i, t := range tools {
		out[i] = runtime.Lowered(ts, t, loweredKey, Definition)
	}
	return out
}

// The types of tool choice.
const (
	ChoiceAuto = "auto" // the model decides
	ChoiceAny  = "any"  // the model must call one of the tools
	ChoiceTool = "tool" // the model must call the tool named by ToolChoice.Name
	ChoiceNone = "none" // the model must not call tools
)

// ToolChoice is a request's "tool_choice".
type ToolChoice struct {
	// Type is ChoiceAuto, ChoiceAny, ChoiceTool or ChoiceNone.
	Type string `json:"type"`
	// Name names the tool to call when Type is ChoiceTool.
	Name string `json:"name,omitempty"`
	// DisableParallelToolUse limits the model to one tool call per turn (at most one
	// with auto, exactly one with any and tool). Type none does not take it.
	DisableParallelToolUse bool `json:"disable_parallel_tool_use,omitempty"`
}

// ToolChoiceFor returns the tool choice for a provider-neutral choice: auto, any for
// runtime.ChoiceRequired, or none.
func ToolChoiceFor(c runtime.Choice) (ToolChoice, error) {
	switch c {
	case runtime.ChoiceAuto:
		return ToolChoice{Type: ChoiceAuto}, nil
	case runtime.ChoiceRequired:
		return ToolChoice{Type: ChoiceAny}, nil
	case runtime.ChoiceNone:
		return ToolChoice{Type: ChoiceNone}, nil
	}
	return ToolChoice{}, fmt.Errorf("unknown tool choice %q", c)
}

// ForceTool returns the tool choice that makes the model call the named tool.
func ForceTool(name string) ToolChoice {
	return ToolChoice{Type: ChoiceTool, Name: name}
}
