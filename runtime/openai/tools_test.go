package openai_test

// The definitions and tool choices are also checked against the official SDK, which
// reads and builds the same JSON, in interop/runtimeopenai.

import (
	"encoding/json"
	"testing"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/openai"
)

func TestChatToolsWire(t *testing.T) {
	tools := openai.ChatTools(testTools())
	got := wiretest.MustMarshal(t, tools)
	want := `[
		{"type":"function","function":{"name":"add","description":"Adds two numbers.","strict":false,"parameters":` + addSchema + `}},
		{"type":"function","function":{"name":"fail","description":"Always fails.","strict":false,"parameters":{"type":"object","properties":{}}}},
		{"type":"function","function":{"name":"get_weather","description":"Current weather in a city.","strict":true,"parameters":` + weatherStrict + `}},
		{"type":"function","function":{"name":"ping","strict":false,"parameters":{"type":"object","properties":{}}}}]`
	wiretest.SameJSON(t, "chat tools", got, []byte(want))
	if openai.ChatTools(nil) != nil {
		t.Error("ChatTools(nil) is not nil")
	}
}

func TestResponsesToolsWire(t *testing.T) {
	got := wiretest.MustMarshal(t, openai.ResponsesTools(testTools()))
	want := `[
		{"type":"function","name":"add","description":"Adds two numbers.","strict":false,"parameters":` + addSchema + `},
		{"type":"function","name":"fail","description":"Always fails.","strict":false,"parameters":{"type":"object","properties":{}}},
		{"type":"function","name":"get_weather","description":"Current weather in a city.","strict":true,"parameters":` + weatherStrict + `},
		{"type":"function","name":"ping","strict":false,"parameters":{"type":"object","properties":{}}}]`
	wiretest.SameJSON(t, "responses tools", got, []byte(want))
}

// A tool without a lowered schema is sent with its own schema, not strict, even when
// it asks for strict mode: only toolgen knows the schema meets strict mode's rules.
func TestToolsWithoutLoweredSchema(t *testing.T) {
	ts := runtime.NewToolset([]runtime.Tool{{Name: "w", InputSchema: json.RawMessage(weatherSchema), Strict: true}},
		func(int, *runtime.Decoder) runtime.Invocation { return nil })
	c := openai.ChatTools(ts)[0].Function
	r := openai.ResponsesTools(ts)[0]
	if c.Strict || r.Strict || string(c.Parameters) != weatherSchema || string(r.Parameters) != weatherSchema {
		t.Errorf("got chat %+v, responses %+v", c, r)
	}
}

// The tool choices on the wire (interop/runtimeopenai checks that the SDK sends the
// same for the same choice).
func TestToolChoicesWire(t *testing.T) {
	for _, tc := range []struct {
		name string
		ours json.RawMessage
		want string
	}{
		{"auto", openai.ToolChoice(runtime.ChoiceAuto), `"auto"`},
		{"none", openai.ToolChoice(runtime.ChoiceNone), `"none"`},
		{"required", openai.ToolChoice(runtime.ChoiceRequired), `"required"`},
		{"chat function", openai.ChatToolChoiceFunction("get_weather"), `{"type":"function","function":{"name":"get_weather"}}`},
		{"chat allowed", openai.ChatToolChoiceAllowed(runtime.ChoiceRequired, "add", "ping"),
			`{"type":"allowed_tools","allowed_tools":{"mode":"required","tools":[{"type":"function","function":{"name":"add"}},{"type":"function","function":{"name":"ping"}}]}}`},
		{"chat allowed auto", openai.ChatToolChoiceAllowed(runtime.ChoiceAuto, "add"),
			`{"type":"allowed_tools","allowed_tools":{"mode":"auto","tools":[{"type":"function","function":{"name":"add"}}]}}`},
		{"responses function", openai.ResponsesToolChoiceFunction("get_weather"), `{"type":"function","name":"get_weather"}`},
		{"responses allowed", openai.ResponsesToolChoiceAllowed(runtime.ChoiceRequired, "add", "ping"),
			`{"type":"allowed_tools","mode":"required","tools":[{"type":"function","name":"add"},{"type":"function","name":"ping"}]}`},
	} {
		wiretest.SameJSON(t, tc.name, tc.ours, []byte(tc.want))
	}
}

// The generated tools of the weather example go out unchanged, with the schema toolgen
// lowered for OpenAI when it filled one (interop/runtimeopenai also sends them through
// the SDK's types).
func TestGeneratedTools(t *testing.T) {
	ts := forecast.Tools()
	chat := openai.ChatTools(ts)
	resp := openai.ResponsesTools(ts)
	for i, tool := range ts.Tools() {
		params, strict := tool.InputSchema, false
		if len(tool.OpenAI.Parameters) > 0 {
			params, strict = tool.OpenAI.Parameters, tool.OpenAI.Strict
		}
		c, r := chat[i].Function, resp[i]
		if c.Name != tool.Name || r.Name != tool.Name || c.Strict != strict || r.Strict != strict {
			t.Errorf("%s: got chat %s/%v, responses %s/%v, want strict %v", tool.Name, c.Name, c.Strict, r.Name, r.Strict, strict)
		}
		wiretest.SameJSON(t, tool.Name+" chat parameters", c.Parameters, params)
		wiretest.SameJSON(t, tool.Name+" responses parameters", r.Parameters, params)
	}
}
