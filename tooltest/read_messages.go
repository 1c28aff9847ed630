package tooltest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Anthropic Messages.

// block is a content block of a Messages request.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

func readMessages(body []byte) (*Request, error) {
	req, err := object(body, "the request body")
	if err != nil {
		return nil, err
	}
	ex := &Request{Fields: req}
	if ex.Model, _ = stringOf(req["model"]); ex.Model == "" {
		return nil, rejectf("model: Field required")
	}
	var maxTokens int
	if err := json.Unmarshal(req["max_tokens"], &maxTokens); err != nil || maxTokens < 1 {
		return nil, rejectf("max_tokens: Field required: a positive integer")
	}
	if ex.Tools, ex.Deferred, err = messagesTools(req["tools"]); err != nil {
		return nil, err
	}
	if err := messagesChoice(ex, req["tool_choice"]); err != nil {
		return nil, err
	}
	var msgs []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(req["messages"], &msgs); err != nil || len(msgs) == 0 {
		return nil, rejectf("messages: at least one message is required")
	}
	if msgs[0].Role != "user" {
		return nil, rejectf("messages: the first message must use the \"user\" role")
	}
	usesTools := false
	var pending []string // the tool_use ids of the assistant message before
	for i, m := range msgs {
		where := fmt.Sprintf("messages.%d", i)
		var blocks []block
		if s, ok := stringOf(m.Content); ok {
			blocks = []block{{Type: "text", Text: s}}
		} else if err := json.Unmarshal(m.Content, &blocks); err != nil {
			return nil, rejectf("%s.content must be a string or an array of content blocks", where)
		}
		switch m.Role {
		case "user":
			// The answers to the tool_use blocks before: tool_result blocks, first,
			// one for each id.
			answered := map[string]bool{}
			results := 0
			for j, b := range blocks {
				if b.Type != "tool_result" {
					continue
				}
				usesTools = true
				if j != results {
					return nil, rejectf("%s.content.%d: tool_result blocks must come first in the user message, before any other block", where, j)
				}
				results++
				k := slices.Index(pending, b.ToolUseID)
				if k < 0 {
					return nil, rejectf("%s.content.%d: unexpected tool_use_id found in tool_result blocks: %s. Each tool_result block must have a corresponding tool_use block in the previous message", where, j, b.ToolUseID)
				}
				if answered[b.ToolUseID] {
					return nil, rejectf("%s.content.%d: tool_use_id %s is answered twice: each tool_use block must have exactly one tool_result block", where, j, b.ToolUseID)
				}
				answered[b.ToolUseID] = true
				text, err := resultText(b.Content, fmt.Sprintf("%s.content.%d.content", where, j))
				if err != nil {
					return nil, err
				}
				turn := &ex.Turns[len(ex.Turns)-1]
				turn.Results[k] = Result{Call: turn.Calls[k], Text: text, IsError: b.IsError}
			}
			if len(answered) < len(pending) {
				return nil, unansweredUse(i-1, pending, answered)
			}
			pending = nil
			if ex.Question == "" {
				var texts []string
				for _, b := range blocks {
					if b.Type == "text" {
						texts = append(texts, b.Text)
					}
				}
				ex.Question = strings.Join(texts, "\n")
			}
		case "assistant":
			if len(pending) > 0 {
				return nil, unansweredUse(i-1, pending, nil)
			}
			if err := serverUses(where, blocks); err != nil {
				return nil, err
			}
			var turn RequestTurn
			for j, b := range blocks {
				if b.Type != "tool_use" {
					continue
				}
				usesTools = true
				switch {
				case b.ID == "":
					return nil, rejectf("%s.content.%d.id: Field required", where, j)
				case !isObject(b.Input):
					return nil, rejectf("%s.content.%d.input: Input should be an object", where, j)
				}
				for _, t := range ex.Turns {
					if slices.ContainsFunc(t.Calls, func(c Call) bool { return c.ID == b.ID }) {
						return nil, rejectf("%s.content.%d: tool_use ids must be unique: %s", where, j, b.ID)
					}
				}
				turn.Calls = append(turn.Calls, Call{ID: b.ID, Name: b.Name, Args: compact(b.Input)})
				pending = append(pending, b.ID)
			}
			if len(turn.Calls) > 0 {
				turn.Results = make([]Result, len(turn.Calls))
				ex.Turns = append(ex.Turns, turn)
			} else if i == len(msgs)-1 {
				ex.Prefill = true
			}
		default:
			return nil, rejectf("%s.role: Input should be 'user' or 'assistant'", where)
		}
	}
	if len(pending) > 0 {
		return nil, unansweredUse(len(msgs)-1, pending, nil)
	}
	if usesTools && len(ex.Tools) == 0 {
		return nil, rejectf("requests which include tool_use or tool_result blocks must define tools")
	}
	return ex, nil
}

