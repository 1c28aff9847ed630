package toolmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/client"
)

// DefaultClientTimeout is how long a tool's request to the client (client.Sample,
// client.Elicit) waits for the answer, unless WithClientTimeout says otherwise.
const DefaultClientTimeout = 2 * time.Minute

// WithClientTimeout bounds the wait for the client's answer to a tool's request:
// client.Sample (the client's model) and client.Elicit (its user). Zero or less means
// DefaultClientTimeout. The call's own context (its tool's timeout, the client's
// cancellation) bounds it too. A request not answered in time fails with an error for
// which errors.Is(err, context.DeadlineExceeded) holds.
func WithClientTimeout(d time.Duration) Option {
	return func(c *config) { c.clientTimeout = d }
}

// sessionClient is the client.Client of one tools/call: the MCP session of the client
// that sent it. Nothing of the call follows its result: every send to the client (a
// log record, a request) is made between begin and done, and end, which the handler
// calls before it returns the result, waits for the sends under way and refuses the
// rest, so that a goroutine the tool left behind cannot reach the client once it has
// the result, whatever context it holds.
type sessionClient struct {
	call    *mcpCall
	pre     *preludeRun // the call's prelude, for a tool with one (tasks.go), or nil
	req     *mcp.CallToolRequest
	timeout time.Duration

	mu      sync.Mutex
	task    *taskRun       // the task the call runs as, or nil (tasks.go)
	ended   bool           // the call returned: nothing of it may follow its result
	sending sync.WaitGroup // the sends under way, which end waits for
	// stop is done once the call returned: a request under way stops waiting. It is
	// made by the first request (stopped), which most calls never make.
	stop   context.Context
	cancel context.CancelFunc
}

// init readies c, the client of call, for the call's sends.
func (c *sessionClient) init(call *mcpCall, timeout time.Duration) {
	if timeout <= 0 {
		timeout = DefaultClientTimeout
	}
	c.call, c.req, c.timeout = call, call.req, timeout
}

// stopped returns the context that is done once the call returned.
func (c *sessionClient) stopped() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stop == nil {
		c.stop, c.cancel = context.WithCancel(context.Background())
		if c.ended {
			c.cancel()
		}
	}
	return c.stop
}

// begin starts a send to the client, and reports whether it may go: not once the call
// has returned. A send that may go ends with c.sending.Done().
func (c *sessionClient) begin() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return false
	}
	c.sending.Add(1)
	return true
}

// taskRun returns the task the call runs as, or nil: a call with a prelude becomes
// one when its tool calls client.StartTask.
func (c *sessionClient) taskRun() *taskRun {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.task
}

// StartTask ends the call's prelude (client.StartTask, tasks.go).
func (c *sessionClient) StartTask(context.Context) bool {
	if c.pre == nil {
		return false
	}
	return c.pre.start()
}

// live reports whether the call has not returned yet.
func (c *sessionClient) live() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.ended
}

// AwaitsInput reports whether the call's round ends asking the client (MCP
// 2026-07-28), for runtime.Toolset.Call (client.InputAwaiter).
func (c *sessionClient) AwaitsInput() bool { return c.call.asking() }

// end ends the call, before its result goes: a request the tool makes after it
// returned (from a goroutine it left behind, with a context that outlives the call)
// fails, a log record is dropped, and a request under way stops waiting for its
// answer. end returns once no send is under way. It may be called more than once.
func (c *sessionClient) end() {
	c.mu.Lock()
	c.ended = true
	cancel := c.cancel
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	c.sending.Wait()
}

// capability is a capability of the client a request to it needs.
type capability struct {
	name  string                             // how messages say it
	has   func(*mcp.ClientCapabilities) bool // whether a client's capabilities hold it
	key   string                             // its name in ClientCapabilities
	value json.RawMessage                    // its value there, as -32021's data names it
}

var (
	samplingCapability = capability{
		name:  "the sampling capability",
		has:   func(caps *mcp.ClientCapabilities) bool { return caps.Sampling != nil },
		key:   "sampling",
		value: json.RawMessage(`{}`),
	}
	// A client that declares elicitation in URL mode alone cannot fill in a form.
	formCapability = capability{
		name: "the elicitation capability in form mode",
		has: func(caps *mcp.ClientCapabilities) bool {
			return caps.Elicitation != nil && (caps.Elicitation.Form != nil || caps.Elicitation.URL == nil)
		},
		key:   "elicitation",
		value: json.RawMessage(`{"form":{}}`),
	}
	rootsCapability = capability{
		name:  "the roots capability",
		has:   func(caps *mcp.ClientCapabilities) bool { return caps.RootsV2 != nil },
		key:   "roots",
		value: json.RawMessage(`{}`),
	}
)

