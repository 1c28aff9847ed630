package runtime

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// forModel counts the model-facing bytes of r as the result budget's doc says, written
// apart from modelBytes: the oracle of the tests below.
func forModel(r *Result) int {
	n, blocks, mirrored := 0, 0, false
	for _, c := range r.Content {
		if len(c.Audience) > 0 && !slices.Contains(c.Audience, RoleAssistant) {
			continue
		}
		if blocks > 0 {
			n++
		}
		blocks++
		switch c.Type {
		case ContentText:
			n += len(c.Text)
			mirrored = mirrored || (len(r.Structured) > 0 && c.Text == string(r.Structured))
		case ContentImage, ContentAudio:
			n += len(c.Data) + len(c.MIMEType)
		case ContentResourceLink:
			n += len(c.URI) + len(c.Name) + len(c.MIMEType)
		case ContentResource:
			n += len(c.URI) + len(c.MIMEType) + len(c.Data)
			if c.Data == nil {
				n += len(c.Text)
			}
		default:
			n += len(c.Text)
		}
	}
	if !mirrored {
		n += len(r.Structured)
	}
	return n
}

// sanitized returns r, or a copy of it whose strings in blocks for the model are
// valid UTF-8, each run of bad bytes replaced by U+FFFD.
func sanitized(r *Result) *Result {
	cp := cloneResult(r)
	changed := false
	for i := range cp.Content {
		c := &cp.Content[i]
		if !c.ForModel() {
			continue
		}
		for _, s := range []*string{&c.Text, &c.URI, &c.Name, &c.MIMEType} {
			if !utf8.ValidString(*s) {
				*s, changed = strings.ToValidUTF8(*s, "\uFFFD"), true
			}
		}
	}
	if !changed {
		return r
	}
	return cp
}

// cloneResult returns a deep copy of r's content, to check that Call leaves it as it was.
func cloneResult(r *Result) *Result {
	cp := *r
	cp.Content = slices.Clone(r.Content)
	for i, c := range cp.Content {
		c.Data = slices.Clone(c.Data)
		c.Audience = slices.Clone(c.Audience)
		cp.Content[i] = c
	}
	cp.Structured = slices.Clone(r.Structured)
	return &cp
}

// checkBudget runs r through a tool with the given budget and checks the result
// budget's promises: a result that fits comes back as it is; one that does not is
// cut to at most budget model-facing bytes, marker included, which ends Result.Text
// (so that every provider adapter sends it); the blocks for the model are those of r
// up to the cut, the cut one holding a prefix of its text that ends at a rune's start;
// the blocks for the user alone are all there, in order; r is unchanged.
func checkBudget(t *testing.T, r *Result, budget int) {
	t.Helper()
	before := cloneResult(r)
	valid := sanitized(r)
	total := forModel(valid)
	res := budgetSet([]*Result{r}, budget).Call(context.Background(), "t0", nil)
	if !reflect.DeepEqual(r.Content, before.Content) || !reflect.DeepEqual(r.Structured, before.Structured) {
		t.Fatal("the tool's own Result was changed")
	}
	n, cut := res.Truncated()
	budget = max(budget, MinResultBytes)
	if total <= budget {
		if cut || (valid == r && res != r) || !reflect.DeepEqual(res.Content, valid.Content) {
			t.Fatalf("%d model-facing bytes fit %d, yet the result was cut or changed", total, budget)
		}
		return
	}
	r = valid
	if !cut || n != total {
		t.Fatalf("Truncated() = %d, %v; want %d, true", n, cut, total)
	}
	// A cut result's Structured is the application's: no adapter sends it to the
	// model (toolmcp leaves it out, Gemini's sends the text).
	if got := forModel(&Result{Content: res.Content}); got > budget {
		t.Fatalf("%d model-facing bytes of %d reach the model, over the budget of %d", got, total, budget)
	}
	text := res.Text()
	i := strings.LastIndex(text, "…\n[truncated: ")
	if i < 0 || !strings.HasSuffix(text, "]") {
		t.Fatalf("the model's text does not end with the marker: %q", text[max(len(text)-200, 0):])
	}
	if !strings.HasPrefix(text[i:], "…\n[truncated: "+thousands(total-keptBefore(text[i:]))) {
		t.Fatalf("marker %q for %d bytes", text[i:], total)
	}
	// The blocks for the model: r's, up to the cut.
	var orig, got []Content
	for _, c := range r.Content {
		if c.ForModel() {
			orig = append(orig, c)
		}
	}
	for _, c := range res.Content {
		if c.ForModel() {
			got = append(got, c)
		}
	}
	for j, c := range got {
		switch {
		case j < len(orig) && reflect.DeepEqual(c, orig[j]):
		case j == len(got)-1 && c.Type == ContentText && strings.Contains(c.Text, "…\n[truncated: "):
			// the marker, alone or ending a text block cut
			if k := strings.LastIndex(c.Text, "…\n[truncated: "); k > 0 {
				checkPrefix(t, c.Text[:k], orig[j])
			}
		case j == len(got)-2 && j < len(orig) && c.Type == orig[j].Type && c.Type != ContentText:
			checkPrefix(t, c.Text, orig[j])
			if c.Text == orig[j].Text || c.Text == "" {
				t.Fatalf("block %d kept in part, but its text is whole or empty: %+v", j, c)
			}
		default:
			t.Fatalf("block %d for the model is not the tool's: %+v", j, c)
		}
	}
	var users, usersGot []Content
	for _, c := range r.Content {
		if !c.ForModel() {
			users = append(users, c)
		}
	}
	for _, c := range res.Content {
		if !c.ForModel() {
			usersGot = append(usersGot, c)
		}
	}
	if !reflect.DeepEqual(users, usersGot) {
		t.Fatalf("the blocks for the user alone: %d of %d", len(usersGot), len(users))
	}
}

