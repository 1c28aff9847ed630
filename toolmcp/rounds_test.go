package toolmcp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/client"
	"github.com/toolgen/toolgen/toolmcp"
)

// A hostile client answers as it likes: these tests send the answers and states
// themselves (the SDK client's own round trips disabled).
var hostile = &mcp.ClientOptions{
	MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
	ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "decline"}, nil
	},
	CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		return &mcp.CreateMessageResult{Role: "assistant", Content: &mcp.TextContent{Text: "x"}}, nil
	},
}

// forge returns a requestState of toolmcp's format holding what the client says.
func forge(body string) string {
	return "tg1." + base64.RawURLEncoding.EncodeToString([]byte(body))
}

// withAnswers returns the requestState state with its answers replaced by answers (a
// JSON object), the rest as the server wrote it, spelled as the server spells a state
// (the members in its order, compact): a client's forgery, in the one spelling read.
func withAnswers(t *testing.T, state, answers string) string {
	t.Helper()
	m := stateOf(t, state)
	b, err := json.Marshal(struct {
		Approval json.RawMessage `json:"approval,omitempty"`
		Answers  json.RawMessage `json:"answers,omitempty"`
		Asked    json.RawMessage `json:"asked,omitempty"`
	}{m["approval"], json.RawMessage(answers), m["asked"]})
	if err != nil {
		t.Fatal(err)
	}
	return forge(string(b))
}

