package tooltest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Gemini generateContent.

// geminiPart is a part of a content.
type geminiPart struct {
	Text         *string `json:"text"`
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
	ThoughtSignature string `json:"thoughtSignature"`
}

func readGenerateContent(body []byte) (*Request, error) {
	req, err := object(body, "the request body")
	if err != nil {
		return nil, err
	}
	ex := &Request{Fields: req}
	if ex.Tools, err = geminiTools(req["tools"]); err != nil {
		return nil, err
	}
	if err := geminiConfig(ex, req["toolConfig"]); err != nil {
		return nil, err
	}
	var contents []struct {
		Role  string       `json:"role"`
		Parts []geminiPart `json:"parts"`
	}
	if err := json.Unmarshal(req["contents"], &contents); err != nil || len(contents) == 0 {
		return nil, rejectf("contents is not specified")
	}
	pending := -1 // the turn whose function calls the next content must answer
	prev := ""
	for i, c := range contents {
		where := fmt.Sprintf("contents[%d]", i)
		role := c.Role
		if role == "" {
			role = "user"
		}
		if len(c.Parts) == 0 {
			return nil, rejectf("%s: contents.parts must not be empty", where)
		}
		var responses []int // the indexes of the functionResponse parts
		for j, p := range c.Parts {
			if p.FunctionResponse != nil {
				responses = append(responses, j)
			}
		}
		if pending >= 0 {
			turn := &ex.Turns[pending]
			if role != "user" || len(responses) != len(turn.Calls) {
				return nil, rejectf("%s: please ensure that the number of function response parts is equal to the number of function call parts of the function call turn (%d calls, %d responses)", where, len(turn.Calls), len(responses))
			}
			for k, j := range responses {
				fr, call := c.Parts[j].FunctionResponse, turn.Calls[k]
				if fr.Name != call.Name || call.ID != "" && fr.ID != call.ID {
					return nil, rejectf("%s.parts[%d]: the function response for %s (id %q) answers call %d, which is %s (id %q): answer the calls in their order", where, j, fr.Name, fr.ID, k+1, call.Name, call.ID)
				}
				text, isErr, err := responseText(fr.Response, fmt.Sprintf("%s.parts[%d].functionResponse.response", where, j))
				if err != nil {
					return nil, err
				}
				turn.Results[k] = Result{Call: call, Text: text, IsError: isErr}
			}
			pending = -1
		} else if len(responses) > 0 {
			return nil, rejectf("%s: please ensure that function response turn comes immediately after a function call turn", where)
		}
		switch role {
		case "user":
			if ex.Question == "" {
				for _, p := range c.Parts {
					if p.Text != nil {
						ex.Question += *p.Text
					}
				}
			}
		case "model":
			if prev != "user" {
				return nil, rejectf("%s: please ensure that function call turn comes immediately after a user turn or after a function response turn", where)
			}
			var turn RequestTurn
			for j, p := range c.Parts {
				if p.ThoughtSignature != "" {
					turn.Marks = append(turn.Marks, p.ThoughtSignature)
				}
				fc := p.FunctionCall
				if fc == nil {
					continue
				}
				if fc.Name == "" {
					return nil, rejectf("%s.parts[%d].functionCall.name is required", where, j)
				}
				args := "{}"
				if !isNull(fc.Args) {
					if !isObject(fc.Args) {
						return nil, rejectf("%s.parts[%d].functionCall.args must be an object", where, j)
					}
					args = compact(fc.Args)
				}
				turn.Calls = append(turn.Calls, Call{ID: fc.ID, Name: fc.Name, Args: args})
			}
			if len(turn.Calls) > 0 {
				turn.Results = make([]Result, len(turn.Calls))
				ex.Turns = append(ex.Turns, turn)
				pending = len(ex.Turns) - 1
			} else if i == len(contents)-1 {
				ex.Prefill = true
			}
		default:
			return nil, rejectf("%s: please use a valid role: user, model", where)
		}
		prev = role
	}
	if pending >= 0 {
		return nil, rejectf("contents: the function call turn %d has no function response turn after it", pending+1)
	}
	return ex, nil
}

// responseText returns what a functionResponse's response says: its "output" or its
// "error" (a string as is, anything else as JSON), or the whole response.
func responseText(raw json.RawMessage, where string) (string, bool, error) {
	resp, err := object(raw, where)
	if err != nil {
		return "", false, err
	}
	text := func(v json.RawMessage) string {
		if s, ok := stringOf(v); ok {
			return s
		}
		return compact(v)
	}
	if v, ok := resp["error"]; ok {
		return text(v), true, nil
	}
	if v, ok := resp["output"]; ok {
		return text(v), false, nil
	}
	return compact(raw), false, nil
}

