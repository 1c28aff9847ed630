package runtime

import (
	"strconv"
	"unicode/utf8"
)

// Result budgets bound what the model reads of one result.
const (
	// DefaultMaxResultBytes is the result budget of a Toolset that sets none
	// (WithResultBudget) for a tool that sets none (Tool.MaxResultBytes, the budget=
	// directive option): 64 KiB of model-facing text, about 16,000 tokens.
	DefaultMaxResultBytes = 64 << 10
	// MinResultBytes is the smallest result budget: room for the truncation marker and
	// some text. A smaller positive budget counts as MinResultBytes.
	MinResultBytes = 256
)

// WithResultBudget returns the same tools with a result budget of n bytes for the
// tools that do not set their own (the budget= directive option, Tool.MaxResultBytes):
// DefaultMaxResultBytes when n is zero, no budget when n is negative. A result whose
// model-facing text (Result.Text) is longer reaches the model cut to n bytes, the
// truncation marker included; see Result.Truncated.
func (ts *Toolset) WithResultBudget(n int) *Toolset {
	return ts.with(func(c *config) { c.resultBudget = n })
}

// resultBudget returns the budget of the tool's results, 0 for none. tool is nil for
// an unknown tool.
func (ts *Toolset) resultBudget(tool *Tool) int {
	n := ts.cfg.resultBudget
	if tool != nil && tool.MaxResultBytes > 0 {
		n = tool.MaxResultBytes
	}
	switch {
	case n < 0:
		return 0
	case n == 0:
		return DefaultMaxResultBytes
	}
	return max(n, MinResultBytes)
}

// modelTextBytes returns len(r.Text()), without building it.
func modelTextBytes(r *Result) int {
	n, blocks := 0, 0
	for i := range r.Content {
		if c := &r.Content[i]; c.Type == ContentText && c.ForModel() {
			if blocks > 0 {
				n++ // the newline Text puts between blocks
			}
			n += len(c.Text)
			blocks++
		}
	}
	return n
}

// applyBudget returns r with its model-facing text cut to fit budget bytes, marker
// included, or r itself when it fits (or budget is 0). The result returned is new: a
// tool may return the same *Result to several calls. Structured, the blocks that are
// not text and the text blocks for the user alone are kept whole; the model-facing
// text blocks after the cut are dropped.
func applyBudget(r *Result, budget int) (out *Result, textBytes int) {
	total := modelTextBytes(r)
	if budget <= 0 || total <= budget {
		return r, total
	}
	// kept is how much of the model's text (as Text joins it) comes before the
	// marker, never inside a rune; the marker's length depends on it, so shrink it
	// until both fit.
	fit := func(json bool) (int, string) {
		kept := runeSafe(r, budget)
		for {
			marker := truncationMarker(total, kept, json)
			if kept+len(marker) <= budget || kept == 0 {
				return kept, marker
			}
			kept = runeSafe(r, max(min(kept-1, budget-len(marker)), 0))
		}
	}
	// The marker says "of JSON" when the cut falls in the structured result's JSON,
	// the first text block, not in a block after it.
	json := len(r.Structured) > 0
	kept, marker := fit(json)
	if json && kept >= firstModelTextBytes(r) {
		kept, marker = fit(false)
	}
	cp := *r
	cp.Content = make([]Content, 0, len(r.Content))
	start, blocks, done := 0, 0, false
	for _, c := range r.Content {
		if c.Type != ContentText || !c.ForModel() {
			cp.Content = append(cp.Content, c)
			continue
		}
		if done {
			continue // past the cut: the model does not get it
		}
		if blocks > 0 {
			start++ // the newline before this block
		}
		blocks++
		end := start + len(c.Text)
		if end < kept {
			cp.Content = append(cp.Content, c)
			start = end
			continue
		}
		// The cut falls in this block, or at its end.
		c.Text = c.Text[:kept-start] + marker
		cp.Content = append(cp.Content, c)
		done = true
	}
	cp.textBytes = total
	return &cp, total
}

// runeSafe returns k, or less when the first k bytes of r's model-facing text (as
// Text joins it) would end inside a rune: where that rune starts. k < len(r.Text()).
func runeSafe(r *Result, k int) int {
	start, blocks := 0, 0
	for i := range r.Content {
		c := &r.Content[i]
		if c.Type != ContentText || !c.ForModel() {
			continue
		}
		if blocks > 0 {
			start++
		}
		blocks++
		if end := start + len(c.Text); end >= k {
			return start + runeCut(c.Text, k-start)
		}
		start += len(c.Text)
	}
	return k
}

// runeCut returns n, or less when s[:n] would end inside a UTF-8 encoded rune: the
// start of that rune. Bytes that are not valid UTF-8 are not a rune and may be cut.
func runeCut(s string, n int) int {
	switch {
	case n >= len(s):
		return len(s)
	case n <= 0:
		return 0
	case utf8.RuneStart(s[n]):
		return n
	}
	// s[n] continues a rune: find where it starts, at most three bytes back (at 0 too).
	for i := n - 1; i >= 0 && i > n-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			if r, size := utf8.DecodeRuneInString(s[i:]); (r != utf8.RuneError || size > 1) && i+size > n {
				return i
			}
			return n
		}
	}
	return n
}

// firstModelTextBytes returns the length of r's first text block for the model.
func firstModelTextBytes(r *Result) int {
	for _, c := range r.Content {
		if c.Type == ContentText && c.ForModel() {
			return len(c.Text)
		}
	}
	return 0
}

// truncationMarker is the text that ends a cut result: how much of total bytes was
// cut, the tokens that is about (bytes/4, rounded up), and how much is shown.
func truncationMarker(total, kept int, json bool) string {
	what := ""
	if json {
		what = " of JSON"
	}
	cut := total - kept
	return "…\n[truncated: " + thousands(cut) + " of " + thousands(total) + " bytes" + what +
		" cut (about " + thousands((cut+3)/4) + " tokens); showing the first " + thousands(kept) + "]"
}

// thousands formats n with commas between groups of three digits: 5,242,880.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 || len(s) <= 3 {
		return s
	}
	b := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return string(b)
}

// Truncated reports whether the model-facing text of the result was cut to the
// tool's result budget, and how many bytes (as Text counts them) it had before. Call
// cuts it; Structured, and the blocks meant for the user alone, are never cut.
func (r *Result) Truncated() (originalBytes int, ok bool) {
	return r.textBytes, r.textBytes > 0
}
