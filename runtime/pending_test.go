package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// jsonProvider is a wire format for the tests of deferred approvals: a response
// {"calls":[{"id":..,"name":..,"args":{..}}]} makes those calls, any other body is an
// answer; Continue appends a line "id: text" for each answer.
type jsonProvider struct{}

func (jsonProvider) Name() string { return "json" }

func (jsonProvider) Prepare(request []byte, ts *Toolset, choice Choice) ([]byte, error) {
	return bytes.Clone(request), nil
}

func (jsonProvider) Calls(response []byte) ([]ToolCall, error) {
	var body struct {
		Calls []struct {
			ID   string          `json:"id"`
			Name string          `json:"name"`
			Args json.RawMessage `json:"args"`
		} `json:"calls"`
	}
	if json.Unmarshal(response, &body) != nil {
		return nil, nil
	}
	var calls []ToolCall
	for _, c := range body.Calls {
		calls = append(calls, ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Args})
	}
	return calls, nil
}

func (jsonProvider) Continue(request, response []byte, results []CallResult) ([]byte, error) {
	out := bytes.Clone(request)
	for _, r := range results {
		out = fmt.Appendf(out, "\n%s: %s", r.Call.ID, r.Result.Text())
	}
	return out, nil
}

const pendingTurn = `{"calls":[` +
	`{"id":"a","name":"delete","args":{"id":1}},` +
	`{"id":"b","name":"peek","args":{"id":2}},` +
	`{"id":"c","name":"delete","args":{"id":3}},` +
	`{"id":"d","name":"delete","args":{"id":"x"}}]}`

// deferRun runs a conversation whose first turn waits for approval, and returns its
// Pending as another process would read it, with how many calls ran.
func deferRun(t *testing.T) (*Pending, int) {
	t.Helper()
	var mu sync.Mutex
	ran := 0
	tools := gateSet().WithObserver(func(context.Context, Event) { mu.Lock(); ran++; mu.Unlock() })
	var sent []string
	l := Loop{Provider: jsonProvider{}, Tools: tools, Send: scriptedSend(&sent, pendingTurn), DeferApprovals: true}
	_, _, err := l.Run(context.Background(), []byte("ask"))
	var p *Pending
	if !errors.Is(err, ErrPending) || !errors.As(err, &p) {
		t.Fatalf("err = %v, want a Pending", err)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var read Pending
	if err := json.Unmarshal(b, &read); err != nil {
		t.Fatal(err)
	}
	return &read, ran
}

// resume resumes p in a fresh Loop and returns the final conversation.
func resume(t *testing.T, p *Pending, decisions map[string]Decision) string {
	t.Helper()
	var sent []string
	l := Loop{Provider: jsonProvider{}, Tools: gateSet(), Send: scriptedSend(&sent, "Done."), DeferApprovals: true}
	resp, _, err := l.Resume(context.Background(), p, decisions)
	if err != nil || string(resp) != "Done." || len(sent) != 1 {
		t.Fatalf("Resume: %q, %v after %d requests", resp, err, len(sent))
	}
	return sent[0]
}

func TestDeferApprovals(t *testing.T) {
	p, ran := deferRun(t)
	if ran != 0 {
		t.Errorf("%d calls ran before the approval", ran)
	}
	if p.Provider != "json" || p.Round != 1 || string(p.Request) != "ask" || string(p.Response) != pendingTurn || len(p.Calls) != 4 {
		t.Fatalf("pending: %+v", p)
	}
	for i, want := range []bool{true, false, true, false} { // "d" is invalid: it needs no approval
		c := p.Calls[i]
		if c.NeedsApproval != want || (c.Digest != "") != want || c.Key != c.ID {
			t.Errorf("call %d: %+v", i, c)
		}
	}
	if p.Calls[0].Digest != Digest("delete", []byte(`{ "id" : 1 }`)) || p.Calls[0].Digest == p.Calls[2].Digest {
		t.Errorf("digests: %s %s", p.Calls[0].Digest, p.Calls[2].Digest)
	}
	conv := resume(t, p, map[string]Decision{
		"a": Approved(p.Calls[0].Digest),
		"c": Allow(), // no digest: it approves no arguments
	})
	want := "ask" +
		"\na: delete # a" +
		"\nb: peek ## b" +
		"\nc: delete was denied: the arguments changed since they were approved" +
		"\nd: invalid arguments for delete: /id: must be an integer (got \"x\")"
	if conv != want {
		t.Errorf("conversation:\n%s\nwant:\n%s", conv, want)
	}
}

func TestDeferApprovalsDenied(t *testing.T) {
	p, _ := deferRun(t)
	digest := p.Calls[0].Digest
	// The stored turn was changed: the approval was given for other arguments.
	p.Response = bytes.Replace(p.Response, []byte(`{"id":1}`), []byte(`{"id":7}`), 1)
	conv := resume(t, p, map[string]Decision{"a": Approved(digest), "b": Deny("not asked")})
	for _, want := range []string{
		"\na: delete was denied: the arguments changed since they were approved\n",
		"\nb: peek ## b\n", // needs no approval: a decision does not change it
		"\nc: delete was denied: no decision was given\n",
	} {
		if !strings.Contains(conv, want) {
			t.Errorf("conversation does not say %q:\n%s", want, conv)
		}
	}
	for _, id := range []string{"a", "b", "c", "d"} {
		if n := strings.Count(conv, "\n"+id+": "); n != 1 {
			t.Errorf("call %s answered %d times", id, n)
		}
	}
}

func TestResumeTwice(t *testing.T) {
	p, _ := deferRun(t)
	resume(t, p, map[string]Decision{"a": Approved(p.Calls[0].Digest)})
	l := Loop{Provider: jsonProvider{}, Tools: gateSet(), Send: scriptedSend(new([]string), "Done.")}
	if _, _, err := l.Resume(context.Background(), p, nil); !errors.Is(err, ErrResumed) {
		t.Errorf("second Resume: %v", err)
	}
	other := Loop{Provider: fakeProvider{}, Tools: gateSet(), Send: scriptedSend(new([]string), "Done.")}
	if _, _, err := other.Resume(context.Background(), &Pending{Provider: "json"}, nil); err == nil {
		t.Error("resumed another provider's turn")
	}
}

// TestDeferKeys: calls without an id, or with one another call has, are keyed by
// their place, and still answered under their own ids.
func TestDeferKeys(t *testing.T) {
	turn := `{"calls":[{"name":"delete","args":{"id":1}},{"id":"x","name":"delete","args":{"id":2}},{"id":"x","name":"peek","args":{"id":3}}]}`
	var sent []string
	l := Loop{Provider: jsonProvider{}, Tools: gateSet(), Send: scriptedSend(&sent, turn, "Done."), DeferApprovals: true}
	_, _, err := l.Run(context.Background(), []byte("ask"))
	var p *Pending
	if !errors.As(err, &p) {
		t.Fatal(err)
	}
	if p.Calls[0].Key != "#1" || p.Calls[1].Key != "#2" || p.Calls[2].Key != "#3" {
		t.Fatalf("keys: %+v", p.Calls)
	}
	if _, _, err := l.Resume(context.Background(), p, map[string]Decision{"#1": Approved(p.Calls[0].Digest), "#2": Deny("no")}); err != nil {
		t.Fatal(err)
	}
	want := "ask\n: delete # #1\nx: delete was denied: no\nx: peek ### #3"
	if sent[len(sent)-1] != want {
		t.Errorf("conversation:\n%s\nwant:\n%s", sent[len(sent)-1], want)
	}
}
