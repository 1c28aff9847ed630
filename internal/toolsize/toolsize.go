// Package toolsize measures what a Toolset's tools cost a request, per provider, with
// and without deferred loading (runtime.Toolset.WithDefer): the bytes of the request's
// "tools" as sent, and the bytes of what the model sees of them up front, with an
// estimate of their tokens. runtime's and bench's tests share it for
// docs/PERFORMANCE.md's figures.
package toolsize

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/openai"
	"github.com/toolgen/toolgen/runtime/searchtool"
)

// BytesPerToken is the estimator of tokens: a token for every 4 bytes of JSON, the
// rule of thumb the providers give for English text (JSON schemas, with their
// punctuation and identifiers, take somewhat more tokens per byte).
const BytesPerToken = 4

// Tokens estimates the tokens of n bytes.
func Tokens(n int) int { return (n + BytesPerToken - 1) / BytesPerToken }

// Row is what one provider's form costs a request.
type Row struct {
	// Form names the provider and the way its tools are sent.
	Form string
	// Sent is the bytes of the request's "tools" array.
	Sent int
	// Seen is the bytes of what the model sees of the tools up front: the whole array
	// without deferral; with the API's deferral, the kept tools and what the API's
	// documentation says it shows of the deferred ones (the search tool's own prompt,
	// which the API adds, is not counted: it is not published).
	Seen int
}

// Measure returns the rows of ts, its tools all sent and, with all but keep deferred,
// in each provider's deferred form; for a client-side search, before and after a
// search for query loaded the n deferred tools that best match it (their definitions
// join the tools of the next requests).
func Measure(ts *runtime.Toolset, keep runtime.Defer, query string, n int) ([]Row, error) {
	deferred := ts.WithDefer(keep)
	var found []*runtime.Tool
	for _, t := range ts.Search(query, ts.Len()) {
		if len(found) < n && deferred.Deferred(t) {
			found = append(found, t)
		}
	}
	var rows []Row
	add := func(form string, sent, seen int) { rows = append(rows, Row{Form: form, Sent: sent, Seen: seen}) }

	type prep struct {
		name    string
		p       loop.Provider
		request string
	}
	plain := []prep{
		{"Anthropic Messages", anthropic.Messages{}, `{"model":"m","max_tokens":1,"messages":[]}`},
		{"OpenAI Responses", openai.Responses{}, `{"model":"m","input":"q"}`},
		{"OpenAI Chat Completions", openai.Chat{}, `{"model":"m","messages":[]}`},
		{"Gemini", gemini.GenerateContent{}, `{"contents":[]}`},
	}
	for _, p := range plain {
		n, _, err := toolsOf(p.p, p.request, ts)
		if err != nil {
			return nil, err
		}
		add(p.name+", every tool", n, n)
	}

	// Anthropic: every definition goes; the model sees the kept ones (and the API's
	// search tool).
	sent, tools, err := toolsOf(anthropic.Messages{}, plain[0].request, deferred)
	if err != nil {
		return nil, err
	}
	seen := 0
	for _, raw := range tools {
		var t struct {
			DeferLoading bool `json:"defer_loading"`
		}
		_ = json.Unmarshal(raw, &t)
		if !t.DeferLoading {
			seen += len(raw) + 1
		}
	}
	add("Anthropic, defer_loading + tool search tool", sent, seen)

	// Responses: a deferred function's name and description stay in view; in a
	// namespace, only the namespace's name and description.
	for _, r := range []struct {
		form string
		p    openai.Responses
	}{{"OpenAI Responses, defer_loading + tool_search", openai.Responses{}}, {"OpenAI Responses, namespaces + tool_search", openai.Responses{Namespaces: true}}} {
		sent, tools, err := toolsOf(r.p, plain[1].request, deferred)
		if err != nil {
			return nil, err
		}
		seen := 0
		for _, raw := range tools {
			var t struct {
				Type         string          `json:"type"`
				Name         string          `json:"name"`
				Description  string          `json:"description"`
				DeferLoading bool            `json:"defer_loading"`
				Tools        json.RawMessage `json:"tools"`
			}
			_ = json.Unmarshal(raw, &t)
			switch {
			case t.Type == "namespace", t.DeferLoading:
				b, _ := json.Marshal(map[string]string{"type": t.Type, "name": t.Name, "description": t.Description})
				seen += len(b) + 1
			default:
				seen += len(raw) + 1
			}
		}
		add(r.form, sent, seen)
	}

	// Chat Completions and Gemini: the kept tools and the Loop's search tool, then, once
	// a search found tools, those too.
	search, err := searchtool.New(func(context.Context, string, int) []*runtime.Tool { return nil })
	if err != nil {
		return nil, err
	}
	names := make([]string, len(found))
	for i, t := range found {
		names[i] = t.Name
	}
	for i, p := range plain[2:] {
		first := runtime.Join(deferred.Offered(), search)
		n, _, err := toolsOf(p.p, plain[2+i].request, first)
		if err != nil {
			return nil, err
		}
		add(p.name+", kept tools + search_tools (client)", n, n)
		after := runtime.Join(deferred.Offered(), ts.Select(names...), search)
		n, _, err = toolsOf(p.p, plain[2+i].request, after)
		if err != nil {
			return nil, err
		}
		add(fmt.Sprintf("%s, the same after a search loaded %d", p.name, len(found)), n, n)
	}
	return rows, nil
}

// AnswerBytes returns the mean bytes of the search tool's answers to queries over ts,
// each finding at most limit tools: what a client-side search adds to the
// conversation, once.
func AnswerBytes(ts *runtime.Toolset, queries []string, limit int) (int, error) {
	search, err := searchtool.New(func(_ context.Context, q string, n int) []*runtime.Tool { return ts.Search(q, n) })
	if err != nil {
		return 0, err
	}
	if len(queries) == 0 {
		return 0, nil
	}
	total := 0
	for _, q := range queries {
		args, _ := json.Marshal(map[string]any{"query": q, "limit": limit})
		r := search.Call(context.Background(), searchtool.Name, args)
		if r.IsError {
			return 0, fmt.Errorf("search %q: %s", q, r.Text())
		}
		total += len(r.Text())
	}
	return total / len(queries), nil
}

// toolsOf prepares request for p with ts and returns the bytes of its "tools" array
// and its entries.
func toolsOf(p loop.Provider, request string, ts *runtime.Toolset) (int, []json.RawMessage, error) {
	req, err := p.Prepare([]byte(request), ts, loop.ChoiceAuto)
	if err != nil {
		return 0, nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	var body struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(req, &body); err != nil {
		return 0, nil, err
	}
	raw, _ := json.Marshal(body.Tools)
	return len(raw), body.Tools, nil
}

// Table writes rows as a Markdown table.
func Table(rows []Row) string {
	var b strings.Builder
	b.WriteString("| form | tools sent (bytes) | seen up front (bytes) | est. tokens seen |\n|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %d | %d |\n", r.Form, r.Sent, r.Seen, Tokens(r.Seen))
	}
	return b.String()
}
