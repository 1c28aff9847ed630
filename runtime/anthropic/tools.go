package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/dialect"
	"github.com/toolgen/toolgen/runtime/loop"
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

	// DeferLoading keeps the tool out of the model's context until the API's tool
	// search tool finds it (see ToolSearch).
	DeferLoading bool `json:"defer_loading,omitempty"`
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
// "tools" array, each computed by Definition once per tool. The tools ts defers
// (runtime.Toolset.WithDefer) have DeferLoading set: the request needs a tool search
// tool too (SearchTool), as Messages.Prepare adds.
func Tools(ts *runtime.Toolset) []Tool {
	tools := ts.Tools()
	out := make([]Tool, len(tools))
	for i, t := range tools {
		out[i] = runtime.Lowered(ts, t, loweredKey, Definition)
		out[i].DeferLoading = ts.Deferred(t)
	}
	return out
}

// ToolSearch is a variant of the API's tool search tool, which finds deferred tools
// (those with DeferLoading) on the API's side and loads them, or ToolSearchClient for
// a loop.Loop's own search tool instead.
type ToolSearch string

// The tool search variants. Their names, as the model calls them, are their types
// without the date: "tool_search_tool_bm25", "tool_search_tool_regex".
const (
	// ToolSearchBM25 searches with the model's natural-language queries, ranked by
	// BM25; the default.
	ToolSearchBM25 ToolSearch = "tool_search_tool_bm25_20251119"
	// ToolSearchRegex searches with regular expressions (Python's re) the model writes.
	ToolSearchRegex ToolSearch = "tool_search_tool_regex_20251119"
	// ToolSearchClient sends only the tools a Toolset keeps, as for a provider without
	// deferred loading, and lets a loop.Loop offer its search tool
	// (searchtool.New) for the others.
	ToolSearchClient ToolSearch = "client"
)

// SearchTool is the definition of the API's tool search tool in a request's "tools".
type SearchTool struct {
	// Type is the variant: ToolSearchBM25 or ToolSearchRegex.
	Type ToolSearch `json:"type"`
	// Name is the type without its date, as the API requires.
	Name string `json:"name"`
}

// NewSearchTool returns the definition of the tool search tool of variant v
// (ToolSearchBM25 when empty); ToolSearchClient and unknown variants are an error.
func NewSearchTool(v ToolSearch) (SearchTool, error) {
	switch v {
	case "":
		v = ToolSearchBM25
	case ToolSearchBM25, ToolSearchRegex:
	default:
		return SearchTool{}, fmt.Errorf("anthropic: %q is not a tool search tool of the API (%s or %s)", v, ToolSearchBM25, ToolSearchRegex)
	}
	name, _, _ := strings.Cut(string(v), "_2")
	return SearchTool{Type: v, Name: name}, nil
}

// isSearchTool reports whether a tool definition of a request is a tool search tool.
func isSearchTool(raw json.RawMessage) bool {
	var t struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(raw, &t) == nil && strings.HasPrefix(t.Type, "tool_search_tool_")
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
// loop.ChoiceRequired, or none.
func ToolChoiceFor(c loop.Choice) (ToolChoice, error) {
	switch c {
	case loop.ChoiceAuto:
		return ToolChoice{Type: ChoiceAuto}, nil
	case loop.ChoiceRequired:
		return ToolChoice{Type: ChoiceAny}, nil
	case loop.ChoiceNone:
		return ToolChoice{Type: ChoiceNone}, nil
	}
	return ToolChoice{}, fmt.Errorf("unknown tool choice %q", c)
}

// ForceTool returns the tool choice that makes the model call the named tool.
func ForceTool(name string) ToolChoice {
	return ToolChoice{Type: ChoiceTool, Name: name}
}
