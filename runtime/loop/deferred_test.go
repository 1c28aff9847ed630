package loop_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/openai"
	"github.com/toolgen/toolgen/runtime/searchtool"
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
	readJSON(tb, filepath.Join("..", "testdata", "search", "catalog.json"), &tools)
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
func foundTools(t *testing.T, text string) []searchtool.Found {
	t.Helper()
	_, list, ok := strings.Cut(text, "\n")
	if !ok {
		t.Fatalf("the search answer %q holds no list", text)
	}
	var found []searchtool.Found
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
			if want := []string{"get_me", searchtool.Name}; !slices.Equal(offered, want) {
				t.Errorf("round 1 offers %v, want %v", offered, want)
			}
			return chatCall("call_1", searchtool.Name, `{"query":"merge a pull request","limit":3}`), nil
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
	l := loop.Loop{Provider: openai.Chat{}, Tools: tools, Send: send}
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
	l := loop.Loop{Provider: openai.Chat{}, Tools: tools, Send: send}
	if _, _, err := l.Run(context.Background(), []byte(`{"model":"m","messages":[]}`)); err != nil {
		t.Fatal(err)
	}
	if len(answers) != 2 || !strings.Contains(answers[0], "unknown tool") || !strings.Contains(answers[0], searchtool.Name) {
		t.Errorf("the answer to a deferred tool's call: %q, want an unknown tool naming the offered ones", answers)
	}
	if !slices.Equal(rc.called, []string{"get_me"}) {
		t.Errorf("called %v, want [get_me]", rc.called)
	}
}

// TestLoopClientSearchNameClash: a Loop whose Tools defer tools and hold a tool named
// like the search tool fails to run, before sending anything.
func TestLoopClientSearchNameClash(t *testing.T) {
	clash, err := runtime.NewTool(runtime.Tool{Name: searchtool.Name, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, json.RawMessage) (*runtime.Result, error) {
			return runtime.TextResult("mine"), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	tools := runtime.Join(clash, (&recordingCatalog{}).load(t)).WithDefer(runtime.Defer{})
	sent := 0
	l := loop.Loop{Provider: openai.Chat{}, Tools: tools, Send: func(context.Context, []byte) ([]byte, error) {
		sent++
		return chatAnswer("x"), nil
	}}
	_, _, err = l.Run(context.Background(), []byte(`{"messages":[]}`))
	if err == nil || !strings.Contains(err.Error(), strconv.Quote(searchtool.Name)) || sent != 0 {
		t.Errorf("err = %v after %d requests, want the clash before any", err, sent)
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
			if slices.Contains(declared, "create_release") || !slices.Contains(declared, searchtool.Name) || !slices.Contains(declared, "get_me") {
				t.Errorf("round 1 declares %v", declared)
			}
			return call(searchtool.Name, `{"query":"publish a new release"}`), nil
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
	l := loop.Loop{Provider: gemini.GenerateContent{}, Tools: tools, Send: send}
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
			return chatCall("c1", searchtool.Name, `{"query":"merge a pull request","limit":1}`), nil
		case 2:
			return chatCall("c2", "merge_pull_request", `{"owner":"o","repo":"r","pullNumber":7}`), nil
		}
		return chatAnswer("merged"), nil
	}
	l := loop.Loop{Provider: openai.Chat{}, Tools: tools, Send: send, DeferApprovals: true}
	_, _, err := l.Run(context.Background(), []byte(`{"model":"m","messages":[{"role":"user","content":"merge PR 7"}]}`))
	var p *loop.Pending
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
	var back loop.Pending
	if err := json.Unmarshal(stored, &back); err != nil {
		t.Fatal(err)
	}
	decisions := map[string]runtime.Decision{}
	for _, c := range back.Calls {
		decisions[c.Key] = loop.Approved(c.Digest)
	}
	if _, _, err := l.Resume(context.Background(), &back, decisions); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rc.called, []string{"merge_pull_request"}) {
		t.Errorf("called %v, want [merge_pull_request]", rc.called)
	}
	want := []string{"get_me", "merge_pull_request", searchtool.Name}
	if last := offered[len(offered)-1]; !slices.Equal(last, want) {
		t.Errorf("the round after Resume offers %v, want %v", last, want)
	}
}

// catalogTool is a tool of runtime's testdata/search/catalog.json, a GitHub-like MCP
// server.
type catalogTool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Groups      []string        `json:"groups"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

func readJSON(tb testing.TB, path string, v any) {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
}

// names returns the names of tools, in order.
func names(tools []*runtime.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}
