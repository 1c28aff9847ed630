package openai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/openai"
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

// responsesEntry is what the tests read of an entry of a Responses "tools" array.
type responsesEntry struct {
	Type         string           `json:"type"`
	Name         string           `json:"name"`
	DeferLoading bool             `json:"defer_loading"`
	Tools        []responsesEntry `json:"tools"`
}

func responsesEntries(t *testing.T, request []byte) []responsesEntry {
	t.Helper()
	var req struct {
		Tools []responsesEntry `json:"tools"`
	}
	if err := json.Unmarshal(request, &req); err != nil {
		t.Fatal(err)
	}
	return req.Tools
}

const pullsQuestion = `{"model":"gpt-5.4","input":[{"role":"user","content":"merge PR 7 of octo/hello"}]}`

// TestResponsesPrepareDeferred: the tools a Toolset defers go with defer_loading after
// a tool_search, flat or, with Namespaces, in a namespace per group; the strict fake
// takes both; a second Prepare, as the next round's, sends the same tools once; a
// request's own tool_search is kept; ToolSearchClient sends the kept tools alone.
func TestResponsesPrepareDeferred(t *testing.T) {
	ts := pullTools(t).WithDefer(runtime.Defer{Keep: []string{"get_me"}})
	flat, err := openai.Responses{}.Prepare([]byte(pullsQuestion), ts, loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	wantFlat := []responsesEntry{{Type: "tool_search"}, {Type: "function", Name: "get_me"},
		{Type: "function", Name: "list_pull_requests", DeferLoading: true}, {Type: "function", Name: "merge_pull_request", DeferLoading: true}}
	if got := responsesEntries(t, flat); !equalEntries(got, wantFlat) {
		t.Errorf("flat: %+v, want %+v", got, wantFlat)
	}
	spaced := openai.Responses{Namespaces: true, NamespaceDescriptions: map[string]string{"pulls": "Pull requests: list, merge."}}
	ns, err := spaced.Prepare([]byte(pullsQuestion), ts, loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	wantNS := []responsesEntry{{Type: "tool_search"}, {Type: "function", Name: "get_me"}, {Type: "namespace", Name: "pulls", Tools: []responsesEntry{
		{Type: "function", Name: "list_pull_requests", DeferLoading: true}, {Type: "function", Name: "merge_pull_request", DeferLoading: true}}}}
	if got := responsesEntries(t, ns); !equalEntries(got, wantNS) {
		t.Errorf("namespaces: %+v, want %+v", got, wantNS)
	}
	if !strings.Contains(string(ns), `"description":"Pull requests: list, merge."`) {
		t.Errorf("the namespace's description is not the one given: %s", ns)
	}
	for _, req := range [][]byte{flat, ns} {
		if _, err := tooltest.Read(tooltest.Responses, req); err != nil {
			t.Errorf("the fake API rejects %s: %v", req, err)
		}
	}
	again, err := spaced.Prepare(ns, ts, loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, ns) {
		t.Errorf("a second Prepare changed the request:\n%s\n%s", ns, again)
	}
	client, err := openai.Responses{ToolSearch: openai.ToolSearchClient}.Prepare([]byte(pullsQuestion), ts, loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	if got := responsesEntries(t, client); !equalEntries(got, []responsesEntry{{Type: "function", Name: "get_me"}}) {
		t.Errorf("ToolSearchClient: %+v", got)
	}
	// Deferred functions without the tool_search tool: the API refuses them.
	noSearch := strings.Replace(string(flat), `{"type":"tool_search"},`, "", 1)
	if _, err := tooltest.Read(tooltest.Responses, []byte(noSearch)); !errors.Is(err, tooltest.ErrRejected) {
		t.Errorf("the fake API took deferred functions without tool_search: %v", err)
	}
}

func equalEntries(a, b []responsesEntry) bool {
	return slices.EqualFunc(a, b, func(x, y responsesEntry) bool {
		return x.Type == y.Type && x.Name == y.Name && x.DeferLoading == y.DeferLoading && equalEntries(x.Tools, y.Tools)
	})
}

// TestResponsesToolSearchRoundTrip reads a recorded response of the API's tool search
// (a tool_search_call the server ran, its tool_search_output loading a namespace, and a
// function_call of the loaded function, with its namespace): its one call is the
// function_call, and Continue sends every output item back as it came, then the
// function_call_output; the strict fake takes the follow-up, and refuses it without the
// search's output.
func TestResponsesToolSearchRoundTrip(t *testing.T) {
	resp, err := os.ReadFile(filepath.Join("testdata", "tool_search_response.json"))
	if err != nil {
		t.Fatal(err)
	}
	calls, err := openai.ResponsesCalls(resp)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0].ID != "call_01" || calls[0].Name != "merge_pull_request" {
		t.Fatalf("calls %+v, want the function_call alone", calls)
	}
	ts := pullTools(t).WithDefer(runtime.Defer{Keep: []string{"get_me"}})
	p := openai.Responses{Namespaces: true}
	req, err := p.Prepare([]byte(pullsQuestion), ts, loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	next, err := p.Continue(req, resp, ts.RunCalls(context.Background(), calls, 0))
	if err != nil {
		t.Fatal(err)
	}
	var sent, recorded struct {
		Input  []json.RawMessage `json:"input"`
		Output []json.RawMessage `json:"output"`
	}
	if err := json.Unmarshal(next, &sent); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(resp, &recorded); err != nil {
		t.Fatal(err)
	}
	if len(sent.Input) != 1+len(recorded.Output)+1 {
		t.Fatalf("%d input items, want the question, the %d output items and one answer", len(sent.Input), len(recorded.Output))
	}
	for i, item := range recorded.Output {
		var a, b bytes.Buffer
		_ = json.Compact(&a, sent.Input[1+i])
		_ = json.Compact(&b, item)
		if a.String() != b.String() {
			t.Errorf("output item %d sent back as %s, received as %s", i, a.String(), b.String())
		}
	}
	answer := string(sent.Input[len(sent.Input)-1])
	if !strings.Contains(answer, `"call_id":"call_01"`) || !strings.Contains(answer, "merge_pull_request done") {
		t.Errorf("answer %s, want the function_call_output of call_01", answer)
	}
	got, err := tooltest.Read(tooltest.Responses, next)
	if err != nil {
		t.Fatalf("the fake API rejects the follow-up: %v", err)
	}
	if len(got.Turns) != 1 || len(got.Turns[0].Calls) != 1 || got.Turns[0].Results[0].Text == "" {
		t.Errorf("the fake read turns %+v", got.Turns)
	}
	var cut map[string]json.RawMessage
	_ = json.Unmarshal(next, &cut)
	items := slices.Delete(slices.Clone(sent.Input), 2, 3) // the tool_search_output
	cut["input"], _ = json.Marshal(items)
	body, _ := json.Marshal(cut)
	if _, err := tooltest.Read(tooltest.Responses, body); !errors.Is(err, tooltest.ErrRejected) {
		t.Errorf("the fake API took a tool_search_call without its output: %v", err)
	}
}

// TestResponsesClientToolSearchCall: a tool_search_call the client must run (execution
// "client") is not a call a Toolset answers; a response holding one without its output
// is an error that says so, rather than a follow-up the API refuses.
func TestResponsesClientToolSearchCall(t *testing.T) {
	resp := `{"id":"r","output":[{"type":"tool_search_call","id":"tsc","call_id":"ts_1","execution":"client","status":"completed","arguments":{"paths":["pulls"]}}]}`
	_, err := openai.ResponsesCalls([]byte(resp))
	if err == nil || !strings.Contains(err.Error(), "tool_search_output") {
		t.Errorf("err = %v, want one naming the tool_search_output the client owes", err)
	}
}

// TestResponsesStreamClientItems: a streamed turn whose completed response holds an item
// the client must answer (a client-executed tool_search_call, a computer_call) besides a
// function call is refused by the stream's Calls, as ResponsesCalls refuses the whole
// body: before the function call runs, not at Continue, after it ran.
func TestResponsesStreamClientItems(t *testing.T) {
	for _, item := range []string{
		`{"type":"tool_search_call","id":"tsc","call_id":"ts_1","execution":"client","status":"completed","arguments":{"paths":["pulls"]}}`,
		`{"type":"computer_call","id":"cu","call_id":"cu_1","status":"completed","action":{"type":"screenshot"}}`,
	} {
		call := `{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_me","arguments":"{}","status":"completed"}`
		var s openai.ResponsesStream
		for _, ev := range []string{
			`{"type":"response.output_item.added","output_index":1,"item":` + call + `}`,
			`{"type":"response.output_item.done","output_index":1,"item":` + call + `}`,
			`{"type":"response.completed","response":{"id":"r","status":"completed","output":[` + item + `,` + call + `]}}`,
		} {
			if err := s.Add([]byte(ev)); err != nil {
				t.Fatal(err)
			}
		}
		if calls, err := s.Calls(); err == nil {
			t.Errorf("with %s: calls %+v, want an error", item, calls)
		}
	}
}

// TestResponsesNamespaceNames: a deferred tool whose group cannot name a namespace (a
// dot, a space, too long) goes as a deferred function of its own, which the fake takes.
func TestResponsesNamespaceNames(t *testing.T) {
	var sets []*runtime.Toolset
	for _, def := range []struct{ name, group string }{
		{"get_me", "users"}, {"a_tool", "cards.finance"}, {"b_tool", "two words"}, {"c_tool", strings.Repeat("g", 65)}, {"d_tool", strings.Repeat("g", 64)},
	} {
		ts, err := runtime.NewTool(runtime.Tool{Name: def.name, Groups: []string{def.group}, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult("ok"), nil })
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, ts)
	}
	ts := runtime.Join(sets...).WithDefer(runtime.Defer{Keep: []string{"get_me"}})
	req, err := openai.Responses{Namespaces: true}.Prepare([]byte(pullsQuestion), ts, loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	want := []responsesEntry{{Type: "tool_search"}, {Type: "function", Name: "a_tool", DeferLoading: true}, {Type: "function", Name: "b_tool", DeferLoading: true},
		{Type: "function", Name: "c_tool", DeferLoading: true}, {Type: "function", Name: "get_me"},
		{Type: "namespace", Name: strings.Repeat("g", 64), Tools: []responsesEntry{{Type: "function", Name: "d_tool", DeferLoading: true}}}}
	if got := responsesEntries(t, req); !equalEntries(got, want) {
		t.Errorf("tools %+v, want %+v", got, want)
	}
	if _, err := tooltest.Read(tooltest.Responses, req); err != nil {
		t.Errorf("the fake API rejects %s: %v", req, err)
	}
}
