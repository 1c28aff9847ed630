package tooltest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime/loop"
)

const question = "What's the weather in Paris and Tokyo?"

// script calls get_weather twice in one turn, then greets the first city it read
// about, then answers with every result.
func script() *Script {
	return &Script{
		Question: question,
		Turns: []Turn{
			{Say: "Let me look.", Calls: []Call{
				{Name: "get_weather", Args: `{"city":"Paris"}`},
				{Name: "get_weather", Args: `{"city": "Tokyo", "days": 2}`},
			}},
			{Plan: func(last []Result) []Call {
				var r forecast.Report
				if len(last) == 0 || json.Unmarshal([]byte(last[0].Text), &r) != nil {
					return nil
				}
				return []Call{{Name: "hello_world", Args: fmt.Sprintf(`{"name":%q}`, r.City)}}
			}},
		},
	}
}

func newLoop(t *testing.T, provider Format, s *Script) (*loop.Loop, []byte) {
	t.Helper()
	p, err := provider.Provider()
	if err != nil {
		t.Fatal(err)
	}
	send, err := Send(provider, s)
	if err != nil {
		t.Fatal(err)
	}
	req, err := provider.NewRequest("test-model", s.Question)
	if err != nil {
		t.Fatal(err)
	}
	return &loop.Loop{Provider: p, Tools: forecast.Tools(), Send: send}, req
}