// geminiTools checks a generateContent "tools" array and returns its function names.
func geminiTools(raw json.RawMessage) ([]string, error) {
	if isNull(raw) {
		return nil, nil
	}
	var tools []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &tools); err != nil {
		return nil, rejectf("tools must be an array of tools")
	}
	var names []string
	for i, t := range tools {
		decls := t["functionDeclarations"]
		if isNull(decls) {
			decls = t["function_declarations"]
		}
		if isNull(decls) {
			continue // googleSearch, codeExecution, ...
		}
		var list []struct {
			Name                 string          `json:"name"`
			Parameters           json.RawMessage `json:"parameters"`
			ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
		}
		if err := json.Unmarshal(decls, &list); err != nil {
			return nil, rejectf("tools[%d].functionDeclarations must be an array", i)
		}
		for j, d := range list {
			where := fmt.Sprintf("tools[%d].functionDeclarations[%d]", i, j)
			if !validGeminiName(d.Name) {
				return nil, rejectf("%s.name %q: must start with a letter or an underscore and hold only a-z, A-Z, 0-9, underscores, dots, colons and dashes, 64 at most", where, d.Name)
			}
			if slices.Contains(names, d.Name) {
				return nil, rejectf("%s: duplicate function declaration %s", where, d.Name)
			}
			if !isNull(d.Parameters) && !isNull(d.ParametersJSONSchema) {
				return nil, rejectf("%s: parameters and parametersJsonSchema are mutually exclusive", where)
			}
			if !isNull(d.Parameters) {
				var schema struct {
					Type string `json:"type"`
				}
				if json.Unmarshal(d.Parameters, &schema) != nil || !strings.EqualFold(schema.Type, "object") {
					return nil, rejectf("%s.parameters.type: the parameters of a function must be of type OBJECT", where)
				}
				if err := geminiParameters.check(d.Parameters); err != nil {
					return nil, rejectf("%s.parameters: %v", where, err)
				}
			}
			names = append(names, d.Name)
		}
	}
	return names, nil
}

// validGeminiName reports whether name fits Gemini's function names.
func validGeminiName(name string) bool {
	if len(name) == 0 || len(name) > 64 || !(name[0] == '_' || name[0] >= 'a' && name[0] <= 'z' || name[0] >= 'A' && name[0] <= 'Z') {
		return false
	}
	return !strings.ContainsFunc(name, func(r rune) bool {
		return !(r == '_' || r == '.' || r == ':' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
}

// geminiConfig reads a toolConfig's function calling config into ex.
func geminiConfig(ex *Request, raw json.RawMessage) error {
	ex.Choice = ChoiceAuto
	if isNull(raw) {
		return nil
	}
	var tc struct {
		FunctionCallingConfig *struct {
			Mode                 string   `json:"mode"`
			AllowedFunctionNames []string `json:"allowedFunctionNames"`
		} `json:"functionCallingConfig"`
	}
	if err := json.Unmarshal(raw, &tc); err != nil {
		return rejectf("toolConfig must be an object")
	}
	fc := tc.FunctionCallingConfig
	if fc == nil {
		return nil
	}
	if fc.AllowedFunctionNames != nil {
		if fc.Mode != "ANY" && fc.Mode != "VALIDATED" {
			return rejectf("toolConfig.functionCallingConfig: allowedFunctionNames may be set only when the mode is ANY or VALIDATED")
		}
		for _, n := range fc.AllowedFunctionNames {
			if !slices.Contains(ex.Tools, n) {
				return rejectf("toolConfig.functionCallingConfig.allowedFunctionNames: %s is not a declared function", n)
			}
		}
		ex.Only = fc.AllowedFunctionNames
	}
	switch fc.Mode {
	case "", "MODE_UNSPECIFIED", "AUTO", "VALIDATED":
	case "ANY":
		if len(ex.Tools) == 0 {
			return rejectf("toolConfig.functionCallingConfig: mode ANY needs function declarations")
		}
		ex.Choice = ChoiceRequired
	case "NONE":
		ex.Choice = ChoiceNone
	default:
		return rejectf("toolConfig.functionCallingConfig.mode: invalid value %q", fc.Mode)
	}
	return nil
}