// keptBefore reads "showing the first N" from a marker.
func keptBefore(marker string) int {
	_, rest, _ := strings.Cut(marker, "showing the first ")
	n := 0
	for _, b := range []byte(rest) {
		switch {
		case b >= '0' && b <= '9':
			n = n*10 + int(b-'0')
		case b == ',':
		default:
			return n
		}
	}
	return n
}

// checkPrefix checks that kept is a prefix of the text of c, cut at a rune's start.
func checkPrefix(t *testing.T, kept string, c Content) {
	t.Helper()
	if !strings.HasPrefix(c.Text, kept) {
		t.Fatalf("the text kept of a %s block is not a prefix of its text", c.Type)
	}
	if len(kept) < len(c.Text) && utf8.ValidString(c.Text) && !utf8.RuneStart(c.Text[len(kept)]) {
		t.Fatalf("a %s block cut inside a rune at byte %d", c.Type, len(kept))
	}
}

// TestResultBudgetEveryKind: every kind of block the model may get counts, each past
// the budget alone: a text resource of 204,805 bytes and a block of a type MCP does not
// know (sent as text) of 204,800 both passed a 1 KiB budget whole.
func TestResultBudgetEveryKind(t *testing.T) {
	big := strings.Repeat("x", 204_800)
	data := []byte(big)
	for _, tc := range []struct {
		name string
		r    *Result
	}{
		{"text resource", &Result{Content: []Content{TextResource("file:///a", "text/plain", big+"€1")}}},
		{"unknown type", &Result{Content: []Content{{Type: "markdown", Text: big}}}},
		{"image", &Result{Content: []Content{TextContent("see"), ImageContent(data, "image/png")}}},
		{"audio", &Result{Content: []Content{AudioContent(data, "audio/wav"), TextContent("after")}}},
		{"blob resource", &Result{Content: []Content{BlobResource("file:///b", "application/octet-stream", data)}}},
		{"resource link", &Result{Content: []Content{{Type: ContentResourceLink, URI: "file:///" + big, Name: "n"}}}},
		{"structured apart", &Result{Content: []Content{TextContent(`{"a":1}`)}, Structured: []byte(`{"a":"` + big + `"}`)}},
		{"resource URI", &Result{Content: []Content{TextResource("file:///"+big, "text/plain", "short")}}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkBudget(t, tc.r, 1024) })
	}
}

