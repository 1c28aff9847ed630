package runtimeopenai_test

// From runtime/openai's tests: the tool definitions and choices the SDK reads and builds.

import (
	"encoding/json"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime/dialect"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/openai"
)

// The definitions are what the official SDK sends: each unmarshals into the SDK's tool
// union as a function tool, and the SDK marshals it back to the same JSON.
func TestChatToolsMatchSDK(t *testing.T) {
	for _, tool := range openai.ChatTools(testTools()) {
		ours := wiretest.MustMarshal(t, tool)
		var u sdk.ChatCompletionToolUnionParam
		if err := json.Unmarshal(ours, &u); err != nil {
			t.Fatalf("%s: the SDK rejects it: %v", tool.Function.Name, err)
		}
		if u.OfFunction == nil {
			t.Fatalf("%s: not a function tool for the SDK: %s", tool.Function.Name, ours)
		}
		fn := u.OfFunction.Function
		if fn.Name != tool.Function.Name || fn.Strict.Value != tool.Function.Strict || !fn.Strict.Valid() {
			t.Errorf("%s: the SDK reads name %q strict %v", tool.Function.Name, fn.Name, fn.Strict)
		}
		wiretest.SameJSON(t, tool.Function.Name+" through the SDK", wiretest.MustMarshal(t, u), ours)
	}
}

func TestResponsesToolsMatchSDK(t *testing.T) {
	for _, tool := range openai.ResponsesTools(testTools()) {
		ours := wiretest.MustMarshal(t, tool)
		var u responses.ToolUnionParam
		if err := json.Unmarshal(ours, &u); err != nil {
			t.Fatalf("%s: the SDK rejects it: %v", tool.Name, err)
		}
		if u.OfFunction == nil {
			t.Fatalf("%s: not a function tool for the SDK: %s", tool.Name, ours)
		}
		fn := u.OfFunction
		if fn.Name != tool.Name || !fn.Strict.Valid() || fn.Strict.Value != tool.Strict || len(fn.Parameters) == 0 {
			t.Errorf("%s: the SDK reads name %q strict %v parameters %v", tool.Name, fn.Name, fn.Strict, fn.Parameters)
		}
		wiretest.SameJSON(t, tool.Name+" through the SDK", wiretest.MustMarshal(t, u), ours)
	}
}

// The tool choices are what the SDK sends for the same choice. (The SDK's param unions
// cannot be unmarshaled to check them the other way: they do not tell a named function
// from the other object forms.)
func TestChatToolChoicesMatchSDK(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ours   json.RawMessage
		theirs sdk.ChatCompletionToolChoiceOptionUnionParam
	}{
		{"auto", openai.ToolChoice(loop.ChoiceAuto), sdk.ChatCompletionToolChoiceOptionUnionParam{OfAuto: param.NewOpt("auto")}},
		{"none", openai.ToolChoice(loop.ChoiceNone), sdk.ChatCompletionToolChoiceOptionUnionParam{OfAuto: param.NewOpt("none")}},
		{"required", openai.ToolChoice(loop.ChoiceRequired), sdk.ChatCompletionToolChoiceOptionUnionParam{OfAuto: param.NewOpt("required")}},
		{"function", openai.ChatToolChoiceFunction("get_weather"),
			sdk.ToolChoiceOptionFunctionToolChoice(sdk.ChatCompletionNamedToolChoiceFunctionParam{Name: "get_weather"})},
		{"allowed", openai.ChatToolChoiceAllowed(loop.ChoiceRequired, "add", "ping"),
			sdk.ToolChoiceOptionAllowedTools(sdk.ChatCompletionAllowedToolsParam{Mode: sdk.ChatCompletionAllowedToolsModeRequired, Tools: []map[string]any{
				{"type": "function", "function": map[string]any{"name": "add"}},
				{"type": "function", "function": map[string]any{"name": "ping"}},
			}})},
		{"allowed auto", openai.ChatToolChoiceAllowed(loop.ChoiceAuto, "add"),
			sdk.ToolChoiceOptionAllowedTools(sdk.ChatCompletionAllowedToolsParam{Mode: sdk.ChatCompletionAllowedToolsModeAuto, Tools: []map[string]any{
				{"type": "function", "function": map[string]any{"name": "add"}},
			}})},
	} {
		wiretest.SameJSON(t, tc.name, tc.ours, wiretest.MustMarshal(t, tc.theirs))
	}
}

