// Package toolmcp serves a runtime.Toolset over the Model Context Protocol with the
// official MCP Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// Register adds every tool of a Toolset to an *mcp.Server:
//
//	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "v1.0.0"}, nil)
//	toolmcp.Register(server, forecast.Tools())
//	err := server.Run(ctx, toolmcp.StdioTransport())
//
// Tools go through the SDK's low-level Server.AddTool, not the generic mcp.AddTool: the
// schemas are the ones toolgen generated, sent as written (no reflection, no inference),
// and each tools/call is decoded and validated once, by the generated decoder, through
// Toolset.Call. So the client gets toolgen's messages: invalid arguments, including
// null, missing, non-object, too large and too deeply nested ones, come back as a
// result with isError set and every violation listed, for the model to correct its
// call. A call never panics the server. (mcp.AddTool would infer schemas by
// reflection, validate each call's arguments against them before decoding them again,
// and, in v1.8.0, panic, ending the process, on "arguments": null when a property has
// a default.)
//
// A tools/call naming a tool that is not registered is answered by the SDK with the
// JSON-RPC error -32602 (invalid params), as the MCP specification asks.
//
// Serve stdio with StdioTransport rather than mcp.StdioTransport: the SDK ends a stdio
// session, and so the server, on a line it cannot read (not JSON, nested deeper than
// 1,000 levels, ...), where StdioTransport answers it with a JSON-RPC error and reads
// on. Over streamable HTTP such a request fails alone.
//
// Both transports also refuse, with a JSON-RPC error, a message with a key twice in any
// object ("params" twice, or an argument): the SDK acts on the last of the two, where
// a proxy or a log may read the first. They refuse, too, two keys that differ only in
// case in the protocol's objects, which the SDK decodes into Go structs (the message,
// its params and the structs in them): "params" and "Params", "name" and "Name", or
// "argument\u017f" (a long s) and "arguments". The SDK matches those keys exactly; a
// reader decoding with encoding/json matches them case-insensitively and takes the
// last. A tool's arguments keep case-sensitive names: "a" and "A" are two arguments.
// StdioTransport screens stdio; put the SDK's streamable HTTP handler behind an
// HTTPScreen for HTTP.
//
// A tool marked a task (runtime.Tool.Task, the directive's task=optional or
// task=required) is served as MCP's tasks extension defines it, to a client that
// negotiated the extension: its call is answered at once with a task the client polls,
// answers and cancels, on any replica sharing the Store (WithStore).
package toolmcp

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/progress"
)

// An Option configures Register.
type Option func(*config)

type config struct {
	context          func(context.Context, *mcp.CallToolRequest) context.Context
	progressInterval time.Duration
	clientTimeout    time.Duration
	tasks            taskConfig

	filter     ToolFilter // filter.go
	searchTool bool

	// callInfo is runtime.CallInfo{Provider: "mcp"}, boxed once by Register: each
	// call's frame answers it (callFrame.Value) without allocating.
	callInfo any
}

// mcpCallInfo returns the CallInfo of c's calls, boxed: Register's, or a new one for a
// config Register did not make.
func (c *config) mcpCallInfo() any {
	if c.callInfo != nil {
		return c.callInfo
	}
	return runtime.CallInfo{Provider: "mcp"}
}

// WithContext derives the context of each call from the request's before the tool runs.
// MCP carries no application user: use it to put the caller's identity where the tools
// look for it, from req.Extra (the verified token of an authenticated HTTP request, or
// its headers) or a fixed value for a single-user server. The request's context, and so
// the client's cancellation, should stay the parent of the one f returns.
func WithContext(f func(ctx context.Context, req *mcp.CallToolRequest) context.Context) Option {
	return func(c *config) { c.context = f }
}

