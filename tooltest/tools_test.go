package tooltest

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckTools(t *testing.T) {
	// The tools of a request in each format, and Chat's with the fields of the tool
	// and of its schema in another order, but the properties' (JSON does not order an
	// object's fields; the model reads the properties in their order).
	const (
		chat      = `[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}}}}}]`
		chatOrder = `[{"function":{"parameters":{"properties":{"b":{"type":"string"},"a":{"type":"integer"}},"type":"object"},"name":"f"},"type":"function"}]`
		responses = `[{"type":"function","name":"f","strict":false,"parameters":{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}}}}]`
		messages  = `[{"name":"f","input_schema":{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}}}}]`
		gemini    = `[{"functionDeclarations":[{"name":"f","parameters":{"type":"OBJECT","properties":{"b":{"type":"STRING"},"a":{"type":"INTEGER"}}}}]}]`
	)
	swap := func(s string) string { // the properties' order turned around
		s = strings.Replace(s, `"b":{"type":"string"},"a":{"type":"integer"}`, `"a":{"type":"integer"},"b":{"type":"string"}`, 1)
		return strings.Replace(s, `"b":{"type":"STRING"},"a":{"type":"INTEGER"}`, `"a":{"type":"INTEGER"},"b":{"type":"STRING"}`, 1)
	}
	bodies := map[Format]string{
		Chat:            `{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":` + chat + `}`,
		Responses:       `{"model":"m","input":"hi","tools":` + responses + `}`,
		Messages:        `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"hi"}],"tools":` + messages + `}`,
		GenerateContent: `{"contents":[{"parts":[{"text":"hi"}]}],"tools":` + gemini + `}`,
	}
	tools := map[Format]string{Chat: chat, Responses: responses, Messages: messages, GenerateContent: gemini}
	for _, f := range Formats() {
		req, err := Read(f, []byte(bodies[f]))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := CheckTools(req, json.RawMessage(tools[f])); err != nil {
			t.Errorf("%s: the tools it carries: %v", f, err)
		}
		var v []json.RawMessage // the definitions as a Go value, which CheckTools marshals
		json.Unmarshal([]byte(tools[f]), &v)
		if err := CheckTools(req, v); err != nil {
			t.Errorf("%s: the tools as a Go value: %v", f, err)
		}
		// Properties in another order are other tools, but for Gemini.
		err = CheckTools(req, json.RawMessage(swap(tools[f])))
		if f == GenerateContent && err != nil {
			t.Errorf("%s: properties in another order: %v", f, err)
		}
		if f != GenerateContent && (err == nil || !strings.Contains(err.Error(), "in their order")) {
			t.Errorf("%s: properties in another order: %v, want an error about their order", f, err)
		}
		if err := CheckTools(req, json.RawMessage(strings.Replace(tools[f], `"f"`, `"g"`, 1))); err == nil || !strings.Contains(err.Error(), "tool 0 is") {
			t.Errorf("%s: another tool: %v, want an error", f, err)
		}
		if err := CheckTools(req, []any{}); err == nil {
			t.Errorf("%s: no tools wanted: no error", f)
		}
	}
	// JSON does not order a tool's fields: only the schema's properties count.
	req, _ := Read(Chat, []byte(bodies[Chat]))
	if err := CheckTools(req, json.RawMessage(chatOrder)); err != nil {
		t.Errorf("the fields of a tool in another order: %v", err)
	}
	// No tools: an absent "tools" is none, as nil definitions are.
	req, err := Read(Messages, []byte(`{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckTools(req, nil); err != nil {
		t.Errorf("no tools, none wanted: %v", err)
	}
	if err := CheckTools(req, json.RawMessage(messages)); err == nil {
		t.Error("no tools, one wanted: no error")
	}
}