// TestResultBudgetManyBlocks: a block counts a byte beside its contents, so that a
// million empty blocks do not pass a budget.
func TestResultBudgetManyBlocks(t *testing.T) {
	r := &Result{Content: make([]Content, 100_000)}
	for i := range r.Content {
		r.Content[i] = ImageContent(nil, "")
	}
	checkBudget(t, r, 1024)
}

// TestResultBudgetKinds is the property over random results of every kind of block
// and audience, and of structured values that a text block holds or not.
func TestResultBudgetKinds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		seed := make([]byte, 64)
		for i := range seed {
			seed[i] = byte(rng.UintN(256))
		}
		r, budget := resultOf(seed)
		checkBudget(t, r, budget)
	}
}

// resultOf makes a result and a budget from data: each block is a kind, an
// audience, a length and a rune to repeat.
func resultOf(data []byte) (*Result, int) {
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	budget := MinResultBytes - 8 + int(next())*8
	var r Result
	runes := []string{"a", "é", "€", "𝄞", "\xff", "\n"}
	for len(data) >= 4 {
		kind, aud := next(), next()
		size := int(binary.BigEndian.Uint16([]byte{next(), next()})) % 1500
		s := strings.Repeat(runes[int(kind>>4)%len(runes)], size)
		s = s[:min(len(s), size)]
		var c Content
		switch kind % 9 {
		case 0, 1:
			c = TextContent(s)
		case 2:
			c = ImageContent([]byte(s), "image/png")
		case 3:
			c = AudioContent([]byte(s), "audio/wav")
		case 4:
			c = TextResource("file:///"+s[:min(len(s), 40)], "text/plain", s)
		case 5:
			c = BlobResource("file:///b", "", []byte(s))
		case 6:
			c = Content{Type: ContentResourceLink, URI: "file:///" + s, Name: s[:min(len(s), 9)]}
		case 7:
			c = Content{Type: "markdown", Text: s}
		case 8:
			j := `{"s":"` + strings.Repeat("j", size) + `"}`
			r.Structured = []byte(j)
			if aud%2 == 0 {
				c = TextContent(j) // the structured value's JSON, as StructuredResult makes it
			} else {
				continue
			}
		}
		switch aud % 5 {
		case 1:
			c.Audience = []Role{RoleUser}
		case 2:
			c.Audience = []Role{RoleAssistant}
		case 3:
			c.Audience = []Role{RoleUser, RoleAssistant}
		case 4:
			c.Audience = []Role{"robot"}
		}
		r.Content = append(r.Content, c)
	}
	return &r, budget
}

// FuzzResultBudget checks the result budget's promises (checkBudget) on results of
// every kind of block.
func FuzzResultBudget(f *testing.F) {
	f.Add([]byte("\x10\x00\x00\x01\x00\x04\x02\x00\x00\x10\x05\x00\x01\x00"))
	f.Add([]byte("\x00\x24\x01\x04\x00\x07\x00\x02\x00\x08\x02\x05\x00\x08\x01\x05\x00"))
	f.Add([]byte("\x01\x32\x00\x03\x00\x40\x03\x01\x00\x08\x00\x04\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, budget := resultOf(data)
		checkBudget(t, r, budget)
	})
}

// BenchmarkResultBudget measures what the budget costs a call: counting a result that
// fits (its text checked to be UTF-8), and cutting one that does not.
func BenchmarkResultBudget(b *testing.B) {
	fits := &Result{Content: []Content{TextContent(strings.Repeat("é", 30_000)), ImageContent(make([]byte, 4000), "image/png")}}
	long := &Result{Content: []Content{TextContent(strings.Repeat("abcd", 5<<20/4))}}
	for _, bc := range []struct {
		name string
		r    *Result
	}{{"fits_64KiB", fits}, {"cuts_5MiB", long}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(modelBytes(bc.r)))
			b.ReportAllocs()
			for b.Loop() {
				applyBudget(bc.r, DefaultMaxResultBytes)
			}
		})
	}
}
