package openai_test

// The definitions and tool choices are also checked against the official SDK, which
// reads and builds the same JSON, in interop/runtimeopenai.

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/dialect"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/openai"
	"github.com/toolgen/toolgen/runtime/toolimpl"
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

// A tool built by hand is lowered as a generated one is: strict when it asks for it and
// its schema allows it, as given otherwise; the lowering is computed once per tool.
func TestToolsBuiltByHand(t *testing.T) {
	ts := runtime.NewToolset([]runtime.Tool{
		{Name: "w", InputSchema: json.RawMessage(weatherSchema), Strict: true},
		{Name: "m", InputSchema: json.RawMessage(`{"type":"object","additionalProperties":{"type":"string"}}`), Strict: true},
		{Name: "n", InputSchema: json.RawMessage(weatherSchema)},
	}, toolimpl.Direct(func(int, *toolimpl.Decoder) toolimpl.Invocation { return nil }))
	c := openai.ChatTools(ts)
	r := openai.ResponsesTools(ts)
	for i, want := range []struct {
		name, params string
		strict       bool
	}{{"m", `{"type":"object","additionalProperties":{"type":"string"}}`, false}, {"n", weatherSchema, false}, {"w", weatherStrict, true}} {
		if c[i].Function.Name != want.name || c[i].Function.Strict != want.strict || string(c[i].Function.Parameters) != want.params {
			t.Errorf("chat %d: got %s strict=%v %s, want %s strict=%v %s", i, c[i].Function.Name, c[i].Function.Strict, c[i].Function.Parameters, want.name, want.strict, want.params)
		}
		if r[i].Name != want.name || r[i].Strict != want.strict || string(r[i].Parameters) != want.params {
			t.Errorf("responses %d: got %s strict=%v %s", i, r[i].Name, r[i].Strict, r[i].Parameters)
		}
	}
	// The second listing reuses the first's lowering: the same bytes, not a copy.
	if again := openai.ChatTools(ts.WithMaxParallel(2)); &again[2].Function.Parameters[0] != &c[2].Function.Parameters[0] {
		t.Errorf("the lowering was computed again")
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
		{"auto", openai.ToolChoice(loop.ChoiceAuto), `"auto"`},
		{"none", openai.ToolChoice(loop.ChoiceNone), `"none"`},
		{"required", openai.ToolChoice(loop.ChoiceRequired), `"required"`},
		{"chat function", openai.ChatToolChoiceFunction("get_weather"), `{"type":"function","function":{"name":"get_weather"}}`},
		{"chat allowed", openai.ChatToolChoiceAllowed(loop.ChoiceRequired, "add", "ping"),
			`{"type":"allowed_tools","allowed_tools":{"mode":"required","tools":[{"type":"function","function":{"name":"add"}},{"type":"function","function":{"name":"ping"}}]}}`},
		{"chat allowed auto", openai.ChatToolChoiceAllowed(loop.ChoiceAuto, "add"),
			`{"type":"allowed_tools","allowed_tools":{"mode":"auto","tools":[{"type":"function","function":{"name":"add"}}]}}`},
		{"responses function", openai.ResponsesToolChoiceFunction("get_weather"), `{"type":"function","name":"get_weather"}`},
		{"responses allowed", openai.ResponsesToolChoiceAllowed(loop.ChoiceRequired, "add", "ping"),
			`{"type":"allowed_tools","mode":"required","tools":[{"type":"function","name":"add"},{"type":"function","name":"ping"}]}`},
	} {
		wiretest.SameJSON(t, tc.name, tc.ours, []byte(tc.want))
	}
}

// The generated tools of the weather example go out with their schemas lowered by
// dialect.OpenAI (internal/dialectfiles checks them against toolschema/openai.json) (interop/runtimeopenai also sends them through
// the SDK's types).
func TestGeneratedTools(t *testing.T) {
	ts := forecast.Tools()
	chat := openai.ChatTools(ts)
	resp := openai.ResponsesTools(ts)
	for i, tool := range ts.Tools() {
		l, _ := dialect.OpenAI(tool.InputSchema, tool.Strict)
		params, strict := l.Parameters, l.Strict
		c, r := chat[i].Function, resp[i]
		if c.Name != tool.Name || r.Name != tool.Name || c.Strict != strict || r.Strict != strict {
			t.Errorf("%s: got chat %s/%v, responses %s/%v, want strict %v", tool.Name, c.Name, c.Strict, r.Name, r.Strict, strict)
		}
		wiretest.SameJSON(t, tool.Name+" chat parameters", c.Parameters, params)
		wiretest.SameJSON(t, tool.Name+" responses parameters", r.Parameters, params)
	}
}

// A dynamic tool is offered strict, as a generated tool of the same schema is.
func TestDynamicToolStrict(t *testing.T) {
	ts, err := runtime.NewTool(runtime.Tool{Name: "w", InputSchema: json.RawMessage(weatherSchema), Strict: true},
		func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult("ok"), nil })
	if err != nil {
		t.Fatal(err)
	}
	c := openai.ChatTools(ts)[0].Function
	if !c.Strict || string(c.Parameters) != weatherStrict {
		t.Errorf("got %s strict=%v, want %s strict", c.Parameters, c.Strict, weatherStrict)
	}
}
