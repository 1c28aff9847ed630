package tooltest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// OpenAI Chat Completions and Responses.

// chatMessage is a message of a Chat Completions request.
type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

func readChat(body []byte) (*Request, error) {
	req, err := object(body, "the request body")
	if err != nil {
		return nil, err
	}
	ex := &Request{Fields: req}
	if ex.Model, _ = stringOf(req["model"]); ex.Model == "" {
		return nil, rejectf("you must provide a model parameter")
	}
	if ex.Tools, err = chatTools(req["tools"]); err != nil {
		return nil, err
	}
	if err := openaiChoice(ex, req["tool_choice"], true); err != nil {
		return nil, err
	}
	var parallel *bool
	_ = json.Unmarshal(req["parallel_tool_calls"], &parallel)
	ex.Single = parallel != nil && !*parallel
	var msgs []chatMessage
	if err := json.Unmarshal(req["messages"], &msgs); err != nil || len(msgs) == 0 {
		return nil, rejectf("messages must be a non-empty array of messages")
	}
	// pending maps the ids of the last assistant message's calls, not yet answered,
	// to their index in the current turn.
	pending := map[string]int{}
	ids := map[string]bool{}
	unanswered := func(i int) error {
		var open []string
		for _, c := range ex.Turns[len(ex.Turns)-1].Calls {
			if _, ok := pending[c.ID]; ok {
				open = append(open, c.ID)
			}
		}
		return rejectf("messages[%d]: an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'; the following tool_call_ids did not have response messages: %s", i, strings.Join(open, ", "))
	}
	for i, m := range msgs {
		if len(pending) > 0 && m.Role != "tool" {
			return nil, unanswered(i)
		}
		switch m.Role {
		case "system", "developer":
		case "user":
			text, err := chatText(m.Content, fmt.Sprintf("messages[%d].content", i))
			if err != nil {
				return nil, err
			}
			if ex.Question == "" {
				ex.Question = text
			}
		case "assistant":
			if len(m.ToolCalls) == 0 {
				continue
			}
			turn := RequestTurn{}
			for j, c := range m.ToolCalls {
				switch {
				case c.Type != "function":
					return nil, rejectf("messages[%d].tool_calls[%d].type must be 'function'", i, j)
				case c.ID == "":
					return nil, rejectf("messages[%d].tool_calls[%d].id is required", i, j)
				case ids[c.ID]:
					return nil, rejectf("messages[%d].tool_calls[%d]: duplicate tool call id %s", i, j, c.ID)
				}
				ids[c.ID] = true
				pending[c.ID] = j
				turn.Calls = append(turn.Calls, Call{ID: c.ID, Name: c.Function.Name, Args: c.Function.Arguments})
			}
			turn.Results = make([]Result, len(turn.Calls))
			ex.Turns = append(ex.Turns, turn)
		case "tool":
			j, ok := pending[m.ToolCallID]
			if !ok {
				return nil, rejectf("messages[%d]: messages with role 'tool' must be a response to a preceding message with 'tool_calls' (no open call has id %q)", i, m.ToolCallID)
			}
			delete(pending, m.ToolCallID)
			if isNull(m.Content) {
				return nil, rejectf("messages[%d].content is required for a tool message", i)
			}
			text, err := chatText(m.Content, fmt.Sprintf("messages[%d].content", i))
			if err != nil {
				return nil, err
			}
			turn := &ex.Turns[len(ex.Turns)-1]
			turn.Results[j] = Result{Call: turn.Calls[j], Text: text}
		default:
			return nil, rejectf("messages[%d].role %q is not one of 'system', 'developer', 'user', 'assistant', 'tool'", i, m.Role)
		}
	}
	if len(pending) > 0 {
		return nil, unanswered(len(msgs))
	}
	return ex, nil
}

// chatText returns the text of a message's content: a string or an array of parts.
func chatText(raw json.RawMessage, where string) (string, error) {
	if isNull(raw) {
		return "", nil
	}
	if s, ok := stringOf(raw); ok {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", rejectf("%s must be a string or an array of content parts", where)
	}
	var texts []string
	for j, p := range parts {
		switch p.Type {
		case "text", "input_text", "output_text":
			texts = append(texts, p.Text)
		case "":
			return "", rejectf("%s[%d].type is required", where, j)
		}
	}
	return strings.Join(texts, "\n"), nil
}

