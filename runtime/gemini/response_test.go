package gemini_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	tgg "github.com/toolgen/toolgen/runtime/gemini"
)

// TestResponseStructured checks when the functionResponse carries the structured value
// and when the model's text: the value only when it is that text, so that what Gemini
// reads is what the result budget measured.
func TestResponseStructured(t *testing.T) {
	made, err := runtime.StructuredResult(map[string]int{"n": 1}, false)
	if err != nil {
		t.Fatal(err)
	}
	big := `{"log":"` + strings.Repeat("x", 100_000) + `"}`
	for _, c := range []struct {
		name string
		res  *runtime.Result
		want string
	}{
		{"made by StructuredResult", made, `{"n":1}`},
		{"a value that is not the text", &runtime.Result{Content: []runtime.Content{runtime.TextContent("summary")}, Structured: json.RawMessage(big)}, `"summary"`},
	} {
		got := tgg.Response(runtime.CallResult{Call: runtime.ToolCall{ID: "c1", Name: "f"}, Result: c.res})
		if out := string(got.Response["output"]); out != c.want {
			t.Errorf("%s: output %.60s, want %.60s", c.name, out, c.want)
		}
	}
}
