package runtime

import (
	"slices"
)

// Defer says which tools of a Toolset a request offers up front, for a large catalog:
// the tools it names in Keep and the tools of the groups it names in KeepGroups. The
// others are deferred: the model finds them by searching, and can call them once found.
// Set it with Toolset.WithDefer; the zero Defer keeps no tool, so that every tool is
// deferred.
//
// A provider with deferred loading of its own (a loop.DeferringProvider: Anthropic's
// tool search tool, the Responses API's tool_search) is sent every tool, the deferred
// ones marked as its API says, with its search tool; it searches, and loads what it
// finds, on its side. Any other provider (Chat Completions, Gemini) is sent only the
// kept tools; a loop.Loop then offers, with them, a search tool of its own
// (searchtool.New over Toolset.Search, named searchtool.Name), and from the round after
// a search on, the tools the search found.
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