// unansweredUse is the error for tool_use blocks of message i left without answers.
func unansweredUse(i int, pending []string, answered map[string]bool) error {
	var open []string
	for _, id := range pending {
		if !answered[id] {
			open = append(open, id)
		}
	}
	return rejectf("messages.%d: tool_use ids were found without tool_result blocks immediately after: %s. Each tool_use block must have a corresponding tool_result block in the next message", i, strings.Join(open, ", "))
}

// resultText returns the text of a tool_result's content: a string or blocks.
func resultText(raw json.RawMessage, where string) (string, error) {
	if isNull(raw) {
		return "", nil
	}
	if s, ok := stringOf(raw); ok {
		return s, nil
	}
	var blocks []block
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", rejectf("%s must be a string or an array of content blocks", where)
	}
	var texts []string
	for j, b := range blocks {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "image", "document", "search_result":
		default:
			return "", rejectf("%s.%d.type %q is not a type a tool_result may hold", where, j, b.Type)
		}
	}
	return strings.Join(texts, "\n"), nil
}

// messagesTools checks a Messages "tools" array and returns its custom tools' names.
func messagesTools(raw json.RawMessage) (names, deferred []string, err error) {
	if isNull(raw) {
		return nil, nil, nil
	}
	var tools []struct {
		Type         string          `json:"type"`
		Name         string          `json:"name"`
		InputSchema  json.RawMessage `json:"input_schema"`
		Strict       bool            `json:"strict"`
		DeferLoading bool            `json:"defer_loading"`
	}
	if err := json.Unmarshal(raw, &tools); err != nil {
		return nil, nil, rejectf("tools must be an array of tools")
	}
	search := false
	for i, t := range tools {
		if strings.HasPrefix(t.Type, "tool_search_tool_") {
			// The tool search tool: tool_search_tool_bm25_20251119 named
			// tool_search_tool_bm25, or the regex one; never deferred itself.
			if want, _, _ := strings.Cut(t.Type, "_2"); t.Name != want || (t.Type != "tool_search_tool_bm25_20251119" && t.Type != "tool_search_tool_regex_20251119") {
				return nil, nil, rejectf("tools.%d: unknown tool search tool %q named %q", i, t.Type, t.Name)
			}
			if t.DeferLoading {
				return nil, nil, rejectf("tools.%d: the tool search tool cannot have defer_loading set", i)
			}
			search = true
			continue
		}
		if t.Type != "" && t.Type != "custom" {
			continue // server and client tools: web_search, bash, ...
		}
		var schema struct {
			Type string `json:"type"`
		}
		switch {
		case !validName(t.Name):
			return nil, nil, rejectf("tools.%d.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'", i)
		case slices.Contains(names, t.Name):
			return nil, nil, rejectf("tools: tool names must be unique: %s", t.Name)
		case isNull(t.InputSchema):
			return nil, nil, rejectf("tools.%d.custom.input_schema: Field required", i)
		case json.Unmarshal(t.InputSchema, &schema) != nil || schema.Type != "object":
			return nil, nil, rejectf("tools.%d.custom.input_schema.type: Input should be 'object'", i)
		}
		if t.Strict {
			if err := anthropicStrict.check(t.InputSchema); err != nil {
				return nil, nil, rejectf("tools.%d.custom: the input_schema of a strict tool: %v", i, err)
			}
		}
		names = append(names, t.Name)
		if t.DeferLoading {
			deferred = append(deferred, t.Name)
		}
	}
	if len(deferred) > 0 && !search {
		return nil, nil, rejectf("tools: tools with defer_loading require a tool search tool (tool_search_tool_regex_20251119 or tool_search_tool_bm25_20251119) in tools")
	}
	return names, deferred, nil
}

