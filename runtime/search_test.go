package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/search"
)

// dynamicTools builds each tool as a dynamic tool and joins them.
func dynamicTools(tb testing.TB, tools ...runtime.Tool) *runtime.Toolset {
	tb.Helper()
	sets := make([]*runtime.Toolset, len(tools))
	for i, def := range tools {
		ts, err := runtime.NewTool(def, func(context.Context, json.RawMessage) (*runtime.Result, error) { return nil, nil })
		if err != nil {
			tb.Fatal(err)
		}
		sets[i] = ts
	}
	return runtime.Join(sets...)
}

func names(tools []*runtime.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

// smallCatalog is a shop's tools, each word of a query below in one of their fields.
func smallCatalog(tb testing.TB) *runtime.Toolset {
	return dynamicTools(tb,
		runtime.Tool{Name: "list_orders", Title: "List orders", Description: "Lists the customer's orders, newest first.", Groups: []string{"orders"},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"status":{"type":"string","description":"Only orders in this status"}}}`)},
		runtime.Tool{Name: "cancelOrder", Description: "Cancels an order that has not shipped.", Groups: []string{"orders"},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"orderId":{"type":"string"},"reason":{"type":"string","description":"Why the customer cancels"}},"required":["orderId"]}`)},
		runtime.Tool{Name: "track_shipment", Title: "Where is my parcel", Description: "Tells where a shipped order is.", Groups: []string{"shipping"},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"trackingNumber":{"type":"string","description":"The carrier's tracking number"}}}`)},
		runtime.Tool{Name: "refund_payment", Description: "Refunds a payment, in whole or in part.", Groups: []string{"payments"},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"payment":{"type":"object","properties":{"iban":{"type":"string","description":"Account to credit"}}},"amount":{"type":"number"}}}`)},
		runtime.Tool{Name: "search_products", Description: "Finds products by keyword.", Groups: []string{"catalog"},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"},"items":{"type":"array","items":{"type":"object","properties":{"colour":{"type":"string","description":"Product colour"}}}}}}`)},
	)
}

func TestSearchRanking(t *testing.T) {
	ts := smallCatalog(t)
	for _, tc := range []struct {
		query string
		want  []string // a prefix of the result
	}{
		{"cancel my order", []string{"cancelOrder"}},            // a name split at its case change
		{"Cancelling orders", []string{"cancelOrder"}},          // stems
		{"where is my parcel", []string{"track_shipment"}},      // the title
		{"tracking number", []string{"track_shipment"}},         // a parameter's name, split
		{"carrier", []string{"track_shipment"}},                 // a parameter's description
		{"iban", []string{"refund_payment"}},                    // a nested parameter
		{"credit an account", []string{"refund_payment"}},       // a nested parameter's description
		{"colour", []string{"search_products"}},                 // a parameter of an array's items
		{"payments", []string{"refund_payment"}},                // a group
		{"shipping", []string{"track_shipment"}},                // a group
		{"list orders", []string{"list_orders", "cancelOrder"}}, // the name weighs more than the rest
		{"refund", []string{"refund_payment"}},
		{"prod", []string{"search_products"}}, // a prefix
	} {
		got := names(ts.Search(tc.query, 0))
		if len(got) < len(tc.want) || !slices.Equal(got[:len(tc.want)], tc.want) {
			t.Errorf("Search(%q) = %v, want %v first", tc.query, got, tc.want)
		}
	}
	for _, q := range []string{"", "   \t\n", "?!", "the of my", "zeppelin", "\xff\xfe"} {
		if got := ts.Search(q, 5); got != nil {
			t.Errorf("Search(%q) = %v, want nil", q, names(got))
		}
	}
	if got, want := names(ts.Search("ORDERS", 0)), names(ts.Search("orders", 0)); !slices.Equal(got, want) {
		t.Errorf("Search(ORDERS) = %v, Search(orders) = %v", got, want)
	}
	var nilSet *runtime.Toolset
	if got := nilSet.Search("order", 1); got != nil {
		t.Errorf("a nil Toolset found %v", names(got))
	}
}

