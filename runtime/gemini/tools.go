package gemini

import (
	"encoding/json"
	"fmt"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/dialect"
	"github.com/toolgen/toolgen/runtime/loop"
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

// loweredKey is the key of the Gemini lowering in runtime.Lowered's cache.
const loweredKey = "github.com/toolgen/toolgen/runtime/gemini"

// Declaration returns the declaration of t: its input schema lowered by dialect.Gemini
// as "parameters", or, for a schema that lowering cannot read, the InputSchema as
// "parametersJsonSchema", the field that takes JSON Schema. A tool without an input
// schema has neither. Tools, which lowers each tool once, is cheaper for the tools of a
// Toolset.
func Declaration(t *runtime.Tool) FunctionDeclaration {
	d := FunctionDeclaration{Name: t.Name, Description: t.Description}
	if len(t.InputSchema) == 0 {
		return d
	}
	if l, _ := dialect.Gemini(t.InputSchema); len(l.Parameters) > 0 {
		d.Parameters = l.Parameters
	} else {
		d.ParametersJSONSchema = t.InputSchema
	}
	return d
}

// Tools returns the tools of ts, sorted by name, as the entries of a request's "tools"
// array: one entry declaring them all, or none for an empty set. Gemini has no deferred
// loading: the tools ts defers (Toolset.WithDefer) are left out, and a loop.Loop
// offers its search tool for them.
func Tools(ts *runtime.Toolset) []ToolDeclarations {
	ts = ts.Offered()
	tools := ts.Tools()
	if len(tools) == 0 {
		return nil
	}
	decls := make([]FunctionDeclaration, len(tools))
	for i, t := range tools {
		decls[i] = runtime.Lowered(ts, t, loweredKey, Declaration)
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
// loop.ChoiceRequired (any declared function), or NONE.
func ToolConfigFor(c loop.Choice) (ToolConfig, error) {
	var m Mode
	switch c {
	case loop.ChoiceAuto:
		m = ModeAuto
	case loop.ChoiceRequired:
		m = ModeAny
	case loop.ChoiceNone:
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
