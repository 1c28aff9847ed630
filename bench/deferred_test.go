package bench

import (
	"fmt"
	"slices"
	"testing"

	"github.com/toolgen/toolgen/internal/toolsize"
	"github.com/toolgen/toolgen/runtime"
)

// TestThousandDeferred measures, on the 1,000 tools of bench/thousand with five kept,
// what the tools cost a request per provider with and without deferral, and Search's
// recall on a query for each tool's table ("find a key in table N", whose tool is
// lookup_N): the figures of docs/PERFORMANCE.md, logged with -v.
//
//	go generate ./thousand && go test -run TestThousandDeferred -v .   # in bench
func TestThousandDeferred(t *testing.T) {
	ts := thousandTools(t)()
	keep := runtime.Defer{Keep: []string{"lookup_0000", "lookup_0001", "lookup_0002", "lookup_0003", "lookup_0004"}}
	rows, err := toolsize.Measure(ts, keep, "find a key in table 512", 5)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d tools, %d kept:\n%s", ts.Len(), len(keep.Keep), toolsize.Table(rows))
	var queries []string
	at1, at5 := 0, 0
	for i := range ts.Len() {
		q := fmt.Sprintf("find a key in table %d", i)
		queries = append(queries, q)
		var names []string
		for _, tool := range ts.Search(q, 5) {
			names = append(names, tool.Name)
		}
		switch slices.Index(names, fmt.Sprintf("lookup_%04d", i)) {
		case 0:
			at1++
			at5++
		case -1:
		default:
			at5++
		}
	}
	t.Logf("recall@1 %.3f (%d), recall@5 %.3f (%d) over %d queries", float64(at1)/float64(len(queries)), at1, float64(at5)/float64(len(queries)), at5, len(queries))
	answer, err := toolsize.AnswerBytes(ts, queries[:100], 5)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a client search's answer (5 tools), mean over 100 queries: %d bytes, ~%d tokens", answer, toolsize.Tokens(answer))
	full := min(rows[0].Seen, rows[1].Seen, rows[2].Seen, rows[3].Seen)
	for _, r := range rows[4:] {
		if r.Seen*3 > full {
			t.Errorf("%s: the model sees %d bytes of tools up front, every tool is %d", r.Form, r.Seen, full)
		}
	}
}
