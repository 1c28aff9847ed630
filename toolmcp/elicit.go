package toolmcp

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
)

// DefaultElicitTimeout is how long ElicitApprover waits for the user's answer, unless
// ElicitTimeout says otherwise.
const DefaultElicitTimeout = 2 * time.Minute

// maxElicitArguments caps the arguments shown in an approval message, in bytes.
const maxElicitArguments = 2000

// elicitInputKey names the approval among a result's inputRequests (MCP 2026-07-28).
const elicitInputKey = "toolgen_approval"

// An ElicitOption configures ElicitApprover.
type ElicitOption func(*elicitConfig)

type elicitConfig struct {
	timeout time.Duration
	ask     func(runtime.ApprovalRequest) bool
	key     []byte
	spend   func(ctx context.Context, id string, expires time.Time) (bool, error)
}

// ElicitTimeout bounds the wait for the user's answer (DefaultElicitTimeout when not
// set, or set to zero or less). A call the user has not approved in time is denied.
func ElicitTimeout(d time.Duration) ElicitOption {
	return func(c *elicitConfig) { c.timeout = d }
}

// ElicitFor narrows the calls the user is asked about: a call for which ask returns
// false runs without asking. Without it, the user is asked about every call the
// Toolset gates, which are the calls to tools whose effective annotations say
// destructive (readonly tools and destructive=false ones never reach an approver).
func ElicitFor(ask func(runtime.ApprovalRequest) bool) ElicitOption {
	return func(c *elicitConfig) { c.ask = ask }
}

// ElicitStateKey sets the key that signs the approval state a client echoes back under
// MCP 2026-07-28; it panics on a key shorter than 32 bytes. Without it each
// ElicitApprover draws a random key, so servers behind a load balancer that does not
// keep a client on one process need a shared key, or the user's answers are denied as
// not matching the call. Each ElicitApprover remembers the states it accepted, until
// they expire, in its own memory: approvers that share a key each accept a state once,
// so a client that reaches n of them can run an approved call up to n times on one
// answer. Where that matters, keep each client on one process, or give them a shared
// record of the states accepted (ElicitSpend).
func ElicitStateKey(key []byte) ElicitOption {
	return func(c *elicitConfig) {
		if len(key) < 32 {
			panic("toolmcp: ElicitStateKey needs a key of at least 32 bytes")
		}
		c.key = bytes.Clone(key)
	}
}

// ElicitSpend replaces the memory in which an ElicitApprover records the approval
// states it accepted under MCP 2026-07-28 with spend, so that approvers sharing a key
// (ElicitStateKey) on several processes accept each state once between them. spend
// records id (a state's nonce, 22 characters of base64url), to be kept until expires,
// and reports whether it was not recorded before: an atomic set-if-absent, such as
// Redis's SET id 1 NX PXAT expires. An error, or false, denies the call: an approval
// that cannot be recorded does not run it. A Store's Spend is one, shared by the
// replicas that share the store: ElicitSpend(store.Spend).
func ElicitSpend(spend func(ctx context.Context, id string, expires time.Time) (first bool, err error)) ElicitOption {
	return func(c *elicitConfig) { c.spend = spend }
}

