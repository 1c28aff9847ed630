package parser

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgen/toolgen/model"
)

// toolNameRE is the tool name every provider accepts.
var toolNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// groupRE is the syntax of one group name.
var groupRE = regexp.MustCompile(`^[a-zA-Z0-9_.-]+$`)

// snakeCase turns a Go identifier into snake_case, keeping initialisms together:
// GetTransactions -> get_transactions, HTTPServer -> http_server, GetURLFor ->
// get_url_for.
func snakeCase(s string) string {
	runes := []rune(s)
	var b strings.Builder
	for i, r := range runes {
		if unicode.IsUpper(r) && i > 0 {
			prev := runes[i-1]
			nextLower := i+1 < len(runes) && unicode.IsLower(runes[i+1])
			if prev != '_' && (unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower)) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// levenshtein is the edit distance between a and b, counted in runes.
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// nearest returns the candidate closest to s (ignoring case), or "" when none is
// close enough to be a plausible typo.
func nearest(s string, candidates []string) string {
	best, bestDist := "", 0
	ls := strings.ToLower(s)
	for _, c := range candidates {
		d := levenshtein(ls, strings.ToLower(c))
		if best == "" || d < bestDist {
			best, bestDist = c, d
		}
	}
	limit := max(2, utf8.RuneCountInString(s)/2)
	if bestDist > limit {
		return ""
	}
	return best
}

// unknownMsg reports an unknown word of some kind, suggesting the nearest known one
// or listing them all. The message is an unknownWord, which formats with %s; an
// error reported with one at the word's position gets the replacement as its fix
// (see loader.errorf).
func unknownMsg(what, s string, known []string) unknownWord {
	return unknownWord{what: what, word: s, known: known, near: nearest(s, known)}
}

// unknownWord is the message about an unknown word.
type unknownWord struct {
	what, word, near string
	known            []string
}

func (u unknownWord) String() string {
	if u.near != "" {
		return fmt.Sprintf("unknown %s %q (did you mean %q?)", u.what, u.word, u.near)
	}
	sorted := slices.Clone(u.known)
	slices.Sort(sorted)
	return fmt.Sprintf("unknown %s %q (known: %s)", u.what, u.word, strings.Join(sorted, ", "))
}

// fix replaces the word, written at pos, with the nearest known one; nil without one.
// Where the source at pos does not read the word (a position that points at the
// key of key=word), the Edit does not apply and editors drop it.
func (u unknownWord) fix(pos model.Pos) *model.Fix {
	if u.near == "" || pos.File == "" || pos.Line == 0 || pos.Col == 0 {
		return nil
	}
	return &model.Fix{
		Message: fmt.Sprintf("replace %s with %s", u.word, u.near),
		Edits:   []model.Edit{{Pos: pos, Old: u.word, New: u.near}},
	}
}