// TestSearchTieBreak: tools of equal score come by name, whatever the order they were
// joined in.
func TestSearchTieBreak(t *testing.T) {
	defs := []runtime.Tool{{Name: "c_tool", Description: "Sends mail."}, {Name: "a_tool", Description: "Sends mail."}, {Name: "b_tool", Description: "Sends mail."}}
	want := []string{"a_tool", "b_tool", "c_tool"}
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 0, 2}} {
		var ds []runtime.Tool
		for _, i := range order {
			ds = append(ds, defs[i])
		}
		if got := names(dynamicTools(t, ds...).Search("send mail", 0)); !slices.Equal(got, want) {
			t.Errorf("joined in order %v: %v, want %v", order, got, want)
		}
	}
}

// TestSearchDeterministic: the same query gives the same tools on every run and on every
// Toolset of the same tools.
func TestSearchDeterministic(t *testing.T) {
	first := loadCatalog(t)
	tools := first.Tools()
	reversed := make([]*runtime.Toolset, len(tools))
	for i, tool := range tools {
		reversed[len(tools)-1-i] = first.Select(tool.Name)
	}
	others := []*runtime.Toolset{loadCatalog(t), runtime.Join(reversed...), first.WithTimeout(0)}
	var queries []labelledQuery
	readJSON(t, "testdata/search/queries.json", &queries)
	for _, q := range queries {
		want := names(first.Search(q.Query, 0))
		for i, ts := range others {
			for range 2 {
				if got := names(ts.Search(q.Query, 0)); !slices.Equal(got, want) {
					t.Fatalf("Search(%q) = %v, on Toolset %d %v", q.Query, want, i, got)
				}
			}
		}
	}
}

// TestSearchConcurrent: first searches that race build one index and agree (run with
// -race).
func TestSearchConcurrent(t *testing.T) {
	ts := loadCatalog(t)
	want := names(loadCatalog(t).Search("merge a pull request", 0))
	var wg sync.WaitGroup
	got := make([][]string, 8)
	for i := range got {
		wg.Go(func() { got[i] = names(ts.WithTimeout(0).Search("merge a pull request", 0)) })
	}
	wg.Wait()
	for i, g := range got {
		if !slices.Equal(g, want) {
			t.Errorf("goroutine %d: %v, want %v", i, g, want)
		}
	}
}

// TestSearchJoin: a Join of generated and dynamic tools searches them all, and a Group
// or Select only its own.
func TestSearchJoin(t *testing.T) {
	shop := smallCatalog(t)
	ts := runtime.Join(forecast.Tools(), shop)
	if got := names(ts.Search("will it rain in Paris", 3)); len(got) == 0 || got[0] != "get_weather" {
		t.Errorf("generated tool: %v", got)
	}
	if got := names(ts.Search("greet someone", 3)); len(got) == 0 || got[0] != "hello_world" {
		t.Errorf("generated tool: %v", got)
	}
	if got := names(ts.Search("refund", 3)); len(got) == 0 || got[0] != "refund_payment" {
		t.Errorf("dynamic tool: %v", got)
	}
	if got := names(ts.Group("weather").Search("refund a payment", 3)); len(got) != 0 {
		t.Errorf("a group found tools outside it: %v", got)
	}
	if got := names(ts.Select("list_orders").Search("cancel order", 3)); !slices.Equal(got, []string{"list_orders"}) {
		t.Errorf("Select: %v", got)
	}
}

func TestSearchLimit(t *testing.T) {
	var defs []runtime.Tool
	for i := range search.DefaultLimit + 5 {
		defs = append(defs, runtime.Tool{Name: fmt.Sprintf("report_%02d", i), Description: "Builds a report."})
	}
	ts := dynamicTools(t, defs...)
	for _, tc := range []struct{ limit, want int }{
		{0, search.DefaultLimit}, {-1, search.DefaultLimit}, {1, 1},
		{len(defs), len(defs)}, {len(defs) + 1, len(defs)},
	} {
		if got := ts.Search("reports", tc.limit); len(got) != tc.want {
			t.Errorf("limit %d: %d tools, want %d", tc.limit, len(got), tc.want)
		}
	}
}