// chatTools checks a Chat Completions "tools" array and returns its function names.
func chatTools(raw json.RawMessage) ([]string, error) {
	if isNull(raw) {
		return nil, nil
	}
	var tools []struct {
		Type     string `json:"type"`
		Function *struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
			Strict     bool            `json:"strict"`
		} `json:"function"`
	}
	if err := json.Unmarshal(raw, &tools); err != nil || len(tools) == 0 {
		return nil, rejectf("tools must be a non-empty array of tools")
	}
	var names []string
	for i, t := range tools {
		switch {
		case t.Type == "custom":
			continue
		case t.Type != "function":
			return nil, rejectf("tools[%d].type must be 'function' or 'custom'", i)
		case t.Function == nil:
			return nil, rejectf("tools[%d].function is required", i)
		}
		if err := functionTool(names, t.Function.Name, t.Function.Parameters, t.Function.Strict, fmt.Sprintf("tools[%d].function", i)); err != nil {
			return nil, err
		}
		names = append(names, t.Function.Name)
	}
	return names, nil
}

// functionTool checks a function tool of either OpenAI format.
func functionTool(names []string, name string, params json.RawMessage, strict bool, where string) error {
	if !validName(name) {
		return rejectf("%s.name %q must match ^[a-zA-Z0-9_-]{1,64}$", where, name)
	}
	if slices.Contains(names, name) {
		return rejectf("%s.name: duplicate function name %s", where, name)
	}
	if isNull(params) {
		return nil
	}
	var schema map[string]any
	if err := json.Unmarshal(params, &schema); err != nil {
		return rejectf("invalid schema for function '%s': the parameters must be a JSON object", name)
	}
	if schema["type"] != "object" {
		return rejectf("invalid schema for function '%s': schema must be a JSON Schema of 'type: \"object\"', got 'type: %v'", name, schema["type"])
	}
	if strict {
		if err := checkStrict(schema, nil); err != nil {
			return rejectf("invalid schema for function '%s': %v", name, err)
		}
		if err := openAIStrict.check(params); err != nil {
			return rejectf("invalid schema for function '%s': %v", name, err)
		}
	}
	return nil
}

