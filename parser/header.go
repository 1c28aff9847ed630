package parser

import (
	"math/big"
	"strings"

	"github.com/toolgen/toolgen/model"
	"github.com/toolgen/toolgen/runtime/mcpheader"
)

// maxSafeInteger is the largest integer JavaScript represents exactly, 2^53-1: MCP
// SEP-2243 keeps a header's integers within ±maxSafeInteger.
const maxSafeInteger = "9007199254740991"

// header checks the header= of the field of job j, of type t, by MCP SEP-2243's rules
// (mcpheader.CheckName): the name is an HTTP token, and the argument a string, an
// integer or a boolean, not a pointer (whose schema also allows null, which a header
// cannot say: an optional argument is written omitempty). It reports whether the
// header holds; where it is, and whether it is a tool's own argument, is checked once
// every tool is built (checkHeaders).
func (b *pkgBuilder) header(j *fieldJob, it kv, t *model.Type) bool {
	if err := mcpheader.CheckName(it.Value); err != nil {
		b.errorf(it.Pos, "header %q: %v (MCP SEP-2243)", it.Value, err)
		return false
	}
	if t != nil && t.Kind == model.Pointer {
		b.errorf(it.Pos, "header applies to a string, integer or boolean argument, not a pointer, whose schema allows null (MCP SEP-2243): make an optional argument a value with omitempty")
		return false
	}
	prop, _ := b.resolve(t)
	if !kindIn(prop, model.String, model.Text, model.Duration, model.Bool, model.Int, model.Uint) {
		b.errorf(it.Pos, "header applies to a string, integer or boolean argument (MCP SEP-2243), not %s", describe(prop))
		return false
	}
	if j.output {
		return false // a result's fields are not mirrored into headers
	}
	if b.headers == nil {
		b.headers = map[*model.Field]model.Pos{}
	}
	b.headers[j.field] = it.Pos
	return true
}

// safeBounds gives an integer argument with a header the bounds SEP-2243 asks of its
// values, ±(2^53-1), where its type's range is wider and no bound of its own is
// narrower; it reports a bound of its own that goes past them.
func (b *pkgBuilder) safeBounds(f *model.Field, at model.Pos) {
	prop, _ := b.resolve(f.Type)
	if !kindIn(prop, model.Int, model.Uint) || prop.Bits <= 53 {
		return
	}
	c := &f.Constraints
	limit, _ := new(big.Rat).SetString(maxSafeInteger)
	check := func(text, key string, low bool) bool {
		if text == "" {
			return false
		}
		n, ok := new(big.Rat).SetString(text)
		if !ok {
			return true
		}
		if low && n.Cmp(new(big.Rat).Neg(limit)) < 0 || !low && n.Cmp(limit) > 0 {
			b.errorf(at, "header: %s=%s goes past what an MCP header's integer may be, -%s to %s (MCP SEP-2243)", key, text, maxSafeInteger, maxSafeInteger)
		}
		return true
	}
	lo := check(c.Minimum, "minimum", true)
	lo = check(c.ExclusiveMinimum, "exclusiveMinimum", true) || lo
	hi := check(c.Maximum, "maximum", false)
	hi = check(c.ExclusiveMaximum, "exclusiveMaximum", false) || hi
	if !lo && prop.Kind == model.Int {
		c.Minimum = "-" + maxSafeInteger
	}
	if !hi {
		c.Maximum = maxSafeInteger
	}
}

// checkHeaders checks, once every tool is built, that each header= stands on a tool's
// own argument (a property of the arguments' object, not of an object inside it: a
// nested struct may be written as a $ref, through which SEP-2243 refuses a header),
// and that no two arguments of a tool name the same header, compared
// case-insensitively as HTTP compares header names.
func (b *pkgBuilder) checkHeaders(mp *model.Package) {
	if len(b.headers) == 0 {
		return
	}
	top := map[*model.Field]bool{}
	for _, t := range mp.Tools {
		seen := map[string]*model.Field{}
		for _, f := range b.arguments(t) {
			top[f] = true
			h := f.Constraints.Header
			if h == "" {
				continue
			}
			if prev, dup := seen[strings.ToLower(h)]; dup {
				b.errorf(b.headers[f], "header %q: argument %s of tool %s has it already as %q (header names are compared case-insensitively)", h, prev.Name, t.Name, prev.Constraints.Header)
				f.Constraints.Header = ""
				continue
			}
			seen[strings.ToLower(h)] = f
			b.safeBounds(f, b.headers[f])
		}
	}
	for f, at := range b.headers {
		if !top[f] {
			b.errorf(at, "header applies to a tool's own arguments, and field %s is a property of an object inside them (or of no tool's arguments)", f.Name)
			f.Constraints.Header = ""
		}
	}
}

// arguments returns the properties of a tool's arguments: its parameters, or the
// fields of its struct parameter.
func (b *pkgBuilder) arguments(t *model.Tool) []*model.Field {
	switch t.Input.Kind {
	case model.InputParams:
		return t.Input.Params
	case model.InputStruct:
		if st, _ := b.resolve(t.Input.Type); st != nil && st.Kind == model.Struct {
			return st.Fields
		}
	}
	return nil
}