// TestSearchTermsLimit: the word at search.MaxTerms counts, the one after it does not.
func TestSearchTermsLimit(t *testing.T) {
	ts := smallCatalog(t)
	filler := strings.Repeat("zeppelin ", search.MaxTerms-1)
	if got := names(ts.Search(filler+"refund", 1)); !slices.Equal(got, []string{"refund_payment"}) {
		t.Errorf("word %d: %v", search.MaxTerms, got)
	}
	if got := ts.Search(filler+"zeppelin refund", 1); got != nil {
		t.Errorf("word %d: %v, want nothing", search.MaxTerms+1, names(got))
	}
}

// TestSearchPrefixLimit: a query word matches the first search.MaxPrefixMatches longer
// words it begins, in alphabetical order, and not the next.
func TestSearchPrefixLimit(t *testing.T) {
	var defs []runtime.Tool
	for i := range search.MaxPrefixMatches + 1 {
		defs = append(defs, runtime.Tool{Name: fmt.Sprintf("tool%d", i), Description: fmt.Sprintf("Uses the widget%d.", i)})
	}
	got := names(dynamicTools(t, defs...).Search("widget", 100))
	slices.Sort(got)
	var want []string
	for i := range search.MaxPrefixMatches {
		want = append(want, fmt.Sprintf("tool%d", i))
	}
	if !slices.Equal(got, want) {
		t.Errorf("Search(widget) = %v, want %v", got, want)
	}
}

// TestSearchHostile: long and odd queries cost what a short one does and find what it
// finds.
func TestSearchHostile(t *testing.T) {
	ts := loadCatalog(t)
	want := names(ts.Search("merge pull request", 5))
	r := rand.New(rand.NewPCG(1, 2))
	var many strings.Builder
	for many.Len() < 1<<20 {
		fmt.Fprintf(&many, "w%x ", r.Uint64())
	}
	queries := map[string]string{
		"1 MiB, one word repeated": strings.Repeat("merge pull request ", (1<<20)/19),
		"1 MiB word":               strings.Repeat("x", 1<<20),
		"1 MiB of punctuation":     strings.Repeat("-,;", (1<<20)/3),
		"1 MiB of invalid UTF-8":   strings.Repeat("\xff", 1<<20),
		"1 MiB of capitals":        strings.Repeat("A", 1<<20),
		"100,000 words":            strings.Repeat("w ", 100000),
		"100,000 distinct words":   many.String(),
	}
	small := testing.AllocsPerRun(10, func() { ts.Search("merge pull request", 5) })
	for name, q := range queries {
		got := ts.Search(q, 5)
		if name == "1 MiB, one word repeated" && !slices.Equal(names(got), want) {
			t.Errorf("%s: %v, want %v", name, names(got), want)
		}
		if allocs := testing.AllocsPerRun(3, func() { ts.Search(q, 5) }); allocs > small+2*search.MaxTerms {
			t.Errorf("%s: %.0f allocations, a short query %.0f", name, allocs, small)
		}
	}
}

// TestSearchBadSchema: a tool whose input schema is not JSON is found by its other
// fields, and the others by theirs.
func TestSearchBadSchema(t *testing.T) {
	ts := runtime.NewToolset([]runtime.Tool{
		{Name: "broken", Description: "Has a broken schema.", InputSchema: json.RawMessage(`{"properties":`)},
		{Name: "fine", InputSchema: json.RawMessage(`{"properties":{"depth":{}}}`)},
	}, nil)
	if got := names(ts.Search("broken", 0)); !slices.Equal(got, []string{"broken"}) {
		t.Errorf("Search(broken) = %v", got)
	}
	if got := names(ts.Search("depth", 0)); !slices.Equal(got, []string{"fine"}) {
		t.Errorf("Search(depth) = %v", got)
	}
}