// checkInputKey reports why key cannot name a tool's request (client.InputKeyRules);
// "" is toolmcp's to name.
func checkInputKey(key string) error {
	if key == "" {
		return nil
	}
	ok := len(key) <= client.MaxInputKeyBytes && !strings.HasPrefix(key, "toolgen_")
	for i := 0; ok && i < len(key); i++ {
		c := key[i]
		ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.'
	}
	if !ok {
		if len(key) > client.MaxInputKeyBytes {
			key = key[:client.MaxInputKeyBytes] + "..."
		}
		return fmt.Errorf("the request's key %s is not %s", strconv.QuoteToASCII(key), client.InputKeyRules)
	}
	return nil
}

// Roots sends roots/list.
func (c *sessionClient) Roots(ctx context.Context, req *client.RootsRequest) ([]client.Root, error) {
	if req == nil {
		req = &client.RootsRequest{}
	}
	params := &mcp.ListRootsParams{}
	answer, err := c.exchange(ctx, "roots", req.Key, rootsCapability, params,
		func(ctx context.Context, ss *mcp.ServerSession) (mcp.InputResponse, error) {
			return ss.ListRoots(ctx, params)
		})
	if err != nil {
		return nil, err
	}
	res, ok := answer.(*mcp.ListRootsResult)
	if !ok || res == nil {
		return nil, fmt.Errorf("roots: the client answered with %T, not a list of roots", answer)
	}
	out := make([]client.Root, 0, len(res.Roots))
	for _, r := range res.Roots {
		if r == nil {
			return nil, errors.New("roots: the client's list holds null")
		}
		out = append(out, client.Root{URI: r.URI, Name: r.Name})
	}
	return out, nil
}

// session returns the session to send a request of what ("sampling", "elicitation")
// on and whether the call follows MCP 2026-07-28, where the request goes in the
// round's result instead (rounds.go), or why it cannot be sent: no session (a
// stateless server keeps none between requests under older versions), or a client
// without the capability. Under 2026-07-28 a capability the request's client
// capabilities do not declare is noted on the call: a call that then fails is
// answered with the JSON-RPC error -32021 naming it (missingCapabilityError).
func (c *sessionClient) session(what string, cp capability) (*mcp.ServerSession, bool, error) {
	if c.req == nil || c.req.Params == nil || c.req.Session == nil {
		return nil, false, fmt.Errorf("%s: %w: no MCP session to send it on", what, errors.ErrUnsupported)
	}
	modern, caps := clientOf(c.req)
	if modern && (caps == nil || !cp.has(caps)) {
		c.call.lack(cp.key, cp.value)
	}
	if caps == nil {
		if modern {
			return nil, false, fmt.Errorf("%s: %w: the call does not say what the MCP client can do (no client capabilities in its _meta)", what, errors.ErrUnsupported)
		}
		// A stateless server's session is made for the request, with no client
		// capabilities: it keeps none from initialize, and cannot ask the client.
		return nil, false, fmt.Errorf("%s: %w: the MCP session does not know the client's capabilities (a stateless server keeps no session between requests to ask on)", what, errors.ErrUnsupported)
	}
	if !cp.has(caps) {
		return nil, false, fmt.Errorf("%s: %w: the MCP client does not declare %s", what, errors.ErrUnsupported, cp.name)
	}
	return c.req.Session, modern, nil
}

// exchange asks the client params and returns its answer. Under MCP 2025-11-25 and
// older, send sends the request while the call waits, within the timeout. Under
// 2026-07-28 the answer is the round's (rounds.go): the n-th request of a run is
// answered by the client's answer to the n-th request of the round that asked it, if
// that was the same request, and a request not answered yet ends the round: the error
// wraps client.ErrInputRequired.
func (c *sessionClient) exchange(ctx context.Context, what, key string, cp capability,
	params mcp.InputRequest, send func(context.Context, *mcp.ServerSession) (mcp.InputResponse, error)) (mcp.InputResponse, error) {
	if !c.begin() {
		return nil, fmt.Errorf("%s: the call it was made for has returned", what)
	}
	defer c.sending.Done()
	if err := checkInputKey(key); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if task := c.taskRun(); task != nil {
		// A task asks in its inputRequests, and waits for the answer (tasks.go).
		if task.caps == nil || !cp.has(task.caps) {
			return nil, fmt.Errorf("%s: %w: the MCP client does not declare %s", what, errors.ErrUnsupported, cp.name)
		}
		wait, cancel := context.WithTimeout(ctx, c.timeout)
		defer cancel()
		defer context.AfterFunc(c.stopped(), cancel)()
		r, err := task.ask(wait, params)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, c.waitError(ctx, wait, err))
		}
		return r, nil
	}
	ss, modern, err := c.session(what, cp)
	if err != nil {
		return nil, err
	}
	if modern {
		named := key != ""
		if !named {
			key = c.call.nextAskKey()
		} else if !c.call.claim(key) {
			return nil, fmt.Errorf("%s: the key %q names another request of this call already", what, key)
		}
		if r, ok := c.call.answer(key, params, named); ok {
			return r, nil
		}
		c.call.ask(key, params)
		return nil, fmt.Errorf("%s: %w", what, client.ErrInputRequired)
	}
	wait, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	// The call's end ends the wait: the answer would come after the result.
	defer context.AfterFunc(c.stopped(), cancel)()
	r, err := send(wait, ss)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, c.waitError(ctx, wait, err))
	}
	return r, nil
}

