package generator

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/toolgen/toolgen/model"
)

// Providers are the providers a catalog measures, in the order toolgen lists them, each
// with the dialect file (under toolschema/) that holds its tool definitions. OpenAI is
// measured by its Chat Completions file, openai.json.
var Providers = []Provider{
	{Name: "openai", File: "openai.json"},
	{Name: "anthropic", File: "anthropic.json"},
	{Name: "gemini", File: "gemini.json"},
	{Name: "mcp", File: "mcp.json"},
}

// Provider names a provider and its dialect file.
type Provider struct {
	Name string
	File string
}

// CatalogEntry is one tool of a catalog: the tool and the size of its definition as
// each provider gets it.
type CatalogEntry struct {
	Tool *model.Tool
	// Bytes is, per provider in the order of Providers, the length of the tool's
	// definition as sent on the wire: its element of the provider's dialect file
	// (the Chat Completions tool, the Anthropic tool, the Gemini function declaration,
	// the MCP tool of tools/list), as compact JSON.
	Bytes []int
}

// Tokens estimates, per provider in the order of Providers, the tokens the tool's
// definition costs, with EstimateTokens.
func (e CatalogEntry) Tokens() []int {
	out := make([]int, len(e.Bytes))
	for i, n := range e.Bytes {
		out[i] = EstimateTokens(n)
	}
	return out
}

// EstimateTokens estimates the tokens n bytes of JSON cost a model: n/4, rounded up.
// Four bytes a token is the usual rule of thumb for English text and JSON in the
// providers' tokenizers; exact counts depend on the model, and providers add their
// own fixed overhead for the tool list, which the estimate leaves out.
func EstimateTokens(n int) int {
	return (n + 3) / 4
}

// Catalog measures the tools of pkg in files, the files Generate returned for it: one
// entry per tool, in the order of pkg.Tools (sorted by name).
func Catalog(pkg *model.Package, files []File) ([]CatalogEntry, error) {
	entries := make([]CatalogEntry, len(pkg.Tools))
	index := map[string]int{}
	for i, t := range pkg.Tools {
		entries[i] = CatalogEntry{Tool: t, Bytes: make([]int, len(Providers))}
		index[t.Name] = i
	}
	for p, prov := range Providers {
		var data []byte
		for _, f := range files {
			if f.Path == SchemaDir+"/"+prov.File {
				data = f.Data
			}
		}
		if data == nil {
			return nil, fmt.Errorf("catalog of %s: no %s/%s", pkg.Path, SchemaDir, prov.File)
		}
		defs, err := definitions(prov.Name, data)
		if err != nil {
			return nil, fmt.Errorf("catalog of %s: %s/%s: %w", pkg.Path, SchemaDir, prov.File, err)
		}
		seen := 0
		for _, def := range defs {
			name, err := definitionName(def)
			if err != nil {
				return nil, fmt.Errorf("catalog of %s: %s/%s: %w", pkg.Path, SchemaDir, prov.File, err)
			}
			i, ok := index[name]
			if !ok {
				return nil, fmt.Errorf("catalog of %s: %s/%s: unknown tool %q", pkg.Path, SchemaDir, prov.File, name)
			}
			var buf bytes.Buffer
			if err := json.Compact(&buf, def); err != nil {
				return nil, err
			}
			entries[i].Bytes[p] = buf.Len()
			seen++
		}
		if seen != len(pkg.Tools) {
			return nil, fmt.Errorf("catalog of %s: %s/%s has %d tools, want %d", pkg.Path, SchemaDir, prov.File, seen, len(pkg.Tools))
		}
	}
	return entries, nil
}

// definitions splits a dialect file into its tool definitions.
func definitions(provider string, data []byte) ([]json.RawMessage, error) {
	var defs []json.RawMessage
	var err error
	switch provider {
	case "gemini":
		var doc struct {
			FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
		}
		err = json.Unmarshal(data, &doc)
		defs = doc.FunctionDeclarations
	case "mcp":
		var doc struct {
			Tools []json.RawMessage `json:"tools"`
		}
		err = json.Unmarshal(data, &doc)
		defs = doc.Tools
	default: // a JSON array of tools
		err = json.Unmarshal(data, &defs)
	}
	return defs, err
}

// definitionName is the tool name of a definition: name, or function.name for Chat
// Completions.
func definitionName(def json.RawMessage) (string, error) {
	var d struct {
		Name     string `json:"name"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if err := json.Unmarshal(def, &d); err != nil {
		return "", err
	}
	if d.Name == "" {
		d.Name = d.Function.Name
	}
	if d.Name == "" {
		return "", fmt.Errorf("a tool definition without a name")
	}
	return d.Name, nil
}
