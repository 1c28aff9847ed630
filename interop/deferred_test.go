package interop_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen/toolgen/runtime"
	rtanthropic "github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/loop"
	rtopenai "github.com/toolgen/toolgen/runtime/openai"
	"github.com/toolgen/toolgen/runtime/searchtool"
	"github.com/toolgen/toolgen/tooltest"
)

// searchCatalog is runtime's search catalog (94 GitHub-like tools), all but get_me
// deferred, each tool answering with its name; called records the calls that ran.
type searchCatalog struct {
	mu     sync.Mutex
	called []string
}

func (c *searchCatalog) tools(t *testing.T) *runtime.Toolset {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "runtime", "testdata", "search", "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	var defs []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Groups      []string        `json:"groups"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal(b, &defs); err != nil {
		t.Fatal(err)
	}
	var sets []*runtime.Toolset
	for _, d := range defs {
		name := d.Name
		ts, err := runtime.NewTool(runtime.Tool{Name: d.Name, Description: d.Description, Groups: d.Groups, InputSchema: d.InputSchema},
			func(context.Context, json.RawMessage) (*runtime.Result, error) {
				c.mu.Lock()
				c.called = append(c.called, name)
				c.mu.Unlock()
				return runtime.TextResult(name + " done"), nil
			})
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, ts)
	}
	return runtime.Join(sets...).WithDefer(runtime.Defer{Keep: []string{"get_me"}})
}

// recorded reads a recorded response of a provider package's testdata.
func recorded(t *testing.T, pkg, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "runtime", pkg, "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAnthropicDeferredLoop runs a Loop over Anthropic's deferred form through the
// SDK's client and the strict fake: the first request sends the BM25 tool search tool
// and the catalog's tools, all but get_me with defer_loading, and the SDK reads it as
// those params; the recorded response of the API's search (server_tool_use and
// tool_search_tool_result blocks, one an error, then a tool_use of a loaded tool) has
// one call, which runs; the follow-up carries the search's blocks back as they came,
// which the fake checks, and the SDK's own Message.ToParam sends the same blocks.
func TestAnthropicDeferredLoop(t *testing.T) {
	c := &searchCatalog{}
	ts := c.tools(t)
	reply := recorded(t, "anthropic", "tool_search_response.json")
	var sdkFirst anthropic.MessageNewParams
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: messagesPath, Reply: reply, Check: func(req *tooltest.Request) error {
			if err := json.Unmarshal(req.Body, &sdkFirst); err != nil {
				return fmt.Errorf("the SDK does not read the request: %w", err)
			}
			return nil
		}},
		tooltest.Round{Path: messagesPath, Reply: `{"id":"msg_2","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Merged."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`,
			Check: func(req *tooltest.Request) error {
				if len(req.Turns) != 1 || req.Turns[0].Results[0].Text != "merge_pull_request done" {
					return fmt.Errorf("turns %+v, want the merge's answer", req.Turns)
				}
				if !strings.Contains(string(req.Body), `"tool_search_tool_result"`) {
					return fmt.Errorf("the follow-up lost the search's result blocks")
				}
				return nil
			}},
	)
	client := newAnthropic(srv)
	send := func(ctx context.Context, body []byte) ([]byte, error) {
		var out []byte
		err := client.Post(ctx, "v1/messages", body, &out)
		return out, err
	}
	lp := loop.Loop{Provider: rtanthropic.Messages{}, Tools: ts, Send: send}
	if _, _, err := lp.Run(t.Context(), []byte(mustJSON(map[string]any{
		"model": anthropicModel, "max_tokens": 1024, "messages": []any{map[string]any{"role": "user", "content": "merge PR 7 of octo/hello"}}}))); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.called, []string{"merge_pull_request"}) {
		t.Errorf("called %v, want [merge_pull_request]", c.called)
	}

	// The SDK reads the first request's tools: its search tool and deferred tools.
	if len(sdkFirst.Tools) != ts.Len()+1 || sdkFirst.Tools[0].OfToolSearchToolBm25_20251119 == nil {
		t.Fatalf("the SDK reads %d tools, the first %+v; want the BM25 search tool and %d", len(sdkFirst.Tools), sdkFirst.Tools[0], ts.Len())
	}
	for _, u := range sdkFirst.Tools[1:] {
		if u.OfTool == nil || u.OfTool.DeferLoading.Valid() != (u.OfTool.Name != "get_me") {
			t.Errorf("the SDK reads tool %+v", u.OfTool)
		}
	}

	// An SDK user's follow-up (Message.ToParam) sends the search's blocks too, and the
	// fake takes it.
	var msg anthropic.Message
	if err := json.Unmarshal([]byte(reply), &msg); err != nil {
		t.Fatal(err)
	}
	turn := msg.ToParam()
	var types []string
	for _, b := range turn.OfAssistant.Content {
		types = append(types, *b.GetType())
	}
	want := []string{"text", "server_tool_use", "tool_search_tool_result", "server_tool_use", "tool_search_tool_result", "text", "tool_use"}
	if !slices.Equal(types, want) {
		t.Errorf("the SDK's ToParam has blocks %v, want %v", types, want)
	}
	follow := mustJSON(map[string]any{"model": anthropicModel, "max_tokens": 64, "tools": sdkFirst.Tools, "messages": []any{
		map[string]any{"role": "user", "content": "merge PR 7"}, turn,
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_01XYZ", "content": "done"}}},
	}})
	if _, err := tooltest.Read(tooltest.Messages, []byte(follow)); err != nil {
		t.Errorf("the fake rejects the SDK's follow-up: %v\n%s", err, follow)
	}
}