// Sample sends sampling/createMessage. The SDK sends no temperature of 0 (it omits a
// zero): a Temperature of 0 reaches the client as the client's choice.
func (c *sessionClient) Sample(ctx context.Context, req *client.SampleRequest) (*client.SampleResult, error) {
	// A tool may call its Client itself (client.FromContext), past client.Sample's
	// checks.
	if req == nil || len(req.Messages) == 0 {
		return nil, errors.New("sampling: the request has no message")
	}
	params := &mcp.CreateMessageParams{
		Messages:      make([]*mcp.SamplingMessage, 0, len(req.Messages)),
		MaxTokens:     int64(req.MaxTokens),
		SystemPrompt:  req.SystemPrompt,
		StopSequences: req.StopSequences,
	}
	if params.MaxTokens <= 0 {
		params.MaxTokens = client.DefaultSampleMaxTokens
	}
	if req.Temperature != nil {
		params.Temperature = *req.Temperature
	}
	for i, m := range req.Messages {
		var mc mcp.Content
		switch m.Content.Type {
		case runtime.ContentText, runtime.ContentImage, runtime.ContentAudio:
			mc = content(runtime.Content{Type: m.Content.Type, Text: m.Content.Text, Data: m.Content.Data, MIMEType: m.Content.MIMEType})
		default:
			return nil, fmt.Errorf("sampling: message %d is of type %q; a sampling message holds text, an image or audio", i, m.Content.Type)
		}
		role := m.Role
		switch role {
		case "":
			role = runtime.RoleUser
		case runtime.RoleUser, runtime.RoleAssistant:
		default:
			return nil, fmt.Errorf("sampling: message %d has the role %q; a sampling message is the user's or the assistant's", i, m.Role)
		}
		params.Messages = append(params.Messages, &mcp.SamplingMessage{Role: mcp.Role(role), Content: mc})
	}
	answer, err := c.exchange(ctx, "sampling", req.Key, samplingCapability, params,
		func(ctx context.Context, ss *mcp.ServerSession) (mcp.InputResponse, error) {
			return ss.CreateMessage(ctx, params)
		})
	if err != nil {
		return nil, err
	}
	res, err := sampled(answer)
	if err != nil {
		return nil, fmt.Errorf("sampling: %w", err)
	}
	out := &client.SampleResult{Role: runtime.Role(res.Role), Model: res.Model, StopReason: res.StopReason}
	if out.Role != runtime.RoleAssistant && out.Role != runtime.RoleUser {
		return nil, fmt.Errorf("sampling: the client answered with the role %q, not the assistant's or the user's", res.Role)
	}
	switch b := res.Content.(type) {
	case *mcp.TextContent:
		out.Content = runtime.TextContent(b.Text)
	case *mcp.ImageContent:
		out.Content = runtime.ImageContent(b.Data, b.MIMEType)
	case *mcp.AudioContent:
		out.Content = runtime.AudioContent(b.Data, b.MIMEType)
	default:
		return nil, fmt.Errorf("sampling: the client answered with content of type %T, not text, an image or audio", res.Content)
	}
	return out, nil
}

// sampled returns the client's answer to a sampling request as one message: under
// MCP 2026-07-28 it may come as the result of sampling with tools, which holds a list.
func sampled(r mcp.InputResponse) (*mcp.CreateMessageResult, error) {
	switch res := r.(type) {
	case *mcp.CreateMessageResult:
		return res, nil
	case *mcp.CreateMessageWithToolsResult:
		if len(res.Content) != 1 {
			return nil, fmt.Errorf("the client answered with %d content blocks, not one", len(res.Content))
		}
		return &mcp.CreateMessageResult{Content: res.Content[0], Model: res.Model, Role: res.Role, StopReason: res.StopReason}, nil
	}
	return nil, fmt.Errorf("the client answered with %T, not a sampled message", r)
}

