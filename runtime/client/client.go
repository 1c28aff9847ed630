// Package client lets a tool ask the client that called it for more while the call
// runs: a message from its model (Sample), input from its user (Elicit), the roots it
// works in (Roots), a place for the call's log (Logger), and to go on as a task
// (StartTask). toolmcp puts the MCP session's Client in the context of every
// tools/call; an application that calls tools itself (a loop.Loop,
// runtime.Toolset.Call) may give its own with NewContext. Outside a call served by a
// Client, every request fails with an error for which errors.Is(err,
// errors.ErrUnsupported) holds.
//
// A tool asks with the context it was called with:
//
//	func (s *Service) Book(ctx context.Context, in BookArgs) (string, error) {
//		res, err := client.Elicit(ctx, &client.ElicitRequest{Message: "Book this flight?"})
//		if err != nil {
//			return "", err // client.ErrInputRequired included: return it at once
//		}
//		...
//	}
package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/clientctx"
)

// Client is the client that called a tool, as the tool sees it: beside taking the
// tool's result, it may answer the tool's own requests while the call runs. It can ask
// its model for a message (Sample), ask its user for input (Elicit) and take the
// tool's log messages (Logger). toolmcp gives every tools/call the MCP session's, so a
// tool reaches the MCP client's model, user and log from its context; an application
// that calls tools itself (a loop.Loop, runtime.Toolset.Call) may give its own with
// NewContext. Without one, Sample and Elicit fail with an error for which
// errors.Is(err, errors.ErrUnsupported) holds, and Logger drops what it is given.
//
// A Client must be safe for concurrent use: a tool may ask from several goroutines,
// and calls run in parallel.
type Client interface {
	// Sample asks the client's model for one message. It returns an error wrapping
	// errors.ErrUnsupported when the client cannot sample (MCP: it did not declare
	// the sampling capability, or a stateless server serves an older version than
	// 2026-07-28), one wrapping ErrInputRequired when the answer comes with the call
	// sent again (MCP 2026-07-28), and one wrapping the context's error when ctx ends
	// first.
	Sample(ctx context.Context, req *SampleRequest) (*SampleResult, error)
	// Elicit asks the client's user to fill in a form: req.Schema's properties. It
	// fails as Sample does (MCP: the elicitation capability in form mode). A user who
	// declines or dismisses the form is not an error: the result's Action says so.
	Elicit(ctx context.Context, req *ElicitRequest) (*ElicitResult, error)
	// LogHandler returns the handler of the log records of the call whose context
	// ctx is (see Logger), or nil to drop them.
	LogHandler(ctx context.Context) slog.Handler
}

// An InputAwaiter is a Client that ends a call's round to ask for input
// (ErrInputRequired), and knows whether it did: AwaitsInput reports whether a request
// of the call whose Client it is awaits an answer that comes with the call sent again.
// runtime.Toolset.Call gives such a call runtime.OutcomeInputRequired whatever its
// tool returned, or its Approver when that denied it (an approver that asks the
// client, as toolmcp's ElicitApprover does), so that observers see what the client
// gets. toolmcp's Client is one.
type InputAwaiter interface {
	AwaitsInput() bool
}

// NewContext returns ctx with c serving the tool calls run with it, and the calls
// those tools make in turn with their contexts.
func NewContext(ctx context.Context, c Client) context.Context {
	return clientctx.With(ctx, c)
}

// FromContext returns the Client of the call whose context ctx is, and whether there
// is one.
func FromContext(ctx context.Context) (Client, bool) {
	c, ok := clientctx.From(ctx).(Client)
	return c, ok && c != nil
}

// ErrInputRequired is the error of a tool's request to its client (Sample, Elicit)
// whose answer comes with the call sent again, as MCP 2026-07-28 has it: the server
// answers the call with the request, and the client sends the call again with the
// answer. The tool should return the error (wrapped or not) at once: the call is
// answered with the request whatever the tool returns (runtime.Toolset.Call gives it
// runtime.OutcomeInputRequired when the error reaches it, or when the Client is an
// InputAwaiter that says so), and the tool runs again, from the start, when the answer
// comes, its requests answered in the order it makes them, each by the answer to the
// same request (toolmcp asks anew one that changed). So a tool that asks should ask
// before it acts, and ask in the same order every time.
var ErrInputRequired = clientctx.ErrInputRequired

// errNoClient is why Sample and Elicit fail outside a call served by a Client.
var errNoClient = fmt.Errorf("no client serves this call (it did not come through an MCP client; see client.NewContext): %w", errors.ErrUnsupported)

