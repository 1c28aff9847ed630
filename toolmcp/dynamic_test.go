package toolmcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
)

// A dynamic tool (runtime.NewTool) is a *runtime.Toolset like a generated one: joined
// with generated tools, it is served, listed and called through the SDK's client with
// the same validation.
func TestDynamicTools(t *testing.T) {
	say, err := runtime.NewTool(runtime.Tool{
		Name:        "say",
		Description: "Says a message.",
		Annotations: runtime.Annotations{ReadOnly: new(true)},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"msg":{"type":"string","minLength":1},"loud":{"type":"boolean","default":false}},"required":["msg"],"additionalProperties":false}`),
	}, func(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
		return runtime.TextResult("said " + string(args)), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cs := serve(t, runtime.Join(forecast.Tools(), say))
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if tool.Name == "say" {
			if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
				t.Errorf("say's annotations: %+v", tool.Annotations)
			}
			b, _ := json.Marshal(tool.InputSchema)
			if !strings.Contains(string(b), `"required":["msg"]`) {
				t.Errorf("say's input schema: %s", b)
			}
		}
	}
	if strings.Join(names, ",") != "get_weather,hello_world,say" {
		t.Fatalf("tools: %v", names)
	}
	for _, tc := range []struct {
		name    string
		args    map[string]any
		isError bool
		text    string
	}{
		{"say", map[string]any{}, true, "invalid arguments for say: /msg: missing required property"},
		{"say", map[string]any{"msg": "", "volume": 3}, true, `invalid arguments for say: /msg: must be at least 1 character long (got ""); /volume: unknown property; expected one of "msg", "loud"`},
		{"say", map[string]any{"msg": "hi"}, false, `said {"msg":"hi","loud":false}`},
		{"hello_world", map[string]any{"name": "Ada"}, false, "Hello, Ada!"},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.name, Arguments: tc.args})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		text := ""
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text += tc.Text
			}
		}
		if res.IsError != tc.isError || text != tc.text {
			t.Errorf("%s %v: got %v %q, want %v %q", tc.name, tc.args, res.IsError, text, tc.isError, tc.text)
		}
	}
}
