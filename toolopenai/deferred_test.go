package toolopenai_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/loop"
	rtopenai "github.com/toolgen/toolgen/runtime/openai"
	"github.com/toolgen/toolgen/toolopenai"
)

// deferredTools is a Toolset of three tools, all but get_me deferred.
func deferredTools(t *testing.T) *runtime.Toolset {
	t.Helper()
	var sets []*runtime.Toolset
	for _, name := range []string{"get_me", "list_pull_requests", "merge_pull_request"} {
		ts, err := runtime.NewTool(runtime.Tool{Name: name, Description: "The " + name + " tool.", Groups: []string{"pulls"},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"owner":{"type":"string"},"pullNumber":{"type":"integer"}}}`)},
			func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult(name), nil })
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, ts)
	}
	return runtime.Join(sets...).WithDefer(runtime.Defer{Keep: []string{"get_me"}})
}

// TestResponsesToolsDeferred: the SDK's params of a Toolset that defers tools are what
// runtime/openai.Responses sends without Namespaces: tool_search, then the functions,
// the deferred ones with defer_loading. Chat Completions leaves the deferred ones out.
func TestResponsesToolsDeferred(t *testing.T) {
	ts := deferredTools(t)
	req, err := rtopenai.Responses{}.Prepare([]byte(`{"model":"m","input":"hi"}`), ts, loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	var sent struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(req, &sent); err != nil {
		t.Fatal(err)
	}
	if got, want := mustJSON(toolopenai.ResponsesTools(ts)), mustJSON(sent.Tools); !sameJSON([]byte(got), []byte(want)) {
		t.Errorf("the SDK's params:\n%s\nruntime's definitions:\n%s", got, want)
	}
	if n := len(toolopenai.ChatTools(ts)); n != 1 {
		t.Errorf("ChatTools: %d tools, want get_me alone", n)
	}
}
