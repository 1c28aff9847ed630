package contractdiff

import (
	"regexp"
	"regexp/syntax"
	"unicode"
)

// matchesAll reports whether v is a pattern (an RE2 expression, which JSON Schema
// searches for anywhere in the string, unanchored) that matches every string. It is
// sound, not complete: true only when that is sure, for the forms a pattern widened
// to everything takes: one that matches the empty string with no anchor after its
// start (".*", "", "a*", "^.*", "(x)?"), or a start anchor, any number of any
// character, and an end anchor ("^(?s).*$", "^[\s\S]*$", "\A(?s:.)*\z").
func matchesAll(v any) bool {
	p, ok := v.(string)
	if !ok {
		return false
	}
	if _, err := regexp.Compile(p); err != nil {
		return false
	}
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return false
	}
	re = re.Simplify()
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	// A start anchor holds at the start of the string, where an empty match is looked
	// for first.
	if len(subs) > 0 && isStart(subs[0]) {
		subs = subs[1:]
	}
	if !hasAnchor(subs) && matchesEmpty(subs) {
		return true
	}
	if len(subs) == 2 && (subs[1].Op == syntax.OpEndText) && anyString(subs[0]) {
		return true
	}
	return false
}

func isStart(re *syntax.Regexp) bool {
	return re.Op == syntax.OpBeginText || re.Op == syntax.OpBeginLine
}

// hasAnchor reports whether any of subs asserts a position: an anchor or a word
// boundary, anywhere inside.
func hasAnchor(subs []*syntax.Regexp) bool {
	for _, re := range subs {
		switch re.Op {
		case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
			syntax.OpWordBoundary, syntax.OpNoWordBoundary:
			return true
		}
		if hasAnchor(re.Sub) {
			return true
		}
	}
	return false
}

// matchesEmpty reports whether the concatenation of subs, which holds no anchor,
// matches the empty string.
func matchesEmpty(subs []*syntax.Regexp) bool {
	re := &syntax.Regexp{Op: syntax.OpConcat, Sub: subs}
	if len(subs) == 0 {
		return true
	}
	prog, err := regexp.Compile(re.String())
	return err == nil && prog.MatchString("")
}

// anyString reports whether re is a star of a class of every character: (?s).*,
// [\s\S]*, [^x]|x and the like, simplified.
func anyString(re *syntax.Regexp) bool {
	if re.Op != syntax.OpStar || len(re.Sub) != 1 {
		return false
	}
	sub := re.Sub[0]
	switch sub.Op {
	case syntax.OpAnyChar:
		return true
	case syntax.OpCharClass:
		return len(sub.Rune) == 2 && sub.Rune[0] == 0 && sub.Rune[1] == unicode.MaxRune
	}
	return false
}
