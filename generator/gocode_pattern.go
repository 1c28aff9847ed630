package generator

import (
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// Most patterns in tool schemas are simple: anchored at both ends, a sequence of ASCII
// characters and ASCII character classes, each repeated a fixed or bounded number of
// times ("^[A-Z]{3}-[0-9]{4}$", "^[a-z]+_[0-9a-f]{8}$", "^\\d+$"). For those, the
// generated decoder checks the string with a small function written for the pattern
// instead of running a regular expression: the function decides exactly what regexp
// decides, at a fraction of the cost (the batch benchmark in bench/ spent about 40% of
// its time in regexp's one-pass matcher). Any other pattern is left to regexp, through
// toolimpl.Pattern.

// patternStep matches from min to max (max < 0: any number of) bytes of an ASCII
// class; tail, when positive, is the length of the steps of fixed length after it,
// the last step of variable length, which ends where they begin.
type patternStep struct {
	class    []byteRange
	min, max int
	tail     int
}

// byteRange is an inclusive range of ASCII bytes.
type byteRange struct{ lo, hi byte }

// simplePattern returns the steps of a pattern that a greedy byte matcher decides
// exactly as regexp does, and false for any other pattern: the steps of
// toolimpl.CompileSimple, the parser dynamic tools match with too, each class as its
// ranges in ascending order.
func simplePattern(src string) ([]patternStep, bool) {
	m := toolimpl.CompileSimple(src)
	if m == nil {
		return nil, false
	}
	steps := make([]patternStep, len(m.Steps))
	for i, st := range m.Steps {
		steps[i] = patternStep{class: byteRanges(st.Class), min: st.Min, max: st.Max, tail: st.Tail}
	}
	return steps, true
}

// byteRanges returns the ranges of the ASCII bytes of a class held a bit each, in
// ascending order, each as long as it can be.
func byteRanges(class [2]uint64) []byteRange {
	var rs []byteRange
	for c := 0; c < 0x80; c++ {
		if class[c>>6]&(1<<(c&63)) == 0 {
			continue
		}
		if n := len(rs); n > 0 && int(rs[n-1].hi) == c-1 {
			rs[n-1].hi = byte(c)
		} else {
			rs = append(rs, byteRange{byte(c), byte(c)})
		}
	}
	return rs
}

// matcher returns the function that checks the pattern src, declaring it on first
// use, or false when the pattern is not simple enough for one (see simplePattern).
func (g *goGen) matcher(src string) (string, bool) {
	if name, ok := g.matchers[src]; ok {
		return name, true
	}
	steps, ok := simplePattern(src)
	if !ok {
		return "", false
	}
	name := g.helper("match", src, "toolgenMatch"+strconv.Itoa(len(g.matcherOrder)))
	g.matchers[src] = name
	g.matcherOrder = append(g.matcherOrder, matcherFunc{name: name, src: src, steps: steps})
	return name, true
}

// matcherFunc is a generated pattern matcher.
type matcherFunc struct {
	name, src string
	steps     []patternStep
}

// emitMatchers writes the matcher functions.
func (g *goGen) emitMatchers(f *jen.File) {
	for _, m := range g.matcherOrder {
		f.Commentf("%s reports whether s matches the pattern %s.", m.name, strconv.Quote(m.src))
		f.Func().Id(m.name).Params(jen.Id("s").String()).Bool().Block(matcherBody(m.steps)...)
	}
}

// matcherBody is the code of toolimpl.SimplePattern's MatchString unrolled for steps.
func matcherBody(steps []patternStep) []jen.Code {
	minLen, maxLen := 0, 0
	for _, st := range steps {
		minLen += st.min
		if st.max < 0 || maxLen < 0 {
			maxLen = -1
		} else {
			maxLen += st.max
		}
	}
	var body []jen.Code
	switch {
	case minLen == maxLen:
		body = append(body, jen.If(jen.Len(jen.Id("s")).Op("!=").Lit(minLen)).Block(jen.Return(jen.False())))
	case maxLen < 0:
		if minLen > 0 {
			body = append(body, jen.If(jen.Len(jen.Id("s")).Op("<").Lit(minLen)).Block(jen.Return(jen.False())))
		}
	default:
		body = append(body, jen.If(jen.Len(jen.Id("s")).Op("<").Lit(minLen).Op("||").Len(jen.Id("s")).Op(">").Lit(maxLen)).Block(jen.Return(jen.False())))
	}
	// The steps of fixed length before the first of variable length start at known
	// offsets, within the minimum length just checked.
	off := 0
	for len(steps) > 0 && steps[0].min == steps[0].max {
		if lit, n := literalRun(steps); n > 1 {
			body = append(body, jen.If(jen.Id("s").Index(jen.Lit(off).Op(":").Lit(off+n)).Op("!=").Lit(lit)).Block(jen.Return(jen.False())))
			steps = steps[n:]
			off += n
			continue
		}
		st := steps[0]
		steps = steps[1:]
		switch st.min {
		case 0:
		case 1:
			c := jen.Id("s").Index(jen.Lit(off))
			body = append(body, jen.If(notInClass(st.class, c)).Block(jen.Return(jen.False())))
		default:
			body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("c")).Op(":=").Range().Index().Byte().Parens(jen.Id("s").Index(jen.Lit(off).Op(":").Lit(off+st.min)))).Block(
				jen.If(notInClass(st.class, jen.Id("c"))).Block(jen.Return(jen.False())),
			))
		}
		off += st.min
	}
	if len(steps) == 0 {
		if minLen == maxLen {
			return append(body, jen.Return(jen.True()))
		}
		return append(body, jen.Return(jen.Len(jen.Id("s")).Op("==").Lit(off)))
	}
	body = append(body, jen.Id("i").Op(":=").Lit(off))
	si := jen.Id("s").Index(jen.Id("i"))
	for len(steps) > 0 {
		if lit, n := literalRun(steps); n > 1 {
			body = append(body,
				jen.If(jen.Len(jen.Id("s")).Op("-").Id("i").Op("<").Lit(n).Op("||").Id("s").Index(jen.Id("i").Op(":").Id("i").Op("+").Lit(n)).Op("!=").Lit(lit)).Block(jen.Return(jen.False())),
				jen.Id("i").Op("+=").Lit(n),
			)
			steps = steps[n:]
			continue
		}
		st := steps[0]
		steps = steps[1:]
		switch {
		case st.min == st.max && st.min == 0:
		case st.min == st.max && st.min == 1:
			body = append(body,
				jen.If(jen.Id("i").Op(">=").Len(jen.Id("s")).Op("||").Add(notInClass(st.class, si))).Block(jen.Return(jen.False())),
				jen.Id("i").Op("++"),
			)
		case st.min == st.max:
			body = append(body,
				jen.If(jen.Len(jen.Id("s")).Op("-").Id("i").Op("<").Lit(st.min)).Block(jen.Return(jen.False())),
				jen.For(jen.List(jen.Id("_"), jen.Id("c")).Op(":=").Range().Index().Byte().Parens(jen.Id("s").Index(jen.Id("i").Op(":").Id("i").Op("+").Lit(st.min)))).Block(
					jen.If(notInClass(st.class, jen.Id("c"))).Block(jen.Return(jen.False())),
				),
				jen.Id("i").Op("+=").Lit(st.min),
			)
		default:
			if tail := st.tail; tail > 0 {
				// The last repeat of variable length, before steps of fixed length:
				// it ends where they begin.
				check := jen.Id("n").Op("<").Lit(st.min)
				if st.min == 0 {
					check = jen.Id("n").Op("<").Lit(0)
				}
				if st.max >= 0 {
					check = check.Op("||").Id("n").Op(">").Lit(st.max)
				}
				body = append(body, jen.Block(
					jen.Id("end").Op(":=").Len(jen.Id("s")).Op("-").Lit(tail),
					jen.Id("n").Op(":=").Id("end").Op("-").Id("i"),
					jen.If(check).Block(jen.Return(jen.False())),
					jen.For(jen.List(jen.Id("_"), jen.Id("c")).Op(":=").Range().Index().Byte().Parens(jen.Id("s").Index(jen.Id("i").Op(":").Id("end")))).Block(
						jen.If(notInClass(st.class, jen.Id("c"))).Block(jen.Return(jen.False())),
					),
					jen.Id("i").Op("=").Id("end"),
				))
				continue
			}
			cond := jen.Id("i").Op("<").Len(jen.Id("s"))
			if st.max >= 0 {
				cond = cond.Op("&&").Id("i").Op("-").Id("start").Op("<").Lit(st.max)
			}
			cond = cond.Op("&&").Parens(classCond(st.class, si))
			loop := jen.For(cond).Block(jen.Id("i").Op("++"))
			if st.max < 0 && st.min == 0 {
				body = append(body, loop)
				continue
			}
			block := []jen.Code{jen.Id("start").Op(":=").Id("i"), loop}
			if st.min > 0 {
				block = append(block, jen.If(jen.Id("i").Op("-").Id("start").Op("<").Lit(st.min)).Block(jen.Return(jen.False())))
			}
			body = append(body, jen.Block(block...))
		}
	}
	return append(body, jen.Return(jen.Id("i").Op("==").Len(jen.Id("s"))))
}

