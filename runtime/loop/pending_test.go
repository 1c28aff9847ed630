package loop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// jsonProvider is a wire format for the tests of deferred approvals: a response
// {"calls":[{"id":..,"name":..,"args":{..}}]} makes those calls, any other body is an
// answer; Continue appends a line "id: text" for each answer.
type jsonProvider struct{}

func (jsonProvider) Name() string { return "json" }

func (jsonProvider) Prepare(request []byte, ts *runtime.Toolset, choice Choice) ([]byte, error) {
	return bytes.Clone(request), nil
}

func (jsonProvider) Calls(response []byte) ([]runtime.ToolCall, error) {
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
	var calls []runtime.ToolCall
	for _, c := range body.Calls {
		calls = append(calls, runtime.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Args})
	}
	return calls, nil
}

func (jsonProvider) Continue(request, response []byte, results []runtime.CallResult) ([]byte, error) {
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
	tools := gateSet().WithObserver(func(context.Context, runtime.Event) { mu.Lock(); ran++; mu.Unlock() })
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
func resume(t *testing.T, p *Pending, decisions map[string]runtime.Decision) string {
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
	if p.Calls[0].Digest != runtime.Digest("delete", []byte(`{ "id" : 1 }`)) || p.Calls[0].Digest == p.Calls[2].Digest {
		t.Errorf("digests: %s %s", p.Calls[0].Digest, p.Calls[2].Digest)
	}
	conv := resume(t, p, map[string]runtime.Decision{
		"a": Approved(p.Calls[0].Digest),
		"c": runtime.Allow(), // no digest: it approves no arguments
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
	conv := resume(t, p, map[string]runtime.Decision{"a": Approved(digest), "b": runtime.Deny("not asked")})
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
	resume(t, p, map[string]runtime.Decision{"a": Approved(p.Calls[0].Digest)})
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
	if _, _, err := l.Resume(context.Background(), p, map[string]runtime.Decision{"#1": Approved(p.Calls[0].Digest), "#2": runtime.Deny("no")}); err != nil {
		t.Fatal(err)
	}
	want := "ask\n: delete # #1\nx: delete was denied: no\nx: peek ### #3"
	if sent[len(sent)-1] != want {
		t.Errorf("conversation:\n%s\nwant:\n%s", sent[len(sent)-1], want)
	}
}

// TestResumeRound: a Pending's round is untrusted, as the rest of it: one outside
// the resuming Loop's rounds is refused, and refusing it loses nothing (the Pending
// resumes once fixed); one within runs the turn and no more rounds than are left. A
// round of -5 gave a model 6 more rounds of calls than MaxRounds allows, and one of
// math.MaxInt wrapped around to as many as it liked.
func TestResumeRound(t *testing.T) {
	const maxRounds = 3
	loop := func(sent *[]string) Loop {
		// The model calls a tool in every answer.
		return Loop{Provider: jsonProvider{}, Tools: gateSet(), MaxRounds: maxRounds,
			Send: scriptedSend(sent, `{"calls":[{"id":"p","name":"peek","args":{"id":1}}]}`)}
	}
	for _, c := range []struct {
		round int
		sends int // requests sent after the turn: the rounds left, and the final one
	}{
		{math.MinInt, -1}, {-5, -1}, {-1, -1}, {0, -1},
		{1, 3}, {2, 2}, {maxRounds, 1},
		{maxRounds + 1, -1}, {math.MaxInt, -1},
	} {
		p, _ := deferRun(t)
		p.Round = c.round
		var sent []string
		l := loop(&sent)
		_, _, err := l.Resume(context.Background(), p, map[string]runtime.Decision{"a": Approved(p.Calls[0].Digest)})
		if c.sends < 0 {
			if err == nil || errors.Is(err, runtime.ErrMaxRounds) || len(sent) != 0 || !strings.Contains(err.Error(), "round") {
				t.Errorf("round %d: %v after %d requests", c.round, err, len(sent))
			}
			// Nothing was lost: the Pending, its round fixed, resumes.
			p.Round = 1
			if _, _, err := l.Resume(context.Background(), p, nil); !errors.Is(err, runtime.ErrMaxRounds) {
				t.Errorf("round %d, fixed: %v", c.round, err)
			}
			continue
		}
		if !errors.Is(err, runtime.ErrMaxRounds) || len(sent) != c.sends {
			t.Errorf("round %d: %v after %d requests, want %d", c.round, err, len(sent), c.sends)
		}
	}
}

// TestResumeInvalidCounts: a Pending's counts of invalid calls are at least 1, as
// the Loop stores them: a count of zero or less (which would let a model make that
// many more invalid calls before it is told to stop) is refused; a huge one holds,
// and counts on without wrapping around.
func TestResumeInvalidCounts(t *testing.T) {
	for _, c := range []struct {
		n    int
		ok   bool
		stop bool // the next invalid call of delete is answered with the stop
	}{
		{math.MinInt, false, false}, {-1, false, false}, {0, false, false},
		{1, true, false}, {DefaultMaxInvalidCalls - 1, true, false}, {DefaultMaxInvalidCalls, true, true},
		{math.MaxInt - 1, true, true}, {math.MaxInt, true, true},
	} {
		p, _ := deferRun(t)
		p.InvalidCalls = map[string]int{"touch": c.n}
		var sent []string
		var rounds []Round
		l := Loop{Provider: jsonProvider{}, Tools: gateSet(),
			Send:    scriptedSend(&sent, `{"calls":[{"id":"t","name":"touch","args":{"id":"x"}}]}`, "Done."),
			OnRound: func(r Round) { rounds = append(rounds, r) }}
		_, _, err := l.Resume(context.Background(), p, nil)
		if !c.ok {
			if err == nil || len(sent) != 0 || !strings.Contains(err.Error(), "invalid calls") {
				t.Errorf("count %d: %v after %d requests", c.n, err, len(sent))
			}
			continue
		}
		if err != nil || len(sent) != 2 || len(rounds) != 2 {
			t.Fatalf("count %d: %v after %d requests", c.n, err, len(sent))
		}
		// The next round's invalid call of touch is answered with the stop past the
		// bound, counting on from the stored count.
		stopped := strings.Contains(sent[1], "t: touch: invalid arguments "+strconv.Itoa(min(c.n, math.MaxInt-1)+1)+" times in a row")
		if stopped != c.stop {
			t.Errorf("count %d: stopped %v:\n%s", c.n, stopped, sent[1])
		}
		ic := rounds[1].InvalidCalls
		if i := slices.IndexFunc(ic, func(x InvalidCount) bool { return x.Tool == "touch" }); i < 0 ||
			ic[i].Count != min(c.n, math.MaxInt-1)+1 || ic[i].Stopped != c.stop {
			t.Errorf("count %d: then %+v", c.n, ic)
		}
	}
}

// TestResumeRecords: what people approve is a pending call's record (its arguments
// shown redacted, its digest), and the record is untrusted as the rest of the
// Pending: a call runs only when its record shows it, the tool, the arguments, their
// redacted form and their digest all those of the call in the turn's response. A
// record changed to show other arguments, with its digest of the arguments that run,
// ran them on the approval of what it showed.
func TestResumeRecords(t *testing.T) {
	evil := json.RawMessage(`{"id":1}`) // the call's arguments in the response
	for _, c := range []struct {
		name   string
		change func(*PendingCall)
		runs   bool
	}{
		{"as stored", func(*PendingCall) {}, true},
		{"arguments respaced", func(pc *PendingCall) { pc.Arguments = json.RawMessage(`{ "id" : 1.0 }`) }, true},
		{"other arguments shown", func(pc *PendingCall) { pc.Arguments = json.RawMessage(`{"id":2}`) }, false},
		{"other redacted arguments shown", func(pc *PendingCall) { pc.Redacted = json.RawMessage(`{"id":2}`) }, false},
		{"no redacted arguments", func(pc *PendingCall) { pc.Redacted = nil }, false},
		{"another tool shown", func(pc *PendingCall) { pc.Tool = "peek" }, false},
		{"another digest", func(pc *PendingCall) { pc.Digest = runtime.Digest("delete", []byte(`{"id":2}`)) }, false},
		{"needs no approval", func(pc *PendingCall) { pc.NeedsApproval = false }, false},
		{"another key", func(pc *PendingCall) { pc.Key = "z" }, false},
	} {
		p, _ := deferRun(t)
		if string(p.Calls[0].Arguments) != string(evil) {
			t.Fatalf("call a: %s", p.Calls[0].Arguments)
		}
		approved := p.Calls[0].Digest
		c.change(&p.Calls[0])
		conv := resume(t, p, map[string]runtime.Decision{"a": Approved(approved)})
		if ran := strings.Contains(conv, "\na: delete # a"); ran != c.runs {
			t.Errorf("%s: ran %v:\n%s", c.name, ran, conv)
		}
		if !c.runs && !strings.Contains(conv, "\na: delete was denied: the pending turn's record of the call does not match the call") {
			t.Errorf("%s:\n%s", c.name, conv)
		}
	}
	// A record of a key twice: which one was shown is not known.
	p, _ := deferRun(t)
	p.Calls = append(p.Calls, p.Calls[0])
	l := Loop{Provider: jsonProvider{}, Tools: gateSet(), Send: scriptedSend(new([]string), "Done.")}
	if _, _, err := l.Resume(context.Background(), p, nil); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a key twice: %v", err)
	}
}

// TestResumeRoundAtTheLimitOfInt: a Loop whose MaxRounds is math.MaxInt resumes a turn
// of round math.MaxInt-1 at most, and then asks for the final answer: the round after
// the last has a number, where counting past math.MaxInt went on to negative rounds,
// each with the tools on.
func TestResumeRoundAtTheLimitOfInt(t *testing.T) {
	for _, c := range []struct {
		round int
		ok    bool
	}{{math.MaxInt - 2, true}, {math.MaxInt - 1, true}, {math.MaxInt, false}} {
		p, _ := deferRun(t)
		p.Round = c.round
		var sent []string
		l := Loop{Provider: jsonProvider{}, Tools: gateSet(), MaxRounds: math.MaxInt,
			Send: scriptedSend(&sent, `{"calls":[{"id":"p","name":"peek","args":{"id":1}}]}`)}
		_, _, err := l.Resume(context.Background(), p, nil)
		switch {
		case !c.ok && (err == nil || len(sent) != 0):
			t.Errorf("round %d: %v after %d requests", c.round, err, len(sent))
		case c.ok && (!errors.Is(err, runtime.ErrMaxRounds) || len(sent) != math.MaxInt-c.round):
			t.Errorf("round %d: %v after %d requests", c.round, err, len(sent))
		}
	}
}

// pickyProvider is jsonProvider continuing only a request that starts with "ask", as a
// provider refuses a request that is not a JSON object or whose messages are no list.
type pickyProvider struct{ jsonProvider }

func (p pickyProvider) Continue(request, response []byte, results []runtime.CallResult) ([]byte, error) {
	if !bytes.HasPrefix(request, []byte("ask")) {
		return nil, errors.New("the request is not a conversation")
	}
	return p.jsonProvider.Continue(request, response, results)
}

// TestResumeRefusesARequestItCannotContinue: a Pending whose stored request cannot
// take the turn's answers is refused before any call runs, and loses nothing: the
// same Pending, its request fixed, resumes. Resume ran the approved calls, then failed
// to continue with their results lost, and an application that resumes again after
// an error ran them twice.
func TestResumeRefusesARequestItCannotContinue(t *testing.T) {
	p, _ := deferRun(t)
	request := p.Request
	var mu sync.Mutex
	var ran []string
	tools := gateSet().WithObserver(func(_ context.Context, e runtime.Event) {
		mu.Lock()
		defer mu.Unlock()
		if e.Outcome == runtime.OutcomeOK {
			ran = append(ran, e.CallID)
		}
	})
	var sent []string
	l := Loop{Provider: pickyProvider{}, Tools: tools, Send: scriptedSend(&sent, "Done.")}
	decisions := map[string]runtime.Decision{"a": Approved(p.Calls[0].Digest)}
	for _, bad := range [][]byte{nil, []byte("{}"), []byte(`"ask"`)} {
		p.Request = bad
		if _, _, err := l.Resume(context.Background(), p, decisions); err == nil || !strings.Contains(err.Error(), "cannot take the turn's answers") {
			t.Errorf("request %q: %v", bad, err)
		}
		if len(ran) != 0 || len(sent) != 0 {
			t.Fatalf("request %q: %v ran, %d requests sent", bad, ran, len(sent))
		}
	}
	p.Request = request
	if resp, _, err := l.Resume(context.Background(), p, decisions); err != nil || string(resp) != "Done." {
		t.Fatalf("the request fixed: %q, %v", resp, err)
	}
	if !slices.Contains(ran, "a") {
		t.Errorf("the request fixed: %v ran", ran)
	}
}

// gateSet is runtime's approval gate fixture as dynamic tools: "delete" is destructive,
// "peek" read-only, "touch" unannotated (so presumed destructive); each takes a
// required "id" from 1 to 100 and an optional sensitive "secret" of at least 8
// characters, and answers with its name, id hashes and the call's id. An id of 99
// panics; one of 98 waits for the call's context to end.
func gateSet() *runtime.Toolset {
	const schema = `{"type":"object","properties":{"id":{"type":"integer","minimum":1,"maximum":100},` +
		`"secret":{"type":"string","minLength":8,"x-toolgen-sensitive":true}},"required":["id"],"additionalProperties":false}`
	tools := []runtime.Tool{
		{Name: "delete", Annotations: runtime.Annotations{Destructive: new(true)}},
		{Name: "peek", Annotations: runtime.Annotations{ReadOnly: new(true)}, Sensitive: []string{"/secret"}},
		{Name: "touch"},
	}
	var sets []*runtime.Toolset
	for _, tool := range tools {
		name := tool.Name
		tool.InputSchema = json.RawMessage(schema)
		ts, err := runtime.NewTool(tool, func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
			var in struct {
				ID     int
				Secret string
			}
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, err
			}
			info, _ := runtime.CallFromContext(ctx)
			switch in.ID {
			case 99:
				panic("boom: " + in.Secret)
			case 98:
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return runtime.TextResult(name + " " + strings.Repeat("#", in.ID) + " " + info.ID), nil
		})
		if err != nil {
			panic(err) // the schema above is fixed
		}
		sets = append(sets, ts)
	}
	return runtime.Join(sets...)
}

// TestResumeRefusesAChangedNumber: a call approved with the arguments
// {"id":9007199254740992} does not run, on Resume, with {"id":9007199254740993}, which
// a float64 cannot tell from it but the tool gets as another number.
func TestResumeRefusesAChangedNumber(t *testing.T) {
	var mu sync.Mutex
	var ran []string
	ts, err := runtime.NewTool(runtime.Tool{Name: "wipe", Description: "Wipes an account.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"],"additionalProperties":false}`)},
		func(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
			mu.Lock()
			ran = append(ran, string(args))
			mu.Unlock()
			return runtime.TextResult("wiped"), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	const turn = `{"calls":[{"id":"a","name":"wipe","args":{"id":9007199254740992}}]}`
	var sent []string
	l := Loop{Provider: jsonProvider{}, Tools: ts, Send: scriptedSend(&sent, turn, "Done."), DeferApprovals: true}
	_, _, err = l.Run(context.Background(), []byte("ask"))
	var p *Pending
	if !errors.As(err, &p) || len(p.Calls) != 1 || !p.Calls[0].NeedsApproval {
		t.Fatalf("Run: %v", err)
	}
	approved := Approved(p.Calls[0].Digest)
	changed := Pending{Provider: p.Provider, Round: p.Round, Request: p.Request, Calls: p.Calls,
		Response: []byte(strings.Replace(turn, "9007199254740992", "9007199254740993", 1))}
	sent = nil
	l.Send = scriptedSend(&sent, "Done.")
	if _, _, err := l.Resume(context.Background(), &changed, map[string]runtime.Decision{"a": approved}); err != nil {
		t.Fatal(err)
	}
	if len(ran) != 0 || len(sent) != 1 || !strings.Contains(sent[0], "the arguments changed since they were approved") {
		t.Fatalf("the changed call ran with %q; the model was told %q", ran, sent)
	}
	// The arguments approved run.
	again := Pending{Provider: p.Provider, Round: p.Round, Request: p.Request, Response: p.Response, Calls: p.Calls}
	if _, _, err := l.Resume(context.Background(), &again, map[string]runtime.Decision{"a": approved}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ran, []string{`{"id":9007199254740992}`}) {
		t.Errorf("the approved call ran with %q", ran)
	}
}

// TestPendingRedacted: a call waiting for approval shows its arguments with the values
// of sensitive properties replaced, as runtime.Redact replaces them.
func TestPendingRedacted(t *testing.T) {
	ts := gateSet()
	tool, _ := ts.Lookup("delete")
	args := `{"id":3,"secret":"hunter2hunter2"}`
	turn := `{"calls":[{"id":"a","name":"delete","args":` + args + `}]}`
	l := Loop{Provider: jsonProvider{}, Tools: ts, Send: scriptedSend(new([]string), turn), DeferApprovals: true}
	_, _, err := l.Run(context.Background(), []byte("ask"))
	var p *Pending
	if !errors.As(err, &p) || len(p.Calls) != 1 {
		t.Fatalf("Run: %v", err)
	}
	got, want := string(p.Calls[0].Redacted), string(runtime.Redact(tool, []byte(args)))
	if got != want || strings.Contains(got, "hunter2") {
		t.Errorf("Pending.Redacted = %s, want %s", got, want)
	}
}
