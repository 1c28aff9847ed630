package engine

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// unknownMessage says that a property is unknown and what the model may have meant.
func unknownMessage(name string, known []string) string {
	if len(known) == 0 {
		return "unknown property: this object takes no properties"
	}
	if near := nearest(name, known); near != "" {
		return "unknown property; did you mean " + strconv.Quote(near) + "?"
	}
	return "unknown property; expected one of " + quoteList(known)
}

// quoteList lists names quoted, cut after about maxListedBytes as cutList cuts.
func quoteList(names []string) string {
	var b strings.Builder
	for i, n := range names {
		q := strconv.Quote(cutName(n))
		if i > 0 && b.Len()+len(q) > maxListedBytes {
			b.WriteString(", … (" + strconv.Itoa(len(names)-i) + " more)")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(q)
	}
	return b.String()
}

// maxSuggestWork bounds the work of looking for the known name nearest an unknown
// one, in characters compared (an edit distance of names of m and n characters costs
// m×n): the names past it are not compared, so that a schema with eighty thousand
// properties costs a violation no more than one with a hundred.
const maxSuggestWork = 1 << 16

// nearest returns the name in known closest to name, if close enough to be a likely
// typo or a different casing. It allocates nothing.
func nearest(name string, known []string) string {
	if len(name) > maxNameBytes {
		return "" // no typo of a known name, and too long to compare at a small cost
	}
	best, bestDist := "", -1
	work := 0
	for _, k := range known {
		if work += len(k) + len(name); work > maxSuggestWork {
			break
		}
		if strings.EqualFold(k, name) || sameNormalized(k, name) {
			return k
		}
		if len(k) > maxNameBytes {
			continue
		}
		if work += len(k) * len(name); work > maxSuggestWork {
			break
		}
		dist := editDistance(name, k)
		if bestDist < 0 || dist < bestDist {
			best, bestDist = k, dist
		}
	}
	// Accept up to a third of the name's length in edits (at least one).
	if bestDist >= 0 && bestDist <= max(1, len(name)/3) {
		return best
	}
	return ""
}

// sameNormalized reports whether a and b are equal once case is folded and separators
// dropped, so that "start_date" matches "startDate".
func sameNormalized(a, b string) bool {
	next := func(s string, i int) (rune, int) {
		for i < len(s) {
			r, n := utf8.DecodeRuneInString(s[i:])
			i += n
			if r != '_' && r != '-' && r != ' ' {
				return unicode.ToLower(r), i
			}
		}
		return -1, i
	}
	i, j := 0, 0
	for {
		var ra, rb rune
		ra, i = next(a, i)
		rb, j = next(b, j)
		if ra != rb {
			return false
		}
		if ra < 0 {
			return true
		}
	}
}

// editDistance is the optimal string alignment distance between a and b, case folded:
// insertions, deletions, substitutions and swaps of adjacent characters each cost one.
// Both have at most maxNameBytes bytes, so its table lives on the stack.
func editDistance(a, b string) int {
	var ra, rb [maxNameBytes]rune
	la, lb := lowerRunes(a, &ra), lowerRunes(b, &rb)
	var rows [3][maxNameBytes + 1]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= lb; j++ {
		prev[j] = j
	}
	for i := 1; i <= la; i++ {
		cur[0] = i
		for j := 1; j <= lb; j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[lb]
}

// lowerRunes writes the runes of s, lowercase, into out and returns how many.
func lowerRunes(s string, out *[maxNameBytes]rune) int {
	n := 0
	for _, r := range s {
		out[n] = unicode.ToLower(r)
		n++
	}
	return n
}