// ElicitApprover returns an approver that asks the user of the MCP client that made the
// call (MCP elicitation, a form with one boolean, "approve"). The message names the tool
// and shows its arguments redacted (ApprovalRequest.Redacted: never a sensitive value),
// compact and cut at 2,000 bytes:
//
//	Allow close_account with {"id":"ACC-1","reason":"moved abroad"}?
//
// The call runs only when the user accepts with approve=true. Everything else denies it
// with a reason the model reads, failing closed: the user declines, cancels or leaves
// approve false, does not answer within the timeout (ElicitTimeout), the client does
// not declare the elicitation capability, the elicitation fails, the call's context
// ends, or the call did not come through Register (no MCP client to ask).
//
// Under MCP 2025-11-25 and older, the approver sends elicitation/create while the call
// waits. Under 2026-07-28 a server may not send requests while serving one: the call is
// answered with an input-required result (inputRequests and a signed requestState),
// and the client asks the user and sends the call again with the answer. The state
// binds the answer to the tool and the exact arguments, expires with the timeout and is
// accepted once, in the one spelling it was written in: a state re-encoded (base64 with
// line breaks or padding, other unused bits, the JSON inside respaced or reordered) is
// refused. The first round is, for the Toolset's observers, a call waiting for the
// client's input (runtime.OutcomeInputRequired), with the reason "waiting for the
// user's approval". When the approved tool asks its client in turn (client.Elicit,
// client.Sample), the approval holds into the round that brings the tool its answers,
// in a new state that expires with the timeout in turn, and into no other: the call
// must come again with exactly the answers that round asked for and the state's
// earlier answers unchanged.
//
// Give it to the Toolset that Register serves:
//
//	toolmcp.Register(server, tools.WithApprover(toolmcp.ElicitApprover()))
func ElicitApprover(opts ...ElicitOption) runtime.Approver {
	c := elicitConfig{timeout: DefaultElicitTimeout}
	for _, o := range opts {
		o(&c)
	}
	if c.timeout <= 0 {
		c.timeout = DefaultElicitTimeout
	}
	if c.key == nil {
		c.key = make([]byte, 32)
		rand.Read(c.key)
	}
	return newElicitor(c).approve
}

// newElicitor returns the approver of c, a configuration with its defaults set.
func newElicitor(c elicitConfig) *elicitor {
	e := &elicitor{cfg: c, spend: c.spend}
	if e.spend == nil {
		// The approver's own record of the states it accepted: one MemoryStore's.
		e.spend = NewMemoryStore().Spend
	}
	return e
}

type elicitor struct {
	cfg elicitConfig
	// spend records the nonce of a state accepted: cfg.spend, or a MemoryStore's.
	spend func(ctx context.Context, id string, expires time.Time) (bool, error)
}

// minSweep is the fewest spent records at which a MemoryStore drops expired ones.
const minSweep = 64

// The reasons a call is denied; the model reads them.
const (
	reasonNotMCP     = "no user can approve it: the call did not come from an MCP client"
	reasonNoElicit   = "no user can approve it: the MCP client does not support elicitation"
	reasonDeclined   = "the user declined"
	reasonCanceled   = "the user dismissed the approval request"
	reasonNotApprove = "the user did not approve it"
	reasonFailed     = "the approval request to the user failed"
	reasonStale      = "the user's answer expired or does not match this call"
	reasonWaiting    = "waiting for the user's approval"
)