// noForm is the requested schema of an elicitation that asks for no content: MCP
// requires one in form mode.
const noForm = `{"type":"object","properties":{}}`

// Elicit sends elicitation/create, in form mode. An accepted answer's content is
// checked against the schema and filled in with its defaults (checkForm), as the SDK
// does for the answer it waits for; an answer accepted without content is refused,
// and keys of the content that are not the form's properties are dropped. Before
// the user is asked, under both versions, the schema is checked against MCP's
// restrictions (flat, primitive properties: checkFormSchema).
func (c *sessionClient) Elicit(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
	// A tool may call its Client itself (client.FromContext), past client.Elicit's
	// checks.
	if req == nil {
		return nil, errors.New("elicitation: the request is nil")
	}
	props, err := formProperties(req.Schema)
	if err != nil {
		return nil, err
	}
	params := &mcp.ElicitParams{Mode: "form", Message: req.Message, RequestedSchema: json.RawMessage(noForm)}
	if len(req.Schema) > 0 {
		params.RequestedSchema = req.Schema
	}
	answer, err := c.exchange(ctx, "elicitation", req.Key, formCapability, params,
		func(ctx context.Context, ss *mcp.ServerSession) (mcp.InputResponse, error) {
			return ss.Elicit(ctx, params)
		})
	if err != nil {
		return nil, err
	}
	res, ok := answer.(*mcp.ElicitResult)
	if !ok || res == nil {
		return nil, fmt.Errorf("elicitation: the client answered with %T, not a form's answer", answer)
	}
	out := &client.ElicitResult{Action: client.ElicitAction(res.Action)}
	switch out.Action {
	case client.ElicitAccept:
		switch {
		case len(req.Schema) == 0:
			// No form: whatever content the client sent was checked against
			// nothing, and is not the tool's.
		case res.Content == nil:
			// The SDK checks only the content there is: a form accepted without
			// any would skip the schema's required properties and defaults.
			return nil, errors.New("elicitation: the client accepted the form but sent none of its values")
		default:
			// The SDK checks the answer it waited for, but not one that comes with
			// the call sent again (MCP 2026-07-28): check both alike.
			content, err := checkForm(params.RequestedSchema, res.Content)
			if err != nil {
				return nil, fmt.Errorf("elicitation: %w", err)
			}
			res.Content = content
			// JSON Schema lets through keys the form does not have: they are not
			// the form's values.
			for k := range res.Content {
				if _, ok := props[k]; !ok {
					delete(res.Content, k)
				}
			}
			if out.Content, err = json.Marshal(res.Content); err != nil {
				return nil, fmt.Errorf("elicitation: the user's answer: %w", err)
			}
		}
	case client.ElicitDecline, client.ElicitCancel:
	default:
		return nil, fmt.Errorf("elicitation: the client answered with the action %q, not accept, decline or cancel", res.Action)
	}
	return out, nil
}

// checkForm checks a form's values against its schema, as the SDK does for the answer
// to elicitation/create, and fills in the schema's defaults.
func checkForm(schema any, content map[string]any) (map[string]any, error) {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("the form's schema: %w", err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("the form's schema: %w", err)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("the form's schema: %w", err)
	}
	if err := resolved.Validate(content); err != nil {
		return nil, fmt.Errorf("the answer does not match the form's schema: %w", err)
	}
	if err := resolved.ApplyDefaults(&content); err != nil {
		return nil, fmt.Errorf("the form's defaults: %w", err)
	}
	return content, nil
}

// formProperties returns the properties of the form schema, none when there is no
// schema, or why schema is no form.
func formProperties(schema json.RawMessage) (map[string]json.RawMessage, error) {
	if len(schema) == 0 {
		return nil, nil
	}
	var form map[string]json.RawMessage
	if err := json.Unmarshal(schema, &form); err != nil || form == nil {
		return nil, errors.New("elicitation: the schema is not a JSON object")
	}
	var props map[string]json.RawMessage
	if p, ok := form["properties"]; ok {
		if err := json.Unmarshal(p, &props); err != nil {
			return nil, fmt.Errorf("elicitation: the schema's properties are not an object: %w", err)
		}
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("elicitation: the schema: %w", err)
	}
	if err := checkFormSchema(&s); err != nil {
		return nil, fmt.Errorf("elicitation: %w", err)
	}
	return props, nil
}

