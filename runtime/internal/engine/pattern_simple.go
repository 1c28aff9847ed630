package engine

import (
	"regexp/syntax"

	"github.com/toolgen/toolgen/runtime/internal/argcheck"
)

// Most patterns in tool schemas are simple: anchored at both ends, a sequence of ASCII
// characters and ASCII character classes, each repeated a fixed or bounded number of
// times ("^[A-Z]{3}-[0-9]{4}$", "^[a-z]+_[0-9a-f]{8}$", "^\\d+$"). A generated decoder
// checks those with a function written for the pattern (the generator's
// simplePattern); dynamic tools check them with a simpleMatcher, which decides what
// regexp decides, at a fraction of its cost: the batch payload of bench spent a third of
// its interpretation in regexp's one-pass matcher. Any other pattern is left to regexp.

// simpleStep matches from min to max (max < 0: any number of) bytes of an ASCII class.
type simpleStep struct {
	class    [2]uint64 // the ASCII bytes of the class, a bit each
	min, max int
	// tail is the length of the steps after this one when they are all of a fixed
	// length and this one is not, else -1: the last repeat of variable length ends
	// where they begin.
	tail int
}

// simpleMatcher is a pattern that a greedy byte matcher decides exactly as regexp
// does (see compileSimple).
type simpleMatcher struct {
	steps []simpleStep
}

// maxSimpleSteps bounds the steps of a simpleMatcher: a pattern of more literal bytes
// and classes is left to regexp, whose program MaxPatternSize bounds.
const maxSimpleSteps = argcheck.MaxPatternSize

// compileSimple returns the matcher of a pattern that a greedy byte matcher decides
// exactly as regexp does, or nil for any other pattern. The pattern must be one
// sequence anchored by ^ and $, of ASCII literals and ASCII character classes, each
// possibly repeated (*, +, ?, {n}, {n,m}, {n,}); a repeat of variable length must not
// share a byte with what can follow it up to the next step that must match something,
// so that taking as many bytes as possible is always right, unless it is the last
// one: the steps of fixed length after it then say where it ends
// ("^[a-z][a-z0-9-]*[a-z0-9]$"). Strings are valid UTF-8 (the decoder makes them so)
// and the classes hold ASCII only, so a non-ASCII byte matches no step, as its rune
// matches no class. These are the generator's rules (generator/gocode_pattern.go), so
// that a dynamic tool takes this path for the patterns a generated one writes a
// function for. Its cost is linear in the pattern's length (the overlap check looks
// at most at the steps up to the next one that must match, each ASCII class in two
// words).
func compileSimple(src string) *simpleMatcher {
	re, err := syntax.Parse(src, syntax.Perl) // regexp.Compile's flags
	if err != nil || re.Op != syntax.OpConcat || len(re.Sub) < 2 {
		return nil
	}
	subs := re.Sub
	if subs[0].Op != syntax.OpBeginText || subs[len(subs)-1].Op != syntax.OpEndText {
		return nil
	}
	var steps []simpleStep
	for _, sub := range subs[1 : len(subs)-1] {
		atom, min, max := sub, 1, 1
		switch sub.Op {
		case syntax.OpStar:
			atom, min, max = sub.Sub[0], 0, -1
		case syntax.OpPlus:
			atom, min, max = sub.Sub[0], 1, -1
		case syntax.OpQuest:
			atom, min, max = sub.Sub[0], 0, 1
		case syntax.OpRepeat:
			atom, min, max = sub.Sub[0], sub.Min, sub.Max
		}
		switch atom.Op {
		case syntax.OpLiteral:
			if atom.Flags&syntax.FoldCase != 0 || atom != sub && len(atom.Rune) != 1 {
				return nil
			}
			for _, r := range atom.Rune {
				if r < 0 || r >= 0x80 || len(steps) >= maxSimpleSteps {
					return nil
				}
				var class [2]uint64
				class[r>>6] |= 1 << (r & 63)
				steps = append(steps, simpleStep{class: class, min: min, max: max})
			}
		case syntax.OpCharClass:
			var class [2]uint64
			if len(atom.Rune) == 0 || len(steps) >= maxSimpleSteps {
				return nil
			}
			for i := 0; i+1 < len(atom.Rune); i += 2 {
				lo, hi := atom.Rune[i], atom.Rune[i+1]
				if lo < 0 || hi >= 0x80 || lo > hi {
					return nil
				}
				for c := lo; c <= hi; c++ {
					class[c>>6] |= 1 << (c & 63)
				}
			}
			steps = append(steps, simpleStep{class: class, min: min, max: max})
		default:
			return nil
		}
	}
	// tail[i] is the length of steps[i:] when each has a fixed length, else -1.
	tail := make([]int, len(steps)+1)
	for i := len(steps) - 1; i >= 0; i-- {
		tail[i] = -1
		if steps[i].min == steps[i].max && tail[i+1] >= 0 {
			tail[i] = tail[i+1] + steps[i].min
		}
	}
	for i := range steps {
		s := &steps[i]
		s.tail = -1
		if s.min == s.max {
			continue
		}
		if tail[i+1] >= 0 {
			// The last repeat of variable length: the fixed steps after it decide
			// where it ends, so it may share bytes with them.
			if tail[i+1] > 0 {
				s.tail = tail[i+1]
			}
			break
		}
		for _, next := range steps[i+1:] {
			if s.class[0]&next.class[0] != 0 || s.class[1]&next.class[1] != 0 {
				return nil
			}
			if next.min > 0 {
				break
			}
		}
	}
	return &simpleMatcher{steps: steps}
}

// in reports whether the byte c is in the class.
func (s *simpleStep) in(c byte) bool { return c < 0x80 && s.class[c>>6]&(1<<(c&63)) != 0 }

// MatchString reports whether s matches the pattern.
func (m *simpleMatcher) MatchString(s string) bool {
	i := 0
	for k := range m.steps {
		st := &m.steps[k]
		start := i
		if st.tail > 0 {
			// The last repeat of variable length ends where the fixed tail begins.
			end := len(s) - st.tail
			if end-i < st.min || st.max >= 0 && end-i > st.max {
				return false
			}
			for ; i < end; i++ {
				if !st.in(s[i]) {
					return false
				}
			}
			continue
		}
		for i < len(s) && (st.max < 0 || i-start < st.max) && st.in(s[i]) {
			i++
		}
		if i-start < st.min {
			return false
		}
	}
	return i == len(s)
}
