package searchtool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/searchtool"
)

// TestSearchToolLimit: the search tool's limit is at most MaxSearchToolResults (at it,
// that many tools; past it, an argument error), DefaultSearchToolResults when absent;
// its query at most MaxSearchToolQueryChars characters.
func TestSearchToolLimit(t *testing.T) {
	catalog := loadCatalog(t)
	st, err := searchtool.New(func(_ context.Context, q string, limit int) []*runtime.Tool {
		return catalog.Search(q, limit)
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	count := func(r *runtime.Result) int {
		t.Helper()
		if r.IsError {
			t.Fatalf("search failed: %s", r.Text())
		}
		return len(foundTools(t, r.Text()))
	}
	// "repository" matches more than MaxSearchToolResults tools of the catalog.
	if n := count(st.Call(ctx, searchtool.Name, []byte(`{"query":"repository"}`))); n != searchtool.DefaultResults {
		t.Errorf("no limit: %d tools, want %d", n, searchtool.DefaultResults)
	}
	at := fmt.Sprintf(`{"query":"repository","limit":%d}`, searchtool.MaxResults)
	if n := count(st.Call(ctx, searchtool.Name, []byte(at))); n != searchtool.MaxResults {
		t.Errorf("limit at the maximum: %d tools, want %d", n, searchtool.MaxResults)
	}
	past := fmt.Sprintf(`{"query":"repository","limit":%d}`, searchtool.MaxResults+1)
	if r := st.Call(ctx, searchtool.Name, []byte(past)); !r.IsError || r.Outcome != runtime.OutcomeInvalidArguments {
		t.Errorf("limit past the maximum: %s, want an argument error", r.Text())
	}
	long := strings.Repeat("é", searchtool.MaxQueryChars)
	if r := st.Call(ctx, searchtool.Name, []byte(`{"query":"`+long+`"}`)); r.IsError {
		t.Errorf("a query at the limit: %s", r.Text())
	}
	if r := st.Call(ctx, searchtool.Name, []byte(`{"query":"`+long+`é"}`)); r.Outcome != runtime.OutcomeInvalidArguments {
		t.Errorf("a query past the limit: %s, want an argument error", r.Text())
	}
	if r := st.Call(ctx, searchtool.Name, []byte(`{"query":"zzzz qqqq"}`)); r.IsError || !strings.HasPrefix(r.Text(), "No tool matches") {
		t.Errorf("no match: %s", r.Text())
	}
}

// loadCatalog builds the tools of runtime's testdata/search/catalog.json, a GitHub-like
// MCP server, as dynamic tools, joined.
func loadCatalog(tb testing.TB) *runtime.Toolset {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "search", "catalog.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var tools []struct {
		Name        string          `json:"name"`
		Title       string          `json:"title"`
		Description string          `json:"description"`
		Groups      []string        `json:"groups"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal(b, &tools); err != nil {
		tb.Fatal(err)
	}
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

// foundTools reads the definitions a search tool's answer holds.
func foundTools(t *testing.T, text string) []searchtool.Found {
	t.Helper()
	_, list, ok := strings.Cut(text, "\n")
	if !ok {
		t.Fatalf("the search answer %q holds no list", text)
	}
	var found []searchtool.Found
	if err := json.Unmarshal([]byte(list), &found); err != nil {
		t.Fatalf("the search answer's list: %v\n%s", err, list)
	}
	return found
}
