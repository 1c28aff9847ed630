package parser

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolgen/toolgen/model"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// constraintKeys are the keys of a tool tag and of a //toolgen:param line (which also
// has desc=).
var constraintKeys = []string{
	"required", "optional", "enum", "const", "default", "minimum", "maximum",
	"exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength",
	"pattern", "format", "layout", "minItems", "maxItems", "uniqueItems", "title", "deprecated",
	"sensitive", "header",
}

// formats are the values format= accepts.
var formats = []string{"date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uri", "uuid"}

// numberRE is JSON number syntax, with at most a three-digit exponent.
var numberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]{1,3})?$`)

// checkConstraints checks every property's constraints, now that all types are
// mapped.
func (b *pkgBuilder) checkConstraints() {
	for _, j := range b.jobs {
		b.constraints(j)
	}
}

// resolve follows pointers and named types down to the type that says what a value
// is. It also returns the first named type crossed, whose constants may make an enum.
func (b *pkgBuilder) resolve(t *model.Type) (*model.Type, *namedEntry) {
	var first *namedEntry
	for range 1000 { // type P *P would loop forever
		switch {
		case t == nil:
			return nil, first
		case t.Kind == model.Pointer:
			t = t.Elem
		case t.Kind == model.Named:
			e := b.refs[t]
			if first == nil {
				first = e
			}
			t = e.nt.Underlying
		default:
			return t, first
		}
	}
	return nil, first
}

// describe names a resolved type in messages.
func describe(t *model.Type) string {
	if t == nil {
		return "this type"
	}
	switch t.Kind {
	case model.Int, model.Uint, model.Float:
		return fmt.Sprintf("%s%d", t.Kind, t.Bits)
	case model.Time:
		return "time.Time"
	case model.Duration:
		return "time.Duration"
	case model.Bytes:
		return "[]byte"
	case model.Text:
		return "a text (UnmarshalText) type"
	case model.Raw:
		return "json.RawMessage"
	}
	return string(t.Kind)
}

func kindIn(t *model.Type, kinds ...model.Kind) bool {
	return t != nil && slices.Contains(kinds, t.Kind)
}

func isStringish(t *model.Type) bool { return kindIn(t, model.String, model.Text) }
func isNumeric(t *model.Type) bool   { return kindIn(t, model.Int, model.Uint, model.Float) }
func isList(t *model.Type) bool      { return kindIn(t, model.Slice, model.Array, model.Map) }
func isScalar(t *model.Type) bool {
	return kindIn(t, model.String, model.Text, model.Bool, model.Int, model.Uint, model.Float, model.Duration)
}

// value is a parsed enum, const or default value.
type value struct {
	json string
	num  *big.Rat // for numbers
	str  string   // for strings
	ok   bool
}

// bound is a parsed numeric keyword.
type bound struct {
	at  kv
	num *big.Rat
}

// constraints reads a property's constraints into its Field and decides whether it
// is required.
func (b *pkgBuilder) constraints(j *fieldJob) {
	f := j.field
	prop, _ := b.resolve(f.Type)
	item := prop
	var itemEnum *namedEntry
	if isList(prop) {
		item, itemEnum = b.resolve(prop.Elem)
	} else {
		_, itemEnum = b.resolve(f.Type)
	}
	if itemEnum != nil && len(itemEnum.nt.Enum) == 0 {
		itemEnum = nil
	}
	c := &f.Constraints
	seen := map[string]kv{}
	var required, optional, hasDefault bool
	var requiredAt, optionalAt kv
	bounds := map[string]bound{}
	counts := map[string]int{}
	var def value
	var defAt kv
	var re *regexp.Regexp
	type listedValue struct {
		v  value
		at kv
	}
	var listed []listedValue // the enum's values and the const, checked as defaults are
	items, nonZero := b.withValidate(j, prop, item, itemEnum)
	for i, it := range items {
		if !slices.Contains(constraintKeys, it.Key) {
			u := unknownMsg("constraint", it.Key, constraintKeys)
			if prev, value, ok := commaSplit(items, i); ok && u.near == "" {
				b.errorf(it.Pos, "unknown constraint %q: if it is the rest of %s's value, a comma inside a value is written \\, (%s=%s; in the tag's Go string, \\\\,)", it.Key, prev.Key, prev.Key, value)
				continue
			}
			b.errorf(it.Pos, "%s", u)
			continue
		}
		if prev, dup := seen[it.Key]; dup {
			b.errorf(it.Pos, "repeated constraint %q (first at %s)", it.Key, formatPos(prev.Pos))
			continue
		}
		seen[it.Key] = it
		switch it.Key {
		case "required", "optional", "uniqueItems", "deprecated", "sensitive":
			v, ok := b.flag(it)
			if !ok {
				continue
			}
			switch it.Key {
			case "required":
				required, requiredAt = v, it
			case "optional":
				optional, optionalAt = v, it
			case "uniqueItems":
				if v && !isList(prop) {
					b.errorf(it.Pos, "uniqueItems applies to slices, arrays and maps, not %s", describe(prop))
					continue
				}
				if v && !kindIn(item, model.String, model.Bool, model.Int, model.Uint, model.Float, model.Duration) {
					what := "items"
					if prop.Kind == model.Map {
						what = "values of a map"
					}
					b.errorf(it.Pos, "uniqueItems compares the %s, which toolgen does for strings, numbers, booleans and durations, not %s", what, describe(item))
					continue
				}
				if v && prop.Kind == model.Map && !j.output {
					what := "uniqueItems"
					if it.Rule != "" {
						what = fmt.Sprintf("validate rule %q", it.Rule)
					}
					b.warnf(it.Pos, "field %s: %s on a map asks for distinct values, which JSON Schema cannot say of an object: the decoder checks it, the schema does not tell the model", f.GoPath[len(f.GoPath)-1], what)
				}
				c.UniqueItems = v
			case "deprecated":
				c.Deprecated = v
			case "sensitive":
				c.Sensitive = v
			}
			continue
		}
		if !it.HasValue {
			b.errorf(it.Pos, "constraint %q needs a value (%s=...)", it.Key, it.Key)
			continue
		}
		switch it.Key {
		case "title":
			if it.Value == "" {
				b.errorf(it.Pos, "constraint \"title\" needs a value (title=...)")
				continue
			}
			c.Title = it.Value
		case "enum":
			if !isScalar(item) {
				b.errorf(it.Pos, "enum applies to strings, booleans and numbers, not %s", describe(item))
				continue
			}
			var vals []string
			bad := false
			values := it.Values
			if values == nil {
				values = strings.Split(it.Value, "|")
			}
			for _, s := range values {
				v, err := parseValue(item, s)
				if err == nil {
					err = enumMember(itemEnum, v)
				}
				if err != nil {
					b.errorf(it.Pos, "enum value %q: %v", s, err)
					bad = true
					continue
				}
				if slices.Contains(vals, v.json) {
					b.errorf(it.Pos, "duplicate enum value %q", s)
					bad = true
					continue
				}
				vals = append(vals, v.json)
				listed = append(listed, listedValue{v, it})
			}
			if !bad {
				c.Enum = vals
			}
		case "const":
			if !isScalar(item) {
				b.errorf(it.Pos, "const applies to strings, booleans and numbers, not %s", describe(item))
				continue
			}
			v, err := parseValue(item, it.Value)
			if err == nil {
				err = enumMember(itemEnum, v)
			}
			if err != nil {
				b.errorf(it.Pos, "const %q: %v", it.Value, err)
				continue
			}
			c.Const = v.json
			listed = append(listed, listedValue{v, it})
		case "default":
			if !isScalar(prop) {
				b.errorf(it.Pos, "default is only supported on strings, booleans and numbers, not %s", describe(prop))
				continue
			}
			v, err := parseValue(prop, it.Value)
			if err != nil {
				b.errorf(it.Pos, "default %q: %v", it.Value, err)
				continue
			}
			hasDefault = true
			c.Default, def, defAt = v.json, v, it
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
			if !isNumeric(item) {
				b.errorf(it.Pos, "%s applies to numbers, not %s", it.Key, describe(item))
				continue
			}
			n, err := parseNumber(it.Value)
			if err == nil && item.Kind != model.Float && !n.IsInt() {
				err = fmt.Errorf("must be an integer for %s", describe(item))
			}
			if err == nil && it.Key == "multipleOf" && n.Sign() <= 0 {
				err = fmt.Errorf("must be greater than 0")
			}
			if err == nil && item.Kind == model.Float && !finite(n, item) {
				err = fmt.Errorf("out of range for %s", describe(item))
			}
			if err == nil && item.Kind == model.Float && it.Key == "multipleOf" && formatNumber(n, item) == "0" {
				err = fmt.Errorf("too small for %s, in which it is 0 (multipleOf must be greater than 0)", describe(item))
			}
			if err == nil && (item.Kind == model.Int || item.Kind == model.Uint) && excludesAll(it.Key, n, item) {
				lo, hi := intRange(item)
				err = fmt.Errorf("leaves no value of %s (%s to %s)", describe(item), lo, hi)
			}
			if err != nil {
				b.errorf(it.Pos, "%s %q: %v", it.Key, it.Value, err)
				continue
			}
			text := formatNumber(n, item)
			switch it.Key {
			case "minimum":
				c.Minimum = text
			case "maximum":
				c.Maximum = text
			case "exclusiveMinimum":
				c.ExclusiveMinimum = text
			case "exclusiveMaximum":
				c.ExclusiveMaximum = text
			case "multipleOf":
				c.MultipleOf = text
			}
			bounds[it.Key] = bound{it, n}
		case "minLength", "maxLength", "minItems", "maxItems":
			list := strings.HasSuffix(it.Key, "Items")
			switch {
			case list && !isList(prop):
				b.errorf(it.Pos, "%s applies to slices, arrays and maps, not %s", it.Key, describe(prop))
				continue
			case !list && !isStringish(item):
				b.errorf(it.Pos, "%s applies to strings, not %s", it.Key, describe(item))
				continue
			}
			n, err := strconv.Atoi(it.Value)
			if err != nil || n < 0 || strings.HasPrefix(it.Value, "+") {
				b.errorf(it.Pos, "%s %q: want a non-negative integer", it.Key, it.Value)
				continue
			}
			counts[it.Key] = n
			switch it.Key {
			case "minLength":
				c.MinLength = &n
			case "maxLength":
				c.MaxLength = &n
			case "minItems":
				c.MinItems = &n
			case "maxItems":
				c.MaxItems = &n
			}
		case "pattern":
			if !isStringish(item) {
				b.errorf(it.Pos, "pattern applies to strings, not %s", describe(item))
				continue
			}
			r, err := toolimpl.CompilePattern(it.Value)
			var syntaxErr *syntax.Error
			if err != nil && !errors.As(err, &syntaxErr) {
				b.errorf(it.Pos, "pattern %q: %v", it.Value, err) // too complex
				continue
			}
			if err != nil {
				b.errorf(it.Pos, "pattern %q is not a valid RE2 expression: %v", it.Value, unwrapRegexpErr(err))
				continue
			}
			c.Pattern, re = it.Value, r
		case "format":
			if kindIn(item, model.Time) {
				switch it.Value {
				case "date-time": // what a time.Time is anyway
				case "date":
					c.Format = it.Value
				default:
					b.errorf(it.Pos, "format on a time.Time is date-time (the default) or date, not %q; for another form, write its Go layout (layout=15:04:05)", it.Value)
				}
				continue
			}
			if !isStringish(item) {
				b.errorf(it.Pos, "format applies to strings, not %s", describe(item))
				continue
			}
			if !slices.Contains(formats, it.Value) {
				b.errorf(it.Pos, "%s", unknownMsg("format", it.Value, formats))
				continue
			}
			c.Format = it.Value
		case "layout":
			if b.layout(j, it, item) {
				c.Layout = it.Value
			}
		case "header":
			if b.header(j, it, f.Type) {
				c.Header = it.Value
			}
		}
	}
	if l, ok := seen["layout"]; ok {
		if f, ok := seen["format"]; ok {
			at := l
			if comparePos(f.Pos, at.Pos) > 0 {
				at = f
			}
			b.errorf(at.Pos, "layout and format=%s contradict each other: the layout says the form", f.Value)
		}
	}
	if j.output && kindIn(item, model.Time) && (c.Layout != "" || c.Format == "date") {
		at := seen["layout"]
		if c.Layout == "" {
			at = seen["format"]
		}
		b.warnf(at.Pos, "field %s: %s applies to arguments: a result's time.Time is written by encoding/json, in RFC 3339 (2024-08-01T00:00:00Z), and its output schema says date-time; to send another form, make the field a string and format it", f.GoPath[len(f.GoPath)-1], at.Key+"="+at.Value)
	}

	if required && optional {
		at := requiredAt
		if comparePos(optionalAt.Pos, at.Pos) > 0 {
			at = optionalAt
		}
		b.errorf(at.Pos, "required and optional contradict each other")
	}
	order := func(lo, hi string, strict bool) {
		l, okl := bounds[lo]
		h, okh := bounds[hi]
		if okl && okh && (l.num.Cmp(h.num) > 0 || strict && l.num.Cmp(h.num) == 0) {
			b.errorf(h.at.Pos, "%s is not less than %s", l.at.said(), h.at.said())
		}
	}
	order("minimum", "maximum", false)
	order("exclusiveMinimum", "exclusiveMaximum", true)
	order("minimum", "exclusiveMaximum", true)
	order("exclusiveMinimum", "maximum", true)
	for _, k := range []string{"Length", "Items"} {
		lo, okl := counts["min"+k]
		hi, okh := counts["max"+k]
		if okl && okh && lo > hi {
			at := seen["max"+k]
			b.errorf(at.Pos, "%s is greater than %s", seen["min"+k].said(), at.said())
		}
	}
	if hasDefault {
		if msg := b.checkDefault(def, f.Constraints, bounds, re, itemEnum); msg != "" {
			b.errorf(defAt.Pos, "default %s %s", def.json, msg)
		}
	}
	// A value the enum or const allows must meet the other constraints too: the
	// decoder matches it against the list alone, and the schema says both.
	others := f.Constraints
	others.Enum, others.Const = nil, ""
	for _, l := range listed {
		if msg := b.checkDefault(l.v, others, bounds, re, nil); msg != "" {
			b.errorf(l.at.Pos, "%s value %s %s", l.at.Key, l.v.json, msg)
		}
	}

	zeroExcluded := excludesZero(f.Constraints, bounds, itemEnum)
	if nonZero != nil && !zeroExcluded {
		b.warnNonZero(j, *nonZero)
	}

	f.Required = !(j.pointer || j.omit || optional || hasDefault)
	if required {
		f.Required = true
		// The validator fails a nil pointer on any rule without omitempty: when the
		// validate tag makes a pointer required, null is refused too.
		c.NotNull = j.pointer && (requiredAt.Rule != "" || j.zeroFails != nil)
	}
	// On a number, the bounds or the enum may rule 0 out already.
	c.NotZero = j.notZero && !(isNumeric(item) && zeroExcluded)
}

// layout checks a layout= constraint: on a time.Time, a Go time layout with date or
// time elements that reads what it writes. A layout whose form no pattern says exactly
// is a warning: the schema tells the model the form by an example only.
func (b *pkgBuilder) layout(j *fieldJob, it kv, item *model.Type) bool {
	if !kindIn(item, model.Time) {
		hint := ""
		if isStringish(item) {
			hint = "; to check a string's form, write pattern= or validate:\"datetime=...\""
		}
		b.errorf(it.Pos, "layout applies to time.Time, not %s%s", describe(item), hint)
		return false
	}
	if it.Value == "" {
		b.errorf(it.Pos, "constraint \"layout\" needs a Go time layout (layout=2006-01-02 15:04:05)")
		return false
	}
	elems := false
	for _, e := range model.SplitLayout(it.Value) {
		elems = elems || e.Text != ""
	}
	if !elems {
		b.errorf(it.Pos, "layout %q has no date or time elements (2006, 01, Jan, 02, 15, 04, 05, -07:00, ...), as Go writes them for Mon Jan 2 15:04:05 MST 2006", it.Value)
		return false
	}
	ex := model.LayoutExample.Format(it.Value)
	if _, err := time.Parse(it.Value, ex); err != nil {
		b.errorf(it.Pos, "layout %q cannot read what it writes (%q): %v", it.Value, ex, err)
		return false
	}
	if _, inexact := model.LayoutPattern(it.Value); inexact != "" && !j.output {
		b.warnf(it.Pos, "field %s: layout %q: no pattern says exactly what its element %q takes, so the schema has none, only the example %q in the description; the decoder checks the layout", j.field.GoPath[len(j.field.GoPath)-1], it.Value, inexact, ex)
	}
	return true
}

// said names a constraint and its value in a message, and the validate rule it was
// read from.
func (it kv) said() string {
	s := it.Key + " " + it.Value
	if it.Rule != "" {
		s += fmt.Sprintf(" (validate rule %q)", it.Rule)
	}
	return s
}

// flag reads a constraint that is true when bare and may be =true or =false.
func (b *pkgBuilder) flag(it kv) (bool, bool) {
	if !it.HasValue {
		return true, true
	}
	switch it.Value {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	b.errorf(it.Pos, "constraint %q must be bare, %s=true or %s=false (got %q)", it.Key, it.Key, it.Key, it.Value)
	return false, false
}

// checkDefault returns why a default value breaks the property's other constraints,
// or "".
func (b *pkgBuilder) checkDefault(v value, c model.Constraints, bounds map[string]bound, re *regexp.Regexp, typeEnum *namedEntry) string {
	if len(c.Enum) > 0 && !slices.Contains(c.Enum, v.json) {
		return fmt.Sprintf("is not one of the enum values %s", strings.Join(c.Enum, ", "))
	}
	if c.Const != "" && c.Const != v.json {
		return fmt.Sprintf("differs from const %s", c.Const)
	}
	if err := enumMember(typeEnum, v); err != nil {
		return err.Error()
	}
	if v.num != nil {
		checks := []struct {
			key  string
			fail func(int) bool
			what string
		}{
			{"minimum", func(c int) bool { return c < 0 }, "less than minimum"},
			{"maximum", func(c int) bool { return c > 0 }, "greater than maximum"},
			{"exclusiveMinimum", func(c int) bool { return c <= 0 }, "not greater than exclusiveMinimum"},
			{"exclusiveMaximum", func(c int) bool { return c >= 0 }, "not less than exclusiveMaximum"},
		}
		for _, ch := range checks {
			if bd, ok := bounds[ch.key]; ok && ch.fail(v.num.Cmp(bd.num)) {
				return fmt.Sprintf("is %s %s", ch.what, bd.at.Value)
			}
		}
		if bd, ok := bounds["multipleOf"]; ok && !new(big.Rat).Quo(v.num, bd.num).IsInt() {
			return fmt.Sprintf("is not a multiple of %s", bd.at.Value)
		}
		return ""
	}
	n := utf8.RuneCountInString(v.str)
	switch {
	case c.MinLength != nil && n < *c.MinLength:
		return fmt.Sprintf("is shorter than minLength %d", *c.MinLength)
	case c.MaxLength != nil && n > *c.MaxLength:
		return fmt.Sprintf("is longer than maxLength %d", *c.MaxLength)
	case re != nil && !re.MatchString(v.str):
		return fmt.Sprintf("does not match pattern %s", c.Pattern)
	case c.Format != "" && !toolimpl.Format(c.Format).Valid(v.str):
		return fmt.Sprintf("is not a valid %s", c.Format)
	}
	return ""
}

// enumMember checks that a value is one of an enum type's constants.
func enumMember(e *namedEntry, v value) error {
	if e == nil || len(e.nt.Enum) == 0 {
		return nil
	}
	var vals []string
	for _, ev := range e.nt.Enum {
		if ev.Value == v.json {
			return nil
		}
		vals = append(vals, ev.Value)
	}
	return fmt.Errorf("is not a constant of %s (values: %s)", e.nt.Name, strings.Join(vals, ", "))
}

// parseValue parses an enum, const or default value as a value of t.
func parseValue(t *model.Type, s string) (value, error) {
	switch t.Kind {
	case model.String, model.Text:
		return value{json: jsonString(s), str: s, ok: true}, nil
	case model.Duration:
		if _, err := time.ParseDuration(s); err != nil {
			return value{}, fmt.Errorf("not a Go duration such as 1h30m")
		}
		return value{json: jsonString(s), str: s, ok: true}, nil
	case model.Time:
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return value{}, fmt.Errorf("not an RFC 3339 date-time such as 2006-01-02T15:04:05Z")
		}
		return value{json: jsonString(s), str: s, ok: true}, nil
	case model.Bool:
		if s != "true" && s != "false" {
			return value{}, fmt.Errorf("want true or false")
		}
		return value{json: s, ok: true}, nil
	case model.Int, model.Uint, model.Float:
		n, err := parseNumber(s)
		if err != nil {
			return value{}, err
		}
		if t.Kind != model.Float {
			if !n.IsInt() {
				return value{}, fmt.Errorf("not an integer")
			}
			lo, hi := intRange(t)
			if n.Num().Cmp(lo) < 0 || n.Num().Cmp(hi) > 0 {
				return value{}, fmt.Errorf("out of range for %s (%s to %s)", describe(t), lo, hi)
			}
		} else if f, _ := n.Float64(); math.IsInf(f, 0) || t.Bits == 32 && math.IsInf(float64(float32(f)), 0) {
			return value{}, fmt.Errorf("out of range for %s", describe(t))
		}
		return value{json: formatNumber(n, t), num: n, ok: true}, nil
	}
	return value{}, fmt.Errorf("not supported for %s", describe(t))
}

// parseNumber parses a JSON number.
func parseNumber(s string) (*big.Rat, error) {
	if !numberRE.MatchString(s) {
		return nil, fmt.Errorf("not a number")
	}
	n, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, fmt.Errorf("not a number")
	}
	return n, nil
}

// intRange is the range of an Int or Uint type.
func intRange(t *model.Type) (lo, hi *big.Int) {
	one := big.NewInt(1)
	if t.Kind == model.Uint {
		hi = new(big.Int).Lsh(one, uint(t.Bits))
		return big.NewInt(0), hi.Sub(hi, one)
	}
	hi = new(big.Int).Lsh(one, uint(t.Bits-1))
	lo = new(big.Int).Neg(hi)
	return lo, hi.Sub(hi, one)
}

// excludesAll reports whether the bound key (minimum, maximum, exclusiveMinimum or
// exclusiveMaximum) n excludes every value of the integer type t, such as minimum=1000
// on an int8: the schema would accept nothing, and a decoder held to the type's range
// could not say so.
func excludesAll(key string, n *big.Rat, t *model.Type) bool {
	lo, hi := intRange(t)
	l, h := new(big.Rat).SetInt(lo), new(big.Rat).SetInt(hi)
	switch key {
	case "minimum":
		return n.Cmp(h) > 0
	case "maximum":
		return n.Cmp(l) < 0
	case "exclusiveMinimum":
		return n.Cmp(h) >= 0
	case "exclusiveMaximum":
		return n.Cmp(l) <= 0
	}
	return false
}

// finite reports whether n is a finite number of the float type t: a bound past the
// largest float32 or float64 would be infinite in the schema, which JSON cannot say.
func finite(n *big.Rat, t *model.Type) bool {
	if t.Bits == 32 {
		f, _ := n.Float32()
		return !math.IsInf(float64(f), 0)
	}
	f, _ := n.Float64()
	return !math.IsInf(f, 0)
}

// formatNumber writes a number as canonical JSON: an integer for integer types, the
// shortest float text (as encoding/json writes floats) otherwise.
func formatNumber(n *big.Rat, t *model.Type) string {
	if n.IsInt() && t.Kind != model.Float {
		return n.Num().String()
	}
	bits := 64
	if t.Kind == model.Float && t.Bits == 32 {
		bits = 32
	}
	f, _ := n.Float64()
	if bits == 32 {
		f = float64(float32(f))
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	out := strconv.AppendFloat(nil, f, format, -1, bits)
	if format == 'e' {
		// clean up e-09 to e-9
		if k := len(out); k >= 4 && out[k-4] == 'e' && out[k-3] == '-' && out[k-2] == '0' {
			out[k-2] = out[k-1]
			out = out[:k-1]
		}
	}
	return string(out)
}

// unwrapRegexpErr keeps the useful part of a regexp error.
func unwrapRegexpErr(err error) string {
	msg := err.Error()
	return strings.TrimPrefix(msg, "error parsing regexp: ")
}

// commaSplit reports whether items[i] may be the rest of an earlier item's value,
// split at a comma not written \, : the items after that one (prev) up to i are bare
// words that are no constraint, all of them the tool tag's. value is prev's value
// with those words and the ones like them after i put back, the commas escaped.
func commaSplit(items []kv, i int) (prev kv, value string, ok bool) {
	bare := func(it kv) bool {
		return it.Rule == "" && !it.HasValue && !slices.Contains(constraintKeys, it.Key)
	}
	start := i
	for start >= 1 && bare(items[start]) {
		if p := items[start-1]; p.Rule == "" && p.HasValue {
			var b strings.Builder
			b.WriteString(p.Value)
			for _, w := range items[start:] {
				if !bare(w) {
					break
				}
				b.WriteString(`\,`)
				b.WriteString(w.Text)
			}
			return p, b.String(), true
		}
		start--
	}
	return kv{}, "", false
}
