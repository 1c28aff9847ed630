package runtime_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/toolgen/toolgen/internal/toolsize"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/searchtool"
)

// TestDeferredRequestSizes measures, on the catalog of testdata/search with five tools
// kept, what the tools cost a request per provider with and without deferral (the
// table of docs/PERFORMANCE.md, logged with -v), and asserts that each deferred form
// shows the model less than a third of what sending every tool does.
func TestDeferredRequestSizes(t *testing.T) {
	ts := loadCatalog(t)
	keep := runtime.Defer{Keep: []string{"get_me", "search_repositories", "list_issues", "get_pull_request", "get_file_contents"}}
	rows, err := toolsize.Measure(ts, keep, "merge a pull request", 5)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d tools, %d kept:\n%s", ts.Len(), len(keep.Keep), toolsize.Table(rows))
	var queries []labelledQuery
	readJSON(t, filepath.Join("testdata", "search", "queries.json"), &queries)
	qs := make([]string, len(queries))
	for i, q := range queries {
		qs[i] = q.Query
	}
	answer, err := toolsize.AnswerBytes(ts, qs, 5)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a client search's answer (5 tools), mean over the %d queries: %d bytes, ~%d tokens", len(qs), answer, toolsize.Tokens(answer))
	full := min(rows[0].Seen, rows[1].Seen, rows[2].Seen, rows[3].Seen)
	for _, r := range rows[4:] {
		if r.Seen*3 > full {
			t.Errorf("%s: the model sees %d bytes of tools up front, every tool is %d", r.Form, r.Seen, full)
		}
	}
}

// BenchmarkSearchToolCall measures a call of the search tool on the catalog, the
// queries of the labelled set in turn: the search and the answer's five definitions.
func BenchmarkSearchToolCall(b *testing.B) {
	ts := loadCatalog(b)
	var queries []labelledQuery
	readJSON(b, filepath.Join("testdata", "search", "queries.json"), &queries)
	search, err := searchtool.New(func(_ context.Context, q string, n int) []*runtime.Tool { return ts.Search(q, n) })
	if err != nil {
		b.Fatal(err)
	}
	args := make([][]byte, len(queries))
	for i, q := range queries {
		args[i], _ = json.Marshal(map[string]any{"query": q.Query})
	}
	ctx := context.Background()
	ts.Search("warm up", 1)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		search.Call(ctx, searchtool.Name, args[i%len(args)])
		i++
	}
}
