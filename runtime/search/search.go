// Package search ranks tools for a query, as runtime.Toolset.Search does: by BM25F over
// the words of each tool's name, title, groups, description and the names and
// descriptions of its input schema's properties, with English plurals and -ing forms,
// common words and a few usual abbreviations of software handled (see
// runtime.Toolset.Search). It reads the tools as plain text (Read), so that the words
// of a tool are read once and kept, and indexes them (NewIndex).
package search

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultLimit is the number of tools Search returns at most when its limit is
// zero or negative.
const DefaultLimit = 10

// MaxTerms is the number of words of a query Search reads, stop words included,
// and the number of distinct terms of them it looks up (a word split at case changes
// gives several); the rest are ignored, so that a search costs at most this many
// look-ups whatever the query's length.
const MaxTerms = 32

// MaxQueryBytes is the length of a query Search reads; the bytes past it are
// ignored (a word they cut is cut there), so that a search of a query of only white
// space or punctuation, which holds no words to stop at, costs what one of this length
// does.
const MaxQueryBytes = 16 << 10

// MaxProperties is the number of properties of a tool's input schema (nested ones
// included, in the order a breadth-first walk meets them) whose names and descriptions
// Search indexes; the properties past it are not indexed.
const MaxProperties = 256

// MaxPrefixMatches is the number of longer indexed words a word of a query
// matches as their beginning ("repo" matches "repository"), in alphabetical order.
const MaxPrefixMatches = 8

// minPrefixBytes is the shortest query term that matches longer words it begins, and
// prefixWeight what such a match weighs against the word itself.
const (
	minPrefixBytes = 3
	prefixWeight   = 0.5
)

// maxSearchWordBytes is the longest word Search keeps whole; a longer word is cut to it,
// in the index and in the query alike.
const maxSearchWordBytes = 64

// The fields of a tool that Search reads (see fieldWeights).
const (
	fieldName = iota
	fieldTitle
	fieldGroups
	fieldParamNames
	fieldDescription
	fieldParamDescriptions
	numFields
)

// BM25's parameters: k1 how soon repeating a word stops adding to a score, searchB how
// much a long field's words are discounted (per field, as BM25F has it).
const (
	searchK1 = 1.2
	searchB  = 0.75
)

// Index is an inverted index of tools, by their position in the list NewIndex was
// given. It is read-only once made, and safe for concurrent use.
type Index struct {
	postings map[string][]posting
	vocab    []string // the keys of postings, sorted
	n        int
}

// posting is a word's occurrences in one tool: BM25F's pseudo-frequency of the word in
// the tool, its counts by field weighed and normalised by the field's length.
type posting struct {
	doc int32
	tf  float64
}

// fieldWeights are BM25F's field weights: a word of the name tells most of what the tool
// does, one of a parameter's description least.
func fieldWeights() [numFields]float64 {
	return [numFields]float64{
		fieldName:              3,
		fieldTitle:             2,
		fieldGroups:            1.5,
		fieldParamNames:        1,
		fieldDescription:       1,
		fieldParamDescriptions: 0.5,
	}
}

// termCounts is a word's counts by field in one tool.
type termCounts struct {
	term string
	tf   [numFields]uint16
}

// Terms are the words of a tool, by field, and each field's length in words (Read).
type Terms struct {
	counts []termCounts
	lens   [numFields]int32
}

// Read returns the words of a tool, by field, from its name, title, description,
// groups and input schema.
func Read(name, title, description string, groups []string, schema json.RawMessage) *Terms {
	tt := new(Terms)
	var words []string
	slot := map[string]int{} // of a word in tt.counts
	for f, texts := range toolFields(name, title, description, groups, schema) {
		for _, text := range texts {
			words = appendTerms(words[:0], text, -1)
			for _, w := range words {
				i, ok := slot[w]
				if !ok {
					i = len(tt.counts)
					slot[w] = i
					tt.counts = append(tt.counts, termCounts{term: w})
				}
				if tt.counts[i].tf[f] < math.MaxUint16 {
					tt.counts[i].tf[f]++
				}
			}
			tt.lens[f] += int32(min(len(words), math.MaxInt32-int(tt.lens[f])))
		}
	}
	return tt
}

