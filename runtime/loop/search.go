package loop

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/searchtool"
)

// DeferringProvider is a Provider whose API loads deferred tools itself: its Prepare
// sends every tool of a Toolset with deferral (runtime.Toolset.WithDefer), the deferred
// ones marked as deferred, and the API's own search tool, and its Calls leave the API's
// search, which the API ran, out of the calls to answer. A Loop over one runs the calls
// on the whole Toolset. DefersTools reports whether it does so; a provider that may be
// configured either way says which.
type DeferringProvider interface {
	Provider
	DefersTools() bool
}

// defersNatively reports whether p loads deferred tools itself.
func defersNatively(p Provider) bool {
	dp, ok := p.(DeferringProvider)
	return ok && dp.DefersTools()
}

// clientSearch is a Loop's search of the deferred tools of its Tools, for a provider
// without deferred loading: the search tool it offers, and the deferred tools its calls
// found, which the Loop offers from the next round on. The calls of one round run in
// parallel, so what they found is guarded.
type clientSearch struct {
	all   *runtime.Toolset // the Loop's Tools, with deferral
	tool  *runtime.Toolset // the search tool
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
	if _, clash := l.Tools.Lookup(searchtool.Name); clash {
		return nil, fmt.Errorf("loop: the Loop's Tools defer tools and have a tool named %q, the name of the search tool the Loop offers for them", searchtool.Name)
	}
	cs := &clientSearch{all: l.Tools}
	tool, err := searchtool.New(cs.search)
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
func (cs *clientSearch) search(_ context.Context, query string, limit int) []*runtime.Tool {
	if limit <= 0 {
		limit = searchtool.DefaultResults
	}
	// The kept tools are offered already: search past them.
	kept := 0
	for _, t := range cs.all.Tools() {
		if !cs.all.Deferred(t) {
			kept++
		}
	}
	var out []*runtime.Tool
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
func (cs *clientSearch) offered(all *runtime.Toolset) *runtime.Toolset {
	if cs == nil {
		return all
	}
	view := only(cs.all, func(t *runtime.Tool) bool { return !cs.all.Deferred(t) || cs.found.has(t.Name) })
	return runtime.Join(view, cs.tool)
}

// restrict returns the tools of a resumed turn, tools (the Loop's, with the decisions'
// approver), limited to those offered holds, as the turn's round offered them.
func (cs *clientSearch) restrict(tools, offered *runtime.Toolset) *runtime.Toolset {
	if cs == nil {
		return tools
	}
	view := only(tools, func(t *runtime.Tool) bool {
		o, ok := offered.Lookup(t.Name)
		return ok && o == t
	})
	return runtime.Join(view, cs.tool)
}

// only returns the tools of ts that keep reports, with the settings of ts and without
// deferral: kept by a deferral of their own, which Offered then drops.
func only(ts *runtime.Toolset, keep func(*runtime.Tool) bool) *runtime.Toolset {
	var names []string
	for _, t := range ts.Tools() {
		if keep(t) {
			names = append(names, t.Name)
		}
	}
	return ts.WithDefer(runtime.Defer{Keep: names}).Offered()
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
