package gemini

import (
	"encoding/json"
	"fmt"

	"github.com/toolgen/toolgen/runtime"
)

// ToolDeclarations is one entry of a request's "tools" array that declares functions.
type ToolDeclarations struct {
	FunctionDeclarations []FunctionDeclaration `json:"functionDeclarations"`
}

// FunctionDeclaration declares one function. At most one of Parameters and
// ParametersJSONSchema is set; a function without parameters has neither.
type FunctionDeclaration struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Parameters is the schema of the arguments in Gemini's OpenAPI 3.0 subset
	// (upper-case types, nullable, string enums).
	Parameters json.RawMessage `json:"parameters,omitempty"`
	// ParametersJSONSchema is the schema of the arguments as JSON Schema.
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema,omitempty"`
}

// Declaration returns the declaration of t: its Gemini schema (Tool.Gemini) as
// "parameters" when toolgen lowered it, otherwise its canonical InputSchema as
// "parametersJsonSchema", the field that takes JSON Schema.
func Declaration(t *runtime.Tool) FunctionDeclaration {
	d := FunctionDeclaration{Name: t.Name, Description: t.Description}
	switch {
	case len(t.Gemini.Parameters) > 0:
		d.Parameters = t.Gemini.Parameters
	case len(t.InputSchema) > 0:
		d.ParametersJSONSchema = t.InputSchema
	}
	return d
}

// Tools returns the tools of ts, sorted by name, as the entries of a request's "tools"
// array: one entry declaring them all, or none for an empty set.
func Tools(ts *runtime.Toolset) []ToolDeclarations {
	tools := ts.Tools()
	if len(tools) == 0 {
		return nil
	}
	decls := make([]FunctionDeclaration, len(tools))
	for i, t := range tools {
		decls[i] = Declaration(t)
	}
	return []ToolDeclarations{{FunctionDeclarations: decls}}
}

// Mode is a function calling mode.
type Mode string

// The function calling modes.
const (
	ModeAuto Mode = "AUTO" // the model decides
	ModeAny  Mode = "ANY"  // the model must call a function (of AllowedFunctionNames, when set)
	ModeNone Mode = "NONE" // the model must not call functions
	// ModeValidated lets the model decide, and holds its calls to the schemas.
	ModeValidated Mode = "VALIDATED"
)

// ToolConfig is a request's "toolConfig".
type ToolConfig struct {
	FunctionCallingConfig FunctionCallingConfig `json:"functionCallingConfig"`
}

// FunctionCallingConfig says whether and which functions the model may call.
type FunctionCallingConfig struct {
	Mode Mode `json:"mode"`
	// AllowedFunctionNames limits the functions of mode ANY.
	AllowedFunctionNames []string `json:"allowedFunctionNames,omitempty"`
}

// ToolConfigFor returns the tool config for a provider-neutral choice: AUTO, ANY for
// runtime.ChoiceRequired (any declared function), or NONE.
func ToolConfigFor(c runtime.Choice) (ToolConfig, error) {
	var m Mode
	switch c {
	case runtime.ChoiceAuto:
		m = ModeAuto
	case runtime.ChoiceRequired:
		m = ModeAny
	case runtime.ChoiceNone:
		m = ModeNone
	default:
		return ToolConfig{}, fmt.Errorf("unknown tool choice %q", c)
	}
	return ToolConfig{FunctionCallingConfig: FunctionCallingConfig{Mode: m}}, nil
}

// ForceFunctions returns the tool config that makes the model call one of the named
// functions: mode ANY with allowedFunctionNames.
func ForceFunctions(names ...string) ToolConfig {
	return ToolConfig{FunctionCallingConfig: FunctionCallingConfig{Mode: ModeAny, AllowedFunctionNames: names}}
}
