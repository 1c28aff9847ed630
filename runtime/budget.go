package runtime

import (
	"slices"
	"strconv"
	"unicode/utf8"
)

// Result budgets bound what the model reads of one result.
const (
	// DefaultMaxResultBytes is the result budget of a Toolset that sets none
	// (WithResultBudget) for a tool that sets none (Tool.MaxResultBytes, the budget=
	// directive option): 64 KiB of model-facing bytes (64 KiB of text is about 16,000
	// tokens).
	DefaultMaxResultBytes = 64 << 10
	// MinResultBytes is the smallest result budget: room for the truncation marker and
	// some text. A smaller positive budget counts as MinResultBytes.
	MinResultBytes = 256
)

// WithResultBudget returns the same tools with a result budget of n bytes for the
// tools that do not set their own (the budget= directive option, Tool.MaxResultBytes):
// DefaultMaxResultBytes when n is zero, no budget when n is negative. A result whose
// model-facing bytes are more reaches the model cut to n bytes, the truncation
// marker included; see Result.Truncated. The budget counts every block meant for the
// model (text, images, audio, embedded resources, resource links, blocks of other
// types), as MCP sends them all, and the structured value when no text block holds
// its JSON; the blocks for the user alone are not counted.
func (ts *Toolset) WithResultBudget(n int) *Toolset {
	return ts.with(func(c *config) { c.resultBudget = n })
}

// Fit returns r as Call returns the results of the named tool: cut to the tool's result
// budget (see WithResultBudget), or r itself when it fits. It is for a result an
// application makes itself to answer a call of the tool instead of running it, as a
// loop answers a tool the model keeps calling with invalid arguments; a name ts does not
// hold gets the budget of ts.
func (ts *Toolset) Fit(name string, r *Result) *Result {
	tool, _ := ts.Lookup(name)
	out, _ := applyBudget(r, ts.resultBudget(tool))
	return out
}

