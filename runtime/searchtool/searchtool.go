// Package searchtool makes a tool for a model to find the tools it was not offered: a
// call with a query answers with the definitions of the tools that best match it, which
// the model can call from then on. A loop.Loop offers one for a Toolset that defers
// tools (runtime.Toolset.WithDefer) when its provider does not load deferred tools
// itself; an MCP server may offer one too (toolmcp).
//
//	search, err := searchtool.New(func(_ context.Context, query string, limit int) []*runtime.Tool {
//		return catalog.Search(query, limit)
//	})
package searchtool

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/runtime"
)

// Name is the name of the search tool New makes.
const Name = "search_tools"

// DefaultResults is the number of tools a call of the search tool finds when the model
// gives no limit.
const DefaultResults = 5

// MaxResults is the most tools one call of the search tool may ask for: its limit
// argument is at most this (a larger one is an argument error).
const MaxResults = 20

// MaxQueryChars is the longest query, in characters, a call of the search tool takes
// (a longer one is an argument error); runtime.Toolset.Search reads at most
// search.MaxQueryBytes of it anyway.
const MaxQueryChars = 1000

// searchToolDescription is what the model is told of the search tool.
const searchToolDescription = "Search the catalog of tools that are not loaded yet, by what you want to do (for example \"refund a card payment\"). " +
	"It returns the best matching tools' definitions: name, description and input schema. " +
	"The tools it returns can be called from then on, by their names. Search again with other words when none fits."

// searchToolSchema is the search tool's input schema.
var searchToolSchema = `{"type":"object","properties":{` +
	`"query":{"type":"string","minLength":1,"maxLength":` + strconv.Itoa(MaxQueryChars) + `,"description":"What you want to do, in a few words."},` +
	`"limit":{"type":"integer","minimum":1,"maximum":` + strconv.Itoa(MaxResults) + `,"default":` + strconv.Itoa(DefaultResults) + `,"description":"How many tools to return at most."}` +
	`},"required":["query"],"additionalProperties":false}`

// Func finds the tools for a query, best first, at most limit of them. The context is
// the search tool call's: a server finds, in it, whose request it is.
type Func func(ctx context.Context, query string, limit int) []*runtime.Tool

// Found is the definition of one tool a search tool call found, as the model reads it:
// JSON, {"name":...,"description":...,"input_schema":{...}}.
type Found struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// New returns a Toolset of one tool, named Name, for a model to find tools it was not
// offered: a call with a query (and an optional limit, at most MaxResults,
// DefaultResults when absent) runs search and answers with the found tools'
// definitions (Found), best first, as a JSON list after a line that names them, or with
// a line saying nothing matched. The tool is read-only, idempotent and closed-world, so
// that an approver lets it run. A loop.Loop makes one for a Toolset with deferral (see
// runtime.Defer); an MCP server may offer one too (toolmcp).
func New(search Func) (*runtime.Toolset, error) {
	if search == nil {
		return nil, fmt.Errorf("searchtool: New needs a search function")
	}
	yes, no := true, false
	def := runtime.Tool{
		Name:        Name,
		Title:       "Search tools",
		Description: searchToolDescription,
		Annotations: runtime.Annotations{ReadOnly: &yes, Destructive: &no, Idempotent: &yes, OpenWorld: &no},
		InputSchema: json.RawMessage(searchToolSchema),
	}
	return runtime.NewTool(def, func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
		var in struct {
			Query string `json:"query"`
			Limit int    `json:"limit"`
		}
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, fmt.Errorf("searchtool: read the validated search arguments: %w", err)
		}
		return searchResult(in.Query, search(ctx, in.Query, in.Limit))
	})
}

// searchResult is the answer to a search tool call that found tools.
func searchResult(query string, tools []*runtime.Tool) (*runtime.Result, error) {
	if len(tools) == 0 {
		return runtime.TextResult("No tool matches " + strconv.Quote(cutQuery(query)) + ". Search again with other words."), nil
	}
	found := make([]Found, len(tools))
	names := make([]string, len(tools))
	for i, t := range tools {
		schema := t.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		found[i] = Found{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: schema}
		names[i] = t.Name
	}
	list, err := json.Marshal(found)
	if err != nil {
		return nil, fmt.Errorf("searchtool: encode the found tools: %w", err)
	}
	return runtime.TextResult("Found " + strconv.Itoa(len(tools)) + " tools, which can be called from now on: " +
		strings.Join(names, ", ") + ".\n" + string(list)), nil
}

// cutQuery shortens a query echoed in a result.
func cutQuery(q string) string {
	const most = 80
	if len(q) <= most {
		return q
	}
	cut := most
	for cut > 0 && !isRuneStart(q[cut]) {
		cut--
	}
	return q[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