// SampleRequest asks the client's model for one message (MCP sampling/createMessage).
type SampleRequest struct {
	// Messages is the conversation so far; the model answers its last message.
	Messages []SampleMessage
	// SystemPrompt is the system prompt the tool asks for; the client may use
	// another.
	SystemPrompt string
	// MaxTokens is the most tokens the answer may have; MCP requires it. Zero means
	// DefaultSampleMaxTokens.
	MaxTokens int
	// Temperature is the sampling temperature, nil for the client's choice. toolmcp
	// cannot send a temperature of 0 (the MCP SDK omits a zero): over MCP, 0 is the
	// client's choice too.
	Temperature *float64
	// StopSequences end the answer where the model writes one of them.
	StopSequences []string
	// Key names the request among the call's requests, where the protocol names them:
	// under MCP 2026-07-28 it is the key of the input-required result's request, by
	// which the client answers it. Empty lets the Client name it. See InputKeyRules.
	Key string
}

// InputKeyRules says what a request's Key may be: 1 to MaxInputKeyBytes ASCII letters,
// digits, '_', '-' and '.', not starting with "toolgen_" (toolmcp's own requests are
// named so), and one key for one request of a run. A key names the request whatever
// it asks: the client may answer it before it is asked (the answer comes with the
// call), so keep a key for one question.
const InputKeyRules = "1 to 64 ASCII letters, digits, '_', '-' and '.', not starting with \"toolgen_\""

// MaxInputKeyBytes is the longest Key a request may have.
const MaxInputKeyBytes = 64

// DefaultSampleMaxTokens is the most tokens a sampled answer may have when a
// SampleRequest does not say.
const DefaultSampleMaxTokens = 1000

// SampleMessage is one message of a sampling conversation: text, an image or audio
// (runtime.ContentText, runtime.ContentImage, runtime.ContentAudio).
type SampleMessage struct {
	Role    runtime.Role
	Content runtime.Content
}

// UserMessage returns a message from the user holding text.
func UserMessage(text string) SampleMessage {
	return SampleMessage{Role: runtime.RoleUser, Content: runtime.TextContent(text)}
}

// SampleResult is the message the client's model answered.
type SampleResult struct {
	// Role is who wrote it, runtime.RoleAssistant for the model.
	Role runtime.Role
	// Content is the answer: text, an image or audio.
	Content runtime.Content
	// Model names the model that answered, as the client says.
	Model string
	// StopReason is why the model stopped, as the client says: "endTurn",
	// "stopSequence", "maxTokens" or another.
	StopReason string
}

// Text returns the answer's text, "" when it is not text.
func (r *SampleResult) Text() string {
	if r == nil || r.Content.Type != runtime.ContentText {
		return ""
	}
	return r.Content.Text
}

// Sample asks the model of the client that called the tool whose context ctx is for
// one message (see Client). Outside a call served by a Client it returns an error for
// which errors.Is(err, errors.ErrUnsupported) holds. The answer comes from outside the
// application, as a model's arguments do: treat it as untrusted text.
func Sample(ctx context.Context, req *SampleRequest) (*SampleResult, error) {
	c, ok := FromContext(ctx)
	if !ok {
		return nil, fmt.Errorf("sampling: %w", errNoClient)
	}
	if req == nil || len(req.Messages) == 0 {
		return nil, errors.New("sampling: the request has no message")
	}
	return c.Sample(ctx, req)
}

// ElicitRequest asks the client's user to fill in a form (MCP elicitation/create, form
// mode).
type ElicitRequest struct {
	// Message tells the user what is asked and why.
	Message string
	// Schema is the form: a JSON Schema object of flat properties of primitive types
	// (string, number, integer, boolean, enums of strings, and arrays of such enums),
	// as MCP restricts it. Nil asks for no content (the user accepts or declines);
	// JSON that is not an object (null included) is an error.
	Schema json.RawMessage
	// Key names the request, as SampleRequest.Key does.
	Key string
}

// ElicitAction is what the user did with a form.
type ElicitAction string

// The user's actions, as MCP names them.
const (
	ElicitAccept  ElicitAction = "accept"  // the user sent the form
	ElicitDecline ElicitAction = "decline" // the user said no
	ElicitCancel  ElicitAction = "cancel"  // the user dismissed the form without a choice
)

// ElicitResult is the user's answer to a form.
type ElicitResult struct {
	Action ElicitAction
	// Content is the form's values, a JSON object, when Action is ElicitAccept and the
	// request had a schema; nil otherwise. toolmcp checks it against the schema, fills
	// in the schema's defaults and keeps only the schema's properties before returning
	// it: a form accepted without values is an error there.
	Content json.RawMessage
}

