package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Defer says which tools of a Toolset a request offers up front, for a large catalog:
// the tools it names in Keep and the tools of the groups it names in KeepGroups. The
// others are deferred: the model finds them by searching, and can call them once found.
// Set it with Toolset.WithDefer; the zero Defer keeps no tool, so that every tool is
// deferred.
//
// A provider with deferred loading of its own (a DeferringProvider: Anthropic's tool
// search tool, the Responses API's tool_search) is sent every tool, the deferred ones
// marked as its API says, with its search tool; it searches, and loads what it finds,
// on its side. Any other provider (Chat Completions, Gemini) is sent only the kept
// tools; a Loop then offers, with them, a search tool of its own (NewSearchTool over
// Toolset.Search, named SearchToolName), and from the round after a search on, the
// tools the search found.
type Defer struct {
	// Keep names the tools offered up front.
	Keep []string
	// KeepGroups names the groups whose tools are offered up front.
	KeepGroups []string
}

// keeps reports whether d offers t up front.
func (d *Defer) keeps(t *Tool) bool {
	return d == nil || slices.Contains(d.Keep, t.Name) || t.InGroup(d.KeepGroups...)
}

// WithDefer returns the same tools with all but those d keeps deferred (see Defer).
// The views Group, Select and Join make keep the deferral, as they keep the other
// settings.
func (ts *Toolset) WithDefer(d Defer) *Toolset {
	return ts.with(func(c *config) {
		c.deferral = &Defer{Keep: slices.Clone(d.Keep), KeepGroups: slices.Clone(d.KeepGroups)}
	})
}

// Deferred reports whether t is a deferred tool of ts: ts has a deferral (WithDefer)
// that does not keep t. A tool of a Toolset without one is never deferred.
func (ts *Toolset) Deferred(t *Tool) bool {
	return ts != nil && ts.cfg.deferral != nil && !ts.cfg.deferral.keeps(t)
}

// HasDeferred reports whether any tool of ts is deferred.
func (ts *Toolset) HasDeferred() bool {
	if ts == nil || ts.cfg.deferral == nil {
		return false
	}
	for _, e := range ts.entries {
		if !ts.cfg.deferral.keeps(e.tool) {
			return true
		}
	}
	return false
}

// Offered returns the tools of ts that a provider without deferred loading is sent: the
// tools ts does not defer, without the deferral. A Toolset without deferral is
// returned as it is.
func (ts *Toolset) Offered() *Toolset {
	if ts == nil || ts.cfg.deferral == nil {
		return ts
	}
	d := ts.cfg.deferral
	out := ts.filter(d.keeps)
	out.cfg.deferral = nil
	return out
}

// DeferringProvider is a Provider whose API loads deferred tools itself: its Prepare
// sends every tool of a Toolset with deferral (WithDefer), the deferred ones marked as
// deferred, and the API's own search tool, and its Calls leave the API's search, which
// the API ran, out of the calls to answer. A Loop over one runs the calls on the whole
// Toolset. DefersTools reports whether it does so; a provider that may be configured
// either way says which.
type DeferringProvider interface {
	Provider
	DefersTools() bool
}

// defersNatively reports whether p loads deferred tools itself.
func defersNatively(p Provider) bool {
	dp, ok := p.(DeferringProvider)
	return ok && dp.DefersTools()
}

// SearchToolName is the name of the search tool NewSearchTool makes.
const SearchToolName = "search_tools"

// DefaultSearchToolResults is the number of tools a call of the search tool finds when
// the model gives no limit.
const DefaultSearchToolResults = 5

// MaxSearchToolResults is the most tools one call of the search tool may ask for: its
// limit argument is at most this (a larger one is an argument error).
const MaxSearchToolResults = 20

// MaxSearchToolQueryChars is the longest query, in characters, a call of the search
// tool takes (a longer one is an argument error); Search reads at most
// MaxSearchQueryBytes of it anyway.
const MaxSearchToolQueryChars = 1000

// searchToolDescription is what the model is told of the search tool.
const searchToolDescription = "Search the catalog of tools that are not loaded yet, by what you want to do (for example \"refund a card payment\"). " +
	"It returns the best matching tools' definitions: name, description and input schema. " +
	"The tools it returns can be called from then on, by their names. Search again with other words when none fits."

// searchToolSchema is the search tool's input schema.
var searchToolSchema = `{"type":"object","properties":{` +
	`"query":{"type":"string","minLength":1,"maxLength":` + strconv.Itoa(MaxSearchToolQueryChars) + `,"description":"What you want to do, in a few words."},` +
	`"limit":{"type":"integer","minimum":1,"maximum":` + strconv.Itoa(MaxSearchToolResults) + `,"default":` + strconv.Itoa(DefaultSearchToolResults) + `,"description":"How many tools to return at most."}` +
	`},"required":["query"],"additionalProperties":false}`

// SearchFunc finds the tools for a query, best first, at most limit of them. The
// context is the search tool call's: a server finds, in it, whose request it is.
type SearchFunc func(ctx context.Context, query string, limit int) []*Tool

