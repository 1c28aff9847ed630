package anthropic

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wire"
	"github.com/toolgen/toolgen/runtime/loop"
)

// Messages is the Messages API as a loop.Provider, for loop.Loop. It works on
// raw request and response bodies and keeps every field it does not own. It is a
// loop.StreamProvider too, for a Loop that streams.
type Messages struct {
	// Limits bound the streams of Stream: their MaxArgumentBytes (see Limits). The
	// line and event limits are the StreamFunc's, which reads the events (with
	// Limits.ReadSSE).
	Limits Limits
	// ToolSearch is the tool search tool Prepare adds for a Toolset that defers tools
	// (runtime.Toolset.WithDefer): ToolSearchBM25 when empty, ToolSearchRegex, or
	// ToolSearchClient for a loop.Loop's own search tool instead of the API's.
	ToolSearch ToolSearch
}

var (
	_ loop.Provider          = Messages{}
	_ loop.StreamProvider    = Messages{}
	_ loop.DeferringProvider = Messages{}
	_ loop.Pauser            = Messages{}
)

// Paused reports whether a response is a turn the API paused (stop_reason
// "pause_turn": a long turn of its server tools, such as its tool search), which a
// loop.Loop sends back as it is for the API to go on with.
func (Messages) Paused(response []byte) bool {
	var r struct {
		StopReason string `json:"stop_reason"`
	}
	return json.Unmarshal(response, &r) == nil && r.StopReason == "pause_turn"
}

// DefersTools reports whether the API loads the deferred tools of a Toolset itself,
// with its tool search tool: unless ToolSearch is ToolSearchClient.
func (m Messages) DefersTools() bool { return m.ToolSearch != ToolSearchClient }

// PrepareStream returns request prepared as Prepare does, with "stream": true.
func (m Messages) PrepareStream(request []byte, ts *runtime.Toolset, choice loop.Choice) ([]byte, error) {
	req, err := m.Prepare(request, ts, choice)
	if err != nil {
		return nil, err
	}
	return wire.WithStream(req)
}

// Stream returns an empty Stream, with the Messages' Limits.
func (m Messages) Stream() loop.Stream { return &Stream{Limits: m.Limits} }

// Name returns "anthropic".
func (Messages) Name() string { return "anthropic" }

// Prepare returns request with the tools of ts in its "tools" array and its
// "tool_choice" set to choice (auto, any for loop.ChoiceRequired, none). Tools of
// the request named like none of ts, such as server tools, stay before them; a
// disable_parallel_tool_use the request's tool choice had is kept. Without any tool,
// "tools" and "tool_choice" are removed.
//
// The tools ts defers (runtime.Toolset.WithDefer) are sent with "defer_loading": true,
// after the tool search tool of m.ToolSearch, unless the request has one already: the
// API searches them and loads what it finds, and its search is in the response as
// server_tool_use and tool_search_tool_result blocks, which Calls leaves out and
// Continue sends back as they came. With ToolSearchClient the deferred tools are left
// out (a loop.Loop offers its own search tool for them).
func (m Messages) Prepare(request []byte, ts *runtime.Toolset, choice loop.Choice) ([]byte, error) {
	tc, err := ToolChoiceFor(choice)
	if err != nil {
		return nil, err
	}
	req, existing, err := wire.DecodeRequest(request, "tools", wire.DecodeArray)
	if err != nil {
		return nil, err
	}
	ours := func(tool json.RawMessage) bool {
		_, ok := ts.Lookup(wire.NameOf(tool))
		return ok
	}
	existing = slices.DeleteFunc(existing, ours)
	offered := ts
	if !m.DefersTools() {
		offered = ts.Offered()
	} else if ts.HasDeferred() && !slices.ContainsFunc(existing, isSearchTool) {
		search, err := NewSearchTool(m.ToolSearch)
		if err != nil {
			return nil, err
		}
		if existing, err = wire.AppendJSON(existing, search); err != nil {
			return nil, err
		}
	}
	tools, err := wire.AppendJSON(existing, Tools(offered)...)
	if err != nil {
		return nil, err
	}
	var old ToolChoice
	_ = json.Unmarshal(req["tool_choice"], &old)
	if tc.Type != ChoiceNone {
		tc.DisableParallelToolUse = old.DisableParallelToolUse
	}
	return wire.WithTools(req, tools, tc)
}

// Calls returns the tool calls of a response body; see the package function Calls.
func (Messages) Calls(response []byte) ([]runtime.ToolCall, error) { return Calls(response) }

// Continue returns request with two messages appended to its "messages": the
// assistant turn of response, {"role":"assistant","content": <the response's content
// as received>}, thinking blocks and their signatures included, and the user message
// of ToolResults(results). results must answer every tool_use of the response, in
// order, as runtime.Toolset.RunCalls does; a response without calls adds the
// assistant turn alone.
func (Messages) Continue(request, response []byte, results []runtime.CallResult) ([]byte, error) {
	req, messages, err := wire.DecodeRequest(request, "messages", wire.RequireArray)
	if err != nil {
		return nil, err
	}
	content, calls, err := contentAndCalls(response)
	if err != nil {
		return nil, err
	}
	if err := wire.CheckAnswers(calls, results); err != nil {
		return nil, err
	}
	turn, err := assistantMessage(content)
	if err != nil {
		return nil, err
	}
	messages = append(messages, turn)
	if len(results) > 0 {
		if messages, err = wire.AppendJSON(messages, ToolResults(results)); err != nil {
			return nil, fmt.Errorf("encode the tool results: %w", err)
		}
	}
	return wire.With(req, "messages", messages)
}

// AssistantMessage returns the assistant turn of a Messages response body, to append
// to the request's "messages" before the answers to its calls:
// {"role":"assistant","content": <the response's content as received>}. Thinking
// blocks and their signatures stay as they came, as the API requires.
func AssistantMessage(response []byte) (json.RawMessage, error) {
	content, _, err := contentAndCalls(response)
	if err != nil {
		return nil, err
	}
	return assistantMessage(content)
}

func assistantMessage(content json.RawMessage) (json.RawMessage, error) {
	return wire.Marshal(map[string]json.RawMessage{"role": json.RawMessage(`"assistant"`), "content": content})
}
