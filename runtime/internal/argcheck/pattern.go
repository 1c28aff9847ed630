package argcheck

import (
	"fmt"
	"regexp"
	"regexp/syntax"

	prog "github.com/toolgen/toolgen/runtime/invalid/message"
)

// MaxPatternSize is the largest program a schema's pattern may compile to, in
// instructions of regexp/syntax (the pattern parsed with syntax.Perl, as
// regexp.Compile does, simplified, then compiled). RE2 matches in time proportional to
// the text, but also to the program: checking a string costs up to a few tens of
// nanoseconds a byte for each instruction, so a pattern such as
// (?:a{0,1000}b)|(?:a{0,1000}c), of 4,005 instructions, would cost some 50 µs for each
// byte a model sends. toolgen refuses a larger pattern when it generates code (the
// pattern= of a tool tag) and NewTool refuses one in a dynamic tool's schema; the
// patterns toolgen writes for time layouts stay well under it.
const MaxPatternSize = 256

// PatternMessage returns the violation message of a value that does not match the
// pattern src, for generated and dynamic tools alike (runtime/invalid/message's, which the
// generator writes into generated code): the pattern written whole, on
// one line, its characters that are not printable (a newline, a terminal escape) as
// their Go escapes, so that a schema's pattern cannot put a line of its own, or a
// terminal sequence, in the model's error text and the logs of it.
func PatternMessage(src string) string { return prog.Pattern(src) }

// CompilePattern compiles a JSON Schema pattern (RE2 syntax, unanchored), refusing
// one that is not RE2 or whose program is larger than MaxPatternSize. Its cost is
// bounded by the pattern's length and MaxPatternSize: the size is estimated from the
// parsed expression before repetitions are expanded.
func CompilePattern(src string) (*regexp.Regexp, error) {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil, err
	}
	if n := patternSize(re, 4*MaxPatternSize); n > 4*MaxPatternSize {
		return nil, fmt.Errorf("the pattern is too complex: its program would have more than the %d instructions of toolimpl.MaxPatternSize", MaxPatternSize)
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, err
	}
	if len(prog.Inst) > MaxPatternSize {
		return nil, fmt.Errorf("the pattern is too complex: its program has %d instructions, more than the %d of toolimpl.MaxPatternSize", len(prog.Inst), MaxPatternSize)
	}
	return regexp.Compile(src)
}

// patternSize returns an upper bound of the instructions re compiles to once
// simplified, or a number above limit once it is past limit.
func patternSize(re *syntax.Regexp, limit int) int {
	sat := func(n int) int { return min(n, limit+1) }
	switch re.Op {
	case syntax.OpLiteral:
		return sat(len(re.Rune) + 1)
	case syntax.OpCapture:
		return sat(patternSize(re.Sub[0], limit) + 2)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		return sat(patternSize(re.Sub[0], limit) + 2)
	case syntax.OpRepeat:
		sub := patternSize(re.Sub[0], limit) + 2
		count := re.Max
		if count < 0 {
			count = re.Min + 1
		}
		if count > 0 && sub > (limit+1)/count {
			return limit + 1
		}
		return sat(count*sub + 2)
	case syntax.OpConcat, syntax.OpAlternate:
		n := 1
		for _, sub := range re.Sub {
			n = sat(n + patternSize(sub, limit) + 1)
		}
		return n
	}
	return 2
}