// serverUses checks the server tools' blocks of an assistant message: each
// server_tool_use block is followed, in the same message, by the result block that
// answers its id (tool_search_tool_result, web_search_tool_result, ...), as the API
// sent them; a result answers a server_tool_use before it.
func serverUses(where string, blocks []block) error {
	open := map[string]bool{}
	for j, b := range blocks {
		switch {
		case b.Type == "server_tool_use":
			if b.ID == "" || !isObject(b.Input) {
				return rejectf("%s.content.%d: a server_tool_use block needs an id and an input object", where, j)
			}
			open[b.ID] = true
		case strings.HasSuffix(b.Type, "_tool_result") && b.Type != "tool_result":
			if !open[b.ToolUseID] {
				return rejectf("%s.content.%d: %s block answers %q, which no server_tool_use block before it in this message has", where, j, b.Type, b.ToolUseID)
			}
			delete(open, b.ToolUseID)
			if b.Type == "tool_search_tool_result" {
				if err := toolSearchResult(b.Content, fmt.Sprintf("%s.content.%d.content", where, j)); err != nil {
					return err
				}
			}
		}
	}
	for id := range open {
		return rejectf("%s: server_tool_use block %s has no result block after it in the message", where, id)
	}
	return nil
}

// toolSearchResult checks the content of a tool_search_tool_result block: a search
// result listing tool references, or an error.
func toolSearchResult(raw json.RawMessage, where string) error {
	var c struct {
		Type           string `json:"type"`
		ErrorCode      string `json:"error_code"`
		ToolReferences []struct {
			Type     string `json:"type"`
			ToolName string `json:"tool_name"`
		} `json:"tool_references"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return rejectf("%s: Input should be an object", where)
	}
	switch c.Type {
	case "tool_search_tool_search_result":
		for k, r := range c.ToolReferences {
			if r.Type != "tool_reference" || r.ToolName == "" {
				return rejectf("%s.tool_references.%d: a tool_reference block with a tool_name", where, k)
			}
		}
	case "tool_search_tool_result_error":
		if c.ErrorCode == "" {
			return rejectf("%s.error_code: Field required", where)
		}
	default:
		return rejectf("%s.type: Input should be 'tool_search_tool_search_result' or 'tool_search_tool_result_error'", where)
	}
	return nil
}

// messagesChoice reads a Messages tool_choice into ex.
func messagesChoice(ex *Request, raw json.RawMessage) error {
	ex.Choice = ChoiceAuto
	if isNull(raw) {
		return nil
	}
	if isNull(ex.Fields["tools"]) {
		return rejectf("tool_choice may only be specified while providing tools")
	}
	var tc struct {
		Type                   string `json:"type"`
		Name                   string `json:"name"`
		DisableParallelToolUse bool   `json:"disable_parallel_tool_use"`
	}
	if err := json.Unmarshal(raw, &tc); err != nil {
		return rejectf("tool_choice must be an object")
	}
	ex.Single = tc.DisableParallelToolUse
	switch tc.Type {
	case "auto":
	case "any":
		ex.Choice = ChoiceRequired
	case "none":
		ex.Choice = ChoiceNone
		if tc.DisableParallelToolUse {
			return rejectf("tool_choice.none: disable_parallel_tool_use is not allowed with type none")
		}
	case "tool":
		if !slices.Contains(ex.Tools, tc.Name) {
			return rejectf("tool_choice.tool.name: tool %q is not in tools", tc.Name)
		}
		ex.Choice, ex.Only = ChoiceRequired, []string{tc.Name}
	default:
		return rejectf("tool_choice.type: Input should be 'auto', 'any', 'tool' or 'none'")
	}
	return nil
}
