package toolmcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// Under MCP 2026-07-28 a server sends no request while it serves a call. A call that
// needs the client's input (an approval of ElicitApprover's, a tool's client.Elicit
// or client.Sample) ends its round with an input-required result: the requests, by
// key, and a requestState. The client answers each request and sends the call again
// with the answers (inputResponses) and the state, and the call runs again, from the
// start, each request answered by the answer to the same request of the round that
// asked it. The client sends the answers of the newest round only, so the state
// carries those of the rounds before, and the digests of the requests they answer; it
// also carries the approval's own signed state.

// roundStatePrefix marks a requestState toolmcp wrote (version 1).
const roundStatePrefix = "tg1."

// askKeyPrefix names the requests of a tool, in the order it makes them in a run:
// toolgen_ask_1, toolgen_ask_2, ...
const askKeyPrefix = "toolgen_ask_"

// roundState is what one round of a call leaves to the next, in its requestState.
// The answers come from the client, as they would in this round: they are checked
// every time they are used, as new answers are. Each answers the request Asked names
// by its digest, and reaches that request only: a run whose n-th request is another
// (the tool's world changed between rounds) asks it again. The approval state is
// signed (ElicitApprover), over the answers the state carries, the digests, and the
// keys of the requests the round ended with (roundBinding): it holds for the round
// that answers those requests, the rest unchanged, and no other.
type roundState struct {
	// Approval is ElicitApprover's state: signed, bound to the tool and its arguments.
	Approval string `json:"approval,omitempty"`
	// Answers are the client's answers of the rounds before, by request key.
	Answers map[string]json.RawMessage `json:"answers,omitempty"`
	// Asked holds the digest (requestDigest) of each request answered in Answers or
	// asked in the round's result, by key.
	Asked map[string]string `json:"asked,omitempty"`
}

// requestDigest names a request to the client by its JSON: SHA-256, base64url. It
// fails for a request that does not marshal (which no result could hold either).
func requestDigest(r mcp.InputRequest) (string, bool) {
	b, err := json.Marshal(r)
	if err != nil {
		return "", false
	}
	d := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(d[:]), true
}

// readRoundState reads a requestState. One toolmcp did not write (a client's own, or
// one of the approval alone from before this format) is read as the approval's state:
// its signature decides whether it holds. A state of toolmcp's format is read only in
// the one spelling toolmcp writes (encode): the base64url without padding, line breaks
// or other unused bits (decodeCanonical), of the JSON as json.Marshal writes it (keys
// once each, in order, no spaces, the same escapes). Any other spelling of the same
// state, or a state of toolmcp's prefix that is not one at all (cut, tampered with),
// is no state, and ok is false: the call is refused (invalid params), so that what a
// state carries is the same for every spelling a client can send.
func readRoundState(s string) (rs roundState, ok bool) {
	raw, ours := strings.CutPrefix(s, roundStatePrefix)
	if !ours {
		return roundState{Approval: s}, true
	}
	b, ok := decodeCanonical(raw)
	if !ok || json.Unmarshal(b, &rs) != nil || rs.encode() != s {
		return roundState{}, false
	}
	return rs, true
}

// errBadState answers a call whose requestState has toolmcp's prefix but is not a
// state toolmcp wrote, as it wrote it.
var errBadState = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Invalid params: the requestState is not one this server wrote (it was changed, cut or respelled)"}

// decodeCanonical decodes s, base64url without padding, only when s is the one
// spelling of its bytes, the one EncodeToString writes: the decoder alone skips line
// breaks (\r, \n) anywhere, and, unless strict, reads a last character whose unused
// low bits are set as the one with them clear, so that many strings would decode to
// the same bytes.
func decodeCanonical(s string) ([]byte, bool) {
	b, err := base64.RawURLEncoding.Strict().DecodeString(s)
	if err != nil || base64.RawURLEncoding.EncodeToString(b) != s {
		return nil, false
	}
	return b, true
}

func (rs roundState) encode() string {
	b, err := json.Marshal(rs)
	if err != nil {
		return "" // the answers are JSON the SDK decoded: they marshal
	}
	return roundStatePrefix + base64.RawURLEncoding.EncodeToString(b)
}

// mcpCall is what the handler of a tools/call leaves in the context of ts.Call: the
// request, the answers the call has (this round's and those the state carries), and
// the requests for the client that end the round under MCP 2026-07-28.
type mcpCall struct {
	req   *mcp.CallToolRequest
	state roundState // what the round before left, under 2026-07-28

	mu      sync.Mutex
	asks    int                         // the tool's requests so far in this run
	pending mcp.InputRequestMap         // the requests that end this round, by key
	approve func(binding []byte) string // signs the approval's state for the next round
	carried map[string]carriedAnswer    // the answers used, carried to the next round
	missing map[string]json.RawMessage  // the capabilities requests needed that the client does not declare
	claimed map[string]bool             // the keys the tool named in this run
	// badState: the requestState has toolmcp's prefix but is not one toolmcp wrote.
	badState bool
}

