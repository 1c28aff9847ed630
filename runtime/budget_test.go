package runtime

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime/internal/engine"
)

// budgetSet returns a Toolset of one tool per result, each returning its result (the
// same *Result every time, as a tool that keeps one may), tool i named "t<i>" with
// budget[i] as its MaxResultBytes.
func budgetSet(results []*Result, budgets ...int) *Toolset {
	tools := make([]Tool, len(results))
	for i := range results {
		tools[i] = Tool{Name: "t" + string(rune('0'+i))}
		if i < len(budgets) {
			tools[i].MaxResultBytes = budgets[i]
		}
	}
	return NewToolset(tools, runLater(func(i int, d *engine.Decoder) invocation {
		d.EmptyObject()
		if !d.Finish() {
			return nil
		}
		return func(context.Context) (*Result, error) { return results[i], nil }
	}))
}

// checkCut checks that got is a cut of text to budget bytes: valid UTF-8 where text
// is, at most budget bytes, a prefix of text cut at a rune's start followed by the
// marker, and no more than a rune shorter than it could be.
func checkCut(t *testing.T, got, text string, budget int, json bool) {
	t.Helper()
	if len(got) > budget {
		t.Fatalf("the model's text is %d bytes, over the budget of %d", len(got), budget)
	}
	if utf8.ValidString(text) && !utf8.ValidString(got) {
		t.Fatalf("the model's text is not valid UTF-8: %q", got[max(len(got)-200, 0):])
	}
	i := strings.LastIndex(got, "…\n[truncated: ")
	if i < 0 {
		t.Fatalf("no truncation marker at the end of %q", got[max(len(got)-200, 0):])
	}
	kept, marker := got[:i], got[i:]
	if !strings.HasPrefix(text, kept) {
		t.Fatalf("the text kept is not a prefix of the result's")
	}
	if want := truncationMarker(len(text), len(kept), json); marker != want {
		t.Fatalf("marker = %q, want %q", marker, want)
	}
	if len(kept)+len(marker)+utf8.UTFMax <= budget {
		t.Fatalf("kept %d bytes and a %d-byte marker: room for a rune more in %d", len(kept), len(marker), budget)
	}
	if len(kept) < len(text) && !utf8.RuneStart(text[len(kept)]) {
		t.Fatalf("cut inside a rune at byte %d", len(kept))
	}
}

func TestResultBudgetAtTheLimit(t *testing.T) {
	const budget = 1000
	for _, size := range []int{budget - 1, budget} {
		text := strings.Repeat("a", size)
		res := budgetSet([]*Result{TextResult(text)}, budget).Call(context.Background(), "t0", nil)
		if res.Text() != text {
			t.Errorf("%d bytes under a budget of %d: cut to %d", size, budget, len(res.Text()))
		}
		if n, cut := res.Truncated(); cut || n != 0 {
			t.Errorf("%d bytes: Truncated() = %d, %v", size, n, cut)
		}
	}
	text := strings.Repeat("a", budget+1)
	orig := TextResult(text)
	res := budgetSet([]*Result{orig}, budget).Call(context.Background(), "t0", nil)
	checkCut(t, res.Text(), text, budget, false)
	if got := res.Text(); len(got) != budget {
		t.Errorf("one past the limit: %d bytes, want exactly %d (ASCII fills the budget)", len(got), budget)
	}
	if n, cut := res.Truncated(); !cut || n != budget+1 {
		t.Errorf("Truncated() = %d, %v; want %d, true", n, cut, budget+1)
	}
	if orig.Text() != text || res == orig {
		t.Error("the tool's own Result was changed: a tool may return it to every call")
	}
	if res.IsError || res.Outcome != OutcomeOK {
		t.Errorf("a cut result is still a success: IsError %v, Outcome %s", res.IsError, res.Outcome)
	}
}