func (e *elicitor) approve(ctx context.Context, req runtime.ApprovalRequest) runtime.Decision {
	if e.cfg.ask != nil && !e.cfg.ask(req) {
		return runtime.Allow()
	}
	call := callOf(ctx)
	if call == nil || call.req == nil || call.req.Params == nil {
		return runtime.Deny(reasonNotMCP)
	}
	modern, caps := clientOf(call.req)
	if caps == nil || caps.Elicitation == nil || (caps.Elicitation.Form == nil && caps.Elicitation.URL != nil) {
		return runtime.Deny(reasonNoElicit)
	}
	if err := ctx.Err(); err != nil {
		return runtime.Deny(reasonFailed)
	}
	params := &mcp.ElicitParams{
		Mode:    "form",
		Message: approvalMessage(req),
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{"approve":{"type":"boolean",` +
			`"title":"Approve","description":"Run the tool with these arguments"}},"required":["approve"]}`),
	}
	if run := taskRunOf(ctx); run != nil {
		// A task asks in its inputRequests, and the answer is taken from the store
		// once: it cannot be replayed (tasks.go).
		wait, cancel := context.WithTimeout(ctx, e.cfg.timeout)
		defer cancel()
		res, err := run.ask(wait, params)
		switch {
		case ctx.Err() != nil:
			return runtime.Deny(reasonFailed)
		case wait.Err() != nil:
			return runtime.Deny(e.lateReason())
		case err != nil:
			return runtime.Deny(reasonFailed)
		}
		er, _ := res.(*mcp.ElicitResult)
		return decide(er)
	}
	if !modern {
		if call.req.Session == nil {
			return runtime.Deny(reasonNotMCP)
		}
		wait, cancel := context.WithTimeout(ctx, e.cfg.timeout)
		defer cancel()
		res, err := call.req.Session.Elicit(wait, params)
		switch {
		case ctx.Err() != nil:
			return runtime.Deny(reasonFailed)
		case wait.Err() != nil:
			return runtime.Deny(e.lateReason())
		case err != nil:
			return runtime.Deny(reasonFailed)
		}
		return decide(res)
	}
	// MCP 2026-07-28: the answer comes with the call sent again (rounds.go), in this
	// round's answers or, when the tool asked its client for more after the approval,
	// a later round's state.
	if ir, ok := call.approvalAnswer(params); ok {
		res, isElicit := ir.(*mcp.ElicitResult)
		if !isElicit {
			return runtime.Deny(reasonFailed)
		}
		state, binding := call.approvalState()
		switch e.check(ctx, state, req, binding) {
		case errLate:
			return runtime.Deny(e.lateReason())
		case nil:
			d := decide(res)
			// The state is spent: should this round end asking for the tool's
			// input, the next one holds the approval in a new state, for the
			// round that brings the answers.
			call.keepApproval(e.signer(req))
			return d
		}
		return runtime.Deny(reasonStale)
	}
	call.ask(elicitInputKey, params)
	call.keepApproval(e.signer(req))
	return runtime.Deny(reasonWaiting)
}

func (e *elicitor) lateReason() string {
	return "the user did not answer within " + e.cfg.timeout.String()
}

// decide maps the user's answer to a decision.
func decide(res *mcp.ElicitResult) runtime.Decision {
	if res == nil {
		return runtime.Deny(reasonFailed)
	}
	switch res.Action {
	case "accept":
		if ok, _ := res.Content["approve"].(bool); ok {
			return runtime.Allow()
		}
		return runtime.Deny(reasonNotApprove)
	case "decline":
		return runtime.Deny(reasonDeclined)
	case "cancel":
		return runtime.Deny(reasonCanceled)
	}
	return runtime.Deny(reasonFailed)
}

// clientOf returns whether the call follows MCP 2026-07-28 and the client's
// capabilities: from the request's _meta when it says so, from initialize otherwise. A
// client whose initialize asked for 2026-07-28 gets input-required results from the
// SDK, even if the server answered with an older version and the calls carry no
// _meta; and the SDK refuses to send it requests: its calls follow 2026-07-28 too.
func clientOf(req *mcp.CallToolRequest) (modern bool, caps *mcp.ClientCapabilities) {
	meta := req.Params.GetMeta()
	if v, _ := meta[mcp.MetaKeyProtocolVersion].(string); v != "" && v >= "2026-07-28" {
		raw, err := json.Marshal(meta[mcp.MetaKeyClientCapabilities])
		if err != nil {
			return true, nil
		}
		var c mcp.ClientCapabilities
		if json.Unmarshal(raw, &c) != nil {
			return true, nil
		}
		// The SDK's ClientCapabilities reads "roots" into a struct that cannot say it
		// is absent; RootsV2 says it, as the SDK sets it from initialize.
		var present struct {
			Roots *mcp.RootCapabilities `json:"roots"`
		}
		if json.Unmarshal(raw, &present) == nil {
			c.RootsV2 = present.Roots
		}
		return true, &c
	}
	if req.Session == nil {
		return false, nil
	}
	if ip := req.Session.InitializeParams(); ip != nil {
		return ip.ProtocolVersion >= "2026-07-28", ip.Capabilities
	}
	return false, nil
}

// approvalMessage is the question put to the user, with the redacted arguments.
func approvalMessage(req runtime.ApprovalRequest) string {
	args := []byte(req.Redacted())
	var b bytes.Buffer
	if json.Compact(&b, args) == nil {
		args = b.Bytes()
	}
	shown := string(args)
	if len(shown) > maxElicitArguments {
		cut := maxElicitArguments
		for cut > 0 && shown[cut]&0xC0 == 0x80 { // not inside a UTF-8 sequence
			cut--
		}
		shown = shown[:cut] + fmt.Sprintf("… (%d bytes in all)", len(args))
	}
	if len(args) == 0 {
		shown = "{}"
	}
	return fmt.Sprintf("Allow %s with %s?", req.Tool.Name, shown)
}

// The state a client echoes: the time it was issued (8 bytes), a nonce (16) and an
// HMAC-SHA256 of both, the tool's name, the call's arguments and the round's binding
// (32): the answers the state carries and the keys of the requests the next round
// answers (roundBinding).
const stateSize = 8 + 16 + sha256.Size

// stateChars is the length of a state as sign writes it: stateSize bytes in base64url
// without padding (base64.RawURLEncoding.EncodedLen).
const stateChars = (stateSize*8 + 5) / 6

var errLate = errors.New("late")

func (e *elicitor) mac(issued, nonce []byte, req runtime.ApprovalRequest, binding []byte) []byte {
	m := hmac.New(sha256.New, e.cfg.key)
	m.Write(issued)
	m.Write(nonce)
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(req.Tool.Name)))
	m.Write(n[:])
	m.Write([]byte(req.Tool.Name))
	binary.BigEndian.PutUint64(n[:], uint64(len(req.Arguments)))
	m.Write(n[:])
	m.Write(req.Arguments)
	m.Write(binding)
	return m.Sum(nil)
}

// signer returns what signs the approval's state for req, once the round's binding
// is known (mcpCall.inputRequired).
func (e *elicitor) signer(req runtime.ApprovalRequest) func(binding []byte) string {
	return func(binding []byte) string { return e.sign(time.Now(), req, binding) }
}

func (e *elicitor) sign(now time.Time, req runtime.ApprovalRequest, binding []byte) string {
	s := make([]byte, 24, stateSize)
	binary.BigEndian.PutUint64(s[:8], uint64(now.UnixNano()))
	rand.Read(s[8:24])
	s = append(s, e.mac(s[:8], s[8:24], req, binding)...)
	return base64.RawURLEncoding.EncodeToString(s)
}

// check verifies a state for req and the round's binding and spends it: errLate when
// it expired, another error when it was not issued for this call and round, is not
// valid yet (issued more than the timeout ahead of this clock: replicas' clocks may
// differ by less), was spent already, or is not spelled as sign spells it
// (decodeCanonical): a state is spent under its nonce, and accepted in one spelling.
func (e *elicitor) check(ctx context.Context, state string, req runtime.ApprovalRequest, binding []byte) error {
	if len(state) != stateChars {
		return errors.New("malformed")
	}
	s, ok := decodeCanonical(state)
	if !ok || len(s) != stateSize {
		return errors.New("malformed")
	}
	if !hmac.Equal(s[24:], e.mac(s[:8], s[8:24], req, binding)) {
		return errors.New("not this call")
	}
	issued := time.Unix(0, int64(binary.BigEndian.Uint64(s[:8])))
	now := time.Now()
	expires := issued.Add(e.cfg.timeout)
	switch {
	case now.After(expires):
		return errLate
	case issued.After(now.Add(e.cfg.timeout)):
		return errors.New("not valid yet")
	}
	first, err := e.spend(ctx, base64.RawURLEncoding.EncodeToString(s[8:24]), expires)
	if err != nil || !first {
		return errors.New("spent, or not recorded")
	}
	return nil
}