// lack notes a capability a request of the call needed that the client's request does
// not declare (MCP 2026-07-28): its name in ClientCapabilities and its value there.
func (c *mcpCall) lack(name string, value json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.missing == nil {
		c.missing = map[string]json.RawMessage{}
	}
	c.missing[name] = value
}

// missingCapabilityError returns the JSON-RPC error -32021 (missing required client
// capability, MCP 2026-07-28) of a call that failed after a request of it needed a
// capability its client does not declare, or nil when none was missing. Its data is
// a MissingRequiredClientCapabilityData holding those capabilities alone (the SDK's
// ClientCapabilities would write "roots": {} whatever it holds).
func (c *mcpCall) missingCapabilityError() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.missing) == 0 {
		return nil
	}
	data, err := json.Marshal(map[string]any{"requiredCapabilities": c.missing})
	if err != nil {
		return nil // JSON values: they marshal
	}
	return &jsonrpc.Error{
		Code:    mcp.CodeMissingRequiredClientCapabilities,
		Message: "the tool needs the client capabilities " + strings.Join(slices.Sorted(maps.Keys(c.missing)), ", ") + ", which the request's client capabilities do not declare",
		Data:    data,
	}
}

// carriedAnswer is an answer the call used, and the digest of the request it answered.
type carriedAnswer struct {
	r      mcp.InputResponse
	digest string
}

type mcpCallKey struct{}

// init readies c, the call of req.
func (c *mcpCall) init(req *mcp.CallToolRequest) {
	c.req = req
	if req != nil && req.Params != nil && req.Params.RequestState != "" {
		var ok bool
		c.state, ok = readRoundState(req.Params.RequestState)
		c.badState = !ok
	}
}

// callFrame is what one tools/call adds to its context, allocated at once: the
// context carrying its mcpCall, for ElicitApprover and the call's Client, that Client
// (client.NewContext's value) and the call's runtime.CallInfo (ContextWithCall's).
type callFrame struct {
	context.Context // the parent
	call            mcpCall
	client          sessionClient
	info            any // a runtime.CallInfo
}

// Value returns the frame's mcpCall for mcpCallKey, its CallInfo and its Client for
// runtime's keys of those (toolimpl.CallValue), else the parent's value.
func (f *callFrame) Value(key any) any {
	if _, ok := key.(mcpCallKey); ok {
		return &f.call
	}
	if v, ok := toolimpl.CallValue(key, f.info, &f.client); ok {
		return v
	}
	return f.Context.Value(key)
}

// newCallFrame returns the frame of the call req, under ctx, whose CallInfo is info.
func newCallFrame(ctx context.Context, req *mcp.CallToolRequest, clientTimeout time.Duration, info any) *callFrame {
	f := &callFrame{Context: ctx, info: info}
	f.call.init(req)
	f.client.init(&f.call, clientTimeout)
	return f
}

// callOf returns the mcpCall of ctx, or nil.
func callOf(ctx context.Context) *mcpCall {
	c, _ := ctx.Value(mcpCallKey{}).(*mcpCall)
	return c
}

// nextAskKey returns the key of the tool's next request in this run.
func (c *mcpCall) nextAskKey() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asks++
	return askKeyPrefix + strconv.Itoa(c.asks)
}

// answer returns the client's answer to the request req under key: from this round's
// inputResponses, or from a round before, provided the round before asked req under
// key (the state's digest); an answer to another request is none. A key the tool
// named (client.SampleRequest.Key) names its request whatever round asked it: its
// answer needs no digest (the client may answer before it is asked), but one of a
// round that asked another request under the key is none.
func (c *mcpCall) answer(key string, req mcp.InputRequest, named bool) (mcp.InputResponse, bool) {
	d, ok := requestDigest(req)
	if !ok {
		return nil, false
	}
	if asked, was := c.state.Asked[key]; asked != d && (!named || was) {
		return nil, false
	}
	return c.lookup(key, d)
}

// claim reports whether key names no other request of this run, and takes it.
func (c *mcpCall) claim(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.claimed[key] {
		return false
	}
	if c.claimed == nil {
		c.claimed = map[string]bool{}
	}
	c.claimed[key] = true
	return true
}

// approvalAnswer returns the client's answer to ElicitApprover's request req, whatever
// the state's digest says: the approval's signed state binds the answer to the tool
// and its arguments, and a state that does not match denies the call.
func (c *mcpCall) approvalAnswer(req mcp.InputRequest) (mcp.InputResponse, bool) {
	d, _ := requestDigest(req)
	return c.lookup(elicitInputKey, d)
}

