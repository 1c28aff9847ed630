package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/invalid/message"
)

// ErrPending is wrapped by the error Run returns when a turn stopped at calls that need
// approval (see Loop.DeferApprovals): errors.As on it finds the *Pending to store and,
// once people have decided, to pass to Resume.
var ErrPending = errors.New("runtime: calls wait for approval")

// ErrResumed is returned by Resume for a Pending it has resumed before.
var ErrResumed = errors.New("runtime: this pending turn was resumed already")

// Pending is a turn of a conversation stopped at calls that need approval. None of the
// turn's calls has run, and none is answered: Resume runs the whole turn, answering each
// call once. It is plain data: json.Marshal it to store it, and json.Unmarshal it in
// another process to resume it there.
type Pending struct {
	Provider string `json:"provider"`
	// Round is the number of the stopped round.
	Round int `json:"round"`
	// Request and Response are the round's request, as sent, and the model's response
	// holding the calls: the conversation so far.
	Request  []byte `json:"request"`
	Response []byte `json:"response"`
	// Calls are the turn's calls, in order.
	Calls []PendingCall `json:"calls"`
	// InvalidCalls carries the Loop's count of invalid calls in a row, by tool.
	InvalidCalls map[string]int `json:"invalid_calls,omitempty"`
	// Loaded names the deferred tools the Loop's search tool had found, in order, for a
	// Loop whose Tools defer tools (runtime.Toolset.WithDefer) and whose provider does
	// not load them itself: Resume offers them again. Names that are not deferred tools of the
	// resuming Loop's Tools are ignored.
	Loaded []string `json:"loaded,omitempty"`

	mu      sync.Mutex
	resumed bool
}

// PendingCall is one call of a pending turn.
type PendingCall struct {
	// Key is what decisions are keyed by: the call's id, or "#n" (n counting from 1)
	// when the provider gave the call no id, or one it gave another call of the turn;
	// such a call runs, on Resume, with its key as the id its context carries, and is
	// answered under its own.
	Key  string `json:"key"`
	ID   string `json:"id,omitempty"`
	Tool string `json:"tool"`
	// Arguments are the call's arguments, as the model sent them; show Redacted ones.
	Arguments json.RawMessage `json:"arguments"`
	// Redacted are the arguments with the values of sensitive properties replaced.
	Redacted json.RawMessage `json:"redacted,omitempty"`
	// NeedsApproval reports a call that runs only with a decision that allows it.
	NeedsApproval bool `json:"needs_approval,omitempty"`
	// Digest is the SHA-256 of the tool's name and the canonical JSON of the arguments
	// (runtime.Digest), for calls that need approval: pass it to Approved.
	Digest string `json:"digest,omitempty"`
}

// Error says how many calls wait; a *Pending is the error Run returns.
func (p *Pending) Error() string {
	n := 0
	for _, c := range p.Calls {
		if c.NeedsApproval {
			n++
		}
	}
	return fmt.Sprintf("%s: round %d: %d of %d calls wait for approval", p.Provider, p.Round, n, len(p.Calls))
}

// Is makes errors.Is(err, ErrPending) hold.
func (p *Pending) Is(target error) bool { return target == ErrPending }

// Approved returns a decision that lets a deferred call run, but only with the
// arguments whose digest (PendingCall.Digest) it is given: Resume denies the call when
// they differ.
func Approved(digest string) runtime.Decision { return runtime.Decision{Allow: true, Digest: digest} }

// callKeys returns the key of each call: its id when that names it alone, else "#n".
func callKeys(calls []runtime.ToolCall) []string {
	seen := map[string]int{}
	for _, c := range calls {
		seen[c.ID]++
	}
	keys := make([]string, len(calls))
	for i, c := range calls {
		keys[i] = c.ID
		if c.ID == "" || seen[c.ID] > 1 {
			keys[i] = "#" + strconv.Itoa(i+1)
		}
	}
	return keys
}