// roundOf sends one round of a call to name.
func roundOf(t *testing.T, cs *mcp.ClientSession, name string, args any, answers mcp.InputResponseMap, state string) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args, InputResponses: answers, RequestState: state})
	var jerr *jsonrpc.Error
	if errors.As(err, &jerr) && jerr.Code == jsonrpc.CodeInvalidParams && strings.Contains(jerr.Message, "requestState") {
		// A state toolmcp did not write as it wrote it: refused, as a result here.
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: jerr.Message}}}
	}
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestAnswersOfTheWrongShape: answers a state carries (the client's, unchecked by the
// SDK) of the wrong kind or shape are an error of the request, or asked again when they
// are no answer at all; never a panic, and never a value the tool takes.
func TestAnswersOfTheWrongShape(t *testing.T) {
	sample := askTool(t, func(ctx context.Context) (string, error) {
		r, err := client.Sample(ctx, &client.SampleRequest{Messages: []client.SampleMessage{client.UserMessage("hi")}})
		if err != nil {
			return "", err
		}
		return "sampled " + r.Content.Text, nil
	})
	elicit := askTool(t, func(ctx context.Context) (string, error) {
		r, err := client.Elicit(ctx, &client.ElicitRequest{Message: "?", Schema: json.RawMessage(formSchema)})
		if err != nil {
			return "", err
		}
		return string(r.Action) + " " + string(r.Content), nil
	})
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	const again = "" // asked again: no answer
	for _, tc := range []struct {
		ts      *runtime.Toolset
		answer  string
		want    string // the result's text, or its start for an error
		isError bool
	}{
		{sample, `{"action":"accept","content":{"approve":true}}`, "sampling: the client answered with *mcp.ElicitResult", true},
		{sample, `{"roots":[]}`, "sampling: the client answered with *mcp.ListRootsResult", true},
		{sample, `null`, again, false},
		{sample, `"text"`, again, false},
		{sample, `[]`, again, false},
		{sample, `{"role":"assistant","content":[]}`, "sampling: the client answered with 0 content blocks", true},
		{sample, `{"role":"assistant","content":[null]}`, again, false},
		{sample, `{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`, "sampling: the client answered with 2 content blocks", true},
		{sample, `{"role":"assistant","content":{"type":"tool_use","id":"1","name":"x","input":{}}}`, "sampling: the client answered with content of type *mcp.ToolUseContent", true},
		{sample, `{"role":null,"content":{"type":"text","text":"ok"}}`, `sampling: the client answered with the role ""`, true},
		{sample, `{"role":"system","content":{"type":"text","text":"ok"}}`, `sampling: the client answered with the role "system"`, true},
		{sample, `{"role":"assistant","content":{"type":"text","text":"ok"}}`, "sampled ok", false},
		{elicit, `{"role":"assistant","content":{"type":"text","text":"ok"}}`, "elicitation: the client answered with *mcp.CreateMessageWithToolsResult", true},
		{elicit, `{"action":"accept","content":null}`, "elicitation: the client accepted the form but sent none of its values", true},
		{elicit, `{"action":"accept","content":"s"}`, again, false},
		{elicit, `{"action":null}`, `elicitation: the client answered with the action ""`, true},
		{elicit, `{"action":"yes","content":{"name":"a"}}`, `elicitation: the client answered with the action "yes"`, true},
		{elicit, `{"action":"accept","content":{"name":"a","age":1.5}}`, "elicitation: the answer does not match the form's schema", true},
		{elicit, `{"action":"accept","content":{"name":` + deep + `}}`, "elicitation: the answer does not match the form's schema", true},
		{elicit, `{"action":"accept","content":{"name":"a","x":` + deep + `}}`, `accept {"age":30,"name":"a"}`, false},
		{elicit, `{"action":"accept","content":{"name":"a","age":1e400}}`, again, false},
	} {
		cs := clientOf(t, tc.ts, "2026-07-28", hostile)
		r1 := roundOf(t, cs, "ask", map[string]any{}, nil, "")
		res := roundOf(t, cs, "ask", map[string]any{}, nil, withAnswers(t, r1.RequestState, `{"toolgen_ask_1":`+tc.answer+`}`))
		got := text(res)
		switch {
		case tc.want == again:
			if !res.NeedsInput() || res.InputRequests["toolgen_ask_1"] == nil {
				t.Errorf("%.60s: not asked again: %.200s", tc.answer, jsonOf(t, res))
			}
		case res.IsError != tc.isError || !strings.HasPrefix(got, tc.want) || (!tc.isError && got != tc.want):
			t.Errorf("%.60s: isError %v, %.200q; want %q", tc.answer, res.IsError, got, tc.want)
		}
	}
}

// wipeTool is a destructive tool that asks its user why before it acts, and counts its
// runs.
func wipeTool(t *testing.T, runs *atomic.Int32) *runtime.Toolset {
	t.Helper()
	ts, err := runtime.NewTool(runtime.Tool{
		Name:        "wipe",
		Annotations: runtime.Annotations{Destructive: new(true)},
		InputSchema: json.RawMessage(`{"type":"object"}`),
	}, func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		runs.Add(1)
		res, err := client.Elicit(ctx, &client.ElicitRequest{Message: "Why?"})
		if err != nil {
			return nil, err
		}
		return runtime.TextResult("wiped: " + string(res.Action)), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ts.WithApprover(toolmcp.ElicitApprover())
}

// stateOf decodes a requestState of toolmcp's.
func stateOf(t *testing.T, s string) map[string]json.RawMessage {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(s, "tg1."))
	var m map[string]json.RawMessage
	if err != nil || json.Unmarshal(b, &m) != nil {
		t.Fatalf("state %q", s)
	}
	return m
}

// TestApprovalHoldsForTheAnswersAsked: the approval a round carries to the next holds
// only for the call sent again with the answers that round asked for and the answers
// it carried, unchanged. A client that sends the state again without the answer would
// otherwise run the approved tool again and again on one approval, each round
// re-signing it, past its expiry; one that changes the carried answers would run it
// on answers that were not given.
func TestApprovalHoldsForTheAnswersAsked(t *testing.T) {
	var runs atomic.Int32
	cs := clientOf(t, wipeTool(t, &runs), "2026-07-28", hostile)
	args := map[string]any{}
	yes := &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}
	why := &mcp.ElicitResult{Action: "accept"}
	// approved runs the first two rounds: the approval asked, and given.
	approved := func() *mcp.CallToolResult {
		t.Helper()
		r1 := roundOf(t, cs, "wipe", args, nil, "")
		if r1.InputRequests["toolgen_approval"] == nil {
			t.Fatalf("round 1: %s", jsonOf(t, r1))
		}
		r2 := roundOf(t, cs, "wipe", args, mcp.InputResponseMap{"toolgen_approval": yes}, r1.RequestState)
		if r2.InputRequests["toolgen_ask_1"] == nil || len(r2.InputRequests) != 1 {
			t.Fatalf("round 2: %s", jsonOf(t, r2))
		}
		return r2
	}
	altered := func(state string) string {
		return withAnswers(t, state, `{"toolgen_approval":{"action":"accept","content":{"approve":true,"x":1}}}`)
	}
	stale := "wipe was denied: the user's answer expired or does not match this call"
	for _, c := range []struct {
		name    string
		answers mcp.InputResponseMap
		state   func(string) string
	}{
		{"no answer", nil, nil},
		{"an answer not asked", mcp.InputResponseMap{"toolgen_ask_2": why}, nil},
		{"an answer more", mcp.InputResponseMap{"toolgen_ask_1": why, "toolgen_ask_2": why}, nil},
		{"the approval again", mcp.InputResponseMap{"toolgen_ask_1": why, "toolgen_approval": yes}, nil},
		{"carried answer altered", mcp.InputResponseMap{"toolgen_ask_1": why}, altered},
	} {
		t.Run(c.name, func(t *testing.T) {
			r2 := approved()
			state := r2.RequestState
			if c.state != nil {
				state = c.state(state)
			}
			before := runs.Load()
			if res := roundOf(t, cs, "wipe", args, c.answers, state); text(res) != stale || res.NeedsInput() {
				t.Errorf("%s", jsonOf(t, res))
			}
			if n := runs.Load() - before; n != 0 {
				t.Errorf("the tool ran %d times on a round the approval does not hold for", n)
			}
			// The state is still good for the round it was made for, once.
			if res := roundOf(t, cs, "wipe", args, mcp.InputResponseMap{"toolgen_ask_1": why}, r2.RequestState); res.IsError || text(res) != "wiped: accept" {
				t.Errorf("the round with the answer: %s", jsonOf(t, res))
			}
			if res := roundOf(t, cs, "wipe", args, mcp.InputResponseMap{"toolgen_ask_1": why}, r2.RequestState); text(res) != stale {
				t.Errorf("the round with the answer, again: %s", jsonOf(t, res))
			}
			if n := runs.Load() - before; n != 1 {
				t.Errorf("the tool ran %d times, want 1", n)
			}
		})
	}
}

