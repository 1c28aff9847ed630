package tooltest

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// CheckTools checks that the tools a valid request carries (its "tools" field) are
// want, the definitions the request should send (a runtime/<provider> package's for
// the tool set, say), marshalled as JSON (a json.RawMessage is taken as it is): the
// same number of tools, each the same JSON value as its definition, and, in every
// format but GenerateContent, each tool's parameter schema with its properties in
// their order, byte for byte, as the model reads them (Chat's function.parameters,
// Responses' parameters, Messages' input_schema). Gemini orders properties by a
// schema's propertyOrdering, not by the text, so the text's order is not checked
// there. An absent or null "tools" is no tools.
func CheckTools(req *Request, want any) error {
	wantText, err := json.Marshal(want)
	if err != nil {
		return fmt.Errorf("tooltest: the tools to want: %v", err)
	}
	var got, wantTools []json.RawMessage
	if raw := req.Fields["tools"]; !isNull(raw) {
		if err := json.Unmarshal(raw, &got); err != nil {
			return fmt.Errorf("tools %s is not an array", raw)
		}
	}
	if !isNull(wantText) {
		if err := json.Unmarshal(wantText, &wantTools); err != nil {
			return fmt.Errorf("tooltest: the tools to want, %s, are not an array", wantText)
		}
	}
	if len(got) != len(wantTools) {
		return fmt.Errorf("%d tools, want %d: %s", len(got), len(wantTools), wantText)
	}
	for i := range got {
		if !sameJSON(got[i], wantTools[i]) {
			return fmt.Errorf("tool %d is %s, want %s", i, got[i], wantTools[i])
		}
		if req.Format == GenerateContent {
			continue
		}
		g, w := properties(req.Format, got[i]), properties(req.Format, wantTools[i])
		if compact(g) != compact(w) {
			return fmt.Errorf("tool %d: properties %s, want them in their order: %s", i, g, w)
		}
	}
	return nil
}

// properties returns the properties of a tool's parameter schema, as the text has
// them (nil when there are none).
func properties(f Format, tool json.RawMessage) json.RawMessage {
	var t struct {
		Function struct {
			Parameters json.RawMessage `json:"parameters"`
		} `json:"function"`
		Parameters  json.RawMessage `json:"parameters"`
		InputSchema json.RawMessage `json:"input_schema"`
	}
	if json.Unmarshal(tool, &t) != nil {
		return nil
	}
	schema := t.Parameters
	switch f {
	case Chat:
		schema = t.Function.Parameters
	case Messages:
		schema = t.InputSchema
	}
	var s struct {
		Properties json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	return s.Properties
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}
