package loop

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/searchtool"
)

// fuzzCatalog is a runtime.Toolset of 40 tools in four groups, whose names and descriptions
// share words, for FuzzClientSearch.
func fuzzCatalog(tb testing.TB) *runtime.Toolset {
	tb.Helper()
	verbs := []string{"get", "list", "create", "delete", "update"}
	nouns := []string{"issue", "branch", "release", "label", "review", "comment", "gist", "team"}
	var sets []*runtime.Toolset
	for i, v := range verbs {
		for j, n := range nouns {
			ts, err := runtime.NewTool(runtime.Tool{Name: v + "_" + n, Description: fmt.Sprintf("%s a %s of a repository.", v, n), Groups: []string{nouns[(i+j)%4]},
				InputSchema: json.RawMessage(`{"type":"object","properties":{"owner":{"type":"string"}}}`)},
				func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult("ok"), nil })
			if err != nil {
				tb.Fatal(err)
			}
			sets = append(sets, ts)
		}
	}
	return runtime.Join(sets...)
}

// FuzzClientSearch: whatever the query, limit and kept tools, a Loop's search tool
// answers (never an internal error), finds at most limit tools, all deferred, lists
// them in its answer as JSON the model can read, and the round after offers exactly the
// kept tools, the found ones and the search tool.
func FuzzClientSearch(f *testing.F) {
	for _, seed := range []struct {
		query string
		limit int
		keep  uint64
	}{
		{"delete a branch", 3, 0b1011}, {"", 1, 0}, {"team team team", 20, ^uint64(0)}, {"\xff\xfe", 5, 7}, {strings.Repeat("é", 999), 2, 1 << 39},
	} {
		f.Add(seed.query, seed.limit, seed.keep)
	}
	all := fuzzCatalog(f)
	tools := all.Tools()
	f.Fuzz(func(t *testing.T, query string, limit int, keep uint64) {
		var d runtime.Defer
		for i, tool := range tools {
			if keep&(1<<(i%64)) != 0 && i < 64 {
				d.Keep = append(d.Keep, tool.Name)
			}
		}
		ts := all.WithDefer(d)
		l := &Loop{Provider: fakeProvider{}, Tools: ts, Send: func(context.Context, []byte) ([]byte, error) { return nil, nil }}
		cs, err := l.clientSearch(nil)
		if err != nil {
			t.Fatal(err)
		}
		if cs == nil {
			if ts.HasDeferred() {
				t.Fatal("no client search for a runtime.Toolset that defers tools")
			}
			return
		}
		args, _ := json.Marshal(map[string]any{"query": query, "limit": limit})
		r := cs.tool.Call(context.Background(), searchtool.Name, args)
		var sent struct{ Query string } // as JSON carries it: invalid UTF-8 is U+FFFD
		_ = json.Unmarshal(args, &sent)
		valid := sent.Query != "" && utf8.RuneCountInString(sent.Query) <= searchtool.MaxQueryChars && limit >= 1 && limit <= searchtool.MaxResults
		switch {
		case !valid:
			if r.Outcome != runtime.OutcomeInvalidArguments {
				t.Fatalf("query %q limit %d: %s, want an argument error", query, limit, r.Text())
			}
			return
		case r.IsError:
			t.Fatalf("query %q limit %d: %s", query, limit, r.Text())
		}
		found := cs.names()
		if len(found) > limit {
			t.Fatalf("found %d tools, limit %d", len(found), limit)
		}
		text := r.Text()
		if len(found) == 0 {
			if !strings.HasPrefix(text, "No tool matches ") || strings.Contains(text, "\n") {
				t.Fatalf("no match, answered %q", text)
			}
		} else {
			_, list, ok := strings.Cut(text, "\n")
			var defs []searchtool.Found
			if !ok || json.Unmarshal([]byte(list), &defs) != nil || len(defs) != len(found) {
				t.Fatalf("the answer's list does not read: %q", text)
			}
			for i, def := range defs {
				tool, ok := ts.Lookup(def.Name)
				if !ok || !ts.Deferred(tool) || def.Name != found[i] {
					t.Fatalf("found %s, which is not a deferred tool, or not the %dth found", def.Name, i)
				}
			}
		}
		offered := cs.offered(ts)
		want := len(found) + 1 // and the kept tools
		for _, tool := range tools {
			if !ts.Deferred(tool) {
				want++
			}
		}
		if offered.Len() != want || offered.HasDeferred() {
			t.Fatalf("the next round offers %d tools, want %d", offered.Len(), want)
		}
		for _, tool := range offered.Tools() {
			if tool.Name != searchtool.Name && ts.Deferred(tool) && !cs.found.has(tool.Name) {
				t.Fatalf("the next round offers %s, deferred and not found", tool.Name)
			}
		}
	})
}
