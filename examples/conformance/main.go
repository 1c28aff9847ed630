// Command conformance serves the tools of package suite over the Model Context
// Protocol, for the official MCP conformance suite (@modelcontextprotocol/conformance)
// to judge toolmcp by. Every tool is an ordinary toolgen tool, named as the suite's
// scenarios expect.
//
// With -http it serves streamable HTTP at /mcp, with sessions, since a tool that asks
// the client's model or user (sampling, elicitation) sends its request on the client's
// session:
//
//	go -C examples/conformance run . -http 127.0.0.1:3001
//	npx @modelcontextprotocol/conformance@0.1.12 server --url http://127.0.0.1:3001/mcp --scenario tools-call-sampling
//
// The tools of the tasks-* scenarios (slow_compute, confirm_delete, ...) run as tasks,
// kept in the store -store names: memory, the default, or a postgres:// URL of a
// database that every replica shares (toolpostgres), for replicas behind a load
// balancer:
//
//	go -C examples/conformance run . -http 127.0.0.1:8081 -store 'postgres:///mcp?host=/var/run/postgresql'
//	go -C examples/conformance run . -http 127.0.0.1:8082 -store 'postgres:///mcp?host=/var/run/postgresql'
//
// That is why this command is a module of its own: the root module does not require
// pgx.
//
// Without it, it speaks MCP over stdio. The server has no authentication: keep the
// HTTP address on the loopback interface, where the SDK's handler refuses requests
// whose Host header names another host (DNS rebinding).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/examples/conformance/suite"
	"github.com/toolgen/toolgen/examples/internal/mcpserve"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/client"
	"github.com/toolgen/toolgen/toolmcp"
	"github.com/toolgen/toolgen/toolpostgres"
)

// newServer returns the MCP server of the suite's tools; every call is logged to
// logger, a failed one with its whole error.
func newServer(logger *slog.Logger) *mcp.Server {
	return newTaskServer(logger, toolmcp.NewMemoryStore())
}

// newTaskServer is newServer keeping the tasks of the suite's task tools in store.
func newTaskServer(logger *slog.Logger, store toolmcp.Store) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "toolgen-conformance", Version: "v0.1.0"}, nil)
	toolmcp.Register(s, runtime.Join(suite.Tools(), jsonSchemaTool(), toolWithTask(), triggerToolChange(s)).WithObserver(runtime.SlogObserver(logger)), toolmcp.WithStore(store))
	// One resource, for the caching scenario's resources/read (its hints are the
	// SDK's): the server is about tools, and has no other.
	s.AddResource(&mcp.Resource{URI: "test://static-text", Name: "static-text", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "This is the content of the static text resource."}}}, nil
		})
	return s
}

// jsonSchemaTool returns json_schema_2020_12_tool, a dynamic tool of the schema the
// suite's json-schema-2020-12 scenario checks the listing of.
func jsonSchemaTool() *runtime.Toolset {
	ts, err := runtime.NewTool(runtime.Tool{
		Name:        "json_schema_2020_12_tool",
		Description: "Echoes a person's contact: a tool whose schema uses JSON Schema 2020-12 beyond what toolgen writes for a Go type.",
		InputSchema: json.RawMessage(jsonSchema202012),
	}, func(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
		return runtime.TextResult("JSON Schema 2020-12 tool called with: " + string(args)), nil
	})
	if err != nil {
		panic(err) // a fixed, valid definition
	}
	return ts
}