// checkStrict checks the rules of OpenAI's strict mode that an adapter can break:
// every object closed with additionalProperties false and every property required.
func checkStrict(schema map[string]any, path []string) error {
	where := func() string {
		if len(path) == 0 {
			return "at the root"
		}
		return "in context=(" + strings.Join(path, ", ") + ")"
	}
	props, hasProps := schema["properties"].(map[string]any)
	if hasProps || isObjectType(schema["type"]) {
		if ap, ok := schema["additionalProperties"].(bool); !ok || ap {
			return fmt.Errorf("%s, 'additionalProperties' is required to be supplied and to be false", where())
		}
		required := map[string]bool{}
		if list, ok := schema["required"].([]any); ok {
			for _, r := range list {
				if s, ok := r.(string); ok {
					required[s] = true
				}
			}
		}
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !required[k] {
				return fmt.Errorf("%s, 'required' is required to be supplied and to be an array including every key in properties; missing '%s'", where(), k)
			}
			if sub, ok := props[k].(map[string]any); ok {
				if err := checkStrict(sub, append(slices.Clone(path), "'properties'", "'"+k+"'")); err != nil {
					return err
				}
			}
		}
	}
	if items, ok := schema["items"].(map[string]any); ok {
		if err := checkStrict(items, append(slices.Clone(path), "'items'")); err != nil {
			return err
		}
	}
	for _, key := range []string{"anyOf", "$defs", "definitions"} {
		switch v := schema[key].(type) {
		case []any:
			for i, s := range v {
				if sub, ok := s.(map[string]any); ok {
					if err := checkStrict(sub, append(slices.Clone(path), "'"+key+"'", fmt.Sprint(i))); err != nil {
						return err
					}
				}
			}
		case map[string]any:
			names := make([]string, 0, len(v))
			for k := range v {
				names = append(names, k)
			}
			slices.Sort(names)
			for _, k := range names {
				if sub, ok := v[k].(map[string]any); ok {
					if err := checkStrict(sub, append(slices.Clone(path), "'"+key+"'", "'"+k+"'")); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// isObjectType reports whether a schema's "type" is or includes "object".
func isObjectType(t any) bool {
	switch t := t.(type) {
	case string:
		return t == "object"
	case []any:
		return slices.Contains(t, any("object"))
	}
	return false
}

// openaiChoice reads the tool_choice of either OpenAI format into ex. chat tells the
// formats apart: Chat nests a function's name under "function".
func openaiChoice(ex *Request, raw json.RawMessage, chat bool) error {
	ex.Choice = ChoiceAuto
	if isNull(raw) {
		return nil
	}
	if len(ex.Tools) == 0 && isNull(ex.Fields["tools"]) {
		return rejectf("'tool_choice' is only allowed when 'tools' are specified")
	}
	if s, ok := stringOf(raw); ok {
		switch Choice(s) {
		case ChoiceAuto, ChoiceNone, ChoiceRequired:
			ex.Choice = Choice(s)
			return nil
		}
		return rejectf("tool_choice %q is not one of 'none', 'auto', 'required'", s)
	}
	var tc struct {
		Type     string `json:"type"`
		Name     string `json:"name"`
		Mode     string `json:"mode"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
		Tools        json.RawMessage `json:"tools"`
		AllowedTools struct {
			Mode  string          `json:"mode"`
			Tools json.RawMessage `json:"tools"`
		} `json:"allowed_tools"`
	}
	if err := json.Unmarshal(raw, &tc); err != nil {
		return rejectf("tool_choice must be a string or an object")
	}
	switch tc.Type {
	case "function":
		name := tc.Name
		if chat {
			name = tc.Function.Name
		}
		if !slices.Contains(ex.Tools, name) {
			return rejectf("tool_choice names function %q, which is not in tools", name)
		}
		ex.Choice, ex.Only = ChoiceRequired, []string{name}
		return nil
	case "allowed_tools":
		mode, tools := tc.Mode, tc.Tools
		if chat {
			mode, tools = tc.AllowedTools.Mode, tc.AllowedTools.Tools
		}
		var list []struct {
			Type     string `json:"type"`
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		if err := json.Unmarshal(tools, &list); err != nil {
			return rejectf("tool_choice.allowed_tools: tools must be an array")
		}
		ex.Only = []string{}
		for _, t := range list {
			name := t.Name
			if chat {
				name = t.Function.Name
			}
			ex.Only = append(ex.Only, name)
		}
		switch Choice(mode) {
		case ChoiceAuto, ChoiceRequired:
			ex.Choice = Choice(mode)
			return nil
		}
		return rejectf("tool_choice.allowed_tools.mode %q is not 'auto' or 'required'", mode)
	}
	return fmt.Errorf("%w: a tool_choice of type %q", ErrUnsupported, tc.Type)
}

// item is an item of a Responses input.
type item struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"` // a string; an object in a tool_search_call
	Input     json.RawMessage `json:"input"`     // a string
	Output    json.RawMessage `json:"output"`
	Execution string          `json:"execution"`
	Tools     json.RawMessage `json:"tools"`
}

func readResponses(body []byte) (*Request, error) {
	req, err := object(body, "the request body")
	if err != nil {
		return nil, err
	}
	ex := &Request{Fields: req}
	if ex.Model, _ = stringOf(req["model"]); ex.Model == "" {
		return nil, rejectf("you must provide a model parameter")
	}
	ex.Stored = !isNull(req["previous_response_id"]) || !isNull(req["conversation"])
	if ex.Tools, ex.Deferred, ex.Namespaces, err = responsesTools(req["tools"]); err != nil {
		return nil, err
	}
	if err := openaiChoice(ex, req["tool_choice"], false); err != nil {
		return nil, err
	}
	var parallel *bool
	_ = json.Unmarshal(req["parallel_tool_calls"], &parallel)
	ex.Single = parallel != nil && !*parallel
	if s, ok := stringOf(req["input"]); ok {
		ex.Question = s
		return ex, nil
	}
	var items []item
	if err := json.Unmarshal(req["input"], &items); err != nil || len(items) == 0 {
		return nil, rejectf("input must be a string or a non-empty array of items")
	}
	// where locates each call: its turn and index.
	type at struct{ t, j int }
	where := map[string]at{}
	answered := map[string]bool{}
	// A run of the model's output items (reasoning, assistant messages, function
	// calls) is one of its turns: open is the turn the run's calls went to (-1 before
	// its first call), marks the ids of the run's reasoning items before it.
	open, marks := -1, []string(nil)
	searches := map[string]int{} // the tool_search_calls not yet followed by their output
	for i, it := range items {
		typ := it.Type
		if typ == "" && it.Role != "" {
			typ = "message"
		}
		switch {
		case typ == "tool_search_call":
			// The model's search of deferred tools: the API's own (execution
			// "server"), whose tool_search_output follows it, or the client's, which
			// the client answers with one.
			if it.CallID == "" && it.Execution == "client" {
				return nil, rejectf("input[%d].call_id is required for a client tool_search_call", i)
			}
			searches[it.CallID] = i
			continue
		case typ == "tool_search_output":
			if _, ok := searches[it.CallID]; !ok && !ex.Stored {
				return nil, rejectf("input[%d]: no tool_search_call found for tool_search_output with call_id %s", i, it.CallID)
			}
			var loaded []json.RawMessage
			if err := json.Unmarshal(it.Tools, &loaded); err != nil {
				return nil, rejectf("input[%d].tools: an array of the loaded tools is required", i)
			}
			delete(searches, it.CallID)
			continue
		case typ == "reasoning":
			if open >= 0 {
				ex.Turns[open].Marks = append(ex.Turns[open].Marks, it.ID)
			} else {
				marks = append(marks, it.ID)
			}
			continue
		case typ == "message" && it.Role == "assistant":
			continue
		case typ == "function_call" || typ == "custom_tool_call":
			if it.CallID == "" {
				return nil, rejectf("input[%d].call_id is required", i)
			}
			if _, dup := where[it.CallID]; dup {
				return nil, rejectf("input[%d]: duplicate function call with call_id %s", i, it.CallID)
			}
			if open < 0 {
				ex.Turns = append(ex.Turns, RequestTurn{Marks: marks})
				open = len(ex.Turns) - 1
			}
			turn := &ex.Turns[open]
			where[it.CallID] = at{open, len(turn.Calls)}
			raw, field := it.Arguments, "arguments"
			if typ == "custom_tool_call" {
				raw, field = it.Input, "input"
			}
			args, ok := stringOf(raw)
			if !ok {
				return nil, rejectf("input[%d].%s: a string is required", i, field)
			}
			c := Call{ID: it.CallID, Name: it.Name, Args: args, Custom: typ == "custom_tool_call"}
			turn.Calls = append(turn.Calls, c)
			turn.Results = append(turn.Results, Result{})
			continue
		}
		open, marks = -1, nil // the run of model items is over
		switch typ {
		case "message":
			if it.Role == "user" && ex.Question == "" {
				if ex.Question, err = chatText(it.Content, fmt.Sprintf("input[%d].content", i)); err != nil {
					return nil, err
				}
			}
		case "function_call_output", "custom_tool_call_output":
			loc, ok := where[it.CallID]
			if !ok && !ex.Stored {
				return nil, rejectf("input[%d]: no tool call found for function call output with call_id %s", i, it.CallID)
			}
			if ok && ex.Turns[loc.t].Calls[loc.j].Custom != (typ == "custom_tool_call_output") {
				return nil, rejectf("input[%d]: a %s cannot answer call_id %s, which is not its kind of call", i, typ, it.CallID)
			}
			if it.CallID == "" {
				return nil, rejectf("input[%d].call_id is required", i)
			}
			if answered[it.CallID] {
				return nil, rejectf("input[%d]: duplicate function call output for call_id %s", i, it.CallID)
			}
			answered[it.CallID] = true
			if isNull(it.Output) {
				return nil, rejectf("input[%d].output is required", i)
			}
			text, err := chatText(it.Output, fmt.Sprintf("input[%d].output", i))
			if err != nil {
				return nil, err
			}
			if !ok { // a call of the stored conversation
				ex.StoredResults = append(ex.StoredResults, Result{Call: Call{ID: it.CallID, Custom: typ == "custom_tool_call_output"}, Text: text})
				continue
			}
			turn := &ex.Turns[loc.t]
			turn.Results[loc.j] = Result{Call: turn.Calls[loc.j], Text: text}
		}
	}
	for _, t := range ex.Turns {
		for _, c := range t.Calls {
			if !answered[c.ID] {
				return nil, rejectf("no tool output found for function call %s", c.ID)
			}
		}
	}
	for id, i := range searches {
		return nil, rejectf("input[%d]: no tool_search_output found for tool_search_call %s", i, id)
	}
	return ex, nil
}

// responsesTools checks a Responses "tools" array and returns its function names.
func responsesTools(raw json.RawMessage) (names, deferred []string, spaces map[string]string, err error) {
	if isNull(raw) {
		return nil, nil, nil, nil
	}
	var tools []responsesTool
	if err := json.Unmarshal(raw, &tools); err != nil {
		return nil, nil, nil, rejectf("tools must be an array of tools")
	}
	search := false
	function := func(t responsesTool, where string) error {
		if !isNull(t.Function) {
			return rejectf("%s: a Responses function tool is flat: name and parameters at the top, no 'function' object", where)
		}
		strict := t.Strict == nil || *t.Strict // Responses is strict by default
		if err := functionTool(names, t.Name, t.Parameters, strict, where); err != nil {
			return err
		}
		if t.DeferLoading {
			deferred = append(deferred, t.Name)
		}
		names = append(names, t.Name)
		return nil
	}
	for i, t := range tools {
		where := fmt.Sprintf("tools[%d]", i)
		switch t.Type {
		case "function":
			if err := function(t, where); err != nil {
				return nil, nil, nil, err
			}
		case "tool_search":
			if t.Execution != "" && t.Execution != "server" && t.Execution != "client" {
				return nil, nil, nil, rejectf("%s.execution: must be 'server' or 'client'", where)
			}
			search = true
		case "namespace":
			// Functions grouped under a name; defer_loading goes on the functions,
			// not on the namespace.
			switch {
			case !validName(t.Name):
				return nil, nil, nil, rejectf("%s.name: a namespace needs a valid name", where)
			case t.Description == "":
				return nil, nil, nil, rejectf("%s.description: Field required", where)
			case t.DeferLoading:
				return nil, nil, nil, rejectf("%s: defer_loading applies to the functions of a namespace, not to the namespace", where)
			case len(t.Tools) == 0:
				return nil, nil, nil, rejectf("%s.tools: a namespace needs at least one function", where)
			}
			for j, f := range t.Tools {
				if f.Type != "function" && f.Type != "custom" {
					return nil, nil, nil, rejectf("%s.tools[%d].type: a namespace holds function and custom tools", where, j)
				}
				if f.Type == "function" {
					if err := function(f, fmt.Sprintf("%s.tools[%d]", where, j)); err != nil {
						return nil, nil, nil, err
					}
					if spaces == nil {
						spaces = map[string]string{}
					}
					spaces[f.Name] = t.Name
				}
			}
		}
		// Other types are hosted tools: web_search, file_search, ...
	}
	if len(deferred) > 0 && !search {
		return nil, nil, nil, rejectf("tools: functions with defer_loading need the tool_search tool in tools")
	}
	return names, deferred, spaces, nil
}

// responsesTool is an entry of a Responses "tools" array, as far as the fake reads it.
type responsesTool struct {
	Type         string          `json:"type"`
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	Parameters   json.RawMessage `json:"parameters"`
	Strict       *bool           `json:"strict"`
	Function     json.RawMessage `json:"function"`
	DeferLoading bool            `json:"defer_loading"`
	Execution    string          `json:"execution"`
	Tools        []responsesTool `json:"tools"`
}