// resultBudget returns the budget of the tool's results, 0 for none. tool is nil for
// an unknown tool.
func (ts *Toolset) resultBudget(tool *Tool) int {
	n := 0
	if ts != nil {
		n = ts.cfg.resultBudget
	}
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

// What the budget counts of a result: every block meant for the model, as MCP sends
// them all (a provider adapter that sends fewer, text and Anthropic's images, sends
// less), and the structured value when no text block for the model holds its JSON.
//
//   - a text block counts its text; a block of a type MCP does not know, which toolmcp
//     sends as text, counts its text too;
//   - an image or audio block counts its data (the bytes, not their base64) and its
//     MIME type;
//   - an embedded resource counts its URI, its MIME type and its text or data;
//   - a resource link counts its URI, its name and its MIME type;
//   - every block for the model after the first counts one byte more (the newline
//     between text blocks in Result.Text), so that a result of text alone counts
//     len(Result.Text()), and the count of blocks is bounded too.
//
// The JSON around them (a block's type, its keys, its audience) is not counted.

// blockParts returns what the budget counts of c, a block for the model: fixed bytes,
// kept whole or not at all, and text, which may be cut.
func blockParts(c *Content) (fixed int, text string) {
	switch c.Type {
	case ContentText:
		return 0, c.Text
	case ContentImage, ContentAudio:
		return len(c.Data) + len(c.MIMEType), ""
	case ContentResourceLink:
		return len(c.URI) + len(c.Name) + len(c.MIMEType), ""
	case ContentResource:
		if c.Data != nil {
			return len(c.URI) + len(c.MIMEType) + len(c.Data), ""
		}
		return len(c.URI) + len(c.MIMEType), c.Text
	}
	return 0, c.Text // sent as text
}

// structuredBytes returns what the budget counts of r.Structured: nothing when a text
// block for the model holds its JSON, as StructuredResult makes it (the model reads one
// or the other), its length otherwise.
func structuredBytes(r *Result) int {
	if len(r.Structured) == 0 {
		return 0
	}
	for i := range r.Content {
		if c := &r.Content[i]; mirrors(r, c) {
			return 0
		}
	}
	return len(r.Structured)
}

// mirrors reports whether c is a text block for the model holding r's structured
// value's JSON.
func mirrors(r *Result, c *Content) bool {
	return len(r.Structured) > 0 && c.Type == ContentText && c.ForModel() && c.Text == string(r.Structured)
}

// modelBytes returns the model-facing bytes of r, as the budget counts them.
func modelBytes(r *Result) int {
	n, blocks := 0, 0
	for i := range r.Content {
		c := &r.Content[i]
		if !c.ForModel() {
			continue
		}
		if blocks > 0 {
			n++
		}
		blocks++
		fixed, text := blockParts(c)
		n += fixed + len(text)
	}
	return n + structuredBytes(r)
}

// validUTF8 returns r, or, when a string of a block for the model is not valid UTF-8,
// a copy of r whose strings for the model are, each run of bad bytes replaced by
// U+FFFD: JSON cannot carry them otherwise, and a client reads each bad byte as
// U+FFFD, three bytes, so that text the budget counted as n bytes would reach the
// model as up to 3n.
func validUTF8(r *Result) *Result {
	bad := func(c *Content) bool {
		return c.ForModel() && !(utf8.ValidString(c.Text) && utf8.ValidString(c.URI) && utf8.ValidString(c.Name) && utf8.ValidString(c.MIMEType))
	}
	first := -1
	for i := range r.Content {
		if bad(&r.Content[i]) {
			first = i
			break
		}
	}
	if first < 0 {
		return r
	}
	cp := *r
	cp.Content = slices.Clone(r.Content)
	for i := first; i < len(cp.Content); i++ {
		if c := &cp.Content[i]; bad(c) {
			c.Text, c.URI, c.Name, c.MIMEType = validText(c.Text), validText(c.URI), validText(c.Name), validText(c.MIMEType)
		}
	}
	return &cp
}

// A cut is where the budget cuts a result: the first block for the model not kept
// whole, r.Content[at] (at is len(r.Content) for a structured value that does not
// fit), and how much of its text is kept, or -1 when it is left out.
type cut struct {
	at, keep int
	kept     int  // the model-facing bytes before the marker
	json     bool // the cut falls in the structured value's JSON
}

// cutFor returns where r is cut to fit budget bytes with a marker of m bytes. A block
// is kept whole when there is room after it for the marker as a block of its own. The
// cut block is a text block, which the marker ends, or one whose text is kept in part
// or which is left out, followed by the marker as a text block of its own.
func cutFor(r *Result, budget, m int) cut {
	pos, blocks := 0, 0
	for i := range r.Content {
		c := &r.Content[i]
		if !c.ForModel() {
			continue
		}
		sep := 0
		if blocks > 0 {
			sep = 1
		}
		fixed, text := blockParts(c)
		if end := pos + sep + fixed + len(text); end+1+m <= budget {
			pos, blocks = end, blocks+1
			continue
		}
		if c.Type == ContentText {
			// The marker ends this block: the room before it is at least 0, as the
			// block before left room for a separator and the marker.
			k := runeCut(text, max(budget-m-pos-sep, 0))
			return cut{at: i, keep: k, kept: pos + sep + k, json: mirrors(r, c) && k < len(text)}
		}
		// The marker follows as a block of its own, after a separator.
		if room := budget - m - 1 - pos - sep - fixed; room > 0 {
			if k := runeCut(text, room); k > 0 {
				return cut{at: i, keep: k, kept: pos + sep + fixed + k}
			}
		}
		return cut{at: i, keep: -1, kept: pos}
	}
	return cut{at: len(r.Content), keep: -1, kept: pos}
}

// applyBudget returns r cut to fit budget bytes (as modelBytes counts them), marker
// included, or r itself when it fits (or budget is 0), and the model-facing bytes of r.
// The result returned is new: a tool may return the same *Result to several calls.
// The blocks for the user alone are kept whole; the blocks for the model after the
// cut are dropped. Structured is kept for the application: toolmcp leaves it out of a
// cut result.
func applyBudget(r *Result, budget int) (out *Result, modelBytesBefore int) {
	if budget > 0 {
		r = validUTF8(r)
	}
	total := modelBytes(r)
	if budget <= 0 || total <= budget {
		return r, total
	}
	// The marker's length depends on where the cut falls, and the cut on the marker's
	// length: grow the room for the marker until the marker fits it.
	var at cut
	var marker string
	for m := 0; ; m = len(marker) {
		at = cutFor(r, budget, m)
		marker = truncationMarker(total, at.kept, at.json)
		if len(marker) <= m {
			break
		}
	}
	cp := *r
	cp.Content = make([]Content, 0, len(r.Content)+1)
	cp.Content = append(cp.Content, r.Content[:min(at.at, len(r.Content))]...)
	if at.at < len(r.Content) {
		switch c := r.Content[at.at]; {
		case c.Type == ContentText:
			c.Text = c.Text[:at.keep] + marker
			cp.Content = append(cp.Content, c)
			marker = ""
		case at.keep >= 0:
			c.Text = c.Text[:at.keep]
			cp.Content = append(cp.Content, c)
		}
	}
	if marker != "" {
		cp.Content = append(cp.Content, TextContent(marker))
	}
	for i := at.at + 1; i < len(r.Content); i++ {
		if c := r.Content[i]; !c.ForModel() {
			cp.Content = append(cp.Content, c) // past the cut, but not the model's
		}
	}
	cp.textBytes = total
	return &cp, total
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

// Truncated reports whether the result was cut to the tool's result budget, and how
// many model-facing bytes it had before (len(Text()) for a result of text alone; see
// WithResultBudget for what counts). Call cuts it: the blocks for the model up to the
// budget are kept, the text of the one the cut falls in cut short (never inside a
// rune), and those after it left out; a marker that says how much was cut ends
// Text, in a text block of its own when the cut does not fall in a text block, so
// that every provider adapter sends it. The blocks meant for the user alone are never
// cut. Structured stays whole, for the application, but does not reach the model: toolmcp
// leaves structuredContent out of a cut result, and the Gemini adapter sends the text.
func (r *Result) Truncated() (originalBytes int, ok bool) {
	return r.textBytes, r.textBytes > 0
}