func TestResponsesToolChoicesMatchSDK(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ours   json.RawMessage
		theirs responses.ResponseNewParamsToolChoiceUnion
	}{
		{"auto", openai.ToolChoice(loop.ChoiceAuto), responses.ResponseNewParamsToolChoiceUnion{OfToolChoiceMode: param.NewOpt(responses.ToolChoiceOptionsAuto)}},
		{"none", openai.ToolChoice(loop.ChoiceNone), responses.ResponseNewParamsToolChoiceUnion{OfToolChoiceMode: param.NewOpt(responses.ToolChoiceOptionsNone)}},
		{"required", openai.ToolChoice(loop.ChoiceRequired), responses.ResponseNewParamsToolChoiceUnion{OfToolChoiceMode: param.NewOpt(responses.ToolChoiceOptionsRequired)}},
		{"function", openai.ResponsesToolChoiceFunction("get_weather"),
			responses.ResponseNewParamsToolChoiceUnion{OfFunctionTool: &responses.ToolChoiceFunctionParam{Name: "get_weather"}}},
		{"allowed", openai.ResponsesToolChoiceAllowed(loop.ChoiceRequired, "add", "ping"),
			responses.ResponseNewParamsToolChoiceUnion{OfAllowedTools: &responses.ToolChoiceAllowedParam{Mode: responses.ToolChoiceAllowedModeRequired, Tools: []map[string]any{
				{"type": "function", "name": "add"}, {"type": "function", "name": "ping"},
			}}}},
	} {
		wiretest.SameJSON(t, tc.name, tc.ours, wiretest.MustMarshal(t, tc.theirs))
	}
}

// The definitions equal those the SDK builds from the same fields.
func TestToolsEqualSDKBuilt(t *testing.T) {
	ts := testTools()
	tool, _ := ts.Lookup("get_weather")
	var params map[string]any
	if err := json.Unmarshal([]byte(weatherStrict), &params); err != nil {
		t.Fatal(err)
	}
	chat := sdk.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
		Name: tool.Name, Description: param.NewOpt(tool.Description), Strict: param.NewOpt(true), Parameters: params,
	})
	resp := responses.ToolUnionParam{OfFunction: &responses.FunctionToolParam{
		Name: tool.Name, Description: param.NewOpt(tool.Description), Strict: param.NewOpt(true), Parameters: params,
	}}
	for _, c := range openai.ChatTools(ts) {
		if c.Function.Name == tool.Name {
			wiretest.SameJSON(t, "chat tool", wiretest.MustMarshal(t, c), wiretest.MustMarshal(t, chat))
		}
	}
	for _, r := range openai.ResponsesTools(ts) {
		if r.Name == tool.Name {
			wiretest.SameJSON(t, "responses tool", wiretest.MustMarshal(t, r), wiretest.MustMarshal(t, resp))
		}
	}
}

// The generated tools of the weather example go through the SDK unchanged, with their
// schemas lowered by runtime/dialect.
func TestGeneratedToolsMatchSDK(t *testing.T) {
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

		var cu sdk.ChatCompletionToolUnionParam
		if err := json.Unmarshal(wiretest.MustMarshal(t, chat[i]), &cu); err != nil || cu.OfFunction == nil {
			t.Fatalf("%s: the SDK rejects the chat tool: %v", tool.Name, err)
		}
		wiretest.SameJSON(t, tool.Name+" chat tool through the SDK", wiretest.MustMarshal(t, cu), wiretest.MustMarshal(t, chat[i]))
		var ru responses.ToolUnionParam
		if err := json.Unmarshal(wiretest.MustMarshal(t, resp[i]), &ru); err != nil || ru.OfFunction == nil {
			t.Fatalf("%s: the SDK rejects the responses tool: %v", tool.Name, err)
		}
		wiretest.SameJSON(t, tool.Name+" responses tool through the SDK", wiretest.MustMarshal(t, ru), wiretest.MustMarshal(t, resp[i]))
	}
}
