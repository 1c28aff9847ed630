package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Approver decides whether a call to a destructive tool may run. A Toolset with an
// Approver consults it for every tool whose effective annotations say destructive
// (unannotated tools included: MCP presumes them destructive), after the call's
// arguments were validated and before the tool runs. It must be safe for concurrent
// use, and should honor ctx: a canceled context denies the call.
type Approver func(ctx context.Context, req ApprovalRequest) Decision

// ApprovalRequest is a call waiting for approval.
type ApprovalRequest struct {
	Tool *Tool
	// Call identifies the call (its id and provider, when known).
	Call CallInfo
	// Arguments are the call's arguments, valid against the tool's schema, exactly as
	// the model sent them. Show Redacted to people and logs.
	Arguments json.RawMessage
}

// Redacted returns the arguments with the values of sensitive properties replaced.
func (r ApprovalRequest) Redacted() json.RawMessage { return Redact(r.Tool, r.Arguments) }

// Decision is an Approver's answer.
type Decision struct {
	// Allow lets the call run.
	Allow bool
	// Reason says why a call is denied; the model reads it.
	Reason string
	// Arguments, when set on an allowing decision, replace the call's arguments; they
	// are validated again, and an invalid edit fails the call.
	Arguments json.RawMessage
	// Digest, on a decision given to loop.Loop.Resume, is the digest of the arguments
	// it allows (see loop.Approved and Digest); Resume denies the call when they differ.
	Digest string
}

// Allow returns a decision that lets the call run as it is.
func Allow() Decision { return Decision{Allow: true} }

// Deny returns a decision that refuses the call; the model reads reason.
func Deny(reason string) Decision { return Decision{Reason: reason} }

// AllowWith returns a decision that lets the call run with other arguments.
func AllowWith(args json.RawMessage) Decision { return Decision{Allow: true, Arguments: args} }

// Policy decides what happens to calls that need approval when no Approver is set.
type Policy int

// The policies.
const (
	// RunAll runs every call: gating on annotations is opt-in (docs/DESIGN.md), so generated
	// tools work as written until an application asks for approvals. This is the
	// default.
	RunAll Policy = iota
	// DenyDestructive denies every call that needs approval, failing closed: for
	// applications that must never run a destructive tool unattended.
	DenyDestructive
)

// needsApproval reports whether calls to t go through the approval gate.
func needsApproval(t *Tool) bool { return t.Annotations.Effective().Destructive }

// approve runs the gate for a call whose arguments are valid. It returns the call to
// run, or the result that answers the call instead: denied, or, when the call's Client
// says the round ends asking it for input (client.InputAwaiter), waiting for that input.
func (ts *Toolset) approve(ctx context.Context, e entry, info CallInfo, args []byte, run invocation) (invocation, *Result) {
	if !needsApproval(e.tool) {
		return run, nil
	}
	if ts.cfg.approver == nil {
		if ts.cfg.policy == DenyDestructive {
			return nil, denied(e.tool, "destructive tools need an approval and none can be given")
		}
		return run, nil
	}
	dec, err := ts.safeApprove(ctx, ApprovalRequest{Tool: e.tool, Call: info, Arguments: args})
	switch {
	case err != nil:
		r := denied(e.tool, "the approval failed")
		r.Err = err
		return nil, r
	case ctx.Err() != nil:
		return nil, stopped(e.tool, ctx, 0)
	case !dec.Allow:
		// An approver that asks the client for the answer (toolmcp's under MCP
		// 2026-07-28) ends the round waiting for it: observers see what happened,
		// a call waiting for its client's input, and the reason says what for.
		return nil, awaited(ctx, e.tool, denied(e.tool, dec.Reason))
	case dec.Arguments == nil:
		return run, nil
	}
	edited, err := ts.decode(e, dec.Arguments)
	if p, ok := err.(*decodePanic); ok {
		return nil, errorResult(OutcomeInternalError, internalMessage(p.tool), p.err)
	}
	if err != nil {
		return nil, errorResult(OutcomeInvalidArguments, "the approved change to the arguments is invalid: "+err.Error(), err)
	}
	return edited, nil
}

// safeApprove calls the approver on a goroutine of its own, turning a panic or a
// runtime.Goexit (a test's t.FailNow) into an error: an approval that fails denies the
// call, and the caller always gets an answer.
func (ts *Toolset) safeApprove(ctx context.Context, req ApprovalRequest) (Decision, error) {
	type answer struct {
		dec Decision
		err error
	}
	done := make(chan answer, 1)
	go func() {
		var a answer
		decided := false
		defer func() {
			if p := recover(); p != nil {
				a.err = fmt.Errorf("the approver of %s panicked: %v", req.Tool.Name, p)
			} else if !decided {
				a.err = fmt.Errorf("the approver of %s called runtime.Goexit", req.Tool.Name)
			}
			done <- a
		}()
		a.dec = ts.cfg.approver(ctx, req)
		decided = true
	}()
	a := <-done
	return a.dec, a.err
}

func denied(t *Tool, reason string) *Result {
	msg := t.Name + " was denied"
	if reason != "" {
		msg += ": " + reason
	}
	r := errorResult(OutcomeDenied, msg, nil)
	r.reason = reason
	return r
}

// Digest returns the digest of a call of the named tool with args: the hex SHA-256 of
// the name, a zero byte and the arguments' canonical form (canonicalJSON). Two calls
// share a digest only when their arguments are the same JSON value: the canonical form
// drops white space, sorts object members by name and writes each number as its exact
// value in one spelling (1, 1.0 and 10e-1 are one; 9007199254740993 and
// 9007199254740992 are two: no number is rounded through a float64), and keeps
// everything else a reader may tell apart: duplicate members in their order, invalid
// UTF-8 and lone surrogates apart from a U+FFFD. Empty arguments and null are {}, as
// the decoder reads them; text that is not JSON is hashed as it is. A json.RawMessage
// argument may differ between calls of one digest in its white space, escapes, number
// spellings and order of members, never in the value it holds.
func Digest(tool string, args []byte) string {
	h := sha256.New()
	h.Write([]byte(tool))
	h.Write([]byte{0})
	h.Write(canonicalArgs(args))
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
