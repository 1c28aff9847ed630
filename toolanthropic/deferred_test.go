package toolanthropic_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	rtanthropic "github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/toolanthropic"
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

// TestToolsDeferred: the SDK's params of a Toolset that defers tools are what
// runtime/anthropic.Messages sends: the BM25 tool search tool, then the tools, the
// deferred ones with defer_loading.
func TestToolsDeferred(t *testing.T) {
	ts := deferredTools(t)
	req, err := rtanthropic.Messages{}.Prepare([]byte(`{"model":"m","max_tokens":8,"messages":[]}`), ts, loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	var sent struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(req, &sent); err != nil {
		t.Fatal(err)
	}
	if got, want := mustJSON(toolanthropic.Tools(ts)), mustJSON(sent.Tools); !sameJSON([]byte(got), []byte(want)) {
		t.Errorf("the SDK's params:\n%s\nruntime's definitions:\n%s", got, want)
	}
}
