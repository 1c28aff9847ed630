package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/runtime/openai"
)

// recordingCatalog is the catalog of testdata/search, each tool answering with its
// name, and the names of the tools called, in order.
type recordingCatalog struct {
	mu     sync.Mutex
	called []string
}

func (rc *recordingCatalog) load(tb testing.TB) *runtime.Toolset {
	tb.Helper()
	var tools []catalogTool
	readJSON(tb, filepath.Join("testdata", "search", "catalog.json"), &tools)
	sets := make([]*runtime.Toolset, len(tools))
	for i, t := range tools {
		name := t.Name
		ts, err := runtime.NewTool(runtime.Tool{Name: t.Name, Title: t.Title, Description: t.Description, Groups: t.Groups, InputSchema: t.InputSchema},
			func(context.Context, json.RawMessage) (*runtime.Result, error) {
				rc.mu.Lock()
				rc.called = append(rc.called, name)
				rc.mu.Unlock()
				return runtime.TextResult(name + " done"), nil
			})
		if err != nil {
			tb.Fatal(err)
		}
		sets[i] = ts
	}
	return runtime.Join(sets...)
}

// chatRequest is what a scripted Chat Completions model reads of a request.
type chatRequest struct {
	Messages []struct {
		Role       string `json:"role"`
		Content    string `json:"content"`
		ToolCallID string `json:"tool_call_id"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

func (r chatRequest) toolNames() []string {
	var out []string
	for _, t := range r.Tools {
		out = append(out, t.Function.Name)
	}
	return out
}

// chatCall is a Chat Completions response calling one tool.
func chatCall(id, name, args string) []byte {
	b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{
		"finish_reason": "tool_calls",
		"message": map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{
			map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": args}},
		}},
	}}})
	return b
}

func chatAnswer(text string) []byte {
	b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{
		"finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": text},
	}}})
	return b
}

// foundTools reads the definitions a search tool's answer holds.
func foundTools(t *testing.T, text string) []runtime.FoundTool {
	t.Helper()
	_, list, ok := strings.Cut(text, "\n")
	if !ok {
		t.Fatalf("the search answer %q holds no list", text)
	}
	var found []runtime.FoundTool
	if err := json.Unmarshal([]byte(list), &found); err != nil {
		t.Fatalf("the search answer's list: %v\n%s", err, list)
	}
	return found
}

// TestLoopClientSearch: over Chat Completions, which has no deferred loading, a Loop
// whose Tools defer all but get_me offers get_me and the search tool; the model
// searches, reads the found definitions and calls the tool it needs, which the Loop
// offers, and runs, from the round after the search; the question gets its answer.
func TestLoopClientSearch(t *testing.T) {
	rc := &recordingCatalog{}
	tools := rc.load(t).WithDefer(runtime.Defer{Keep: []string{"get_me"}})
	round := 0
	send := func(_ context.Context, body []byte) ([]byte, error) {
		round++
		var req chatRequest
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		offered := req.toolNames()
		switch round {
		case 1:
			if want := []string{"get_me", runtime.SearchToolName}; !slices.Equal(offered, want) {
				t.Errorf("round 1 offers %v, want %v", offered, want)
			}
			return chatCall("call_1", runtime.SearchToolName, `{"query":"merge a pull request","limit":3}`), nil
		case 2:
			last := req.Messages[len(req.Messages)-1]
			found := foundTools(t, last.Content)
			if len(found) == 0 || len(found) > 3 {
				t.Fatalf("the search found %d tools, want 1 to 3: %s", len(found), last.Content)
			}
			if found[0].Name != "merge_pull_request" || len(found[0].InputSchema) == 0 {
				t.Errorf("the search's first tool is %s, want merge_pull_request with its schema", found[0].Name)
			}
			for _, f := range found {
				if !slices.Contains(offered, f.Name) {
					t.Errorf("round 2 offers %v, without %s, which the search found", offered, f.Name)
				}
			}
			if slices.Contains(offered, "create_issue") {
				t.Errorf("round 2 offers create_issue, which no search found")
			}
			return chatCall("call_2", found[0].Name, `{"owner":"o","repo":"r","pullNumber":7}`), nil
		default:
			last := req.Messages[len(req.Messages)-1]
			return chatAnswer("Merged: " + last.Content), nil
		}
	}
	l := runtime.Loop{Provider: openai.Chat{}, Tools: tools, Send: send}
	resp, _, err := l.Run(context.Background(), []byte(`{"model":"m","messages":[{"role":"user","content":"merge PR 7 of o/r"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(resp), "merge_pull_request done") {
		t.Errorf("final answer %s does not hold the merge's result", resp)
	}
	if !slices.Equal(rc.called, []string{"merge_pull_request"}) {
		t.Errorf("called %v, want [merge_pull_request]", rc.called)
	}
}

// TestLoopClientSearchRefusesUnfound: a deferred tool no search found is not offered,
// and a call of it is refused as unknown, as any tool the request did not offer; the
// tool does not run. A call of a kept tool runs.
func TestLoopClientSearchRefusesUnfound(t *testing.T) {
	rc := &recordingCatalog{}
	tools := rc.load(t).WithDefer(runtime.Defer{KeepGroups: []string{"users"}})
	var answers []string
	round := 0
	send := func(_ context.Context, body []byte) ([]byte, error) {
		round++
		var req chatRequest
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		if round > 1 {
			answers = append(answers, req.Messages[len(req.Messages)-1].Content)
		}
		switch round {
		case 1:
			return chatCall("c1", "delete_repository", `{"owner":"o","repo":"r"}`), nil
		case 2:
			return chatCall("c2", "get_me", `{}`), nil
		}
		return chatAnswer("done"), nil
	}
	l := runtime.Loop{Provider: openai.Chat{}, Tools: tools, Send: send}
	if _, _, err := l.Run(context.Background(), []byte(`{"model":"m","messages":[]}`)); err != nil {
		t.Fatal(err)
	}
	if len(answers) != 2 || !strings.Contains(answers[0], "unknown tool") || !strings.Contains(answers[0], runtime.SearchToolName) {
		t.Errorf("the answer to a deferred tool's call: %q, want an unknown tool naming the offered ones", answers)
	}
	if !slices.Equal(rc.called, []string{"get_me"}) {
		t.Errorf("called %v, want [get_me]", rc.called)
	}
}

// TestSearchToolLimit: the search tool's limit is at most MaxSearchToolResults (at it,
// that many tools; past it, an argument error), DefaultSearchToolResults when absent;
// its query at most MaxSearchToolQueryChars characters.
func TestSearchToolLimit(t *testing.T) {
	catalog := loadCatalog(t)
	st, err := runtime.NewSearchTool(func(_ context.Context, q string, limit int) []*runtime.Tool {
		return catalog.Search(q, limit)
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	count := func(r *runtime.Result) int {
		t.Helper()
		if r.IsError {
			t.Fatalf("search failed: %s", r.Text())
		}
		return len(foundTools(t, r.Text()))
	}
	// "repository" matches more than MaxSearchToolResults tools of the catalog.
	if n := count(st.Call(ctx, runtime.SearchToolName, []byte(`{"query":"repository"}`))); n != runtime.DefaultSearchToolResults {
		t.Errorf("no limit: %d tools, want %d", n, runtime.DefaultSearchToolResults)
	}
	at := fmt.Sprintf(`{"query":"repository","limit":%d}`, runtime.MaxSearchToolResults)
	if n := count(st.Call(ctx, runtime.SearchToolName, []byte(at))); n != runtime.MaxSearchToolResults {
		t.Errorf("limit at the maximum: %d tools, want %d", n, runtime.MaxSearchToolResults)
	}
	past := fmt.Sprintf(`{"query":"repository","limit":%d}`, runtime.MaxSearchToolResults+1)
	if r := st.Call(ctx, runtime.SearchToolName, []byte(past)); !r.IsError || r.Outcome != runtime.OutcomeInvalidArguments {
		t.Errorf("limit past the maximum: %s, want an argument error", r.Text())
	}
	long := strings.Repeat("é", runtime.MaxSearchToolQueryChars)
	if r := st.Call(ctx, runtime.SearchToolName, []byte(`{"query":"`+long+`"}`)); r.IsError {
		t.Errorf("a query at the limit: %s", r.Text())
	}
	if r := st.Call(ctx, runtime.SearchToolName, []byte(`{"query":"`+long+`é"}`)); r.Outcome != runtime.OutcomeInvalidArguments {
		t.Errorf("a query past the limit: %s, want an argument error", r.Text())
	}
	if r := st.Call(ctx, runtime.SearchToolName, []byte(`{"query":"zzzz qqqq"}`)); r.IsError || !strings.HasPrefix(r.Text(), "No tool matches") {
		t.Errorf("no match: %s", r.Text())
	}
}

// TestLoopClientSearchNameClash: a Loop whose Tools defer tools and hold a tool named
// like the search tool fails to run, before sending anything.
func TestLoopClientSearchNameClash(t *testing.T) {
	clash, err := runtime.NewTool(runtime.Tool{Name: runtime.SearchToolName, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, json.RawMessage) (*runtime.Result, error) {
			return runtime.TextResult("mine"), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	tools := runtime.Join(clash, loadCatalog(t)).WithDefer(runtime.Defer{})
	sent := 0
	l := runtime.Loop{Provider: openai.Chat{}, Tools: tools, Send: func(context.Context, []byte) ([]byte, error) {
		sent++
		return chatAnswer("x"), nil
	}}
	_, _, err = l.Run(context.Background(), []byte(`{"messages":[]}`))
	if err == nil || !strings.Contains(err.Error(), strconv.Quote(runtime.SearchToolName)) || sent != 0 {
		t.Errorf("err = %v after %d requests, want the clash before any", err, sent)
	}
}

// TestDeferredViews: Deferred follows the deferral through Group, Select and Join,
// Offered drops the deferred tools, and the chat and Gemini definitions leave them out.
func TestDeferredViews(t *testing.T) {
	all := loadCatalog(t)
	d := all.WithDefer(runtime.Defer{Keep: []string{"get_me"}, KeepGroups: []string{"labels"}})
	offered := d.Offered()
	if offered.HasDeferred() || !d.HasDeferred() || all.HasDeferred() {
		t.Errorf("HasDeferred: with deferral %v, offered %v, without %v", d.HasDeferred(), offered.HasDeferred(), all.HasDeferred())
	}
	want := []string{"get_me"}
	for _, tool := range all.Group("labels").Tools() {
		want = append(want, tool.Name)
	}
	slices.Sort(want)
	if got := names(offered.Tools()); !slices.Equal(got, want) {
		t.Errorf("offered %v, want %v", got, want)
	}
	if got := len(openai.ChatTools(d)); got != len(want) {
		t.Errorf("ChatTools: %d tools, want %d", got, len(want))
	}
	pulls := d.Group("pulls")
	merge, _ := pulls.Lookup("merge_pull_request")
	if !pulls.Deferred(merge) || !runtime.Join(pulls).Deferred(merge) || d.Select("get_me").HasDeferred() {
		t.Errorf("a view lost the deferral")
	}
	if _, ok := offered.Lookup("merge_pull_request"); ok {
		t.Errorf("Offered holds a deferred tool")
	}
	if r := offered.Call(context.Background(), "merge_pull_request", []byte(`{}`)); !r.IsError {
		t.Errorf("Offered ran a deferred tool")
	}
}

// TestLoopClientSearchGemini: over Gemini, which has no deferred loading either, a
// Loop whose Tools defer all but the users group declares those and the search tool;
// the model searches, and the found tool is declared, and runs, from the next round on.
func TestLoopClientSearchGemini(t *testing.T) {
	rc := &recordingCatalog{}
	tools := rc.load(t).WithDefer(runtime.Defer{KeepGroups: []string{"users"}})
	round := 0
	send := func(_ context.Context, body []byte) ([]byte, error) {
		round++
		var req struct {
			Contents []struct {
				Parts []struct {
					FunctionResponse *struct {
						Response map[string]json.RawMessage `json:"response"`
					} `json:"functionResponse"`
				} `json:"parts"`
			} `json:"contents"`
			Tools []struct {
				FunctionDeclarations []struct {
					Name string `json:"name"`
				} `json:"functionDeclarations"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		var declared []string
		for _, entry := range req.Tools {
			for _, d := range entry.FunctionDeclarations {
				declared = append(declared, d.Name)
			}
		}
		call := func(name, args string) []byte {
			return []byte(`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"` + name + `","args":` + args + `}}]},"finishReason":"STOP"}]}`)
		}
		switch round {
		case 1:
			if slices.Contains(declared, "create_release") || !slices.Contains(declared, runtime.SearchToolName) || !slices.Contains(declared, "get_me") {
				t.Errorf("round 1 declares %v", declared)
			}
			return call(runtime.SearchToolName, `{"query":"publish a new release"}`), nil
		case 2:
			last := req.Contents[len(req.Contents)-1].Parts[0].FunctionResponse
			var text string
			if last == nil || json.Unmarshal(last.Response["output"], &text) != nil {
				t.Fatalf("round 2 has no search answer: %s", body)
			}
			found := foundTools(t, text)
			if found[0].Name != "create_release" || !slices.Contains(declared, "create_release") {
				t.Fatalf("found %s first, declared %v; want create_release in both", found[0].Name, declared)
			}
			return call("create_release", `{"owner":"o","repo":"r","tagName":"v1.0.0"}`), nil
		}
		return []byte(`{"candidates":[{"content":{"role":"model","parts":[{"text":"Released."}]},"finishReason":"STOP"}]}`), nil
	}
	l := runtime.Loop{Provider: gemini.GenerateContent{}, Tools: tools, Send: send}
	if _, _, err := l.Run(context.Background(), []byte(`{"contents":[{"role":"user","parts":[{"text":"release v1.0.0 of o/r"}]}]}`)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rc.called, []string{"create_release"}) {
		t.Errorf("called %v, want [create_release]", rc.called)
	}
}

// TestLoopClientSearchResume: a turn stopped for approval keeps the tools the search
// had found (Pending.Loaded), through JSON as a store keeps it; Resume runs the
// approved call and offers those tools again, and only deferred tools of the Loop's
// Tools among the stored names: a forged name of a tool the search never found is not
// offered, nor one the Tools lack.
func TestLoopClientSearchResume(t *testing.T) {
	rc := &recordingCatalog{}
	tools := rc.load(t).WithDefer(runtime.Defer{Keep: []string{"get_me"}})
	round := 0
	var offered [][]string
	send := func(_ context.Context, body []byte) ([]byte, error) {
		round++
		var req chatRequest
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		offered = append(offered, req.toolNames())
		switch round {
		case 1:
			return chatCall("c1", runtime.SearchToolName, `{"query":"merge a pull request","limit":1}`), nil
		case 2:
			return chatCall("c2", "merge_pull_request", `{"owner":"o","repo":"r","pullNumber":7}`), nil
		}
		return chatAnswer("merged"), nil
	}
	l := runtime.Loop{Provider: openai.Chat{}, Tools: tools, Send: send, DeferApprovals: true}
	_, _, err := l.Run(context.Background(), []byte(`{"model":"m","messages":[{"role":"user","content":"merge PR 7"}]}`))
	var p *runtime.Pending
	if !errors.As(err, &p) {
		t.Fatalf("err = %v, want a Pending", err)
	}
	if !slices.Equal(p.Loaded, []string{"merge_pull_request"}) {
		t.Fatalf("Pending.Loaded = %v, want [merge_pull_request]", p.Loaded)
	}
	p.Loaded = append(p.Loaded, "delete_repository_forged_name", "get_me")
	stored, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var back runtime.Pending
	if err := json.Unmarshal(stored, &back); err != nil {
		t.Fatal(err)
	}
	decisions := map[string]runtime.Decision{}
	for _, c := range back.Calls {
		decisions[c.Key] = runtime.Approved(c.Digest)
	}
	if _, _, err := l.Resume(context.Background(), &back, decisions); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rc.called, []string{"merge_pull_request"}) {
		t.Errorf("called %v, want [merge_pull_request]", rc.called)
	}
	want := []string{"get_me", "merge_pull_request", runtime.SearchToolName}
	if last := offered[len(offered)-1]; !slices.Equal(last, want) {
		t.Errorf("the round after Resume offers %v, want %v", last, want)
	}
}
