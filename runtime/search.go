package runtime

import (
	"sync"

	"github.com/toolgen/toolgen/runtime/search"
)

// Search returns the tools of ts that best match query, best first, at most limit of
// them (search.DefaultLimit when limit <= 0). A tool matches when a word of the query is
// in its name (split at anything but letters and digits, and at case changes:
// "listPullRequests" is "list pull requests"), title, description, groups, or the names
// and descriptions of the properties of its input schema, nested ones included (at most
// search.MaxProperties of them). Tools are ranked by BM25F: each field weighs as much as
// it tells (a word of the name more than one of a parameter's description), rare words
// more than common ones. Words are compared lowercased, with English plurals and -ing
// and -ed endings removed ("issues", "issued" and "issuing" are "issue"), common English
// words ("the", "my", "to", ...) ignored, and a few usual abbreviations of software
// read whole ("PR" is "pull request", "repo" "repository"); a query word of three
// letters or more also matches, for less, the longer words it begins (at most
// search.MaxPrefixMatches of them). Equal scores are ordered by tool name, so the result
// is deterministic. An empty query, or one of only white space, punctuation and common
// words, returns nothing; only the first search.MaxTerms words of a query count, within
// its first search.MaxQueryBytes.
//
// The index is built at the first search of ts, so making a Toolset costs nothing for
// search; the Toolsets the With methods make share it, and the words each tool yields
// are kept with the tool, so a view made by Group, Select or Join indexes its tools
// without reading them again. Search is safe for concurrent use.
func (ts *Toolset) Search(query string, limit int) []*Tool {
	if ts == nil || len(ts.entries) == 0 {
		return nil
	}
	hits := ts.searchIndex().Rank(query, limit)
	if len(hits) == 0 {
		return nil
	}
	out := make([]*Tool, len(hits))
	for i, doc := range hits {
		out[i] = ts.entries[doc].tool
	}
	return out
}

// lazyIndex is a Toolset's search index, built at its first search.
type lazyIndex struct {
	once sync.Once
	idx  *search.Index
}

func (ts *Toolset) searchIndex() *search.Index {
	if ts.search == nil {
		// A Toolset not made by newToolset or filter: no cache to keep it in.
		return buildIndex(ts)
	}
	ts.search.once.Do(func() { ts.search.idx = buildIndex(ts) })
	return ts.search.idx
}

// searchKey is the key of a tool's toolTerms in the cache of Lowered.
const searchKey = "github.com/toolgen/toolgen/runtime.Search"

// buildIndex indexes the tools of ts. The words of each tool are read once and kept with
// the tool's entry (see Lowered), so that the views Group and Select make, and the sets
// Join makes, index their tools without reading them again.
func buildIndex(ts *Toolset) *search.Index {
	docs := make([]*search.Terms, len(ts.entries))
	for i, e := range ts.entries {
		docs[i] = Lowered(ts, e.tool, searchKey, readToolTerms)
	}
	return search.NewIndex(docs)
}

// readToolTerms returns the words of t.
func readToolTerms(t *Tool) *search.Terms {
	return search.Read(t.Name, t.Title, t.Description, t.Groups, t.InputSchema)
}