// toolWithTask returns test_tool_with_task, of the tasks-mrtr-composition scenario: a
// task tool with a prelude (runtime.Tool.TaskPrelude) that asks the user's name in
// the call's own rounds, before the task exists, then starts its task
// (client.StartTask), which greets the user by that name.
func toolWithTask() *runtime.Toolset {
	ts, err := runtime.NewTool(runtime.Tool{
		Name:        "test_tool_with_task",
		Description: "Asks for the user's name, then greets them in a task.",
		Annotations: runtime.Annotations{ReadOnly: new(true), OpenWorld: new(false)},
		InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
		Task:        runtime.TaskRequired,
		TaskPrelude: true,
	}, func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		res, err := client.Elicit(ctx, &client.ElicitRequest{Message: "What is your name?",
			Schema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"Your name"}},"required":["name"]}`)})
		if err != nil {
			return nil, err
		}
		if res.Action != client.ElicitAccept {
			return runtime.TextResult("No name given: action=" + string(res.Action)), nil
		}
		var answer struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(res.Content, &answer); err != nil {
			return nil, err
		}
		client.StartTask(ctx)
		return runtime.TextResult("Hello, " + answer.Name + "!"), nil
	})
	if err != nil {
		panic(err) // a fixed, valid definition
	}
	return ts
}

// jsonSchema202012 is the input schema the suite's json-schema-2020-12 scenario looks
// for: $schema, $defs with an $anchor, a $ref, allOf of anyOf, if/then/else, and a
// closed object. runtime.NewTool enforces all of it.
const jsonSchema202012 = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",` +
	`"$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},` +
	`"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},` +
	`"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],` +
	`"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},"then":{"required":["phone"]},"else":{"required":["email"]},` +
	`"additionalProperties":false}`

// triggerToolChange returns test_trigger_tool_change, which the suite calls to see the
// server tell its listening clients that its tools changed
// (notifications/tools/list_changed): each call adds test_added_tool to s, or removes
// it when there. It is built at run time (runtime.NewTool), since it acts on the
// server.
func triggerToolChange(s *mcp.Server) *runtime.Toolset {
	added, err := runtime.NewTool(runtime.Tool{
		Name:        "test_added_tool",
		Description: "Says it is there: test_trigger_tool_change adds and removes it.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
	}, func(context.Context, json.RawMessage) (*runtime.Result, error) {
		return runtime.TextResult("added"), nil
	})
	if err != nil {
		panic(err) // a fixed, valid definition
	}
	var mu sync.Mutex
	present := false
	trigger, err := runtime.NewTool(runtime.Tool{
		Name:        "test_trigger_tool_change",
		Description: "Adds test_added_tool to the server's tools, or removes it when there, so that the server notifies that its tools changed.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
	}, func(context.Context, json.RawMessage) (*runtime.Result, error) {
		mu.Lock()
		defer mu.Unlock()
		if present {
			s.RemoveTools("test_added_tool")
		} else {
			toolmcp.Register(s, added)
		}
		present = !present
		return runtime.TextResult(fmt.Sprintf("test_added_tool present: %v", present)), nil
	})
	if err != nil {
		panic(err)
	}
	return trigger
}

// httpHandler serves s over streamable HTTP at /mcp, behind toolmcp.HTTPScreen, which
// answers subscriptions/listen for the tasks kept in store.
func httpHandler(s *mcp.Server, store toolmcp.Store) http.Handler {
	screen := toolmcp.NewHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	if store != nil {
		screen.Listen = &toolmcp.TaskListener{Store: store} // notifications/tasks
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", screen)
	return mux
}

func main() {
	mcpserve.Command{
		Name:     "conformance",
		About:    "Serves the tools of the MCP conformance suite's scenarios, on stdio by default.",
		HTTP:     "streamable HTTP",
		Server:   newServer,
		Tasks:    newTaskServer,
		Handler:  httpHandler,
		Postgres: openPostgres,
	}.Main()
}

// openPostgres opens the PostgreSQL store of -store postgres://..., which every replica
// of the server given the same database shares, and returns what closes it.
func openPostgres(ctx context.Context, url string) (toolmcp.Store, func(), error) {
	store, pool, err := toolpostgres.Open(ctx, url)
	if err != nil {
		return nil, nil, err
	}
	return store, pool.Close, nil
}
