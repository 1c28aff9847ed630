package anthropic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/tooltest"
)

// pullTools is a Toolset of three tools, of the groups pulls and users.
func pullTools(t *testing.T) *runtime.Toolset {
	t.Helper()
	var sets []*runtime.Toolset
	for _, def := range []struct{ name, group string }{
		{"get_me", "users"}, {"list_pull_requests", "pulls"}, {"merge_pull_request", "pulls"},
	} {
		ts, err := runtime.NewTool(runtime.Tool{Name: def.name, Description: "The " + def.name + " tool.", Groups: []string{def.group},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"owner":{"type":"string"},"repo":{"type":"string"},"pullNumber":{"type":"integer"}}}`)},
			func(context.Context, json.RawMessage) (*runtime.Result, error) {
				return runtime.TextResult(def.name + " done"), nil
			})
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, ts)
	}
	return runtime.Join(sets...)
}

// sentTool is what the tests read of a tool of a request.
type sentTool struct {
	Type         string `json:"type"`
	Name         string `json:"name"`
	DeferLoading bool   `json:"defer_loading"`
}

func sentTools(t *testing.T, request []byte) []sentTool {
	t.Helper()
	var req struct {
		Tools []sentTool `json:"tools"`
	}
	if err := json.Unmarshal(request, &req); err != nil {
		t.Fatal(err)
	}
	return req.Tools
}

// TestPrepareDeferred: the tools a Toolset defers go with defer_loading, after the API's
// tool search tool (BM25 by default), the kept ones without; a second Prepare of the
// prepared request, as the next round's, sends the same tools once; a request with a
// tool search tool of its own keeps it and gets no other; ToolSearchClient sends the
// kept tools alone; an unknown variant is an error.
func TestPrepareDeferred(t *testing.T) {
	ts := pullTools(t).WithDefer(runtime.Defer{KeepGroups: []string{"users"}})
	req := []byte(`{"model":"m","max_tokens":64,"messages":[{"role":"user","content":"merge PR 7"}]}`)
	want := []sentTool{
		{Type: "tool_search_tool_bm25_20251119", Name: "tool_search_tool_bm25"},
		{Name: "get_me"},
		{Name: "list_pull_requests", DeferLoading: true},
		{Name: "merge_pull_request", DeferLoading: true},
	}
	first, err := anthropic.Messages{}.Prepare(req, ts, loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	if got := sentTools(t, first); !slices.Equal(got, want) {
		t.Errorf("tools %+v, want %+v", got, want)
	}
	if _, err := tooltest.Read(tooltest.Messages, first); err != nil {
		t.Errorf("the fake API rejects %s: %v", first, err)
	}
	noSearch := strings.Replace(string(first), `{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"},`, "", 1)
	if _, err := tooltest.Read(tooltest.Messages, []byte(noSearch)); !errors.Is(err, tooltest.ErrRejected) {
		t.Errorf("the fake API took deferred tools without a tool search tool: %v", err)
	}
	again, err := anthropic.Messages{}.Prepare(first, ts, loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, first) {
		t.Errorf("a second Prepare changed the request:\n%s\n%s", first, again)
	}

	own := []byte(`{"model":"m","max_tokens":64,"messages":[],"tools":[{"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex"}]}`)
	got, err := anthropic.Messages{}.Prepare(own, ts, loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	if tools := sentTools(t, got); len(tools) != 4 || tools[0].Type != "tool_search_tool_regex_20251119" {
		t.Errorf("with the request's own search tool: %+v", tools)
	}

	regex, err := anthropic.Messages{ToolSearch: anthropic.ToolSearchRegex}.Prepare(req, ts, loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	if tools := sentTools(t, regex); tools[0] != (sentTool{Type: "tool_search_tool_regex_20251119", Name: "tool_search_tool_regex"}) {
		t.Errorf("ToolSearchRegex: %+v", tools[0])
	}

	client, err := anthropic.Messages{ToolSearch: anthropic.ToolSearchClient}.Prepare(req, ts, loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	if tools := sentTools(t, client); !slices.Equal(tools, []sentTool{{Name: "get_me"}}) {
		t.Errorf("ToolSearchClient: %+v", tools)
	}
	if (anthropic.Messages{ToolSearch: anthropic.ToolSearchClient}).DefersTools() || !(anthropic.Messages{}).DefersTools() {
		t.Errorf("DefersTools")
	}

	if _, err := (anthropic.Messages{ToolSearch: "tool_search_tool_embeddings"}).Prepare(req, ts, loop.ChoiceAuto); err == nil {
		t.Errorf("an unknown tool search variant was sent")
	}
	// Without deferral, no search tool.
	plain, err := anthropic.Messages{}.Prepare(req, pullTools(t), loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(plain), "tool_search") || strings.Contains(string(plain), "defer_loading") {
		t.Errorf("a Toolset without deferral: %s", plain)
	}
}

// TestToolSearchRoundTrip reads a recorded response of the API's tool search (two
// server_tool_use blocks, a tool_search_tool_result listing tool references, one an
// error, then a tool_use of a tool the search loaded): its one call is the tool_use, and
// Continue sends the assistant turn back with every block as it came, the tool_result
// answering the tool_use alone.
func TestToolSearchRoundTrip(t *testing.T) {
	resp, err := os.ReadFile(filepath.Join("testdata", "tool_search_response.json"))
	if err != nil {
		t.Fatal(err)
	}
	calls, err := anthropic.Calls(resp)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0].ID != "toolu_01XYZ" || calls[0].Name != "merge_pull_request" {
		t.Fatalf("calls %+v, want the tool_use alone", calls)
	}
	ts := pullTools(t).WithDefer(runtime.Defer{Keep: []string{"get_me"}})
	req, err := anthropic.Messages{}.Prepare([]byte(`{"model":"m","max_tokens":64,"messages":[{"role":"user","content":[{"type":"text","text":"merge PR 7"}]}]}`), ts, loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	next, err := anthropic.Messages{}.Continue(req, resp, ts.RunCalls(context.Background(), calls, 0))
	if err != nil {
		t.Fatal(err)
	}
	var sent struct {
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	var recorded struct {
		Content []json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(next, &sent); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(resp, &recorded); err != nil {
		t.Fatal(err)
	}
	if len(sent.Messages) != 3 {
		t.Fatalf("%d messages, want the question, the assistant turn and the answers", len(sent.Messages))
	}
	turn := sent.Messages[1]
	if len(turn.Content) != len(recorded.Content) {
		t.Fatalf("the assistant turn has %d blocks, the response %d", len(turn.Content), len(recorded.Content))
	}
	for i := range turn.Content {
		var a, b bytes.Buffer
		_ = json.Compact(&a, turn.Content[i])
		_ = json.Compact(&b, recorded.Content[i])
		if a.String() != b.String() {
			t.Errorf("block %d sent back as %s, received as %s", i, a.String(), b.String())
		}
	}
	if _, err := tooltest.Read(tooltest.Messages, next); err != nil {
		t.Errorf("the fake API rejects the follow-up: %v", err)
	}
	// Without a search's result block, the API refuses the turn.
	var body map[string]any
	_ = json.Unmarshal(next, &body)
	msgs := body["messages"].([]any)
	blocks := msgs[1].(map[string]any)["content"].([]any)
	msgs[1].(map[string]any)["content"] = slices.Delete(slices.Clone(blocks), 2, 3)
	cut, _ := json.Marshal(body)
	if _, err := tooltest.Read(tooltest.Messages, cut); !errors.Is(err, tooltest.ErrRejected) {
		t.Errorf("the fake API took a server_tool_use without its result: %v", err)
	}
	answers := sent.Messages[2]
	if len(answers.Content) != 1 || !strings.Contains(string(answers.Content[0]), `"tool_use_id":"toolu_01XYZ"`) ||
		!strings.Contains(string(answers.Content[0]), "merge_pull_request done") {
		t.Errorf("answers %s, want one tool_result for toolu_01XYZ", answers.Content)
	}
}

// TestToolSearchStream streams the recorded tool search response, its blocks' inputs in
// input_json_delta pieces as the API streams them: the Stream's calls are the tool_use
// alone, and its Response, which Continue sends back, holds every block as the whole
// response does.
func TestToolSearchStream(t *testing.T) {
	resp, err := os.ReadFile(filepath.Join("testdata", "tool_search_response.json"))
	if err != nil {
		t.Fatal(err)
	}
	var whole struct {
		Content []map[string]json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(resp, &whole); err != nil {
		t.Fatal(err)
	}
	var s anthropic.Stream
	add := func(event string, v any) {
		t.Helper()
		data, _ := json.Marshal(v)
		if err := s.Add([]byte(event), data); err != nil {
			t.Fatalf("%s %s: %v", event, data, err)
		}
	}
	add("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_01ToolSearch", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929", "content": []any{},
		"stop_reason": nil, "usage": map[string]int{"input_tokens": 812, "output_tokens": 1}}})
	for i, b := range whole.Content {
		start := map[string]json.RawMessage{}
		for k, v := range b {
			start[k] = v
		}
		input, streamed := b["input"]
		if streamed {
			start["input"] = json.RawMessage(`{}`)
		}
		add("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": start})
		if streamed {
			half := len(input) / 2
			for _, piece := range []json.RawMessage{input[:half], input[half:]} {
				add("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]string{"type": "input_json_delta", "partial_json": string(piece)}})
			}
		}
		add("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	add("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "tool_use", "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": 96}})
	add("message_stop", map[string]any{"type": "message_stop"})

	calls, err := s.Calls()
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0].ID != "toolu_01XYZ" {
		t.Fatalf("calls %+v, want the tool_use alone", calls)
	}
	got, err := s.Response()
	if err != nil {
		t.Fatal(err)
	}
	var streamed struct {
		Content []json.RawMessage `json:"content"`
	}
	var recorded struct {
		Content []json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(got, &streamed)
	_ = json.Unmarshal(resp, &recorded)
	if len(streamed.Content) != len(recorded.Content) {
		t.Fatalf("%d blocks streamed, %d recorded", len(streamed.Content), len(recorded.Content))
	}
	for i := range recorded.Content {
		var a, b any
		_ = json.Unmarshal(streamed.Content[i], &a)
		_ = json.Unmarshal(recorded.Content[i], &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("block %d streamed as %s, recorded as %s", i, streamed.Content[i], recorded.Content[i])
		}
	}
}

// TestLoopPauseTurn: a turn the API paused (stop_reason pause_turn, in the middle of
// its tool search) is sent back as it is, and the API's next response, a call, runs;
// the final answer follows. An API that keeps pausing meets the round limit.
func TestLoopPauseTurn(t *testing.T) {
	ts := pullTools(t).WithDefer(runtime.Defer{Keep: []string{"get_me"}})
	paused := `{"id":"msg_p","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Searching."},` +
		`{"type":"server_tool_use","id":"srvtoolu_1","name":"tool_search_tool_bm25","input":{"query":"merge"}},` +
		`{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"tool_search_tool_search_result","tool_references":[{"type":"tool_reference","tool_name":"merge_pull_request"}]}}],` +
		`"stop_reason":"pause_turn","usage":{"input_tokens":1,"output_tokens":1}}`
	call := `{"id":"msg_c","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_1","name":"merge_pull_request","input":{"owner":"o","repo":"r","pullNumber":7}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}}`
	final := `{"id":"msg_f","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Merged."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`
	var requests [][]byte
	script := func(replies ...string) loop.SendFunc {
		return func(_ context.Context, body []byte) ([]byte, error) {
			requests = append(requests, body)
			if _, err := tooltest.Read(tooltest.Messages, body); err != nil {
				return nil, err
			}
			return []byte(replies[min(len(requests), len(replies))-1]), nil
		}
	}
	l := loop.Loop{Provider: anthropic.Messages{}, Tools: ts, Send: script(paused, call, final)}
	resp, _, err := l.Run(context.Background(), []byte(`{"model":"m","max_tokens":64,"messages":[{"role":"user","content":"merge PR 7"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(resp), "Merged.") || len(requests) != 3 {
		t.Fatalf("%d requests, final %s", len(requests), resp)
	}
	var second struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(requests[1], &second)
	if n := len(second.Messages); n != 2 || second.Messages[1].Role != "assistant" || !strings.Contains(string(second.Messages[1].Content), "srvtoolu_1") {
		t.Errorf("the request after the pause: %s", requests[1])
	}

	requests = nil
	l = loop.Loop{Provider: anthropic.Messages{}, Tools: ts, Send: script(paused), MaxRounds: 2}
	_, _, err = l.Run(context.Background(), []byte(`{"model":"m","max_tokens":64,"messages":[{"role":"user","content":"merge PR 7"}]}`))
	if !errors.Is(err, runtime.ErrMaxRounds) || len(requests) != 3 {
		t.Errorf("an API that keeps pausing: %v after %d requests, want ErrMaxRounds after 3", err, len(requests))
	}
}