// FoundTool is the definition of one tool a search tool call found, as the model
// reads it: JSON, {"name":...,"description":...,"input_schema":{...}}.
type FoundTool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// NewSearchTool returns a Toolset of one tool, named SearchToolName, for a model to
// find tools it was not offered: a call with a query (and an optional limit, at most
// MaxSearchToolResults, DefaultSearchToolResults when absent) runs search and answers
// with the found tools' definitions (FoundTool), best first, as a JSON list after a
// line that names them, or with a line saying nothing matched. The tool is read-only,
// idempotent and closed-world, so that an approver lets it run. A Loop makes one for a
// Toolset with deferral (see Defer); an MCP server may offer one too (toolmcp).
func NewSearchTool(search SearchFunc) (*Toolset, error) {
	if search == nil {
		return nil, fmt.Errorf("runtime: NewSearchTool needs a search function")
	}
	yes, no := true, false
	def := Tool{
		Name:        SearchToolName,
		Title:       "Search tools",
		Description: searchToolDescription,
		Annotations: Annotations{ReadOnly: &yes, Destructive: &no, Idempotent: &yes, OpenWorld: &no},
		InputSchema: json.RawMessage(searchToolSchema),
	}
	return NewTool(def, func(ctx context.Context, args json.RawMessage) (*Result, error) {
		var in struct {
			Query string `json:"query"`
			Limit int    `json:"limit"`
		}
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, fmt.Errorf("runtime: read the validated search arguments: %w", err)
		}
		return searchResult(in.Query, search(ctx, in.Query, in.Limit))
	})
}

// searchResult is the answer to a search tool call that found tools.
func searchResult(query string, tools []*Tool) (*Result, error) {
	if len(tools) == 0 {
		return TextResult("No tool matches " + strconv.Quote(cutQuery(query)) + ". Search again with other words."), nil
	}
	found := make([]FoundTool, len(tools))
	names := make([]string, len(tools))
	for i, t := range tools {
		schema := t.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		found[i] = FoundTool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: schema}
		names[i] = t.Name
	}
	list, err := json.Marshal(found)
	if err != nil {
		return nil, fmt.Errorf("runtime: encode the found tools: %w", err)
	}
	return TextResult("Found " + strconv.Itoa(len(tools)) + " tools, which can be called from now on: " +
		strings.Join(names, ", ") + ".\n" + string(list)), nil
}

// cutQuery shortens a query echoed in a result.
func cutQuery(q string) string {
	const most = 80
	if len(q) <= most {
		return q
	}
	cut := most
	for cut > 0 && !isRuneStart(q[cut]) {
		cut--
	}
	return q[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// clientSearch is a Loop's search of the deferred tools of its Tools, for a provider
// without deferred loading: the search tool it offers, and the deferred tools its calls
// found, which the Loop offers from the next round on. The calls of one round run in
// parallel, so what they found is guarded.
type clientSearch struct {
	all   *Toolset // the Loop's Tools, with deferral
	tool  *Toolset // the search tool
	found syncSet
}

// clientSearch returns the Loop's search of deferred tools, or nil when it needs none:
// its Tools defer nothing, or its provider loads deferred tools itself. A resumed turn
// brings the tools found before it stopped (Pending.Loaded); names that are not
// deferred tools of the Loop's Tools are ignored.
func (l *Loop) clientSearch(p *resumed) (*clientSearch, error) {
	if !l.Tools.HasDeferred() || defersNatively(l.Provider) {
		return nil, nil
	}
	if _, clash := l.Tools.Lookup(SearchToolName); clash {
		return nil, fmt.Errorf("runtime: the Loop's Tools defer tools and have a tool named %q, the name of the search tool the Loop offers for them", SearchToolName)
	}
	cs := &clientSearch{all: l.Tools}
	tool, err := NewSearchTool(cs.search)
	if err != nil {
		return nil, err
	}
	cs.tool = tool
	if p != nil {
		for _, name := range p.loaded {
			if t, ok := l.Tools.Lookup(name); ok && l.Tools.Deferred(t) {
				cs.found.add(name)
			}
		}
	}
	return cs, nil
}

// search is the search tool's SearchFunc: the deferred tools that best match query,
// which are offered from the next round on.
func (cs *clientSearch) search(_ context.Context, query string, limit int) []*Tool {
	if limit <= 0 {
		limit = DefaultSearchToolResults
	}
	// The kept tools are offered already: search past them.
	kept := 0
	for _, e := range cs.all.entries {
		if !cs.all.Deferred(e.tool) {
			kept++
		}
	}
	var out []*Tool
	for _, t := range cs.all.Search(query, limit+kept) {
		if cs.all.Deferred(t) && len(out) < limit {
			out = append(out, t)
			cs.found.add(t.Name)
		}
	}
	return out
}

// offered returns what a round offers: without a client search, all as it is; with
// one, the kept tools, the ones found so far and the search tool, with the settings of
// the Loop's Tools and without deferral.
func (cs *clientSearch) offered(all *Toolset) *Toolset {
	if cs == nil {
		return all
	}
	view := cs.all.filter(func(t *Tool) bool { return !cs.all.Deferred(t) || cs.found.has(t.Name) })
	view.cfg.deferral = nil
	return Join(view, cs.tool)
}

// restrict returns the tools of a resumed turn, tools (the Loop's, with the decisions'
// approver), limited to those offered holds, as the turn's round offered them.
func (cs *clientSearch) restrict(tools, offered *Toolset) *Toolset {
	if cs == nil {
		return tools
	}
	view := tools.filter(func(t *Tool) bool {
		o, ok := offered.Lookup(t.Name)
		return ok && o == t
	})
	view.cfg.deferral = nil
	return Join(view, cs.tool)
}

// names returns the names of the tools found so far, in the order they were found.
func (cs *clientSearch) names() []string {
	if cs == nil {
		return nil
	}
	return cs.found.list()
}

// syncSet is a set of names, in the order they were added, safe for concurrent use.
type syncSet struct {
	mu    sync.Mutex
	order []string
	seen  map[string]bool
}

func (s *syncSet) add(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if !s.seen[name] {
		s.seen[name] = true
		s.order = append(s.order, name)
	}
}

func (s *syncSet) has(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[name]
}

func (s *syncSet) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.order)
}