// toolFields returns the texts of a tool by field.
func toolFields(name, title, description string, groups []string, schema json.RawMessage) [numFields][]string {
	var f [numFields][]string
	f[fieldName] = []string{name}
	f[fieldTitle] = []string{title}
	f[fieldGroups] = groups
	f[fieldDescription] = []string{description}
	f[fieldParamNames], f[fieldParamDescriptions] = schemaProperties(schema)
	return f
}

// schemaProperties returns the names and descriptions of the properties of schema,
// nested ones included (in properties, items, additionalProperties, anyOf, oneOf,
// allOf, $defs and definitions), at most MaxProperties of them, breadth first. A
// schema that is not JSON gives none.
func schemaProperties(schema json.RawMessage) (names, descriptions []string) {
	if len(schema) == 0 {
		return nil, nil
	}
	var root any
	if json.Unmarshal(schema, &root) != nil {
		return nil, nil
	}
	queue := []any{root}
	for len(queue) > 0 && len(names) < MaxProperties {
		node := queue[0]
		queue = queue[1:]
		switch n := node.(type) {
		case []any:
			queue = append(queue, n...)
		case map[string]any:
			if props, ok := n["properties"].(map[string]any); ok {
				keys := make([]string, 0, len(props))
				for k := range props {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				for _, k := range keys {
					if len(names) == MaxProperties {
						break
					}
					names = append(names, k)
					if p, ok := props[k].(map[string]any); ok {
						if d, ok := p["description"].(string); ok {
							descriptions = append(descriptions, d)
						}
					}
					queue = append(queue, props[k])
				}
			}
			for _, k := range [...]string{"items", "additionalProperties", "anyOf", "oneOf", "allOf", "$defs", "definitions"} {
				switch v := n[k].(type) {
				case map[string]any:
					if k == "$defs" || k == "definitions" {
						keys := make([]string, 0, len(v))
						for d := range v {
							keys = append(keys, d)
						}
						sort.Strings(keys)
						for _, d := range keys {
							queue = append(queue, v[d])
						}
					} else {
						queue = append(queue, v)
					}
				case []any:
					queue = append(queue, v...)
				}
			}
		}
	}
	return names, descriptions
}

// NewIndex indexes the tools whose words docs holds, in that order.
func NewIndex(docs []*Terms) *Index {
	idx := &Index{postings: map[string][]posting{}, n: len(docs)}
	perDoc := docs
	var total [numFields]float64
	for _, tt := range perDoc {
		for f := range total {
			total[f] += float64(tt.lens[f])
		}
	}
	weights := fieldWeights()
	for doc, tt := range perDoc {
		for _, c := range tt.counts {
			var tf float64
			for f, n := range c.tf {
				if n == 0 {
					continue
				}
				// total[f] > 0, since this field of this tool has the word.
				norm := 1 - searchB + searchB*float64(tt.lens[f])*float64(len(docs))/total[f]
				tf += weights[f] * float64(n) / norm
			}
			idx.postings[c.term] = append(idx.postings[c.term], posting{doc: int32(doc), tf: tf})
		}
	}
	idx.vocab = make([]string, 0, len(idx.postings))
	for w := range idx.postings {
		idx.vocab = append(idx.vocab, w)
	}
	slices.Sort(idx.vocab)
	return idx
}

// Rank returns the positions of the tools that best match query, best first, at most
// limit of them (DefaultLimit when limit <= 0), equal scores in the order of the
// tools. A query of no words (only white space, punctuation and common words) matches
// nothing; only its first MaxTerms words count, within its first MaxQueryBytes.
func (idx *Index) Rank(query string, limit int) []int {
	terms := queryTerms(query)
	if len(terms) == 0 || idx == nil {
		return nil
	}
	if limit <= 0 {
		limit = DefaultLimit
	}
	hits := idx.rank(terms)
	if len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = int(h.doc)
	}
	return out
}

