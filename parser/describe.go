package parser

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgen/toolgen/model"
)

// forModel rewrites a doc comment into a description for a model, which knows the
// tool by its tool name and a property by its JSON name, not by the Go identifier a
// Go doc comment starts with. When the first word of doc is exactly ident, followed by
// what reads as its verb:
//
//   - "is" or "are": both words go, "City is the city to forecast" becomes "The city
//     to forecast", "Days is how many days" "How many days";
//   - a lower-case word that ends in s (returns, lists, has), the verb of a singular
//     subject: the identifier goes, "GetWeather returns the forecast" becomes
//     "Returns the forecast";
//
// and the new first word is capitalized, unless it already has an upper-case letter
// ("iOS", "userID"). Everything else is kept as written. doc is returned unchanged
// when its first word is anything else ("The city", "GetWeather's", "City:"), when
// no such verb follows ("City to look up", "Limit - the most"), when what is left
// does not start with a letter ("Limit is 10 by default"), or when nothing is left
// ("City", "City is").
func forModel(doc, ident string) string {
	rest, ok := cutWord(doc, ident)
	if !ok {
		return doc
	}
	if r, ok := cutWord(rest, "is"); ok {
		rest = r
	} else if r, ok := cutWord(rest, "are"); ok {
		rest = r
	} else if !startsWithVerb(rest) {
		return doc
	}
	if !startsWithLetter(rest) {
		return doc
	}
	return capitalize(rest)
}

// startsWithVerb reports whether s starts with a lower-case word of three letters or
// more that ends in s but not ss: the form of a verb after a singular subject.
func startsWithVerb(s string) bool {
	end := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(s)
	}
	w := s[:end]
	if end < len(s) {
		// The word must end there: "returns," or "returns the", not "returns_x".
		if r, _ := utf8.DecodeRuneInString(s[end:]); !unicode.IsSpace(r) && !unicode.IsPunct(r) {
			return false
		}
	}
	return utf8.RuneCountInString(w) >= 3 && strings.ToLower(w) == w &&
		strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss")
}

func startsWithLetter(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r)
}

// cutWord returns s without its first word and the white space after it, when that
// word is exactly word and something follows it.
func cutWord(s, word string) (string, bool) {
	rest, ok := strings.CutPrefix(s, word)
	if !ok || rest == "" {
		return "", false
	}
	if r, _ := utf8.DecodeRuneInString(rest); !unicode.IsSpace(r) {
		return "", false
	}
	rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
	return rest, rest != ""
}

// capitalize upper-cases the first letter of s when its first word is in lower case.
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if !unicode.IsLower(r) {
		return s
	}
	end := strings.IndexFunc(s, unicode.IsSpace)
	if end < 0 {
		end = len(s)
	}
	if strings.ContainsFunc(s[n:end], unicode.IsUpper) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// describe is forModel, unless the package asks for its doc comments verbatim, of the
// first of docs that is not empty once the placeholders toolgen-vet -fix writes are
// left out (see withoutPlaceholders); placeholder reports that the one chosen, or one
// before it, held one.
func (b *pkgBuilder) describe(ident string, docs ...string) (desc string, placeholder bool) {
	for _, doc := range docs {
		doc, ph := withoutPlaceholders(doc)
		placeholder = placeholder || ph
		if doc == "" {
			continue
		}
		if b.opts.verbatim {
			return doc, placeholder
		}
		return forModel(doc, ident), placeholder
	}
	return "", placeholder
}

// withoutPlaceholders returns doc without its placeholder lines (lines that hold
// model.PlaceholderMark), and the blank lines that leaves at its ends, and reports whether
// there were any. A placeholder is never a description: the model would read
// "TODO: say what it holds." as one.
func withoutPlaceholders(doc string) (string, bool) {
	if !strings.Contains(doc, model.PlaceholderMark) {
		return doc, false
	}
	var kept []string
	for line := range strings.SplitSeq(doc, "\n") {
		if !strings.Contains(line, model.PlaceholderMark) {
			kept = append(kept, line)
		}
	}
	return strings.Trim(strings.Join(kept, "\n"), "\n"), true
}