func TestConversation(t *testing.T) {
	for _, provider := range Formats() {
		t.Run(string(provider), func(t *testing.T) {
			l, req := newLoop(t, provider, script())
			var rounds []loop.Round
			l.OnRound = func(r loop.Round) { rounds = append(rounds, r) }
			final, _, err := l.Run(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if len(rounds) != 2 || len(rounds[0].Calls) != 2 || len(rounds[1].Calls) != 1 {
				t.Fatalf("rounds: %+v", rounds)
			}
			if got := rounds[1].Calls[0].Call.Arguments; string(got) != `{"name":"Paris"}` {
				t.Errorf("the planned call's arguments: %s", got)
			}
			text, err := provider.Text(final)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rounds {
				for _, c := range r.Calls {
					if !strings.Contains(text, c.Result.Text()) {
						t.Errorf("the answer does not quote the result of %s %s:\n%s", c.Call.Name, c.Call.Arguments, text)
					}
				}
			}
		})
	}
}

// TestChoiceNone: after MaxRounds the Loop asks for an answer with tool choice none,
// and the model answers although its script has another turn.
func TestChoiceNone(t *testing.T) {
	for _, provider := range Formats() {
		t.Run(string(provider), func(t *testing.T) {
			l, req := newLoop(t, provider, script())
			l.MaxRounds = 1
			rounds := 0
			l.OnRound = func(loop.Round) { rounds++ }
			final, _, err := l.Run(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			text, _ := provider.Text(final)
			if rounds != 1 || !strings.Contains(text, "Tokyo") || strings.Contains(text, "hello_world") {
				t.Errorf("%d rounds, answer %q", rounds, text)
			}
		})
	}
}

// secondRequest returns the request of round 2, as the adapter builds it, for the
// mutations of TestRejects.
func secondRequest(t *testing.T, provider Format) map[string]any {
	t.Helper()
	l, req := newLoop(t, provider, script())
	ctx := context.Background()
	req, err := l.Provider.Prepare(req, l.Tools, loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := l.Send(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	calls, err := l.Provider.Calls(resp)
	if err != nil || len(calls) != 2 {
		t.Fatalf("calls %v, %v", calls, err)
	}
	next, err := l.Provider.Continue(req, resp, l.Tools.RunCalls(ctx, calls, 0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Send(ctx, next); err != nil {
		t.Fatalf("the unchanged request of round 2: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(next, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func arr(m map[string]any, key string) []any { return m[key].([]any) }
func obj(v any) map[string]any               { return v.(map[string]any) }

func TestRejects(t *testing.T) {
	for _, tc := range []struct {
		provider Format
		name     string
		mutate   func(m map[string]any)
		want     error
		says     string
	}{
		// An unanswered call id.
		{"openai", "unanswered call", func(m map[string]any) {
			msgs := arr(m, "messages")
			m["messages"] = msgs[:len(msgs)-1]
		}, ErrRejected, "did not have response messages: call_"},
		{"openai-responses", "unanswered call", func(m map[string]any) {
			items := arr(m, "input")
			m["input"] = items[:len(items)-1]
		}, ErrRejected, "no tool output found for function call call_"},
		{"anthropic", "unanswered call", func(m map[string]any) {
			msgs := arr(m, "messages")
			res := obj(msgs[len(msgs)-1])
			res["content"] = arr(res, "content")[:1]
		}, ErrRejected, "without tool_result blocks immediately after: toolu_"},
		{"gemini", "unanswered call", func(m map[string]any) {
			contents := arr(m, "contents")
			res := obj(contents[len(contents)-1])
			res["parts"] = arr(res, "parts")[:1]
		}, ErrRejected, "number of function response parts"},
		// A call answered twice.
		{"openai", "answered twice", func(m map[string]any) {
			msgs := arr(m, "messages")
			m["messages"] = append(msgs, msgs[len(msgs)-1])
		}, ErrRejected, "must be a response to a preceding message with 'tool_calls'"},
		{"openai-responses", "answered twice", func(m map[string]any) {
			items := arr(m, "input")
			m["input"] = append(items, items[len(items)-1])
		}, ErrRejected, "duplicate function call output"},
		{"anthropic", "answered twice", func(m map[string]any) {
			msgs := arr(m, "messages")
			res := obj(msgs[len(msgs)-1])
			blocks := arr(res, "content")
			res["content"] = []any{blocks[0], blocks[0], blocks[1]}
		}, ErrRejected, "answered twice"},
		// Misplaced answers.
		{"anthropic", "text before the tool_result blocks", func(m map[string]any) {
			msgs := arr(m, "messages")
			res := obj(msgs[len(msgs)-1])
			res["content"] = append([]any{map[string]any{"type": "text", "text": "Here you go."}}, arr(res, "content")...)
		}, ErrRejected, "tool_result blocks must come first"},
		{"anthropic", "tool_result blocks in two messages", func(m map[string]any) {
			msgs := arr(m, "messages")
			res := obj(msgs[len(msgs)-1])
			blocks := arr(res, "content")
			res["content"] = blocks[:1]
			m["messages"] = append(msgs, map[string]any{"role": "user", "content": blocks[1:]})
		}, ErrRejected, "without tool_result blocks immediately after"},
		{"gemini", "function responses out of order", func(m map[string]any) {
			contents := arr(m, "contents")
			parts := arr(obj(contents[len(contents)-1]), "parts")
			parts[0], parts[1] = parts[1], parts[0]
		}, ErrRejected, "answer the calls in their order"},
		{"openai", "tool message after a user message", func(m map[string]any) {
			msgs := arr(m, "messages")
			n := len(msgs)
			m["messages"] = append(msgs[:n-1:n-1], map[string]any{"role": "user", "content": "and?"}, msgs[n-1])
		}, ErrRejected, "did not have response messages"},
		// The model's turn not sent back as it came.
		{"openai", "changed arguments", func(m map[string]any) {
			call := obj(arr(obj(arr(m, "messages")[1]), "tool_calls")[0])
			obj(call["function"])["arguments"] = `{"city":"Lyon"}`
		}, ErrRejected, "send the model's turns back as they came"},
		{"openai-responses", "reasoning item dropped", func(m map[string]any) {
			items := arr(m, "input")
			m["input"] = append(items[:1:1], items[2:]...)
		}, ErrRejected, "without its reasoning item"},
		{"gemini", "thought signature dropped", func(m map[string]any) {
			for _, p := range arr(obj(arr(m, "contents")[1]), "parts") {
				delete(obj(p), "thoughtSignature")
			}
		}, ErrRejected, "without its thought signature"},
		// A missing tool list.
		{"anthropic", "no tools with tool_use blocks", func(m map[string]any) {
			delete(m, "tools")
			delete(m, "tool_choice")
		}, ErrRejected, "must define tools"},
		{"openai", "no tools for a call", func(m map[string]any) {
			delete(m, "tools")
			delete(m, "tool_choice")
		}, ErrScript, "the request offers no such tool"},
		{"gemini", "no tools for a call", func(m map[string]any) {
			delete(m, "tools")
			delete(m, "toolConfig")
		}, ErrScript, "the request offers no such tool"},
		{"openai", "tool_choice without tools", func(m map[string]any) {
			delete(m, "tools")
		}, ErrRejected, "only allowed when 'tools' are specified"},
		// What the API checks of every request.
		{"anthropic", "no max_tokens", func(m map[string]any) { delete(m, "max_tokens") }, ErrRejected, "max_tokens"},
		{"openai-responses", "no model", func(m map[string]any) { delete(m, "model") }, ErrRejected, "model"},
		{"openai", "a strict schema with an optional property", func(m map[string]any) {
			params := obj(obj(obj(arr(m, "tools")[0])["function"])["parameters"])
			params["required"] = []any{"city"}
		}, ErrRejected, "missing 'days'"},
		{"anthropic", "another question", func(m map[string]any) {
			obj(arr(m, "messages")[0])["content"] = "Is it raining in Oslo?"
		}, ErrScript, "the user asked"},
	} {
		t.Run(string(tc.provider)+"/"+tc.name, func(t *testing.T) {
			m := secondRequest(t, tc.provider)
			tc.mutate(m)
			body, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			send, _ := Send(tc.provider, script())
			_, err = send(context.Background(), body)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("got %v\nwant %v saying %q", err, tc.want, tc.says)
			}
		})
	}
}

// TestResponseShapes: the bodies read as the providers' own, by the adapters.
func TestResponseShapes(t *testing.T) {
	for _, provider := range Formats() {
		t.Run(string(provider), func(t *testing.T) {
			l, req := newLoop(t, provider, script())
			req, err := l.Provider.Prepare(req, l.Tools, loop.ChoiceAuto)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := l.Send(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			calls, err := l.Provider.Calls(resp)
			if err != nil {
				t.Fatal(err)
			}
			f := formats[provider]
			for j, c := range calls {
				if want := f.callID(question, 0, j); c.ID != want {
					t.Errorf("call %d has id %s, want %s", j, c.ID, want)
				}
			}
			if say, _ := provider.Text(resp); say != "Let me look." {
				t.Errorf("the text before the calls: %q", say)
			}
			var m map[string]any
			if err := json.Unmarshal(resp, &m); err != nil {
				t.Fatal(err)
			}
			for _, key := range map[Format][]string{
				"openai":           {"id", "object", "model", "choices", "usage"},
				"openai-responses": {"id", "object", "status", "model", "output", "usage"},
				"anthropic":        {"id", "type", "role", "model", "content", "stop_reason", "usage"},
				"gemini":           {"candidates", "usageMetadata", "modelVersion"},
			}[provider] {
				if _, ok := m[key]; !ok {
					t.Errorf("the response has no %q: %s", key, resp)
				}
			}
		})
	}
	if _, err := Send("mistral", script()); err == nil {
		t.Error("Send accepted an unknown provider")
	}
}
