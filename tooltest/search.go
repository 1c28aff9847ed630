package tooltest

import (
	"encoding/json"
	"slices"
	"strings"
)

// The APIs' own tool search (Anthropic's tool search tool, the Responses API's
// tool_search): a call of a tool the request defers (defer_loading), made before any
// turn of the conversation called it, comes after the API's search that loaded it, as
// the APIs answer: server_tool_use and tool_search_tool_result blocks, tool_search_call
// and tool_search_output items.

// unloaded returns the deferred tools among calls that no earlier turn of ex called.
func unloaded(ex *Request, calls []Call) []string {
	var out []string
	for _, c := range calls {
		if !slices.Contains(ex.Deferred, c.Name) || slices.Contains(out, c.Name) {
			continue
		}
		earlier := slices.ContainsFunc(ex.Turns, func(t RequestTurn) bool {
			return slices.ContainsFunc(t.Calls, func(p Call) bool { return p.Name == c.Name })
		})
		if !earlier {
			out = append(out, c.Name)
		}
	}
	return out
}

// messagesSearch returns the blocks of Anthropic's search that loads names: a
// server_tool_use of the request's tool search tool, and its result.
func messagesSearch(ex *Request, seed string, names []string) []any {
	var tools []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	}
	_ = json.Unmarshal(ex.Fields["tools"], &tools)
	tool := "tool_search_tool_bm25"
	for _, t := range tools {
		if strings.HasPrefix(t.Type, "tool_search_tool_") {
			tool = t.Name
		}
	}
	id := "srvtoolu_01" + token(22, "srvtoolu", seed, len(ex.Turns))
	query := strings.ReplaceAll(strings.Join(names, " "), "_", " ")
	if tool == "tool_search_tool_regex" {
		query = strings.Join(names, "|")
	}
	input := map[string]string{"query": query}
	if tool == "tool_search_tool_regex" {
		input = map[string]string{"pattern": query}
	}
	refs := make([]any, len(names))
	for i, n := range names {
		refs[i] = map[string]string{"type": "tool_reference", "tool_name": n}
	}
	return []any{
		map[string]any{"type": "server_tool_use", "id": id, "name": tool, "input": input, "caller": map[string]string{"type": "direct"}},
		map[string]any{"type": "tool_search_tool_result", "tool_use_id": id,
			"content": map[string]any{"type": "tool_search_tool_search_result", "tool_references": refs}},
	}
}

// responsesSearch returns the items of the Responses API's search that loads names:
// a tool_search_call the server ran, and its tool_search_output with the definitions
// it loaded (a namespace with its loaded functions, or the functions).
func responsesSearch(ex *Request, seed string, names []string) []any {
	var tools []json.RawMessage
	_ = json.Unmarshal(ex.Fields["tools"], &tools)
	definition := map[string]json.RawMessage{} // of each function, top-level or in a namespace
	var spaces []string
	for _, raw := range tools {
		var t struct {
			Type  string            `json:"type"`
			Name  string            `json:"name"`
			Tools []json.RawMessage `json:"tools"`
		}
		_ = json.Unmarshal(raw, &t)
		switch t.Type {
		case "function":
			definition[t.Name] = raw
		case "namespace":
			for _, f := range t.Tools {
				var fn struct {
					Name string `json:"name"`
				}
				_ = json.Unmarshal(f, &fn)
				definition[fn.Name] = f
			}
		}
	}
	var loaded []any
	byNS := map[string][]json.RawMessage{}
	for _, n := range names {
		if ns, ok := ex.Namespaces[n]; ok {
			if _, seen := byNS[ns]; !seen {
				spaces = append(spaces, ns)
			}
			byNS[ns] = append(byNS[ns], definition[n])
			continue
		}
		loaded = append(loaded, definition[n])
	}
	paths := slices.Clone(spaces)
	for _, ns := range spaces {
		loaded = append(loaded, map[string]any{"type": "namespace", "name": ns, "description": "The " + ns + " tools.", "tools": byNS[ns]})
	}
	if len(paths) == 0 {
		paths = names
	}
	callID := "call_ts_" + token(24, "tool_search", seed, len(ex.Turns))
	return []any{
		map[string]any{"type": "tool_search_call", "id": "tsc_" + token(48, "tsc", seed, len(ex.Turns)), "call_id": callID,
			"execution": "server", "status": "completed", "arguments": map[string]any{"paths": paths}},
		map[string]any{"type": "tool_search_output", "id": "tso_" + token(48, "tso", seed, len(ex.Turns)), "call_id": callID,
			"execution": "server", "status": "completed", "tools": loaded},
	}
}