func TestResultBudgetDefault(t *testing.T) {
	for _, tc := range []struct {
		size int
		cut  bool
	}{{DefaultMaxResultBytes, false}, {DefaultMaxResultBytes + 1, true}} {
		text := strings.Repeat("x", tc.size)
		res := budgetSet([]*Result{TextResult(text)}).Call(context.Background(), "t0", nil)
		if _, cut := res.Truncated(); cut != tc.cut {
			t.Errorf("%d bytes under the default budget: truncated %v, want %v", tc.size, cut, tc.cut)
		}
		if tc.cut {
			checkCut(t, res.Text(), text, DefaultMaxResultBytes, false)
		}
	}
}

func TestResultBudgetMarker(t *testing.T) {
	text := strings.Repeat("abcd", 5<<20/4) // 5 MiB
	res := budgetSet([]*Result{TextResult(text)}, 16000).Call(context.Background(), "t0", nil)
	got := res.Text()
	const marker = "…\n[truncated: 5,226,980 of 5,242,880 bytes cut (about 1,306,745 tokens); showing the first 15,900]"
	if !strings.HasSuffix(got, marker) || len(got) != 16000 || got[:15900] != text[:15900] {
		t.Errorf("got %d bytes ending %q, want 16,000 ending %q", len(got), got[max(len(got)-120, 0):], marker)
	}
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {65536, "65,536"}, {123456789, "123,456,789"}} {
		if got := thousands(tc.n); got != tc.want {
			t.Errorf("thousands(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestResultBudgetRunes(t *testing.T) {
	// Runes of 1 to 4 bytes at every offset of the cut, and invalid bytes, which reach
	// the model as U+FFFD (three bytes), and count so.
	for _, r := range []string{"a", "é", "€", "𝄞", "\xffa"} {
		for pad := range 4 {
			text := strings.Repeat("a", pad) + strings.Repeat(r, 400)
			for budget := 300; budget < 310; budget++ {
				res := budgetSet([]*Result{TextResult(text)}, budget).Call(context.Background(), "t0", nil)
				checkCut(t, res.Text(), validText(text), budget, false)
			}
		}
	}
}

func TestResultBudgetStructured(t *testing.T) {
	items := make([]string, 2000)
	for i := range items {
		items[i] = "ünïcödé item"
	}
	orig, err := StructuredResult(items, true)
	if err != nil {
		t.Fatal(err)
	}
	whole := string(orig.Structured)
	var events []Event
	ts := budgetSet([]*Result{orig}, 4096).WithObserver(func(_ context.Context, e Event) { events = append(events, e) })
	res := ts.Call(context.Background(), "t0", nil)
	checkCut(t, res.Text(), whole, 4096, true)
	if string(res.Structured) != whole || !json.Valid(res.Structured) {
		t.Error("the structured value was cut: it must stay whole")
	}
	if !strings.Contains(res.Text(), " bytes of JSON cut ") {
		t.Errorf("the marker does not say the JSON was cut: %q", res.Text()[len(res.Text())-120:])
	}
	if len(events) != 1 || events[0].ResultBytes != len(whole) || !events[0].Truncated {
		t.Errorf("events = %+v, want one with ResultBytes %d and Truncated", events, len(whole))
	}
}

func TestResultBudgetObserver(t *testing.T) {
	var mu sync.Mutex
	events := map[string]Event{}
	ts := budgetSet([]*Result{TextResult("short"), TextResult(strings.Repeat("y", 5000))}).
		WithResultBudget(1000).
		WithObserver(func(_ context.Context, e Event) { mu.Lock(); events[e.Tool] = e; mu.Unlock() })
	ts.Call(context.Background(), "t0", nil)
	ts.Call(context.Background(), "t1", nil)
	ts.Call(context.Background(), "nope", nil)
	if e := events["t0"]; e.ResultBytes != 5 || e.Truncated {
		t.Errorf("short result: ResultBytes %d, Truncated %v; want 5, false", e.ResultBytes, e.Truncated)
	}
	if e := events["t1"]; e.ResultBytes != 5000 || !e.Truncated {
		t.Errorf("long result: ResultBytes %d, Truncated %v; want 5000, true", e.ResultBytes, e.Truncated)
	}
	if e := events["nope"]; e.ResultBytes == 0 || e.Truncated {
		t.Errorf("unknown tool: ResultBytes %d, Truncated %v", e.ResultBytes, e.Truncated)
	}
}

func TestResultBudgetToolBeatsDefault(t *testing.T) {
	long := TextResult(strings.Repeat("z", 100_000))
	for _, tc := range []struct {
		name     string
		toolSets int // the tool's MaxResultBytes
		setSets  int // WithResultBudget, or 0 for none
		want     int // the budget that applies, 0 for none
	}{
		{"defaults", 0, 0, DefaultMaxResultBytes},
		{"toolset", 0, 2000, 2000},
		{"tool under toolset", 500, 2000, 500},
		{"tool over toolset", 3000, 2000, 3000},
		{"tool over default", 80_000, 0, 80_000},
		{"no toolset budget", 0, -1, 0},
		{"tool with no toolset budget", 700, -1, 700},
		{"toolset under the minimum", 0, 10, MinResultBytes},
		{"tool under the minimum", 1, 0, MinResultBytes},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := budgetSet([]*Result{long}, tc.toolSets)
			if tc.setSets != 0 {
				ts = ts.WithResultBudget(tc.setSets)
			}
			got := ts.Call(context.Background(), "t0", nil).Text()
			if tc.want == 0 {
				if got != long.Text() {
					t.Errorf("cut to %d bytes with no budget", len(got))
				}
				return
			}
			checkCut(t, got, long.Text(), tc.want, false)
		})
	}
}

