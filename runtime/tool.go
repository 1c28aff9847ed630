package runtime

import (
	"encoding/json"
	"slices"
	"time"
)

// Tool describes one tool: what the model is told about it and how the runtime treats
// it. Generated code declares one per annotated function; its fields are read-only.
type Tool struct {
	// Name is the tool's name, unique within a Toolset.
	Name string
	// Title is a human-readable title, or "".
	Title string
	// Description tells the model what the tool does and when to use it.
	Description string
	// Examples are input examples: arguments of calls the tool takes, each a JSON
	// object the input schema accepts, which show the model how to call it. toolgen
	// writes them from the doc comment's "Examples:" paragraph (also into the input
	// schema's "examples"); runtime/anthropic sends them as the tool's input_examples;
	// NewTool refuses a tool whose examples its input schema refuses (*ExampleError).
	// The other providers read them in the input schema, where a schema given as it is
	// carries them.
	Examples []json.RawMessage
	// Groups are the groups the tool belongs to (see Toolset.Group).
	Groups []string
	// Annotations are the hints the author wrote.
	Annotations Annotations
	// InputSchema is the JSON Schema (2020-12) of the tool's arguments.
	InputSchema json.RawMessage
	// OutputSchema is the JSON Schema of the tool's structured result, or nil when the
	// tool returns text.
	OutputSchema json.RawMessage
	// OutputWrapped reports that the tool's value is not a JSON object (a list, a
	// string, a number), so its structured result is {"result": value} and
	// OutputSchema describes that wrapper, whose "result" property is the value's
	// schema: MCP before 2026-07-28 takes objects alone. Under 2026-07-28 (SEP-2106)
	// toolmcp sends the value and its schema as they are.
	OutputWrapped bool
	// Strict asks provider adapters for strict schemas where the provider has them: they
	// lower InputSchema with runtime/dialect, once per tool and provider.
	Strict bool
	// Timeout, when positive, bounds each call: the call's context is canceled after it
	// and the model gets a timeout error.
	Timeout time.Duration
	// MaxResultBytes, when positive, is the tool's result budget: the most
	// model-facing bytes a call's result gives the model, the truncation marker
	// included (see Toolset.WithResultBudget for what counts, and for the budget of
	// the tools that set none).
	MaxResultBytes int
	// Sequential asks adapters to run the tool alone, after calls that run in parallel.
	Sequential bool
	// Sensitive lists the JSON Pointers of the arguments' sensitive properties, "*"
	// standing for any array index or map key and "**" for any number of them, as the
	// paths into a recursive type need ("/password", "/users/*/token",
	// "/tree/**/pin"); their values are never echoed in errors and are redacted from
	// logs (see Redact).
	Sensitive []string
	// Task says whether an MCP client that negotiated the tasks extension gets a task
	// for a call to the tool instead of its result (toolmcp.WithStore): TaskForbidden
	// (the zero value), TaskOptional or TaskRequired. Other adapters ignore it.
	Task TaskSupport
	// TaskPrelude, for a task tool, has a call that would run as a task run in its
	// request first, as a call that is not a task does, until the tool calls
	// client.StartTask: its requests to the client before then (client.Elicit,
	// Sample, Roots) are answered in the call's own rounds (MCP 2026-07-28's
	// input-required results), and the client gets the task once StartTask is called. A call that
	// ends before it is answered with its result, and is no task.
	TaskPrelude bool
}

// TaskSupport says whether a tool runs as an MCP task (the tasks extension,
// io.modelcontextprotocol/tasks): the directive's task= option.
type TaskSupport string

const (
	// TaskForbidden: every call is answered with its result (the default, task=forbidden).
	TaskForbidden TaskSupport = ""
	// TaskOptional: a call runs as a task when the client negotiated the extension,
	// and is answered with its result otherwise (task=optional).
	TaskOptional TaskSupport = "optional"
	// TaskRequired: a call runs as a task; a client that did not negotiate the
	// extension gets the error -32021, missing required client capability
	// (task=required).
	TaskRequired TaskSupport = "required"
)

// InGroup reports whether the tool belongs to any of the groups.
func (t *Tool) InGroup(groups ...string) bool {
	for _, g := range groups {
		if slices.Contains(t.Groups, g) {
			return true
		}
	}
	return false
}

// Annotations are the MCP tool hints an author wrote. A nil hint was not written: MCP
// consumers then assume its default, which Effective applies.
type Annotations struct {
	// ReadOnly: the tool does not change its environment.
	ReadOnly *bool
	// Destructive: the tool may destroy or overwrite data (meaningful when not read-only).
	Destructive *bool
	// Idempotent: calling it again with the same arguments has no further effect.
	Idempotent *bool
	// OpenWorld: the tool reaches outside systems (the web, other services).
	OpenWorld *bool
}

// EffectiveAnnotations are the hints as a conservative consumer reads them, with MCP's
// defaults for the absent ones: an unannotated tool is presumed destructive and
// open-world.
type EffectiveAnnotations struct {
	ReadOnly    bool
	Destructive bool
	Idempotent  bool
	OpenWorld   bool
}

// Effective applies MCP's defaults (readOnly false, destructive true, idempotent false,
// openWorld true) to the hints not written. A read-only tool is never destructive and
// always idempotent, since it changes nothing.
func (a Annotations) Effective() EffectiveAnnotations {
	e := EffectiveAnnotations{
		ReadOnly:    valueOr(a.ReadOnly, false),
		Destructive: valueOr(a.Destructive, true),
		Idempotent:  valueOr(a.Idempotent, false),
		OpenWorld:   valueOr(a.OpenWorld, true),
	}
	if e.ReadOnly {
		e.Destructive, e.Idempotent = false, true
	}
	return e
}

func valueOr(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}
