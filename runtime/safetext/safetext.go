// Package safetext makes strings from the source or from schemas safe to print in
// line-oriented text. A property name, a tag value or a description may hold a
// newline, a carriage return, a terminal escape sequence or an invisible character;
// printed as it is, it would start a line of its own (in GitHub Actions, "::error ..."
// at the start of a line is a workflow command), rewrite the terminal, or read as
// something else.
//
// toolgen's output (diagnostics, toolgen diff, toolgen list) and the runtime's
// violation messages (the names in a path, a pattern) share it. Like
// runtime/schematree, it is for toolgen's own packages and imports only the standard
// library.
package safetext

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s with every character that is not printable (unicode.IsPrint; a space
// is printable, a tab and a newline are not) written as its Go escape (\n, \t, \x1b,
// \u2028, \ufeff), and each byte of invalid UTF-8 as \xNN, so that s stays on the line
// it is printed on and shows what it holds. Everything else, backslashes included, is
// left as it is: s is text for a reader, and a message saying "must match ^\d+$"
// reads the same after Line.
func Line(s string) string {
	if printable(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])>>4, 16))
			b.WriteString(strconv.FormatUint(uint64(s[i])&15, 16))
		case r == ' ' || unicode.IsPrint(r):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRune(r) // '\n', '\x1b', '\u2028'
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}

// Field returns s for a column of space-separated text (the names in toolgen diff's
// lines): as it is when it is not empty and holds only printable characters other
// than a space, a double quote and a backslash; else quoted with Go syntax
// (strconv.Quote), so that a reader tells where it ends and what it holds.
func Field(s string) string {
	if s != "" && printable(s) && !strings.ContainsAny(s, " \"\\") {
		return s
	}
	return strconv.Quote(s)
}

// printable reports whether every character of s is a printable one, a space included.
func printable(s string) bool {
	for _, r := range s {
		if r != ' ' && !unicode.IsPrint(r) || r == utf8.RuneError {
			return false
		}
	}
	return true
}
