package search

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSearchTerms(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"listPullRequests", []string{"list", "pull", "request", "listpullrequest"}},
		{"HTTPServer", []string{"http", "server", "httpserver"}},
		{"URLs of IDs", []string{"url", "id"}},
		{"get_issue-comments", []string{"get", "issu", "comment"}},
		{"CodeQL", []string{"cod", "ql", "codeql"}},
		{"issues issued issuing issue", []string{"issu", "issu", "issu", "issu"}},
		{"create creates created creating", []string{"creat", "creat", "creat", "creat"}},
		{"stopped stopping called repositories", []string{"stop", "stop", "call", "repository"}},
		{"the PRs of my repo", []string{"pull", "request", "repository"}},
		{"Über straße", []string{"über", "straß"}},
		{"a\xffb  ,;-- x", []string{"b", "x"}},
		{"緷ed 緷ing", []string{"緷", "緷"}}, // U+7DF7 ends in two equal bytes: not a doubled consonant
		{"", nil},
		{" \t\n ", nil},
		{"!?., -- __", nil},
		{"the of to", nil},
		{"v2 sha256 2fa", []string{"v2", "sha256", "2fa"}},
	} {
		got := appendTerms(nil, tc.text, -1)
		if !slices.Equal(got, tc.want) {
			t.Errorf("terms of %q = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestSearchTermsCut: a word longer than maxSearchWordBytes is cut to it, at a rune
// boundary.
func TestSearchTermsCut(t *testing.T) {
	long := strings.Repeat("x", maxSearchWordBytes-1) + "éé"
	got := appendTerms(nil, long, -1)
	if len(got) != 1 || got[0] != strings.Repeat("x", maxSearchWordBytes-1) {
		t.Errorf("terms of a %d-byte word = %q", len(long), got)
	}
	// Lowercasing lengthens "Ⱥ" (2 bytes) to "ⱥ" (3): the term is cut again.
	upper := strings.Repeat("Ⱥ", maxSearchWordBytes/2)
	if got := appendTerms(nil, upper, -1); len(got) != 1 || len(got[0]) > maxSearchWordBytes || got[0] != strings.Repeat("ⱥ", maxSearchWordBytes/3) {
		t.Errorf("terms of %d bytes of Ⱥ = %q", len(upper), got)
	}
}

// TestStemFamily: the forms of a word have one stem.
func TestStemFamily(t *testing.T) {
	for _, family := range [][]string{
		{"list", "lists", "listed", "listing"},
		{"merge", "merges", "merged", "merging"},
		{"comment", "comments", "commented", "commenting"},
		{"label", "labels", "labeled", "labeling"},
		{"deploy", "deploys", "deployed", "deploying"},
		{"push", "pushes", "pushed", "pushing"},
		{"star", "stars", "starred", "starring"},
		{"stop", "stops", "stopped", "stopping"},
		{"file", "files", "filed", "filing"},
		{"repository", "repositories"},
		{"update", "updates", "updated", "updating"},
		{"close", "closes", "closed", "closing"},
		{"call", "calls", "called", "calling"},
		{"address", "addresses"},
	} {
		want := stem(family[0])
		for _, w := range family[1:] {
			if got := stem(w); got != want {
				t.Errorf("stem(%q) = %q, stem(%q) = %q", w, got, family[0], want)
			}
		}
	}
}

func TestQueryTermsLimit(t *testing.T) {
	words := make([]string, MaxTerms+1)
	for i := range words {
		words[i] = fmt.Sprintf("w%d", i)
	}
	if got := queryTerms(strings.Join(words[:MaxTerms], " ")); len(got) != MaxTerms {
		t.Errorf("%d words: %d terms, want %d", MaxTerms, len(got), MaxTerms)
	}
	if got := queryTerms(strings.Join(words, " ")); len(got) != MaxTerms || slices.Contains(got, words[MaxTerms]) {
		t.Errorf("%d words: %d terms %q, want the first %d", len(words), len(got), got, MaxTerms)
	}
	// Stop words count as words; repeated words give one term.
	if got := queryTerms(strings.Repeat("the ", MaxTerms) + "issue"); got != nil {
		t.Errorf("terms past %d stop words = %q, want none", MaxTerms, got)
	}
	// A word split at case changes gives several terms: MaxTerms of them count.
	var split []string
	for i := range MaxTerms/3 + 1 {
		split = append(split, fmt.Sprintf("ab%dCd%d", i, i)) // ab0, cd0, ab0cd0
	}
	if got := queryTerms(strings.Join(split, " ")); len(got) != MaxTerms {
		t.Errorf("%d words of 3 terms: %d terms, want %d", len(split), len(got), MaxTerms)
	}
	if got := queryTerms(strings.Join(split[:MaxTerms/3], " ")); len(got) != MaxTerms/3*3 {
		t.Errorf("%d words of 3 terms: %d terms, want %d", MaxTerms/3, len(got), MaxTerms/3*3)
	}
	if got := queryTerms("issue issues Issue"); !slices.Equal(got, []string{"issu"}) {
		t.Errorf("repeated word: %q", got)
	}
}

// TestQueryBytesLimit: the byte at MaxQueryBytes is read, the one after it is not.
func TestQueryBytesLimit(t *testing.T) {
	pad := strings.Repeat(" ", MaxQueryBytes-len("iban"))
	if got := queryTerms(pad + "iban"); !slices.Equal(got, []string{"iban"}) {
		t.Errorf("a word ending at byte %d: %q", MaxQueryBytes, got)
	}
	if got := queryTerms(pad + " iban"); !slices.Equal(got, []string{"iba"}) {
		t.Errorf("a word ending at byte %d: %q, want it cut", MaxQueryBytes+1, got)
	}
}

func TestSchemaProperties(t *testing.T) {
	schema := `{"type":"object","properties":{"owner":{"type":"string","description":"The owner"},
		"filter":{"type":"object","properties":{"label":{"type":"string","description":"A label"}}},
		"items":{"type":"array","items":{"$ref":"#/$defs/item"}}},
		"$defs":{"item":{"type":"object","properties":{"sku":{"type":"string"}}}},
		"anyOf":[{"properties":{"extra":{}}}]}`
	names, descs := schemaProperties(json.RawMessage(schema))
	if want := []string{"filter", "items", "owner", "label", "extra", "sku"}; !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	if want := []string{"The owner", "A label"}; !slices.Equal(descs, want) {
		t.Errorf("descriptions %q, want %q", descs, want)
	}
	for _, bad := range []string{``, `not json`, `[1,2]`, `"x"`, `{"properties":7}`, `{"properties":{"a":5}}`} {
		names, _ := schemaProperties(json.RawMessage(bad))
		if len(names) > 1 {
			t.Errorf("%s: names %q", bad, names)
		}
	}
}

// TestSchemaPropertiesLimit: MaxProperties properties are indexed, the next is not.
func TestSchemaPropertiesLimit(t *testing.T) {
	for _, n := range []int{MaxProperties, MaxProperties + 1} {
		var b strings.Builder
		b.WriteString(`{"type":"object","properties":{`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"p%04d":{"type":"string","description":"d%04d"}`, i, i)
		}
		b.WriteString(`}}`)
		names, descs := schemaProperties(json.RawMessage(b.String()))
		if len(names) != MaxProperties || len(descs) != MaxProperties {
			t.Errorf("%d properties: %d names and %d descriptions indexed, want %d", n, len(names), len(descs), MaxProperties)
		}
		last := fmt.Sprintf("p%04d", MaxProperties-1)
		if names[len(names)-1] != last {
			t.Errorf("%d properties: the last indexed is %s, want %s", n, names[len(names)-1], last)
		}
	}
}

// FuzzSearchQuery: any query gives at most MaxTerms distinct terms, each valid
// UTF-8, lowercase, without separators and at most maxSearchWordBytes long, and a
// ranking of it returns at most its limit of distinct tools, the same on a second run.
func FuzzSearchQuery(f *testing.F) {
	for _, s := range []string{"", "merge PRs", "listPullRequests", "HTTPServer URLs", "Über\xffstraße", "the the the", "a-b_c.d", "ÉTÉ ǅ ǲ ﬃ İ"} {
		f.Add(s)
	}
	idx := NewIndex([]*Terms{
		Read("merge_pull_request", "", "Merges a pull request.", nil, nil),
		Read("list_issues", "List issues", "", []string{"issues"}, nil),
		Read("straße", "", "Über alles.", nil, json.RawMessage(`{"properties":{"httpServer":{"description":"URLs"}}}`)),
	})
	f.Fuzz(func(t *testing.T, query string) {
		terms := queryTerms(query)
		if len(terms) > MaxTerms {
			t.Fatalf("%d terms", len(terms))
		}
		for _, term := range terms {
			if !utf8.ValidString(term) || len(term) > maxSearchWordBytes || term == "" {
				t.Fatalf("term %q", term)
			}
			for _, r := range term {
				if !isWordRune(r) {
					t.Fatalf("term %q holds %q", term, r)
				}
			}
		}
		got := idx.Rank(query, 2)
		if len(got) > 2 || len(got) == 2 && got[0] == got[1] {
			t.Fatalf("Rank(%q) = %v", query, got)
		}
		if again := idx.Rank(query, 2); !slices.Equal(got, again) {
			t.Fatalf("Rank(%q) = %v, then %v", query, got, again)
		}
	})
}