func TestResultBudgetErrors(t *testing.T) {
	huge := strings.Repeat("bad ", 1000)
	res := budgetSet([]*Result{ErrorResult(huge, nil)}, 300).Call(context.Background(), "t0", nil)
	checkCut(t, res.Text(), huge, 300, false)
	if !res.IsError || res.Outcome != OutcomeToolError {
		t.Errorf("a cut error is still an error: IsError %v, Outcome %s", res.IsError, res.Outcome)
	}
	// An unknown tool's message, which lists every tool, is bounded too.
	tools := make([]Tool, 100)
	for i := range tools {
		tools[i].Name = strings.Repeat("n", 40) + string(rune('A'+i%26)) + string(rune('A'+i/26))
	}
	ts := NewToolset(tools, runLater(func(int, *engine.Decoder) invocation { return nil })).WithResultBudget(MinResultBytes)
	res = ts.Call(context.Background(), "missing", nil)
	if len(res.Text()) > MinResultBytes || res.Outcome != OutcomeUnknownTool {
		t.Errorf("unknown tool: %d bytes, outcome %s", len(res.Text()), res.Outcome)
	}
}

func TestResultBudgetBlocks(t *testing.T) {
	user := strings.Repeat("u", 5000)
	model := []string{strings.Repeat("a", 200), strings.Repeat("b", 200), strings.Repeat("c", 200)}
	orig := &Result{Content: []Content{
		TextContent(model[0]),
		UserText(user),
		ImageContent([]byte("png"), "image/png"),
		{Type: ContentText, Text: model[1], Audience: []Role{RoleAssistant}},
		TextContent(model[2]),
	}}
	// The user's 5,000 bytes count for nothing: 615 bytes (the texts, the image and its
	// MIME type, a byte between blocks) fit 700.
	res := budgetSet([]*Result{orig}, 700).Call(context.Background(), "t0", nil)
	if res != orig {
		t.Error("a result whose model text fits was copied or changed")
	}
	res = budgetSet([]*Result{orig}, 300).Call(context.Background(), "t0", nil)
	// Kept: the first text, the image (12 bytes), and of the second text what fits
	// with the marker; the image counts, so 13 bytes less of the text than without it.
	marker := truncationMarker(615, 222, false)
	if got, want := res.Text(), model[0]+"\n"+model[1][:8]+marker; got != want || modelBytes(res) != 300 {
		t.Errorf("text %q (%d bytes for the model), want %q (300)", got, modelBytes(res), want)
	}
	if len(res.Content) != 4 || res.Content[1].Text != user || res.Content[2].Type != ContentImage ||
		res.Content[0].Text != model[0] || !slices.Equal(res.Content[3].Audience, []Role{RoleAssistant}) {
		t.Errorf("blocks after the cut: %+v", res.Content)
	}
	if len(orig.Content) != 5 || orig.Content[3].Text != model[1] {
		t.Error("the tool's own Result was changed")
	}
	// The cut falls right at the end of a block, or at the newline after it.
	for budget := MinResultBytes; budget < MinResultBytes+8; budget++ {
		for first := 100; first < 110; first++ {
			r := &Result{Content: []Content{TextContent(strings.Repeat("é", first)), TextContent(strings.Repeat("€", 200))}}
			got := budgetSet([]*Result{r}, budget).Call(context.Background(), "t0", nil).Text()
			checkCut(t, got, r.Text(), budget, false)
		}
	}
}