// hit is a tool's score for a query.
type hit struct {
	doc   int32
	score float64
}

// rank scores the tools for the query's terms and returns those that match, best
// first, equal scores in entry order (by name).
func (idx *Index) rank(terms []string) []hit {
	scores := make([]float64, idx.n)
	var matched []int32
	add := func(t string, weight float64) {
		ps := idx.postings[t]
		df := float64(len(ps))
		idf := math.Log(1 + (float64(idx.n)-df+0.5)/(df+0.5))
		for _, p := range ps {
			if scores[p.doc] == 0 {
				matched = append(matched, p.doc)
			}
			scores[p.doc] += weight * idf * p.tf / (searchK1 + p.tf)
		}
	}
	for _, t := range terms {
		add(t, 1)
		if len(t) < minPrefixBytes {
			continue
		}
		// The longer words t begins ("repo" of "repository", "follow" of
		// "follower"), for less.
		i, _ := slices.BinarySearch(idx.vocab, t)
		for n := 0; i < len(idx.vocab) && n < MaxPrefixMatches && strings.HasPrefix(idx.vocab[i], t); i++ {
			if idx.vocab[i] != t {
				add(idx.vocab[i], prefixWeight)
				n++
			}
		}
	}
	hits := make([]hit, len(matched))
	for i, doc := range matched {
		hits[i] = hit{doc, scores[doc]}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.doc, b.doc)
	})
	return hits
}