// Register adds every tool of ts to s; pass ts.Group(...) to serve a subset. A tool
// replaces a tool of the same name already on s, as Server.AddTool does, and, like
// it, Register panics when a tool's input schema is not a JSON object schema (a
// programming error, never the case for generated tools).
//
// Each tools/call runs ts.Call with the call's context, so a client's cancellation
// (notifications/cancelled) reaches the tool, and its result is sent as Result
// converts it. The context carries runtime.CallInfo{Provider: "mcp"} (the SDK does not
// expose the JSON-RPC id), for the Toolset's approver and observers: give ts an
// observer (Toolset.WithObserver, runtime.SlogObserver) to log the whole error of a
// failed call, which the client never sees. A call with a progress token sends the
// tool's progress.Report reports as notifications/progress (see
// WithProgressInterval). The call's context carries the session as the tool's
// client.Client: client.Sample asks the client's model (sampling/createMessage),
// client.Elicit its user (elicitation/create), each when the client declares the
// capability and within WithClientTimeout, and client.Logger's records go to the
// client as notifications/message, at the level it asked for (logging/setLevel, or
// the call's _meta under MCP 2026-07-28; a stateless server sends info and above).
// All of it ends with the call: nothing a goroutine the tool left behind logs, asks or
// reports reaches the client after the result, and a request still waiting for the
// client's answer then stops waiting.
// Under MCP 2026-07-28 a server sends no request while it serves a call: a round of
// the call that asks ends with an input-required result holding the requests, the
// client sends the call again with the answers, and the tool runs again from the
// start, each request finding its answer (client.ErrInputRequired says how a tool
// takes part). Under older versions a stateless server has no session to ask on:
// there Sample and Elicit fail with an error for which errors.Is(err,
// errors.ErrUnsupported) holds.
func Register(s *mcp.Server, ts *runtime.Toolset, opts ...Option) {
	c := config{callInfo: runtime.CallInfo{Provider: "mcp"}}
	for _, o := range opts {
		o(&c)
	}
	hasTasks := c.tasks.store != nil
	for _, t := range ts.Tools() {
		s.AddTool(Tool(t), handler(ts, t, &c))
		hasTasks = hasTasks || t.Task != runtime.TaskForbidden
	}
	if hasTasks {
		if c.tasks.store == nil {
			c.tasks.store = NewMemoryStore()
		}
		newTaskServer(ts, &c).register(s)
	}
	registerCatalog(s, ts, &c)
	registerOutputs(s, ts)
}

// emptyInputSchema is the input schema of a tool declared without one: any object.
var emptyInputSchema = json.RawMessage(`{"type":"object"}`)

// Tool returns the MCP description of t: its name, title, description, input and output
// schemas (as written, raw JSON), and its annotations.
//
// Annotations hold the title, when there is one, and the hints the author wrote. The
// SDK's ToolAnnotations has plain booleans for readOnlyHint and idempotentHint, so
// those two are always sent, false when not written; false is their MCP default, so a
// client reads the same hints. destructiveHint and openWorldHint are sent only when
// written. A tool with neither title nor hints has no annotations. A tool built by hand
// without an input schema gets {"type":"object"}.
func Tool(t *runtime.Tool) *mcp.Tool {
	mt := &mcp.Tool{
		Name:        t.Name,
		Title:       t.Title,
		Description: t.Description,
		InputSchema: emptyInputSchema,
	}
	if len(t.InputSchema) > 0 {
		mt.InputSchema = t.InputSchema
	}
	if len(t.OutputSchema) > 0 {
		// Assigned only when present: a nil json.RawMessage in the interface would be
		// sent as "outputSchema": null.
		mt.OutputSchema = t.OutputSchema
	}
	a := t.Annotations
	if t.Title != "" || a.ReadOnly != nil || a.Destructive != nil || a.Idempotent != nil || a.OpenWorld != nil {
		mt.Annotations = &mcp.ToolAnnotations{
			Title:           t.Title,
			ReadOnlyHint:    a.ReadOnly != nil && *a.ReadOnly,
			IdempotentHint:  a.Idempotent != nil && *a.Idempotent,
			DestructiveHint: cloneBool(a.Destructive),
			OpenWorldHint:   cloneBool(a.OpenWorld),
		}
	}
	return mt
}

