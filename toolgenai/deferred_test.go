package toolgenai_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/toolgenai"
)

// TestToolsDeferred: the declarations of a Toolset that defers tools are those of the
// tools it keeps; Gemini has no deferred loading.
func TestToolsDeferred(t *testing.T) {
	var sets []*runtime.Toolset
	for _, name := range []string{"get_me", "merge_pull_request"} {
		ts, err := runtime.NewTool(runtime.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object","properties":{"owner":{"type":"string"}}}`)},
			func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult(name), nil })
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, ts)
	}
	tools, err := toolgenai.Tools(runtime.Join(sets...).WithDefer(runtime.Defer{Keep: []string{"get_me"}}))
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 1 || len(tools[0].FunctionDeclarations) != 1 || tools[0].FunctionDeclarations[0].Name != "get_me" {
		t.Errorf("declarations %+v, want get_me alone", tools)
	}
}
