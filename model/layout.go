package model

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// LayoutExample is the instant the examples of a Go time layout write: 1 August 2024,
// midnight UTC. Decoder.TimeLayout's messages write the same one.
var LayoutExample = time.Date(2024, time.August, 1, 0, 0, 0, 0, time.UTC)

// LayoutElement is one element of a Go time layout (package time's std chunks: "2006",
// "01", "Jan", "15", "-07:00", ".000", ...), with the expression of what Format writes
// for it.
type LayoutElement struct {
	// Text is the element as the layout writes it.
	Text string
	// Pattern is an ECMA 262 and RE2 expression of the text Format writes for the
	// element; "" when none says it exactly.
	Pattern string
	// Date and Clock report that the element is part of a date (a year, month, day or
	// weekday) or of a time of day (hours to fractions of a second, AM/PM).
	Date, Clock bool
}

var (
	months    = "(January|February|March|April|May|June|July|August|September|October|November|December)"
	monthsAbb = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
	days      = "(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
	daysAbb   = "(Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
)

// layoutElements are the elements package time knows, longest first where one is the
// start of another, with their patterns.
var layoutElements = []LayoutElement{
	{"January", months, true, false}, {"Jan", monthsAbb, true, false},
	{"Monday", days, true, false}, {"Mon", daysAbb, true, false},
	{"MST", `[A-Z]{3,4}`, false, false},
	{"2006", `\d{4}`, true, false}, {"002", `\d{3}`, true, false},
	{"01", `\d{2}`, true, false}, {"02", `\d{2}`, true, false}, {"06", `\d{2}`, true, false},
	{"03", `\d{2}`, false, true}, {"04", `\d{2}`, false, true}, {"05", `\d{2}`, false, true},
	{"15", `\d{2}`, false, true},
	{"__2", "", true, false}, {"_2", `[ \d]\d`, true, false},
	{"1", `\d{1,2}`, true, false}, {"2", `\d{1,2}`, true, false},
	{"3", `\d{1,2}`, false, true}, {"4", `\d{1,2}`, false, true}, {"5", `\d{1,2}`, false, true},
	{"PM", `(AM|PM)`, false, true}, {"pm", `(am|pm)`, false, true},
	{"-07:00:00", `[+-]\d{2}:\d{2}:\d{2}`, false, false}, {"-070000", `[+-]\d{6}`, false, false},
	{"-07:00", `[+-]\d{2}:\d{2}`, false, false}, {"-0700", `[+-]\d{4}`, false, false}, {"-07", `[+-]\d{2}`, false, false},
	{"Z07:00:00", `(Z|[+-]\d{2}:\d{2}:\d{2})`, false, false}, {"Z070000", `(Z|[+-]\d{6})`, false, false},
	{"Z07:00", `(Z|[+-]\d{2}:\d{2})`, false, false}, {"Z0700", `(Z|[+-]\d{4})`, false, false}, {"Z07", `(Z|[+-]\d{2})`, false, false},
}

// SplitLayout splits a Go time layout into its elements and the literal text between
// them, as package time reads it: a literal is a LayoutElement with an empty Text and
// its Pattern the escaped text.
func SplitLayout(layout string) []LayoutElement {
	var out []LayoutElement
	lit := 0
	flush := func(i int) {
		if i > lit {
			out = append(out, LayoutElement{Pattern: regexp.QuoteMeta(layout[lit:i]), Text: ""})
		}
	}
	for i := 0; i < len(layout); {
		e, n := layoutElementAt(layout, i)
		if n == 0 {
			i++
			continue
		}
		flush(i)
		out = append(out, e)
		i += n
		lit = i
	}
	flush(len(layout))
	return out
}

// layoutElementAt returns the element that starts at layout[i:] and its length, 0 for
// literal text, following time's nextStdChunk.
func layoutElementAt(layout string, i int) (LayoutElement, int) {
	rest := layout[i:]
	switch rest[0] {
	case '_':
		// "_2006" is a literal "_" and a year.
		if strings.HasPrefix(rest, "_2006") {
			return LayoutElement{}, 0
		}
	case '0':
		if len(rest) >= 2 && '1' <= rest[1] && rest[1] <= '6' {
			return lookupElement(rest[:2])
		}
		if strings.HasPrefix(rest, "002") {
			return lookupElement("002")
		}
		return LayoutElement{}, 0
	case '.', ',':
		if len(rest) >= 2 && (rest[1] == '0' || rest[1] == '9') {
			j := 1
			for j < len(rest) && rest[j] == rest[1] {
				j++
			}
			if j < len(rest) && '0' <= rest[j] && rest[j] <= '9' {
				return LayoutElement{}, 0
			}
			sep, n := regexp.QuoteMeta(rest[:1]), strconv.Itoa(j-1)
			p := sep + `\d{` + n + `}`
			if rest[1] == '9' {
				p = `(` + sep + `\d{1,` + n + `})?`
			}
			return LayoutElement{Text: rest[:j], Pattern: p, Clock: true}, j
		}
		return LayoutElement{}, 0
	}
	for _, e := range layoutElements {
		if !strings.HasPrefix(rest, e.Text) {
			continue
		}
		if e.Text == "2" && strings.HasPrefix(rest, "2006") || e.Text == "1" && strings.HasPrefix(rest, "15") {
			continue
		}
		return e, len(e.Text)
	}
	return LayoutElement{}, 0
}

func lookupElement(text string) (LayoutElement, int) {
	for _, e := range layoutElements {
		if e.Text == text {
			return e, len(text)
		}
	}
	return LayoutElement{}, 0
}

// LayoutPattern returns the anchored expression of what a Go time layout writes, and
// the first element no expression says exactly ("" when there is none, and then no
// pattern).
func LayoutPattern(layout string) (pattern, inexact string) {
	var b strings.Builder
	b.WriteString("^")
	for _, e := range SplitLayout(layout) {
		if e.Pattern == "" {
			return "", e.Text
		}
		b.WriteString(e.Pattern)
	}
	b.WriteString("$")
	return b.String(), ""
}

// LayoutZone says, for a model, the zone a value written in layout is read in (as
// Decoder.TimeLayout reads it, with time.ParseInLocation in UTC): the offset the value
// writes, when the layout has one (-07:00, Z07:00, ...); otherwise UTC, which a zone
// name (MST) does not change.
func LayoutZone(layout string) string {
	name := false
	for _, e := range SplitLayout(layout) {
		switch {
		case strings.HasPrefix(e.Text, "-07") || strings.HasPrefix(e.Text, "Z07"):
			return "It is read at the UTC offset it is written with."
		case e.Text == "MST":
			name = true
		}
	}
	if name {
		return "It is read in UTC: the zone name written in it does not change the time."
	}
	return "It is read in UTC."
}