// TestAnswersAreTheirRequests: the tool runs again from the start, and its n-th
// request may not be the one the n-th answer answered (the world changed between the
// rounds): an answer reaches only the request it answered; another is asked again.
func TestAnswersAreTheirRequests(t *testing.T) {
	var runs atomic.Int32
	ts := askTool(t, func(ctx context.Context) (string, error) {
		n := min(runs.Add(1), 2) // one file the first run, two after
		q := fmt.Sprintf("Delete %d files?", n)
		res, err := client.Elicit(ctx, &client.ElicitRequest{Message: q})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s: %s", q, res.Action), nil
	})
	var mu sync.Mutex
	var asked []string
	cs := clientOf(t, ts, "2026-07-28", &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			asked = append(asked, req.Params.Message)
			mu.Unlock()
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	})
	res := call(t, cs, "ask", map[string]any{})
	mu.Lock()
	defer mu.Unlock()
	if text(res) != "Delete 2 files?: accept" || strings.Join(asked, ",") != "Delete 1 files?,Delete 2 files?" {
		t.Errorf("the user was asked %q; the tool got %q", asked, text(res))
	}
}

// TestAnswerKeysAreExact: a tool's n-th request is answered only under its own key,
// toolgen_ask_n, spelled as the server spells it: an answer under a key one off, of
// another spelling of n (a leading zero, a sign), or of an n no run reaches, in this
// round's answers or in a state's, reaches no request, and the request is asked again.
func TestAnswerKeysAreExact(t *testing.T) {
	var runs atomic.Int32
	ts := askTool(t, func(ctx context.Context) (string, error) {
		runs.Add(1)
		r, err := client.Elicit(ctx, &client.ElicitRequest{Message: "Why?"})
		if err != nil {
			return "", err
		}
		return "told: " + string(r.Action), nil
	})
	cs := clientOf(t, ts, "2026-07-28", hostile)
	r1 := roundOf(t, cs, "ask", map[string]any{}, nil, "")
	if r1.InputRequests["toolgen_ask_1"] == nil {
		t.Fatalf("round 1: %s", jsonOf(t, r1))
	}
	accept := `{"action":"accept"}`
	for _, key := range []string{
		"toolgen_ask_0", "toolgen_ask_2", "toolgen_ask_-1", "toolgen_ask_+1", "toolgen_ask_01", "toolgen_ask_1 ",
		"toolgen_ask_1.0", "TOOLGEN_ASK_1", "toolgen_ask_", "toolgen_ask_18446744073709551617",
		"toolgen_ask_9223372036854775807", "toolgen_ask_-9223372036854775808", "toolgen_ask_\u0661",
	} {
		res := roundOf(t, cs, "ask", map[string]any{}, mcp.InputResponseMap{key: &mcp.ElicitResult{Action: "accept"}}, r1.RequestState)
		if !res.NeedsInput() || res.InputRequests["toolgen_ask_1"] == nil {
			t.Errorf("answered under %q: %s", key, jsonOf(t, res))
		}
		res = roundOf(t, cs, "ask", map[string]any{}, nil, withAnswers(t, r1.RequestState, `{`+jsonOf(t, key)+`:`+accept+`}`))
		if !res.NeedsInput() || res.InputRequests["toolgen_ask_1"] == nil {
			t.Errorf("answered under %q in the state: %s", key, jsonOf(t, res))
		}
	}
	if res := roundOf(t, cs, "ask", map[string]any{}, mcp.InputResponseMap{"toolgen_ask_1": &mcp.ElicitResult{Action: "accept"}}, r1.RequestState); text(res) != "told: accept" {
		t.Errorf("answered under its key: %s", jsonOf(t, res))
	}
}