func cloneBool(p *bool) *bool {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// Result returns r as an MCP tools/call result: isError as r.IsError, each content
// block as the MCP block of its type with its audience annotation (a block meant for the
// user alone is sent, with audience ["user"]: the client decides what to show), and
// r.Structured, when present, as structuredContent (its JSON is already a text block
// of r, as the specification recommends).
//
// A result the budget cut (r.Truncated) has no structuredContent: the model may read
// structuredContent rather than the text, and a value cut short would not conform to
// the tool's output schema, so the client gets the cut text and its marker alone. MCP
// asks a tool with an output schema for structured content, and a client that insists
// on it (the TypeScript SDK's callTool) fails such a call: give a tool whose results
// may be long a budget= its longest valid result fits.
func Result(r *runtime.Result) *mcp.CallToolResult {
	var out *mcp.CallToolResult
	if len(r.Content) == 1 && r.Content[0].Type == runtime.ContentText && len(r.Content[0].Audience) == 0 {
		// Most results are one text block ("ok", the violations of invalid arguments,
		// a structured value's JSON): allocated with the result.
		one := &textResult{text: mcp.TextContent{Text: r.Content[0].Text}}
		one.content[0] = &one.text
		out = &one.res
		out.IsError, out.Content = r.IsError, one.content[:]
	} else {
		out = &mcp.CallToolResult{IsError: r.IsError, Content: make([]mcp.Content, 0, len(r.Content))}
		for _, c := range r.Content {
			out.Content = append(out.Content, content(c))
		}
	}
	if _, cut := r.Truncated(); len(r.Structured) > 0 && !cut {
		out.StructuredContent = r.Structured
	}
	return out
}

// textResult is a result of one text block with its block, in one allocation.
type textResult struct {
	res     mcp.CallToolResult
	content [1]mcp.Content
	text    mcp.TextContent
}

// audience returns the audience annotation of a block for roles: the roles MCP knows,
// each once, in MCP's order; nil for everyone. A block whose roles are all unknown to
// MCP is not the model's (runtime.Content.ForModel): it goes to the user alone, so that
// neither the annotation nor the block reaches the model past the result budget.
func audience(roles []runtime.Role) *mcp.Annotations {
	if len(roles) == 0 {
		return nil
	}
	user, assistant := false, false
	for _, r := range roles {
		user = user || r == runtime.RoleUser
		assistant = assistant || r == runtime.RoleAssistant
	}
	ann := &mcp.Annotations{}
	if user || !assistant {
		ann.Audience = append(ann.Audience, mcp.Role(runtime.RoleUser))
	}
	if assistant {
		ann.Audience = append(ann.Audience, mcp.Role(runtime.RoleAssistant))
	}
	return ann
}

// content converts one block. A block of a type MCP does not know is sent as text.
func content(c runtime.Content) mcp.Content {
	ann := audience(c.Audience)
	switch c.Type {
	case runtime.ContentImage:
		return &mcp.ImageContent{Data: c.Data, MIMEType: c.MIMEType, Annotations: ann}
	case runtime.ContentAudio:
		return &mcp.AudioContent{Data: c.Data, MIMEType: c.MIMEType, Annotations: ann}
	case runtime.ContentResourceLink:
		return &mcp.ResourceLink{URI: c.URI, Name: c.Name, MIMEType: c.MIMEType, Annotations: ann}
	case runtime.ContentResource:
		rc := &mcp.ResourceContents{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text}
		// The SDK leaves out an empty text, and a resource with neither text nor blob
		// is not valid MCP: an empty resource goes as an empty blob.
		if c.Data != nil || c.Text == "" {
			rc = &mcp.ResourceContents{URI: c.URI, MIMEType: c.MIMEType, Blob: c.Data}
			if rc.Blob == nil {
				rc.Blob = []byte{}
			}
		}
		return &mcp.EmbeddedResource{Resource: rc, Annotations: ann}
	}
	return &mcp.TextContent{Text: c.Text, Annotations: ann}
}

// callContext returns the context a call of req runs with, its mcpCall and its Client,
// whose end the caller defers: the call's info, the request, the client (the session's,
// or the task's when task is not nil), and what WithContext derives.
func callContext(ctx context.Context, req *mcp.CallToolRequest, c *config, task *taskRun) (context.Context, *mcpCall, *sessionClient) {
	// ElicitApprover (elicit.go) and the call's Client read the request from the
	// context, and may end the round asking the client for input instead (rounds.go).
	// The tool reaches the client's model, user and log (client.Sample,
	// client.Elicit, client.Logger) through the session (client.go), or its task.
	// The frame is the call's one context value: it also answers runtime's keys of
	// the call's CallInfo (runtime.ContextWithCall) and Client (client.NewContext).
	f := newCallFrame(ctx, req, c.clientTimeout, c.mcpCallInfo())
	ctx, mc, sc := f, &f.call, &f.client
	sc.task = task
	if task != nil {
		ctx = context.WithValue(ctx, taskRunKey{}, task)
		ctx = progress.NewContext(ctx, task.observeProgress)
	}
	if c.context != nil {
		ctx = c.context(ctx, req)
	}
	return ctx, mc, sc
}

// handler is the SDK handler of the tool named name: the raw arguments go to ts.Call,
// whose generated decoder is the only one to read them.
func handler(ts *runtime.Toolset, t *runtime.Tool, c *config) mcp.ToolHandler {
	name, wrapped := t.Name, t.OutputWrapped && unwrappedSchema(t.OutputSchema) != nil
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		// ts.Call never panics, but WithContext's function is the application's code:
		// a panic there must not end the session (the SDK does not recover handler
		// panics).
		defer func() {
			if p := recover(); p != nil {
				r := runtime.ErrorResult(name+" failed with an internal error",
					fmt.Errorf("toolmcp: serving %s panicked: %v\n%s", name, p, debug.Stack()))
				res, err = Result(r), nil
			}
		}()
		// A client that sent a progress token gets the tool's progress reports
		// (progress.go), sent with the request's context, up to the result.
		var sender *progressSender
		if token := progressToken(req); token != nil {
			sender = newProgressSender(ctx, req.Session, token, c.progressInterval)
			defer sender.close()
		}
		ctx, mc, client := callContext(ctx, req, c, nil)
		if mc.badState {
			client.end()
			return nil, errBadState
		}
		defer client.end()
		// A call with a prelude may go on as a task (tasks.go): its progress reports
		// then go to the task.
		pre := preludeOf(ctx)
		if pre != nil {
			client.pre = pre
			pre.client.Store(client)
			ctx = progress.NewContext(ctx, func(ctx context.Context, e progress.Event) {
				if run := client.taskRun(); run != nil {
					run.observeProgress(ctx, e)
				} else if sender != nil {
					sender.observe(ctx, e)
				}
			})
		} else if sender != nil {
			ctx = progress.NewContext(ctx, sender.observe)
		}
		var args []byte
		if req.Params != nil {
			args = req.Params.Arguments
		}
		r := ts.Call(ctx, name, args)
		// Nothing of the call follows its result: from here on, a goroutine the tool
		// left behind neither logs to the client nor asks it, nor adds a request to
		// this round's (progress ends with the deferred close, before the result too).
		client.end()
		if pre != nil && pre.ran(r) {
			// The request was answered with the task, which keeps r.
			return &mcp.CallToolResult{}, nil
		}
		return callResult(r, mc, req, wrapped)
	}
}

// callResult is the answer to the call req of this round, whose run ended with r:
// the input-required result when the run asked the client, else r. wrapped reports a
// tool whose non-object output is wrapped, which MCP 2026-07-28 gets as it is.
func callResult(r *runtime.Result, mc *mcpCall, req *mcp.CallToolRequest, wrapped bool) (*mcp.CallToolResult, error) {
	if in := mc.inputRequired(); in != nil {
		return in, nil
	}
	if r.IsError {
		if err := mc.missingCapabilityError(); err != nil {
			return nil, err
		}
	}
	out := Result(r)
	if wrapped && modernRequest(req) {
		unwrapResult(out) // SEP-2106: the value as it is
	}
	return out, nil
}