// checkFormSchema checks a form against MCP's restrictions on elicitation schemas: an
// object of flat properties, each a string (or an enum of strings, titled or not), a
// number, an integer, a boolean, or an array of enum strings (a multi-select). The SDK
// checks them before it sends elicitation/create itself, under MCP 2025-11-25; under
// 2026-07-28 the request goes in a result, unchecked: this check holds for both, so
// that no answer of another shape than the form's can reach a tool.
func checkFormSchema(s *jsonschema.Schema) error {
	if s.Type != "" && s.Type != "object" {
		return fmt.Errorf("the form is of type %q, not an object", s.Type)
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		p := s.Properties[name]
		if p == nil {
			continue
		}
		if len(p.Properties) > 0 || p.Type == "object" {
			return fmt.Errorf("the form's property %q is an object: a form holds only flat properties", name)
		}
		switch p.Type {
		case "string", "number", "integer", "boolean", "":
			if p.Type == "" && len(p.Enum) == 0 && len(p.OneOf) == 0 {
				return fmt.Errorf("the form's property %q has no type", name)
			}
		case "array":
			it := p.Items
			switch {
			case it == nil:
				return fmt.Errorf("the form's property %q is an array without items", name)
			case it.Type == "string" && len(it.Enum) > 0, it.Type == "" && len(it.AnyOf) > 0:
			default:
				return fmt.Errorf("the form's property %q is an array of other items than enum strings", name)
			}
		default:
			return fmt.Errorf("the form's property %q is of type %q: a form holds strings, numbers, integers, booleans and arrays of enum strings", name, p.Type)
		}
	}
	return nil
}

// waitError says why a request to the client failed: the call's context ended, the
// call returned (a goroutine of the tool asked), the client took longer than the
// timeout, or the client's own error.
func (c *sessionClient) waitError(call, wait context.Context, err error) error {
	switch {
	case call.Err() != nil:
		return fmt.Errorf("the call's context ended before the client answered: %w", call.Err())
	case c.stopped().Err() != nil:
		return fmt.Errorf("the call it was made for returned before the client answered: %w", context.Canceled)
	case wait.Err() != nil:
		return fmt.Errorf("the client did not answer within %v: %w", c.timeout, wait.Err())
	}
	return err
}

// LogHandler sends the call's log records as notifications/message, at the level the
// client set (none are sent before it sets one): with logging/setLevel, or under MCP
// 2026-07-28 in the call's _meta (io.modelcontextprotocol/logLevel). They go with the
// request's context, so that over streamable HTTP they go on the call's stream. A
// stateless server's session lives for one request, so under older versions a level
// set with logging/setLevel does not reach the call: the SDK sends info and above
// there. Records logged once the call's context has ended, or once the call has
// returned (by a goroutine the tool left behind, whatever context it logs with), are
// dropped: nothing of the call follows its result.
func (c *sessionClient) LogHandler(ctx context.Context) slog.Handler {
	if c.req == nil || c.req.Session == nil || c.taskRun() != nil {
		return nil
	}
	name := ""
	if c.req.Params != nil {
		name = c.req.Params.Name
	}
	return boundHandler{client: c, ctx: ctx, next: mcp.NewLoggingHandler(c.req.Session, &mcp.LoggingHandlerOptions{LoggerName: name})}
}

// boundHandler handles records with the context of the call it was made for, whatever
// context the logger was given: the SDK reads the request from it. It sends only
// while the call runs (sessionClient.begin).
type boundHandler struct {
	client *sessionClient
	ctx    context.Context
	next   slog.Handler
}

func (h boundHandler) Enabled(_ context.Context, l slog.Level) bool {
	return h.ctx.Err() == nil && h.client.live() && h.client.taskRun() == nil && h.next.Enabled(h.ctx, l)
}

func (h boundHandler) Handle(_ context.Context, r slog.Record) error {
	if h.ctx.Err() != nil || h.client.taskRun() != nil || !h.client.begin() {
		// The call ended, or went on as a task (whose log the extension does not
		// carry): nothing of it follows its result.
		return nil
	}
	defer h.client.sending.Done()
	return h.next.Handle(h.ctx, r)
}

func (h boundHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return boundHandler{client: h.client, ctx: h.ctx, next: h.next.WithAttrs(attrs)}
}

func (h boundHandler) WithGroup(name string) slog.Handler {
	return boundHandler{client: h.client, ctx: h.ctx, next: h.next.WithGroup(name)}
}