// deferred returns the pending turn of calls when any of them needs approval: a call of
// a known destructive tool whose arguments are valid; nil when none does.
func (l *Loop) deferred(round int, req, resp []byte, calls []runtime.ToolCall, invalid map[string]int) *Pending {
	keys := callKeys(calls)
	p := &Pending{Provider: l.Provider.Name(), Round: round, Request: req, Response: resp}
	waiting := false
	for i, c := range calls {
		pc := PendingCall{Key: keys[i], ID: c.ID, Tool: c.Name, Arguments: json.RawMessage(c.Arguments)}
		if !json.Valid(c.Arguments) {
			pc.Arguments, _ = json.Marshal(string(c.Arguments)) // kept as a string
		}
		if t, ok := l.Tools.Lookup(c.Name); ok && t.Annotations.Effective().Destructive {
			if err := l.Tools.Check(c.Name, c.Arguments); err == nil {
				pc.NeedsApproval, waiting = true, true
				pc.Digest = runtime.Digest(c.Name, c.Arguments)
				pc.Redacted = runtime.Redact(t, c.Arguments)
			}
		}
		p.Calls = append(p.Calls, pc)
	}
	if !waiting {
		return nil
	}
	if len(invalid) > 0 {
		p.InvalidCalls = make(map[string]int, len(invalid))
		for k, v := range invalid {
			p.InvalidCalls[k] = v
		}
	}
	return p
}

// Resume runs the stopped turn of p with decisions, keyed by PendingCall.Key, and goes
// on with the conversation as Run does. The calls are the ones of p's Response, with
// their arguments there. A call that needs approval runs only when its decision allows
// it with the digest of exactly those arguments (see Approved); a missing decision, or
// a digest that does not match, denies it; the Toolset's own Approver is not asked.
// Every call of the turn is answered once.
// Resume refuses a Pending it resumed before (ErrResumed); a Pending read again from
// storage is a new value, so an application that must not run a call twice removes,
// or marks, the stored state before it resumes.
// A Pending read from storage is untrusted input, each field of it: Resume refuses,
// with an error and without running anything (the same Pending, fixed, resumes
// after), one whose Round is outside 1 to the Loop's MaxRounds, whose InvalidCalls has
// a count below 1, whose Calls list a key twice, or whose Request the provider cannot
// continue with the turn's answers; and it denies a call whose record in Calls (what people were shown: the tool,
// the arguments, redacted, and the digest) is not the call of the Response that runs.
func (l *Loop) Resume(ctx context.Context, p *Pending, decisions map[string]runtime.Decision) (response, conversation []byte, err error) {
	if err := l.check(); err != nil {
		return nil, nil, err
	}
	if p == nil {
		return nil, nil, errors.New("runtime: Resume needs a Pending")
	}
	if p.Provider != l.Provider.Name() {
		return nil, nil, fmt.Errorf("runtime: the pending turn is of the %s provider, not %s", p.Provider, l.Provider.Name())
	}
	records, err := p.check(l.maxRounds())
	if err != nil {
		return nil, nil, err
	}
	calls, err := l.Provider.Calls(p.Response)
	if err != nil {
		return p.Response, p.Request, fmt.Errorf("%s: read the pending response: %w", p.Provider, err)
	}
	if len(calls) == 0 {
		return p.Response, p.Request, fmt.Errorf("%s: the pending response holds no calls", p.Provider)
	}
	// The stored request must take the turn's answers before any call runs: a request
	// that cannot be continued (not an object, its messages not a list) made Resume run
	// the approved calls, then fail with their results lost, and an application that
	// resumes again on an error ran them twice.
	probe := make([]runtime.CallResult, len(calls))
	for i, c := range calls {
		probe[i] = runtime.CallResult{Call: c, Result: runtime.TextResult("")}
	}
	if _, err := l.Provider.Continue(p.Request, p.Response, probe); err != nil {
		return p.Response, p.Request, fmt.Errorf("%s: the pending request cannot take the turn's answers: %w", p.Provider, err)
	}
	p.mu.Lock()
	done := p.resumed
	p.resumed = true
	p.mu.Unlock()
	if done {
		return nil, nil, ErrResumed
	}
	keys := callKeys(calls)
	ids := make([]string, len(calls))
	keyed := make([]runtime.ToolCall, len(calls))
	for i, c := range calls {
		ids[i] = c.ID
		keyed[i] = c
		keyed[i].ID = keys[i] // the approver below finds the decision by it
	}
	tools := l.Tools.WithApprover(func(_ context.Context, req runtime.ApprovalRequest) runtime.Decision {
		d, ok := decisions[req.Call.ID]
		switch {
		case !ok:
			return runtime.Deny("no decision was given")
		case !d.Allow:
			return d
		case d.Digest != runtime.Digest(req.Tool.Name, req.Arguments):
			return runtime.Deny("the arguments changed since they were approved")
		case !records[req.Call.ID].shows(req.Tool, req.Arguments):
			// What people were shown of the call (its record's arguments,
			// redacted, and its digest) is not this call.
			return runtime.Deny("the pending turn's record of the call does not match the call")
		}
		return d
	})
	invalid := map[string]int{}
	for k, v := range p.InvalidCalls {
		invalid[k] = v
	}
	return l.run(ctx, nil, p.Round, invalid, &resumed{req: p.Request, resp: p.Response, calls: keyed, ids: ids, tools: tools, loaded: p.Loaded})
}