// TestResponsesDeferredLoop runs a Loop over the Responses API's deferred form, with
// namespaces, through the SDK's client and the strict fake: the first request sends
// tool_search, get_me and a namespace per group of deferred functions, which the SDK
// reads as its params; the recorded response of the API's search (tool_search_call,
// tool_search_output, function_call with its namespace) has one call, which runs; the
// follow-up carries the search's items back, which the fake checks.
func TestResponsesDeferredLoop(t *testing.T) {
	c := &searchCatalog{}
	ts := c.tools(t)
	var sdkFirst responses.ResponseNewParams
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: responsesPath, Reply: recorded(t, "openai", "tool_search_response.json"), Check: func(req *tooltest.Request) error {
			if err := json.Unmarshal(req.Body, &sdkFirst); err != nil {
				return fmt.Errorf("the SDK does not read the request: %w", err)
			}
			return nil
		}},
		tooltest.Round{Path: responsesPath, Reply: `{"id":"resp_2","object":"response","status":"completed","model":"gpt-5.4","output":[{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Merged.","annotations":[]}]}]}`,
			Check: func(req *tooltest.Request) error {
				if len(req.Turns) != 1 || req.Turns[0].Results[0].Text != "merge_pull_request done" {
					return fmt.Errorf("turns %+v, want the merge's answer", req.Turns)
				}
				if !strings.Contains(string(req.Body), `"tool_search_output"`) {
					return fmt.Errorf("the follow-up lost the search's output")
				}
				return nil
			}},
	)
	client := newOpenAI(srv)
	send := func(ctx context.Context, body []byte) ([]byte, error) {
		var out []byte
		err := client.Post(ctx, "responses", body, &out)
		return out, err
	}
	lp := loop.Loop{Provider: rtopenai.Responses{Namespaces: true}, Tools: ts, Send: send}
	if _, _, err := lp.Run(t.Context(), []byte(`{"model":"gpt-5.4","store":false,"input":"merge PR 7 of octo/hello"}`)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.called, []string{"merge_pull_request"}) {
		t.Errorf("called %v, want [merge_pull_request]", c.called)
	}
	if len(sdkFirst.Tools) < 3 || sdkFirst.Tools[0].OfToolSearch == nil || sdkFirst.Tools[1].OfFunction == nil || sdkFirst.Tools[1].OfFunction.Name != "get_me" {
		t.Fatalf("the SDK reads tools %+v", sdkFirst.Tools[:min(3, len(sdkFirst.Tools))])
	}
	functions := 1
	for _, u := range sdkFirst.Tools[2:] {
		ns := u.OfNamespace
		if ns == nil || ns.Description == "" || len(ns.Tools) == 0 {
			t.Fatalf("the SDK reads %+v, want a namespace", u)
		}
		for _, f := range ns.Tools {
			if f.OfFunction == nil || !f.OfFunction.DeferLoading.Value {
				t.Errorf("namespace %s: %+v, want a deferred function", ns.Name, f)
			}
			functions++
		}
	}
	if functions != ts.Len() {
		t.Errorf("the SDK reads %d functions, want %d", functions, ts.Len())
	}
}

// chatCallReply is a chat completion calling one tool.
func chatCallReply(id, name, args string) string {
	return mustJSON(map[string]any{"id": "chatcmpl-" + id, "object": "chat.completion", "model": "gpt-5.4", "choices": []any{map[string]any{
		"index": 0, "finish_reason": "tool_calls", "message": map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{
			map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": args}}}}}}})
}

// TestChatClientSearchLoop runs a Loop over Chat Completions, which has no deferred
// loading, through the SDK's client and the strict fake: the first request offers get_me
// and search_tools alone (the SDK reads them as its params), the model searches, and the
// next request offers the tools the search found, of which the model calls one, which
// runs.
func TestChatClientSearchLoop(t *testing.T) {
	c := &searchCatalog{}
	ts := c.tools(t)
	offers := func(want func([]string) error) func(*tooltest.Request) error {
		return func(req *tooltest.Request) error {
			var params openai.ChatCompletionNewParams
			if err := json.Unmarshal(req.Body, &params); err != nil {
				return fmt.Errorf("the SDK does not read the request: %w", err)
			}
			var names []string
			for _, tool := range params.Tools {
				names = append(names, tool.OfFunction.Function.Name)
			}
			return want(names)
		}
	}
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: chatPath, Reply: chatCallReply("call_1", searchtool.Name, `{"query":"merge a pull request"}`),
			Check: offers(func(names []string) error {
				if !slices.Equal(names, []string{"get_me", searchtool.Name}) {
					return fmt.Errorf("the first request offers %v", names)
				}
				return nil
			})},
		tooltest.Round{Path: chatPath, Reply: chatCallReply("call_2", "merge_pull_request", `{"owner":"octo","repo":"hello","pullNumber":7}`),
			Check: offers(func(names []string) error {
				if !slices.Contains(names, "merge_pull_request") || len(names) > 2+searchtool.DefaultResults {
					return fmt.Errorf("the request after the search offers %v", names)
				}
				return nil
			})},
		tooltest.Round{Path: chatPath, Reply: mustJSON(map[string]any{"id": "chatcmpl-3", "object": "chat.completion", "model": "gpt-5.4",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": "Merged."}}}})},
	)
	client := newOpenAI(srv)
	send := func(ctx context.Context, body []byte) ([]byte, error) {
		var out []byte
		err := client.Post(ctx, "chat/completions", body, &out)
		return out, err
	}
	lp := loop.Loop{Provider: rtopenai.Chat{}, Tools: ts, Send: send}
	if _, _, err := lp.Run(t.Context(), []byte(`{"model":"gpt-5.4","messages":[{"role":"user","content":"merge PR 7 of octo/hello"}]}`)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.called, []string{"merge_pull_request"}) {
		t.Errorf("called %v, want [merge_pull_request]", c.called)
	}
}
