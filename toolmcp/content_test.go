package toolmcp_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/examples/weather/forecast"
)

// TestValueWithContentForTheUser serves the generated get_weather, whose shape is
// (Report, []runtime.Content, error), to the SDK's client: the report is the
// structuredContent and the first text block, and the weather card follows it with the
// audience ["user"].
func TestValueWithContentForTheUser(t *testing.T) {
	cs := serve(t, forecast.Tools())
	res := call(t, cs, "get_weather", json.RawMessage(`{"city":"Paris","days":2,"unit":"fahrenheit"}`))
	if res.IsError {
		t.Fatalf("error: %s", text(res))
	}
	var report forecast.Report
	if err := json.Unmarshal([]byte(jsonOf(t, res.StructuredContent)), &report); err != nil || report.City != "Paris" || len(report.Days) != 2 {
		t.Fatalf("structuredContent %s (%v)", jsonOf(t, res.StructuredContent), err)
	}
	if len(res.Content) != 2 {
		t.Fatalf("%d blocks, want the JSON and the card: %s", len(res.Content), jsonOf(t, res.Content))
	}
	js, ok := res.Content[0].(*mcp.TextContent)
	if !ok || js.Annotations != nil || canonical(t, []byte(js.Text)) != canonical(t, []byte(jsonOf(t, res.StructuredContent))) {
		t.Errorf("block 0 = %s, want the structured value's JSON for everyone", jsonOf(t, res.Content[0]))
	}
	card, ok := res.Content[1].(*mcp.TextContent)
	if !ok || card.Text != report.Card() || card.Annotations == nil || !reflect.DeepEqual(card.Annotations.Audience, []mcp.Role{"user"}) {
		t.Errorf("block 1 = %s, want the card %q with audience [user]", jsonOf(t, res.Content[1]), report.Card())
	}
	// What the host sends on to the model: the blocks with no audience or the
	// assistant's, here the JSON alone.
	var forModel []string
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		if ok && (tc.Annotations == nil || len(tc.Annotations.Audience) == 0) {
			forModel = append(forModel, tc.Text)
		}
	}
	if len(forModel) != 1 || forModel[0] != js.Text {
		t.Errorf("the blocks for the model: %q", forModel)
	}
}
