package engine

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/toolgen/toolgen/runtime/internal/argcheck"
)

// MaxLookaheads is the most lookaheads at the start of a pattern of a dynamic tool's
// schema that NewTool reads (each is matched against the whole string).
const MaxLookaheads = 8

// lpattern is a pattern of a dynamic tool's schema read by the general engine: an RE2
// expression, or one that RE2 cannot read because it starts with lookaheads, which
// ECMA-262 patterns have and RE2 does not: "^(?!\.)(?!.*\.\.)[^@]+@..." (zod's email),
// "^(?!^[-+.]*$)[+-]?0*\d*\.?\d*$" (pydantic's decimal). A lookahead at the start
// asks whether its expression matches at the start of the string, so each is an RE2
// expression of its own, anchored, matched beside the rest: the string matches when
// the rest does, each positive lookahead matches and no negative one does.
type lpattern struct {
	re       *regexp.Regexp
	simple   *simpleMatcher // re, when compileSimple reads it (and there are no lookaheads)
	pos, neg []*regexp.Regexp
}

// MatchString reports whether s matches the pattern.
func (p *lpattern) MatchString(s string) bool {
	if p.simple != nil {
		return p.simple.MatchString(s)
	}
	if !p.re.MatchString(s) {
		return false
	}
	for _, r := range p.pos {
		if !r.MatchString(s) {
			return false
		}
	}
	for _, r := range p.neg {
		if r.MatchString(s) {
			return false
		}
	}
	return true
}

// compileLookahead compiles a JSON Schema pattern: RE2 (CompilePattern), or "^"
// followed by lookaheads (?=...) and (?!...) of RE2 expressions, then an RE2
// expression with no alternation outside parentheses (there "^" would anchor only the
// first alternative). Every part is held to MaxPatternSize.
func compileLookahead(src string) (*lpattern, error) {
	re, err := argcheck.CompilePattern(src)
	if err == nil {
		return &lpattern{re: re, simple: compileSimple(src)}, nil
	}
	if !strings.HasPrefix(src, "^(?=") && !strings.HasPrefix(src, "^(?!") {
		return nil, err
	}
	p := &lpattern{}
	rest := src[1:]
	for strings.HasPrefix(rest, "(?=") || strings.HasPrefix(rest, "(?!") {
		end := groupEnd(rest)
		if end < 0 {
			return nil, err
		}
		body := rest[3:end]
		r, lerr := argcheck.CompilePattern(`^(?:` + body + `)`)
		if lerr != nil {
			return nil, errors.New("a lookahead at the start holds what RE2 cannot read: " + lerr.Error())
		}
		if rest[2] == '=' {
			p.pos = append(p.pos, r)
		} else {
			p.neg = append(p.neg, r)
		}
		rest = rest[end+1:]
	}
	if topLevelBar(rest) {
		return nil, err
	}
	if p.re, err = argcheck.CompilePattern(`^` + rest); err != nil {
		return nil, err
	}
	if len(p.pos)+len(p.neg) > MaxLookaheads {
		return nil, fmt.Errorf("more than the %d lookaheads at the start of runtime.MaxLookaheads", MaxLookaheads)
	}
	return p, nil
}

// groupEnd returns the index of the parenthesis that closes the group s opens, or -1:
// escapes and character classes skipped.
func groupEnd(s string) int {
	depth, class := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case class:
			class = c != ']'
		case c == '[':
			class = true
			if i+1 < len(s) && s[i+1] == ']' {
				i++ // a ']' first in a class is a character
			}
		case c == '(':
			depth++
		case c == ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// topLevelBar reports whether s has a '|' outside parentheses and classes.
func topLevelBar(s string) bool {
	depth, class := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case class:
			class = c != ']'
		case c == '[':
			class = true
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			return true
		}
	}
	return false
}