// lookup returns the client's answer under key, to the request of digest d: from this
// round's inputResponses, or from a round before.
func (c *mcpCall) lookup(key, d string) (mcp.InputResponse, bool) {
	if c.req != nil && c.req.Params != nil {
		if r, ok := c.req.Params.InputResponses[key]; ok && r != nil {
			c.keep(key, r, d)
			return r, true
		}
	}
	raw, ok := c.state.Answers[key]
	if !ok {
		return nil, false
	}
	var m mcp.InputResponseMap
	if err := json.Unmarshal([]byte(`{"a":`+string(raw)+`}`), &m); err != nil || m["a"] == nil {
		return nil, false
	}
	c.keep(key, m["a"], d)
	return m["a"], true
}

// keep carries an answer the call used to the next round, if there is one.
func (c *mcpCall) keep(key string, r mcp.InputResponse, digest string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.carried == nil {
		c.carried = map[string]carriedAnswer{}
	}
	c.carried[key] = carriedAnswer{r: r, digest: digest}
}

// ask adds a request that ends this round.
func (c *mcpCall) ask(key string, r mcp.InputRequest) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending == nil {
		c.pending = mcp.InputRequestMap{}
	}
	c.pending[key] = r
}

// keepApproval has the approval carried to the next round, should this one end
// asking: sign makes its state, bound to what that round must bring (roundBinding).
func (c *mcpCall) keepApproval(sign func(binding []byte) string) {
	c.mu.Lock()
	c.approve = sign
	c.mu.Unlock()
}

// approvalState returns the approval's state the round before left, and the binding
// of this round (roundBinding): the answers the state carries and the keys this
// round answers. The state holds only if it was signed over the same binding.
func (c *mcpCall) approvalState() (state string, binding []byte) {
	var keys []string
	if c.req != nil && c.req.Params != nil {
		for k := range c.req.Params.InputResponses {
			keys = append(keys, k)
		}
	}
	return c.state.Approval, roundBinding(c.state.Answers, c.state.Asked, keys)
}

// roundBinding is what the approval a round carries to the next is bound to: the
// answers the state carries, the digests of the requests (roundState.Asked), and the
// keys of the requests the round ended with, which the next round answers. It is the
// same however the client spaces the answers' JSON and orders their keys.
func roundBinding(answers map[string]json.RawMessage, digests map[string]string, pending []string) []byte {
	var b []byte
	field := func(p []byte) {
		b = binary.BigEndian.AppendUint64(b, uint64(len(p)))
		b = append(b, p...)
	}
	keys := slices.Sorted(maps.Keys(answers))
	b = binary.BigEndian.AppendUint64(b, uint64(len(keys)))
	for _, k := range keys {
		field([]byte(k))
		var v bytes.Buffer
		if json.Compact(&v, answers[k]) != nil {
			v.Reset()
			v.WriteString("invalid") // no JSON value: matches no answer toolmcp wrote
		}
		field(v.Bytes())
	}
	keys = slices.Sorted(maps.Keys(digests))
	b = binary.BigEndian.AppendUint64(b, uint64(len(keys)))
	for _, k := range keys {
		field([]byte(k))
		field([]byte(digests[k]))
	}
	pending = slices.Sorted(slices.Values(pending))
	b = binary.BigEndian.AppendUint64(b, uint64(len(pending)))
	for _, k := range pending {
		field([]byte(k))
	}
	return b
}

// asking reports whether a request of the call ends this round.
func (c *mcpCall) asking() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending) > 0
}

// inputRequired returns the input-required result that ends this round, or nil when
// nothing asked the client for input: the requests, and a state holding the answers
// used so far and the approval's state.
func (c *mcpCall) inputRequired() *mcp.CallToolResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) == 0 {
		return nil
	}
	next := roundState{Asked: map[string]string{}}
	for k, a := range c.carried {
		b, err := json.Marshal(a.r)
		if err != nil {
			continue // the next round asks again
		}
		if next.Answers == nil {
			next.Answers = map[string]json.RawMessage{}
		}
		next.Answers[k] = b
		next.Asked[k] = a.digest
	}
	pending := make([]string, 0, len(c.pending))
	for k, r := range c.pending {
		if d, ok := requestDigest(r); ok {
			next.Asked[k] = d
		}
		pending = append(pending, k)
	}
	if c.approve != nil {
		next.Approval = c.approve(roundBinding(next.Answers, next.Asked, pending))
	}
	return &mcp.CallToolResult{InputRequests: c.pending, RequestState: next.encode()}
}