// check checks the fields of p that Resume takes as they are, which came from storage
// as untrusted as the rest: the round, within maxRounds, so that a Pending cannot lift
// the round limit; the invalid-call counts, each at least 1 (a count of zero or less
// is never stored, and would lift MaxInvalidCalls); and the calls' keys, each once. It
// returns the calls by key.
func (p *Pending) check(maxRounds int) (map[string]PendingCall, error) {
	if p.Round < 1 || p.Round > maxRounds {
		return nil, fmt.Errorf("runtime: the pending turn is of round %d, outside this Loop's rounds 1 to %d", p.Round, maxRounds)
	}
	for name, n := range p.InvalidCalls {
		if n < 1 {
			return nil, fmt.Errorf("runtime: the pending turn counts %d invalid calls of %q in a row; a count is at least 1", n, cutName(name))
		}
	}
	records := make(map[string]PendingCall, len(p.Calls))
	for _, c := range p.Calls {
		if _, dup := records[c.Key]; dup {
			return nil, fmt.Errorf("runtime: the pending turn lists the call %q twice", cutName(c.Key))
		}
		records[c.Key] = c
	}
	return records, nil
}

// shows reports whether c, a pending call's record, describes the call of tool with
// args: its tool, its arguments, their redacted form and their digest all those of
// the call, equal as JSON values.
func (c PendingCall) shows(tool *runtime.Tool, args []byte) bool {
	d := runtime.Digest(tool.Name, args)
	return c.Tool == tool.Name && c.NeedsApproval && c.Digest == d && runtime.Digest(c.Tool, c.Arguments) == d &&
		runtime.Digest("", c.Redacted) == runtime.Digest("", runtime.Redact(tool, args))
}

// resumed is the turn Resume runs first.
type resumed struct {
	req, resp []byte
	calls     []runtime.ToolCall
	ids       []string // the calls' own ids
	tools     *runtime.Toolset
	loaded    []string // Pending.Loaded
}

// maxNameBytes is the longest name an error of Resume shows whole; a longer one, which
// only the stored Pending can hold, is cut.
const maxNameBytes = 64

// cutName cuts a name for an error, keeping it valid UTF-8.
func cutName(s string) string {
	if len(s) <= maxNameBytes {
		return s
	}
	return message.CutText(s, maxNameBytes) + "…"
}
