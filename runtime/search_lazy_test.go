package runtime

import "testing"

// TestSearchLazy: a Toolset has no index until its first search, and the Toolsets the
// With methods make share it.
func TestSearchLazy(t *testing.T) {
	ts := NewToolset([]Tool{{Name: "get_issue", Description: "Get an issue."}, {Name: "list_pulls"}}, nil)
	if ts.search == nil || ts.search.idx != nil {
		t.Fatal("the index was built before the first search")
	}
	view := ts.WithTimeout(1)
	if got := view.Search("issue", 0); len(got) != 1 || got[0].Name != "get_issue" {
		t.Fatalf("Search = %v", got)
	}
	if ts.search.idx == nil || ts.search.idx != view.search.idx {
		t.Error("the With copy did not share the index")
	}
	if g := ts.Select("list_pulls"); g.search == ts.search {
		t.Error("Select shares the index of other tools")
	}
}
