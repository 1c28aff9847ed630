package openai

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wire"
	"github.com/toolgen/toolgen/runtime/loop"
)

// Chat is the Chat Completions format as a loop.Provider, for loop.Loop. It works
// on raw request and response bodies and keeps every field it does not own. It is a
// loop.StreamProvider too, for a Loop that streams.
type Chat struct {
	// Limits bound the streams of Stream: their MaxArgumentBytes (see Limits). The
	// line and event limits are the StreamFunc's, which reads the events (with
	// Limits.ReadSSE).
	Limits Limits
}

// Responses is the Responses API format as a loop.Provider, for loop.Loop. It
// works on raw request and response bodies and keeps every field it does not own. It
// is a loop.StreamProvider too, for a Loop that streams.
type Responses struct {
	// Limits bound the streams of Stream, as Chat's do.
	Limits Limits
	// ToolSearch says how Prepare sends a Toolset that defers tools
	// (runtime.Toolset.WithDefer): with the API's tool_search, run by the API
	// (ToolSearchServer, the default), or without the deferred tools, for a
	// loop.Loop's own search tool (ToolSearchClient).
	ToolSearch ToolSearch
	// Namespaces, with the API's tool_search, sends the deferred tools that belong to
	// a group in namespaces, one per group (a tool's first, when it is a valid name:
	// 1 to 64 letters, digits, '_' and '-'), as OpenAI recommends: the
	// model sees each namespace's name and description up front, and its functions
	// once it searched for them. The others go as deferred functions.
	Namespaces bool
	// NamespaceDescriptions describe the namespaces, by group; a group without one is
	// described by a line naming its tools.
	NamespaceDescriptions map[string]string
}

// ToolSearch says who searches the deferred tools of a Toolset for the Responses API.
type ToolSearch string

// The ways of searching deferred tools.
const (
	// ToolSearchServer sends every tool, the deferred ones with "defer_loading": true,
	// and the tool_search tool, which the API runs; the default.
	ToolSearchServer ToolSearch = ""
	// ToolSearchClient sends only the tools a Toolset keeps, as Chat does, and lets a
	// loop.Loop offer its search tool (searchtool.New) for the others.
	ToolSearchClient ToolSearch = "client"
)

var (
	_ loop.Provider          = Chat{}
	_ loop.Provider          = Responses{}
	_ loop.DeferringProvider = Responses{}
)

// DefersTools reports whether the API loads the deferred tools of a Toolset itself,
// with its tool_search: unless ToolSearch is ToolSearchClient.
func (r Responses) DefersTools() bool { return r.ToolSearch != ToolSearchClient }

// Name returns "openai".
func (Chat) Name() string { return "openai" }

// Name returns "openai-responses".
func (Responses) Name() string { return "openai-responses" }

