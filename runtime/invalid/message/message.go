// Package message is what the generator and the runtime share of a tool's schema
// program: the words of the violations that generated decoders and dynamic tools
// (runtime.NewTool's interpreter) both report, written once, so that the two say the
// same thing in the same words for the same schema.
//
// The generator writes these messages into generated code as constants (a generated
// decoder does no more work per call than before); the runtime's interpreter and its
// Decoder build them when a value fails. The package imports only the standard
// library and runtime/safetext: the runtime, which every program using generated tools
// links, imports it.
package message

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime/safetext"
)

// MaxListedBytes bounds the text of a list of values or names in a violation's
// message: past it, the list ends with how many more there are, so that a schema's
// enum of ten thousand values costs a violation no more text than one of ten.
const MaxListedBytes = 400

// OneOf is the message of a value that is none of the values whose JSON texts are
// vals (an enum, a const, a union's discriminator): "must be "a"", "must be one of
// "a", "b"", the list cut to about MaxListedBytes.
func OneOf(vals []string) string {
	if len(vals) == 1 {
		return "must be " + CutList(vals)
	}
	return "must be one of " + CutList(vals)
}

// CutList joins items with commas, cut to about MaxListedBytes: past it, the list ends
// with how many more items there are, and an item longer than the bound is cut (at a
// rune's start) and ends with "…".
func CutList(items []string) string {
	var b strings.Builder
	for i, it := range items {
		if i > 0 && b.Len()+len(it) > MaxListedBytes {
			b.WriteString(", … (" + strconv.Itoa(len(items)-i) + " more)")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		if len(it) > MaxListedBytes {
			it = CutText(it, MaxListedBytes) + "…"
		}
		b.WriteString(it)
	}
	return b.String()
}

// CutText returns at most the first n bytes of s, cut at the start of a rune.
func CutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Bound is the message of a number past the bound of a keyword (minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, multipleOf), the bound written as JSON text:
// "must be at least 1". It returns "" for another keyword.
func Bound(keyword, bound string) string {
	words := BoundWords(keyword)
	if words == "" {
		return ""
	}
	return words + " " + bound
}

// BoundWords is what Bound writes before the bound: "must be at least" for minimum.
func BoundWords(keyword string) string {
	switch keyword {
	case "minimum":
		return "must be at least"
	case "maximum":
		return "must be at most"
	case "exclusiveMinimum":
		return "must be greater than"
	case "exclusiveMaximum":
		return "must be less than"
	case "multipleOf":
		return "must be a multiple of"
	}
	return ""
}

// Length is the message of a string shorter than minLength or longer than maxLength
// n, in characters: "must be at least 1 character long". It returns "" for another
// keyword.
func Length(keyword string, n int) string {
	unit := " characters long"
	if n == 1 {
		unit = " character long"
	}
	switch keyword {
	case "minLength":
		return "must be at least " + strconv.Itoa(n) + unit
	case "maxLength":
		return "must be at most " + strconv.Itoa(n) + unit
	}
	return ""
}

// Pattern is the message of a string that does not match the pattern src: the
// pattern written whole, on one line, its characters that are not printable (a
// newline, a terminal escape) as their Go escapes, so that a schema's pattern cannot
// put a line of its own, or a terminal sequence, in the model's error text and the
// logs of it.
func Pattern(src string) string {
	return "must match the pattern " + safetext.Line(src)
}