// queryTerms returns the distinct terms of the first MaxTerms words of query's
// first MaxQueryBytes, in the order they first appear, at most MaxTerms of
// them.
func queryTerms(query string) []string {
	if len(query) > MaxQueryBytes {
		query = query[:MaxQueryBytes]
	}
	terms := appendTerms(nil, query, MaxTerms)
	out := terms[:0]
	for _, t := range terms {
		if len(out) == MaxTerms {
			break
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// appendTerms appends the terms of text to terms. A word of text is a run of letters
// and digits; it is lowercased, cut to maxSearchWordBytes, and split at its case
// changes ("listPulls" is "list" and "pulls", "HTTPServer" "http" and "server"), the
// whole word kept too ("CodeQL" is "codeql", "code" and "ql"). Stop words are left out,
// the usual abbreviations are expanded (see abbreviation), and each term is stemmed.
// When maxWords >= 0, it reads only that many words, stop words included.
func appendTerms(terms []string, text string, maxWords int) []string {
	words := 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isWordRune(r) {
			i += size
			continue
		}
		if maxWords >= 0 && words == maxWords {
			break
		}
		words++
		start := i
		for i < len(text) {
			r, size := utf8.DecodeRuneInString(text[i:])
			if !isWordRune(r) {
				break
			}
			i += size
		}
		terms = appendWord(terms, text[start:i])
	}
	return terms
}

func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// cutWord cuts w to maxSearchWordBytes, at a rune boundary.
func cutWord(w string) string {
	if len(w) <= maxSearchWordBytes {
		return w
	}
	cut := maxSearchWordBytes
	for cut > 0 && !utf8.RuneStart(w[cut]) {
		cut--
	}
	return w[:cut]
}

// appendWord appends the terms of one word (see appendTerms).
func appendWord(terms []string, word string) []string {
	word = cutWord(word)
	whole := strings.ToLower(word)
	parts := 0
	var prev rune
	start := 0
	for i, r := range word {
		if prev != 0 && unicode.IsUpper(r) {
			rest := word[i+utf8.RuneLen(r):]
			next, size := utf8.DecodeRuneInString(rest)
			after, _ := utf8.DecodeRuneInString(rest[size:])
			// A plural of capitals ("PRs", "URLs") is one word.
			plural := next == 's' && !unicode.IsLower(after)
			if !unicode.IsUpper(prev) || unicode.IsLower(next) && !plural {
				terms = appendTerm(terms, strings.ToLower(word[start:i]))
				start = i
				parts++
			}
		}
		prev = r
	}
	if parts == 0 {
		return appendTerm(terms, whole)
	}
	terms = appendTerm(terms, strings.ToLower(word[start:]))
	return appendTerm(terms, whole)
}

// appendTerm appends the term of w, a lowercase word, or those of its expansion. w is
// cut to maxSearchWordBytes again: lowercasing may lengthen a word ("Ⱥ" is 2 bytes,
// "ⱥ" 3).
func appendTerm(terms []string, w string) []string {
	w = cutWord(w)
	if isStopWord(w) {
		return terms
	}
	if exp := abbreviation(w); exp != nil {
		for _, e := range exp {
			terms = append(terms, stem(e))
		}
		return terms
	}
	return append(terms, stem(w))
}

// abbreviation returns the words a usual abbreviation of software and its APIs stands
// for, or nil.
func abbreviation(w string) []string {
	switch w {
	case "pr", "prs":
		return []string{"pull", "request"}
	case "repo", "repos":
		return []string{"repository"}
	case "org", "orgs":
		return []string{"organization"}
	case "dir":
		return []string{"directory"}
	case "config":
		return []string{"configuration"}
	case "auth":
		return []string{"authentication"}
	case "env":
		return []string{"environment"}
	case "msg":
		return []string{"message"}
	case "info":
		return []string{"information"}
	case "db":
		return []string{"database"}
	}
	return nil
}

// stem removes the English plural and the -ing and -ed endings of a lowercase word, and
// a final "e", so that "create", "creates", "created" and "creating" are one term.
// It is deliberately light: the same words on both sides of a search meet, which is all
// a search needs.
func stem(w string) string {
	switch n := len(w); {
	case n > 4 && strings.HasSuffix(w, "ies"):
		w = w[:n-3] + "y"
	case n > 4 && strings.HasSuffix(w, "sses"):
		w = w[:n-2]
	case n > 2 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:n-1]
	}
	switch n := len(w); {
	case n > 5 && strings.HasSuffix(w, "ing"):
		w = undouble(w[:n-3])
	case n > 4 && strings.HasSuffix(w, "ied"):
		w = w[:n-3] + "y"
	case n > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		w = undouble(w[:n-2])
	}
	if n := len(w); n > 3 && w[n-1] == 'e' {
		w = w[:n-1]
	}
	return w
}

// undouble removes the doubled final consonant that -ing and -ed add ("stopped" is
// "stopp", then "stop"), but not an "ll", "ss" or "zz" that the word has ("called"),
// nor a byte of a letter outside ASCII (whose last two bytes may be equal).
func undouble(w string) string {
	n := len(w)
	if n > 2 && w[n-1] == w[n-2] && 'a' <= w[n-1] && w[n-1] <= 'z' && !strings.ContainsRune("aeiouylsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// isStopWord reports whether w, a lowercase word, is a common English word that Search
// ignores.
func isStopWord(w string) bool {
	switch w {
	case "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "by", "for",
		"from", "with", "about", "into", "as", "is", "are", "was", "were", "be", "been",
		"it", "its", "this", "that", "these", "those", "there", "here", "i", "me", "my",
		"mine", "we", "us", "our", "you", "your", "he", "she", "they", "them", "their",
		"what", "which", "who", "whom", "how", "when", "where", "why", "do", "does", "did",
		"can", "could", "would", "should", "will", "shall", "may", "might", "must",
		"please", "want", "need", "some", "any", "all", "so", "if", "then", "than", "not",
		"no", "just", "also", "up", "out", "over", "via", "per", "each", "every", "one",
		"am", "have", "has", "had", "let", "s", "t":
		return true
	}
	return false
}