// literalRun returns the text of the single characters that steps begin with, and how
// many steps they are.
func literalRun(steps []patternStep) (string, int) {
	var b []byte
	for _, st := range steps {
		if st.min != 1 || st.max != 1 || len(st.class) != 1 || st.class[0].lo != st.class[0].hi {
			break
		}
		b = append(b, st.class[0].lo)
	}
	return string(b), len(b)
}

// notInClass is the condition that the byte c is not in class.
func notInClass(class []byteRange, c *jen.Statement) *jen.Statement {
	if len(class) == 1 && class[0].lo == class[0].hi {
		return c.Clone().Op("!=").Add(byteLit(class[0].lo))
	}
	return jen.Op("!").Parens(classCond(class, c))
}

// classCond is the condition that the byte c is in class.
func classCond(class []byteRange, c *jen.Statement) *jen.Statement {
	var cond *jen.Statement
	for _, r := range class {
		var term *jen.Statement
		switch {
		case r.lo == r.hi:
			term = c.Clone().Op("==").Add(byteLit(r.lo))
		case r.lo == 0:
			term = c.Clone().Op("<=").Add(byteLit(r.hi))
		default:
			term = jen.Add(byteLit(r.lo)).Op("<=").Add(c.Clone()).Op("&&").Add(c.Clone()).Op("<=").Add(byteLit(r.hi))
		}
		if cond == nil {
			cond = term
		} else {
			cond = cond.Op("||").Add(term)
		}
	}
	return cond
}

// byteLit writes a byte as a character literal where it is printable.
func byteLit(b byte) jen.Code {
	return jen.LitRune(rune(b))
}