// TestResultBudgetRuneAtBlockStart sweeps the cut across the start of a block that
// begins with a multi-byte rune: the cut is never inside it, whatever byte of it the
// budget reaches.
func TestResultBudgetRuneAtBlockStart(t *testing.T) {
	for first := 100; first < 200; first++ {
		for _, second := range []string{"é", "€", "日", "😀"} {
			r := &Result{Content: []Content{TextContent(strings.Repeat("a", first)), TextContent(strings.Repeat(second, 300))}}
			for budget := MinResultBytes; budget < MinResultBytes+4; budget++ {
				got := budgetSet([]*Result{r}, budget).Call(context.Background(), "t0", nil).Text()
				checkCut(t, got, r.Text(), budget, false)
			}
		}
	}
}

// TestResultBudgetMarkerSaysWhere checks that the marker says "of JSON" only when the
// cut falls in the structured result's JSON, not in a text block after it.
func TestResultBudgetMarkerSaysWhere(t *testing.T) {
	r, err := StructuredResult(map[string]string{"s": strings.Repeat("j", 300)}, false, TextContent(strings.Repeat("p", 5000)))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		budget int
		json   bool
	}{{MinResultBytes, true}, {1000, false}} {
		got := budgetSet([]*Result{r}, c.budget).Call(context.Background(), "t0", nil).Text()
		checkCut(t, got, r.Text(), c.budget, c.json)
	}
}

func TestResultBudgetAllocations(t *testing.T) {
	ts := budgetSet([]*Result{TextResult(strings.Repeat("a", 1000))})
	ctx := context.Background()
	base := testing.AllocsPerRun(100, func() { ts.Call(ctx, "t0", nil) })
	none := ts.WithResultBudget(-1)
	off := testing.AllocsPerRun(100, func() { none.Call(ctx, "t0", nil) })
	if base > off {
		t.Errorf("a result within the budget costs %v allocations, %v without a budget", base, off)
	}
}

func TestResultBudgetSlog(t *testing.T) {
	var buf strings.Builder
	ts := budgetSet([]*Result{TextResult(strings.Repeat("s", 300)), TextResult("ok")}, MinResultBytes).
		WithObserver(SlogObserver(slog.New(slog.NewJSONHandler(&buf, nil))))
	ts.Call(context.Background(), "t0", nil)
	ts.Call(context.Background(), "t1", nil)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"result_bytes":300,"truncated":true`) ||
		!strings.Contains(lines[1], `"result_bytes":2`) || strings.Contains(lines[1], "truncated") {
		t.Errorf("slog lines:\n%s", buf.String())
	}
}