// Prepare returns request with the tools of ts in "tools" and "tool_choice" set to
// choice. Tools already in the request stay, before those of ts, unless they are
// functions named like one of ts (an earlier Prepare's), which are replaced; with
// loop.ChoiceNone the tools stay listed and tool_choice is "none". When there is no
// tool at all, "tools" and "tool_choice" are removed, since the API rejects them empty.
func (Chat) Prepare(request []byte, ts *runtime.Toolset, choice loop.Choice) ([]byte, error) {
	return prepare(request, ts, choice, ChatTools(ts), func(item json.RawMessage) string {
		var t struct {
			Type     string `json:"type"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		if json.Unmarshal(item, &t) != nil || t.Type != "function" {
			return ""
		}
		return t.Function.Name
	})
}

// Prepare returns request with the tools of ts in "tools" and "tool_choice" set to
// choice, as Chat.Prepare does, in the Responses format.
//
// The tools ts defers (runtime.Toolset.WithDefer) are sent with "defer_loading": true
// (in namespaces, with Namespaces), after a {"type":"tool_search"} tool unless the
// request has one: the API searches them and loads what it finds. Its search is in the
// response as tool_search_call and tool_search_output items, which Calls leaves out
// and Continue sends back as they came. With ToolSearchClient the deferred tools are
// left out instead (a loop.Loop offers its own search tool for them).
func (r Responses) Prepare(request []byte, ts *runtime.Toolset, choice loop.Choice) ([]byte, error) {
	var defs []any
	if !r.DefersTools() {
		for _, t := range ResponsesTools(ts.Offered()) {
			defs = append(defs, t)
		}
	} else {
		var err error
		if defs, err = r.deferredTools(request, ts); err != nil {
			return nil, err
		}
	}
	return prepare(request, ts, choice, defs, func(item json.RawMessage) string {
		var t struct {
			Type  string `json:"type"`
			Name  string `json:"name"`
			Tools []struct {
				Type string `json:"type"`
				Name string `json:"name"`
			} `json:"tools"`
		}
		if json.Unmarshal(item, &t) != nil {
			return ""
		}
		switch {
		case t.Type == "function":
			return t.Name
		case t.Type == "namespace" && len(t.Tools) > 0 && t.Tools[0].Type == "function":
			return t.Tools[0].Name // an earlier Prepare's namespace, when ts has the tool
		}
		return ""
	})
}

// deferredTools returns the definitions of the tools of ts for a request that may hold
// a tool_search already: the kept tools, then the deferred ones (in namespaces, with
// Namespaces), after a tool_search when some are deferred and request has none.
func (r Responses) deferredTools(request []byte, ts *runtime.Toolset) ([]any, error) {
	var defs []any
	if ts.HasDeferred() {
		var probe struct {
			Tools []struct {
				Type string `json:"type"`
			} `json:"tools"`
		}
		_ = json.Unmarshal(request, &probe) // a malformed request fails in prepare
		if !slices.ContainsFunc(probe.Tools, func(t struct {
			Type string `json:"type"`
		}) bool {
			return t.Type == "tool_search"
		}) {
			defs = append(defs, ResponsesToolSearch{Type: "tool_search"})
		}
	}
	var spaces []*ResponsesNamespace
	byGroup := map[string]*ResponsesNamespace{}
	for _, t := range ts.Tools() {
		def := responsesTool(ts, t)
		if !def.DeferLoading || !r.Namespaces || len(t.Groups) == 0 || !namespaceName(t.Groups[0]) {
			defs = append(defs, def)
			continue
		}
		ns := byGroup[t.Groups[0]]
		if ns == nil {
			ns = &ResponsesNamespace{Type: "namespace", Name: t.Groups[0]}
			byGroup[ns.Name] = ns
			spaces = append(spaces, ns)
		}
		ns.Tools = append(ns.Tools, def)
	}
	slices.SortFunc(spaces, func(a, b *ResponsesNamespace) int { return strings.Compare(a.Name, b.Name) })
	for _, ns := range spaces {
		ns.Description = r.NamespaceDescriptions[ns.Name]
		if ns.Description == "" {
			names := make([]string, len(ns.Tools))
			for i, t := range ns.Tools {
				names[i] = t.Name
			}
			ns.Description = "The " + ns.Name + " tools: " + strings.Join(names, ", ") + "."
		}
		defs = append(defs, *ns)
	}
	return defs, nil
}

// prepare merges tools, the definitions of ts, into the request's tools and sets the
// tool choice; functionName names the function an existing tool defines, or "".
func prepare[T any](request []byte, ts *runtime.Toolset, choice loop.Choice, tools []T, functionName func(json.RawMessage) string) ([]byte, error) {
	switch choice {
	case loop.ChoiceAuto, loop.ChoiceRequired, loop.ChoiceNone:
	default:
		return nil, fmt.Errorf("unknown tool choice %q", choice)
	}
	obj, existing, err := wire.DecodeRequest(request, "tools", wire.DecodeArray)
	if err != nil {
		return nil, err
	}
	ours := func(item json.RawMessage) bool { // an earlier Prepare's
		name := functionName(item)
		if name == "" || ts == nil {
			return false
		}
		_, ok := ts.Lookup(name)
		return ok
	}
	all, err := wire.AppendJSON(slices.DeleteFunc(existing, ours), tools...)
	if err != nil {
		return nil, err
	}
	return wire.WithTools(obj, all, ToolChoice(choice))
}

// Calls returns the function calls of a chat completion; see ChatCalls.
func (Chat) Calls(response []byte) ([]runtime.ToolCall, error) { return ChatCalls(response) }

// Calls returns the function calls of a Responses body; see ResponsesCalls.
func (Responses) Calls(response []byte) ([]runtime.ToolCall, error) { return ResponsesCalls(response) }

// Continue returns request with "messages" extended by the response's assistant message
// (choices[0].message), exactly as received, then one tool message per call, in the
// calls' order. results must answer every function call of the message once, matched
// by call id; anything else is an error, since the API rejects a conversation with an
// unanswered call.
func (Chat) Continue(request, response []byte, results []runtime.CallResult) ([]byte, error) {
	obj, messages, err := wire.DecodeRequest(request, "messages", wire.DecodeArray)
	if err != nil {
		return nil, err
	}
	msg, calls, err := chatTurn(response)
	if err != nil {
		return nil, err
	}
	answers, err := match(calls, results)
	if err != nil {
		return nil, err
	}
	if messages, err = wire.AppendJSON(append(messages, msg), ChatToolMessages(answers)...); err != nil {
		return nil, err
	}
	return wire.With(obj, "messages", messages)
}

// Continue returns request with "input" extended by the response's output items
// (reasoning and messages included, exactly as received), then one
// function_call_output item per call (custom_tool_call_output for a custom tool
// call), in the calls' order. An input that is a string
// first becomes [{"role":"user","content":<the string>}]. A request that continues a
// stored response (previous_response_id) is moved on to this response and given the
// function_call_output items alone; so is one that belongs to a conversation, which
// holds the output items already. results must answer every function call once, as
// for Chat.Continue.
func (Responses) Continue(request, response []byte, results []runtime.CallResult) ([]byte, error) {
	obj, err := wire.DecodeObject(request, "the request")
	if err != nil {
		return nil, err
	}
	output, calls, custom, err := responsesTurn(response)
	if err != nil {
		return nil, err
	}
	answers, err := match(calls, results)
	if err != nil {
		return nil, err
	}
	var all []json.RawMessage
	switch {
	case !wire.IsNull(obj["previous_response_id"]):
		var r struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(response, &r); err != nil || r.ID == "" {
			return nil, fmt.Errorf("the request continues a stored response, but the response has no id to continue from")
		}
		obj["previous_response_id"] = json.RawMessage(strconv.Quote(r.ID))
	case !wire.IsNull(obj["conversation"]):
	default:
		input, err := inputItems(obj["input"])
		if err != nil {
			return nil, err
		}
		all = append(input, output...)
	}
	if all, err = wire.AppendJSON(all, responsesOutputs(answers, custom)...); err != nil {
		return nil, err
	}
	return wire.With(obj, "input", all)
}

// inputItems returns a request's input as a list of items.
func inputItems(raw json.RawMessage) ([]json.RawMessage, error) {
	if wire.IsNull(raw) {
		return nil, nil
	}
	var text string
	if json.Unmarshal(raw, &text) == nil {
		msg, err := wire.Marshal(map[string]string{"role": "user", "content": text})
		return []json.RawMessage{msg}, err
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf(`the request's "input" is neither a string nor a list of items: %w`, err)
	}
	return items, nil
}

// match returns the results that answer calls, in the calls' order, or an error when
// a call has no result, or two, or a result answers no call.
func match(calls []runtime.ToolCall, results []runtime.CallResult) ([]runtime.CallResult, error) {
	byID := make(map[string]runtime.CallResult, len(results))
	for _, r := range results {
		if _, dup := byID[r.Call.ID]; dup {
			return nil, fmt.Errorf("two results answer call %s", r.Call.ID)
		}
		byID[r.Call.ID] = r
	}
	out := make([]runtime.CallResult, len(calls))
	for i, c := range calls {
		r, ok := byID[c.ID]
		if !ok {
			return nil, fmt.Errorf("call %s (%s) has no result: the API rejects an unanswered call", c.ID, c.Name)
		}
		out[i] = r
		delete(byID, c.ID)
	}
	for id, r := range byID {
		return nil, fmt.Errorf("a result answers call %s (%s), which the response did not make", id, r.Call.Name)
	}
	return out, nil
}

// namespaceName reports whether a group can name a namespace: 1 to 64 ASCII letters,
// digits, '_' and '-', as a function's name. A tool whose group cannot goes as a
// deferred function of its own.
func namespaceName(g string) bool {
	if len(g) == 0 || len(g) > 64 {
		return false
	}
	for i := 0; i < len(g); i++ {
		c := g[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
