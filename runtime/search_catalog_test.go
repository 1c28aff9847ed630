package runtime_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/openai"
)

// catalogTool is a tool of testdata/search/catalog.json, a GitHub-like MCP server.
type catalogTool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Groups      []string        `json:"groups"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// labelledQuery is a query of testdata/search/queries.json and the tool a user asking
// it wants.
type labelledQuery struct {
	Query string `json:"query"`
	Want  string `json:"want"`
}

// loadCatalog builds the catalog's tools as dynamic tools, joined.
func loadCatalog(tb testing.TB) *runtime.Toolset {
	tb.Helper()
	var tools []catalogTool
	readJSON(tb, filepath.Join("testdata", "search", "catalog.json"), &tools)
	sets := make([]*runtime.Toolset, len(tools))
	for i, t := range tools {
		ts, err := runtime.NewTool(runtime.Tool{Name: t.Name, Title: t.Title, Description: t.Description, Groups: t.Groups, InputSchema: t.InputSchema},
			func(context.Context, json.RawMessage) (*runtime.Result, error) { return nil, nil })
		if err != nil {
			tb.Fatal(err)
		}
		sets[i] = ts
	}
	return runtime.Join(sets...)
}

func readJSON(tb testing.TB, path string, v any) {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
}

// Floors of TestSearchRecall: below them, a change made the search worse.
const (
	recallAt1Floor = 0.40
	recallAt5Floor = 0.70
)

// TestSearchRecall measures Search on a labelled set of queries, written as a user
// would ask, over a catalog of GitHub-like tools: the share of queries whose wanted
// tool comes first (recall@1) and among the first five (recall@5).
func TestSearchRecall(t *testing.T) {
	ts := loadCatalog(t)
	var queries []labelledQuery
	readJSON(t, filepath.Join("testdata", "search", "queries.json"), &queries)
	if ts.Len() < 80 || len(queries) < 60 {
		t.Fatalf("catalog of %d tools and %d queries: want at least 80 and 60", ts.Len(), len(queries))
	}
	var at1, at5 int
	for _, q := range queries {
		if _, ok := ts.Lookup(q.Want); !ok {
			t.Fatalf("query %q wants %s, which the catalog lacks", q.Query, q.Want)
		}
		got := ts.Search(q.Query, 5)
		names := make([]string, len(got))
		for i, tool := range got {
			names[i] = tool.Name
		}
		switch i := slices.Index(names, q.Want); {
		case i == 0:
			at1++
			at5++
		case i > 0:
			at5++
			t.Logf("at %d: %q wants %s, got %v", i+1, q.Query, q.Want, names)
		default:
			t.Logf("missed: %q wants %s, got %v", q.Query, q.Want, names)
		}
	}
	r1, r5 := float64(at1)/float64(len(queries)), float64(at5)/float64(len(queries))
	t.Logf("%d tools, %d queries: recall@1 %.3f (%d), recall@5 %.3f (%d)", ts.Len(), len(queries), r1, at1, r5, at5)
	if r1 < recallAt1Floor || r5 < recallAt5Floor {
		t.Errorf("recall@1 %.3f, recall@5 %.3f: want at least %.2f and %.2f", r1, r5, recallAt1Floor, recallAt5Floor)
	}
}

// BenchmarkSearch measures a query on the catalog, its index built beforehand, the
// queries of the labelled set taken in turn.
func BenchmarkSearch(b *testing.B) {
	ts := loadCatalog(b)
	var queries []labelledQuery
	readJSON(b, filepath.Join("testdata", "search", "queries.json"), &queries)
	ts.Search("warm up", 1)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ts.Search(queries[i%len(queries)].Query, 5)
		i++
	}
}

// BenchmarkSearchIndex measures the first search of a Toolset of the catalog: its index
// built, then the query. index=cold reads every tool (a new NewToolset of the same
// tools); index=view only gathers the words read at an earlier search of the Toolset the
// view was made from (a Join of it, as a Group or Select).
func BenchmarkSearchIndex(b *testing.B) {
	base := loadCatalog(b)
	tools := make([]runtime.Tool, base.Len())
	for i, t := range base.Tools() {
		tools[i] = *t
	}
	b.Run("index=cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			runtime.NewToolset(tools, nil).Search("open a pull request", 5)
		}
	})
	b.Run("index=view", func(b *testing.B) {
		base.Search("warm up", 1)
		b.ReportAllocs()
		for b.Loop() {
			runtime.Join(base).Search("open a pull request", 5)
		}
	})
}

// TestSearchViewReuse: a view indexes its tools from the words its Toolset read, at a
// fraction of the allocations of reading them, and ranks as a Toolset of the same tools
// read afresh does.
func TestSearchViewReuse(t *testing.T) {
	base := loadCatalog(t)
	tools := make([]runtime.Tool, base.Len())
	for i, tool := range base.Tools() {
		tools[i] = *tool
	}
	cold := testing.AllocsPerRun(3, func() { runtime.NewToolset(tools, nil).Search("open a pull request", 5) })
	base.Search("warm up", 1)
	view := testing.AllocsPerRun(3, func() { runtime.Join(base).Search("open a pull request", 5) })
	if view > cold/4 {
		t.Errorf("a view's first search: %.0f allocations, a cold one's %.0f", view, cold)
	}
	pulls := base.Group("pulls")
	fresh := runtime.NewToolset(toolValues(pulls.Tools()), nil)
	for _, q := range []string{"merge a pull request", "diff", "which files changed"} {
		if got, want := names(pulls.Search(q, 0)), names(fresh.Search(q, 0)); !slices.Equal(got, want) {
			t.Errorf("Search(%q) on the view = %v, on the same tools read afresh %v", q, got, want)
		}
	}
}

func toolValues(tools []*runtime.Tool) []runtime.Tool {
	out := make([]runtime.Tool, len(tools))
	for i, t := range tools {
		out[i] = *t
	}
	return out
}

// BenchmarkSearchLongQuery measures hostile queries on the catalog: 1 MiB of a query's
// words repeated, 100,000 one-letter words, 1 MiB of punctuation and a word of 1 MiB.
// Search stops reading a query after its first search.MaxTerms words or
// search.MaxQueryBytes, so each costs at most what a query of that length does.
func BenchmarkSearchLongQuery(b *testing.B) {
	ts := loadCatalog(b)
	ts.Search("warm up", 1)
	for _, q := range []struct{ name, query string }{
		{"query=1MiB", strings.Repeat("merge pull request ", (1<<20)/19)},
		{"query=100000_words", strings.Repeat("w ", 100000)},
		{"query=1MiB_punctuation", strings.Repeat("-,;", (1<<20)/3)},
		{"query=1MiB_word", strings.Repeat("x", 1<<20)},
	} {
		b.Run(q.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ts.Search(q.query, 5)
			}
		})
	}
}

// TestDeferredViews: Deferred follows the deferral through Group, Select and Join,
// Offered drops the deferred tools, and the chat and Gemini definitions leave them out.
func TestDeferredViews(t *testing.T) {
	all := loadCatalog(t)
	d := all.WithDefer(runtime.Defer{Keep: []string{"get_me"}, KeepGroups: []string{"labels"}})
	offered := d.Offered()
	if offered.HasDeferred() || !d.HasDeferred() || all.HasDeferred() {
		t.Errorf("HasDeferred: with deferral %v, offered %v, without %v", d.HasDeferred(), offered.HasDeferred(), all.HasDeferred())
	}
	want := []string{"get_me"}
	for _, tool := range all.Group("labels").Tools() {
		want = append(want, tool.Name)
	}
	slices.Sort(want)
	if got := names(offered.Tools()); !slices.Equal(got, want) {
		t.Errorf("offered %v, want %v", got, want)
	}
	if got := len(openai.ChatTools(d)); got != len(want) {
		t.Errorf("ChatTools: %d tools, want %d", got, len(want))
	}
	pulls := d.Group("pulls")
	merge, _ := pulls.Lookup("merge_pull_request")
	if !pulls.Deferred(merge) || !runtime.Join(pulls).Deferred(merge) || d.Select("get_me").HasDeferred() {
		t.Errorf("a view lost the deferral")
	}
	if _, ok := offered.Lookup("merge_pull_request"); ok {
		t.Errorf("Offered holds a deferred tool")
	}
	if r := offered.Call(context.Background(), "merge_pull_request", []byte(`{}`)); !r.IsError {
		t.Errorf("Offered ran a deferred tool")
	}
}