// Elicit asks the user of the client that called the tool whose context ctx is to fill
// in a form (see Client). Outside a call served by a Client it returns an error for
// which errors.Is(err, errors.ErrUnsupported) holds. What the user writes comes from
// outside the application: decode it as untrusted input.
func Elicit(ctx context.Context, req *ElicitRequest) (*ElicitResult, error) {
	c, ok := FromContext(ctx)
	if !ok {
		return nil, fmt.Errorf("elicitation: %w", errNoClient)
	}
	if req == nil {
		return nil, errors.New("elicitation: the request is nil")
	}
	if len(req.Schema) > 0 {
		if !json.Valid(req.Schema) {
			return nil, errors.New("elicitation: the schema is not valid JSON")
		}
		// null, an array or a scalar is no form: refused before the user is asked.
		var form map[string]json.RawMessage
		if json.Unmarshal(req.Schema, &form) != nil || form == nil {
			return nil, errors.New("elicitation: the schema is not a JSON object")
		}
	}
	return c.Elicit(ctx, req)
}

// Root is a directory or file the client lets the server work on (MCP roots).
type Root struct {
	// URI is where it is, a file:// URI.
	URI string
	// Name is what the client calls it, or "".
	Name string
}

// RootsRequest asks the client for its roots (MCP roots/list).
type RootsRequest struct {
	// Key names the request, as SampleRequest.Key does.
	Key string
}

// A RootsLister is a Client that can list the roots its user shares (MCP
// roots/list): toolmcp's is one.
type RootsLister interface {
	// Roots asks the client for its roots. It fails as Client.Sample does (MCP: the
	// roots capability).
	Roots(ctx context.Context, req *RootsRequest) ([]Root, error)
}

// Roots asks the client that called the tool whose context ctx is for its roots
// (see RootsLister); req may be nil. Outside a call served by a Client that lists
// roots it returns an error for which errors.Is(err, errors.ErrUnsupported) holds.
// The URIs come from the client: check a path against them before trusting it.
func Roots(ctx context.Context, req *RootsRequest) ([]Root, error) {
	c, ok := FromContext(ctx)
	if !ok {
		return nil, fmt.Errorf("roots: %w", errNoClient)
	}
	l, ok := c.(RootsLister)
	if !ok {
		return nil, fmt.Errorf("roots: the call's client cannot list roots: %w", errors.ErrUnsupported)
	}
	if req == nil {
		req = &RootsRequest{}
	}
	return l.Roots(ctx, req)
}

// Logger returns a logger for the call whose context ctx is: its records go to the
// client that called the tool (MCP notifications/message, at the level the client
// asked for: with logging/setLevel, or under MCP 2026-07-28 in the call's own _meta),
// and are dropped when no Client serves the call or it takes no logs. Log with the
// call's context when there is one (InfoContext(ctx, ...)), or plainly: the logger is
// bound to the call either way. What a tool logs reaches the client as written: never
// log a sensitive value.
func Logger(ctx context.Context) *slog.Logger {
	if c, ok := FromContext(ctx); ok {
		if h := c.LogHandler(ctx); h != nil {
			return slog.New(h)
		}
	}
	return slog.New(slog.DiscardHandler)
}

// A TaskStarter is a Client that can go on with a call as a task (MCP's tasks
// extension): toolmcp's Client is one. StartTask reports whether the call now runs
// as one.
type TaskStarter interface {
	StartTask(ctx context.Context) bool
}

// StartTask ends the prelude of a call to a tool whose runtime.Tool.TaskPrelude is set: the
// client gets a task for the call at once, and the tool goes on in the background,
// its requests to the client from here on in the task's (tasks/get's inputRequests,
// answered with tasks/update). Before it, the call runs in its request, its requests
// answered in the call's rounds: a tool asks there what decides whether the task is
// worth starting, and the answers it needs to start it.
//
// StartTask reports whether the call runs as a task: false outside MCP, for a tool
// without a prelude, for a client that did not negotiate the extension (the call
// goes on in its request, and its result answers it), and when the task could not be
// stored (the call's context is then cancelled, and the client gets the error). A
// call that runs as a task already reports true again, and nothing changes.
func StartTask(ctx context.Context) bool {
	c, ok := FromContext(ctx)
	if !ok {
		return false
	}
	s, ok := c.(TaskStarter)
	return ok && s.StartTask(ctx)
}
