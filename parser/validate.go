package parser

import (
	"cmp"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolgen/toolgen/internal/validatorrules"
	"github.com/toolgen/toolgen/model"
)

// A validate tag (go-playground/validator) is read as tool tag keywords where a JSON
// Schema keyword says what its rule says; docs/DESIGN.md pins it and docs/reference.md has
// the table. The rules become kv items, which constraints checks with the tool tag's,
// the tool tag winning where both speak. A rule with no equivalent is a warning at its
// position; a rule the validator itself could not run (an empty rule, a bound that is
// not a number) is an error, as in a tool tag.

// vrule is one comma-separated rule of a validate tag.
type vrule struct {
	// Text is the rule as written, "min=1".
	Text string
	// Name and Param are the rule's name and its parameter, with the validator's
	// escapes 0x2C (a comma) and 0x7C (a pipe) decoded.
	Name, Param string
	HasParam    bool
	Pos         model.Pos
}

// splitValidate splits a validate tag's value at commas, as the validator does (it
// has no escape for a comma but 0x2C in a parameter). Offsets are in the value.
func splitValidate(s string) (rules []vrule, offs []int, errs []offError) {
	if s == "" || s == "-" { // "-": the validator skips the field
		return nil, nil, nil
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != ',' {
			continue
		}
		text := s[start:i]
		switch {
		case text == "":
			errs = append(errs, offError{start, "malformed validate tag: empty rule (the validator panics on it)"})
		case strings.HasPrefix(text, "="):
			errs = append(errs, offError{start, fmt.Sprintf("malformed validate tag: rule %q has no name (the validator panics on it)", text)})
		default:
			r := vrule{Text: text, Name: text}
			if name, param, ok := strings.Cut(text, "="); ok && !strings.Contains(name, "|") {
				r.Name, r.HasParam = name, true
				r.Param = strings.ReplaceAll(strings.ReplaceAll(param, "0x2C", ","), "0x7C", "|")
			}
			rules = append(rules, r)
			offs = append(offs, start)
		}
		start = i + 1
	}
	return rules, offs, errs
}

// vitem is a keyword a rule says, before the tool tag and the other rules have their
// say.
type vitem struct {
	kv
	rule string // the rule's name
}

// keyword groups: keywords of one group say the same thing, so a tool tag keyword
// of a group silences the validate rules that speak for that group.
var keywordGroup = map[string]string{
	"required": "presence", "optional": "presence", "default": "presence",
	"minimum": "lower", "exclusiveMinimum": "lower",
	"maximum": "upper", "exclusiveMaximum": "upper",
	"enum": "values", "const": "values",
	"minLength": "minLength", "maxLength": "maxLength",
	"minItems": "minItems", "maxItems": "maxItems",
	"uniqueItems": "uniqueItems", "format": "format", "pattern": "pattern",
}

// validateFormats are the rules that are a format, on strings.
var validateFormats = map[string]string{
	"email": "email", "url": "uri", "uuid": "uuid",
	"ipv4": "ipv4", "ipv6": "ipv6", "hostname": "hostname", "hostname_rfc1123": "hostname",
}

// formatDiffers says, per validate rule read as a format, where the validator's own
// check (go-playground/validator v10.30.6) and the format differ, with examples the
// differential test (interop/validator) finds: the rule's warning names them, since
// the decoder checks the format, not the validator's rule.
var formatDiffers = map[string]string{
	"email":            `the validator's email also takes non-ASCII addresses ("josé@bücher.de") and longer parts, and refuses domains without a dot ("a@b"), address literals ("a@[1.2.3.4]"), a trailing dot and an empty quoted local part`,
	"url":              `the validator's url also refuses some absolute URIs that format uri takes ("a:", "http:/a", "http://")`,
	"ipv4":             `the validator's ipv4 also takes IPv4-mapped IPv6 addresses ("::ffff:1.2.3.4")`,
	"ipv6":             `the validator's ipv6 refuses IPv4-mapped addresses ("::ffff:1.2.3.4"), which format ipv6 takes`,
	"hostname":         `the validator's hostname (RFC 952) refuses names that start with a digit ("1a.b", "123", "1.2.3.4") or end with a dot, and one-letter names, which format hostname (RFC 1123) takes, and has no length limit`,
	"hostname_rfc1123": `the validator's hostname_rfc1123 refuses a trailing dot ("a.b.") and has no length limit`,
	"date-time":        `the validator's datetime (time.Parse) refuses a lowercase "t" or "z" and a leap second ("23:59:60Z"), which format date-time takes, and takes a zone of "+24:00"`,
	"time":             `the validator's datetime (time.Parse) takes a one-digit hour ("9:30:00Z") and refuses a lowercase "z" and a leap second, which format time takes`,
}

// datetimeFormats are the Go layouts of validate's datetime= that are a format.
var datetimeFormats = map[string]string{
	time.RFC3339:     "date-time",
	time.RFC3339Nano: "date-time",
	time.DateOnly:    "date",
	"15:04:05Z07:00": "time",
}

// readRules are the validate rules validateItems reads: a rule the validator does not
// know that is near one of them gets a did-you-mean.
var readRules = []string{
	"required", "omitempty", "omitnil", "omitzero", "dive", "keys", "endkeys",
	"min", "max", "len", "gt", "gte", "lt", "lte", "oneof", "uri", "email", "url", "uuid",
	"ipv4", "ipv6", "hostname", "hostname_rfc1123", "ip", "datetime", "unique",
}

// noParam are the rules read here that take no parameter.
var noParam = []string{"required", "omitempty", "omitnil", "omitzero", "dive", "keys", "endkeys", "ip"}

// oneofRE splits oneof's values as the validator does: words, or 'quoted words'.
var oneofRE = regexp.MustCompile(`'[^']*'|\S+`)

// withValidate returns the job's constraint items: its tool tag's, then those its
// validate tag says that the tool tag does not, and the required rule of a number,
// when there is one, for the check that the property's bounds rule out 0.
func (b *pkgBuilder) withValidate(j *fieldJob, prop, item *model.Type, itemEnum *namedEntry) ([]kv, *kv) {
	if len(j.validate) == 0 {
		return j.items, nil
	}
	vs, nonZero := b.validateItems(j, prop, item, itemEnum)
	spoken := map[string]bool{}
	for _, it := range j.items {
		spoken[keywordGroup[it.Key]] = true
	}
	items := slices.Clone(j.items)
	for _, v := range vs {
		if !spoken[keywordGroup[v.Key]] {
			items = append(items, v.kv)
		}
	}
	// A rule that rejects the zero value makes the property required: the validator
	// checks an absent property's zero value, and fails it.
	if z := j.zeroFails; z != nil && !spoken["presence"] && !slices.ContainsFunc(items, func(it kv) bool { return it.Key == "required" || it.Key == "optional" }) {
		items = append(items, kv{Key: "required", Pos: z.Pos, Rule: z.Rule})
	}
	return items, nonZero
}

// zeroFails reports whether validate rule r, at the top level of a property of type
// t (a pointer when pointer), fails the property's zero value, which is what the
// validator checks when the property is absent: every rule fails a nil pointer; on a
// value, the rules whose bounds, values or format rule out "", 0 or an empty list.
// A rule toolgen does not read reports false (the warning says it is not checked).
func zeroFails(r vrule, t *model.Type, pointer bool) bool {
	switch r.Name {
	case "required":
		return true
	case "min", "max", "len", "gt", "gte", "lt", "lte", "oneof", "email", "url", "uri", "uuid",
		"ipv4", "ipv6", "ip", "hostname", "hostname_rfc1123", "datetime", "unique", "dive":
	default:
		return false
	}
	if pointer {
		return true
	}
	switch r.Name {
	case "unique", "dive":
		return false
	case "oneof":
		if !kindIn(t, model.String, model.Int, model.Uint) {
			return false
		}
		for _, v := range oneofRE.FindAllString(r.Param, -1) {
			v = strings.ReplaceAll(v, "'", "")
			if n, err := strconv.ParseFloat(v, 64); v == "" || kindIn(t, model.Int, model.Uint) && err == nil && n == 0 {
				return false
			}
		}
		return true
	case "email", "url", "uri", "uuid", "ipv4", "ipv6", "ip", "hostname", "hostname_rfc1123", "datetime":
		return kindIn(t, model.String)
	}
	if !r.HasParam {
		return false
	}
	var sign int // the sign of the parameter, to compare with 0
	switch {
	case kindIn(t, model.String), isList(t):
		n, err := strconv.ParseInt(r.Param, 0, 64)
		if err != nil {
			return false
		}
		sign = cmp.Compare(n, 0)
	case isNumeric(t):
		num, ok := validateNumber(r.Param, t)
		if !ok {
			return false
		}
		n, err := parseNumber(num)
		if err != nil {
			return false
		}
		sign = n.Sign()
	default:
		return false
	}
	switch r.Name {
	case "min", "gte":
		return sign > 0
	case "max", "lte":
		return sign < 0
	case "len":
		return sign != 0
	case "gt":
		return sign >= 0
	case "lt":
		return sign <= 0
	}
	return false
}

// validateItems translates a job's validate rules to keywords.
func (b *pkgBuilder) validateItems(j *fieldJob, prop, item *model.Type, itemEnum *namedEntry) ([]vitem, *kv) {
	name := j.field.GoPath[len(j.field.GoPath)-1]
	warn := func(r vrule, format string, args ...any) {
		if !j.output {
			b.warnf(r.Pos, "field %s: validate rule %q "+format, append([]any{name, r.Text}, args...)...)
		}
	}
	fail := func(r vrule, format string, args ...any) {
		if !j.output {
			b.errorf(r.Pos, "field %s: validate rule %q: "+format, append([]any{name, r.Text}, args...)...)
		}
	}
	const notRead = "neither the schema nor the decoder checks it"

	var out []vitem
	var nonZero *kv
	omit := false
	add := func(r vrule, key, value string, hasValue bool) {
		out = append(out, vitem{kv{Key: key, Value: value, HasValue: hasValue, Pos: r.Pos, Rule: r.Text}, r.Name})
	}
	level, t := 0, prop
	itemPointer := false
	j.zeroFails, j.notZero = nil, false
	for i := 0; i < len(j.validate); i++ {
		r := j.validate[i]
		if level == 0 && !omit && j.zeroFails == nil && !strings.Contains(r.Text, "|") && zeroFails(r, prop, j.pointer) {
			j.zeroFails = &kv{Key: "required", Pos: r.Pos, Rule: r.Text}
		}
		if strings.Contains(r.Text, "|") {
			warn(r, "has alternatives (|), which JSON Schema says only with anyOf: %s; check it in the function, or say one of them in the tool tag", notRead)
			continue
		}
		if r.HasParam && slices.Contains(noParam, r.Name) {
			warn(r, "takes no value: %s", notRead)
			continue
		}
		mismatch := func(what string) {
			hint := ""
			if level == 0 && isList(prop) && what != "slices, arrays and maps" {
				hint = "; to check each item, write dive before it"
			}
			warn(r, "applies to %s, not %s%s: %s", what, describe(t), hint, notRead)
		}
		switch r.Name {
		case "dive":
			if level == 1 {
				warn(r, "dives into items of items, for which toolgen has no keywords: this rule and the rules after it are not read (%s)", notRead)
				return b.keepValid(j, out, omit), nonZero
			}
			if !isList(prop) {
				warn(r, "applies to slices, arrays and maps, not %s: this rule and the rules after it are not read (%s)", describe(prop), notRead)
				return b.keepValid(j, out, omit), nonZero
			}
			level, t = 1, item
			itemPointer = prop.Elem != nil && prop.Elem.Kind == model.Pointer
			continue
		case "keys":
			if i == 0 || j.validate[i-1].Name != "dive" {
				fail(r, "keys must follow dive")
				return b.keepValid(j, out, omit), nonZero
			}
			end := i + 1
			for end < len(j.validate) && j.validate[end].Name != "endkeys" {
				end++
			}
			if end == len(j.validate) {
				fail(r, "keys has no endkeys")
				return b.keepValid(j, out, omit), nonZero
			}
			warn(r, "starts rules for map keys (up to endkeys), which toolgen does not read: %s", notRead)
			i = end
			continue
		case "endkeys":
			fail(r, "endkeys has no keys before it")
			continue
		case "omitempty", "omitnil", "omitzero":
			if level == 1 {
				warn(r, "skips the rules for an empty item, which the schema cannot say: the rules after dive hold for every item, an empty one too")
				continue
			}
			if j.zeroFails != nil {
				warn(r, "comes after %q, which the validator checks first, on an empty value too: the property is required", j.zeroFails.Rule)
				continue
			}
			// omitnil skips only a nil value: a property that can be null or absent.
			if r.Name != "omitnil" || j.pointer || kindIn(prop, model.Slice, model.Map, model.Any, model.Raw, model.Bytes) {
				omit = true
				add(r, "optional", "", false)
			}
			continue
		case "required":
			if level == 0 {
				add(r, "required", "", false)
				if j.pointer {
					// On a pointer, required asks for a pointer that is not nil (the
					// property is required and not nullable), nothing of the value it
					// points to.
					continue
				}
			} else if itemPointer {
				warn(r, "after dive asks for items that are not null, which toolgen does not say for a slice of pointers: %s", notRead)
				continue
			}
			switch {
			case kindIn(t, model.String):
				add(r, "minLength", "1", true)
			case kindIn(t, model.Uint):
				add(r, "minimum", "1", true)
			case kindIn(t, model.Int, model.Float):
				nonZero = &kv{Key: "required", Pos: r.Pos, Rule: r.Text}
				if !omit || level == 1 {
					j.notZero = true
				}
			case kindIn(t, model.Bool):
				add(r, "const", "true", true)
			case kindIn(t, model.Time):
				if !omit || level == 1 {
					j.notZero = true
				}
			case kindIn(t, model.Duration):
				if !omit || level == 1 {
					j.notZero = true
					warn(r, "also rejects a zero duration, which the schema cannot say: the decoder refuses \"0s\", but the schema does not tell the model")
				}
			}
			continue
		case "min", "max", "len", "gt", "gte", "lt", "lte":
			if !r.HasParam {
				if kindIn(t, model.Time) && r.Name != "min" && r.Name != "max" && r.Name != "len" {
					warn(r, "compares a time with the time of the call, which the schema cannot say: %s", notRead)
				} else {
					fail(r, "%s needs a value (%s=...)", r.Name, r.Name)
				}
				continue
			}
			switch {
			case kindIn(t, model.String), isList(t):
				if level == 1 && isList(t) {
					warn(r, "counts the items of an item, for which toolgen has no keywords: %s", notRead)
					continue
				}
				n, err := strconv.ParseInt(r.Param, 0, 64)
				if err != nil || n < 0 || n > 1<<31 {
					fail(r, "want a non-negative integer (a length)")
					continue
				}
				lo, hi := "minLength", "maxLength"
				if isList(t) {
					lo, hi = "minItems", "maxItems"
				}
				switch r.Name {
				case "min", "gte":
					add(r, lo, strconv.FormatInt(n, 10), true)
				case "max", "lte":
					add(r, hi, strconv.FormatInt(n, 10), true)
				case "len":
					add(r, lo, strconv.FormatInt(n, 10), true)
					add(r, hi, strconv.FormatInt(n, 10), true)
				case "gt":
					add(r, lo, strconv.FormatInt(n+1, 10), true)
				case "lt":
					if n == 0 {
						fail(r, "no length is less than 0")
						continue
					}
					add(r, hi, strconv.FormatInt(n-1, 10), true)
				}
			case isNumeric(t):
				num, ok := validateNumber(r.Param, t)
				if !ok {
					what := "a number"
					if t.Kind != model.Float {
						what = "an integer"
					}
					fail(r, "want %s for %s", what, describe(t))
					continue
				}
				switch r.Name {
				case "min", "gte":
					add(r, "minimum", num, true)
				case "max", "lte":
					add(r, "maximum", num, true)
				case "len":
					add(r, "minimum", num, true)
					add(r, "maximum", num, true)
				case "gt":
					add(r, "exclusiveMinimum", num, true)
				case "lt":
					add(r, "exclusiveMaximum", num, true)
				}
			case kindIn(t, model.Duration, model.Time):
				warn(r, "bounds a %s, which JSON Schema cannot say (it is a string): %s", describe(t), notRead)
			case kindIn(t, model.Bytes):
				warn(r, "counts bytes, which JSON Schema cannot say of base64 text: %s", notRead)
			default:
				mismatch("strings, numbers, slices, arrays and maps")
			}
			continue
		case "oneof":
			if !kindIn(t, model.String, model.Int, model.Uint) {
				mismatch("strings and integers")
				continue
			}
			var vals []string
			for _, v := range oneofRE.FindAllString(r.Param, -1) {
				v = strings.ReplaceAll(v, "'", "")
				if !slices.Contains(vals, v) {
					vals = append(vals, v)
				}
			}
			if len(vals) == 0 {
				fail(r, "oneof needs values (oneof=a b 'c d')")
				continue
			}
			bad := false
			for _, v := range vals {
				pv, err := parseValue(t, v)
				if err == nil {
					err = enumMember(itemEnum, pv)
				}
				if err != nil {
					fail(r, "value %q: %v", v, err)
					bad = true
				}
			}
			if !bad {
				out = append(out, vitem{kv{Key: "enum", Value: strings.Join(vals, "|"), Values: vals, HasValue: true, Pos: r.Pos, Rule: r.Text}, r.Name})
			}
			continue
		case "uri":
			if !kindIn(t, model.String) {
				mismatch("strings")
				continue
			}
			warn(r, "accepts a relative reference (\"/a/b\") where format uri requires an absolute URI: %s; write tool:\"format=uri\" to require one, or validate:\"url\"", notRead)
			continue
		case "email", "url", "uuid", "ipv4", "ipv6", "hostname", "hostname_rfc1123":
			if !kindIn(t, model.String) {
				mismatch("strings")
				continue
			}
			if d := formatDiffers[r.Name]; d != "" {
				warn(r, "is read as format %s, which is near the rule but not the same: %s; the decoder checks the format", validateFormats[r.Name], d)
			}
			add(r, "format", validateFormats[r.Name], true)
			continue
		case "ip":
			if !kindIn(t, model.String) {
				mismatch("strings")
				continue
			}
			warn(r, "(an IPv4 or an IPv6 address) has no single format: %s; write tool:\"format=ipv4\" or tool:\"format=ipv6\", or check it in the function", notRead)
			continue
		case "datetime":
			if kindIn(t, model.Time) && r.HasParam && r.Param != "" {
				warn(r, "applies to strings (the validator panics on a time.Time): %s; to read a time.Time in that layout, write tool:\"layout=%s\"", notRead, r.Param)
				continue
			}
			if !kindIn(t, model.String) {
				mismatch("strings")
				continue
			}
			if !r.HasParam || r.Param == "" {
				fail(r, "datetime needs a Go time layout (datetime=2006-01-02)")
				continue
			}
			f, ok := datetimeFormats[r.Param]
			if !ok {
				warn(r, "has no format: only the layouts %q (date-time), %q (date) and %q (time) have one; %s", time.RFC3339, time.DateOnly, "15:04:05Z07:00", notRead)
				continue
			}
			if d := formatDiffers[f]; d != "" {
				warn(r, "is read as format %s, which is near the rule but not the same: %s; the decoder checks the format", f, d)
			}
			add(r, "format", f, true)
			continue
		case "unique":
			if r.HasParam {
				warn(r, "compares the items by a field, which the schema cannot say: %s", notRead)
				continue
			}
			if level == 1 || !isList(t) {
				mismatch("slices, arrays and maps")
				continue
			}
			add(r, "uniqueItems", "", false)
			continue
		}
		// A rule the validator does not know is a typo of a rule toolgen reads, or the
		// rest of the rule before it, split at a comma not written 0x2C: a short word
		// after a parameter is taken for the second.
		if !slices.Contains(validatorrules.Names, r.Name) {
			u := unknownMsg("validate rule", r.Name, readRules)
			prev := j.validate[max(i-1, 0)]
			split := i > 0 && prev.HasParam && !r.HasParam
			switch {
			case u.near != "" && !(split && len(r.Name) < 3):
				if !j.output {
					b.warnf(r.Pos, "field %s: %s: %s", name, u, notRead)
				}
				continue
			case split:
				warn(r, "is no rule the validator knows: if it is the rest of %q's parameter, a comma inside a parameter is written 0x2C (%s0x2C%s); %s", prev.Text, prev.Text, r.Text, notRead)
				continue
			}
		}
		warn(r, "has no JSON Schema equivalent that toolgen reads: %s; check it in the function, or say it with tool tag keywords", notRead)
	}
	return b.keepValid(j, out, omit), nonZero
}

// keepValid merges the keywords of a validate tag: omitempty (or omitnil) makes its
// required rule void, as in the validator; a keyword said twice keeps the stricter
// bound, the first of anything else.
func (b *pkgBuilder) keepValid(j *fieldJob, vs []vitem, omit bool) []vitem {
	var out []vitem
	at := map[string]int{}
	for _, v := range vs {
		if omit && v.rule == "required" {
			continue
		}
		i, dup := at[v.Key]
		if !dup {
			at[v.Key] = len(out)
			out = append(out, v)
			continue
		}
		prev := out[i]
		switch v.Key {
		case "minimum", "exclusiveMinimum", "minLength", "minItems":
			if cmpNumber(v.Value, prev.Value) > 0 {
				out[i] = v
			}
		case "maximum", "exclusiveMaximum", "maxLength", "maxItems":
			if cmpNumber(v.Value, prev.Value) < 0 {
				out[i] = v
			}
		case "required", "optional", "uniqueItems":
		default:
			if v.Value != prev.Value && !j.output {
				name := j.field.GoPath[len(j.field.GoPath)-1]
				b.warnf(v.Pos, "field %s: validate rule %q says %s again (first %q at %s): only the first is read", name, v.Rule, v.Key, prev.Rule, formatPos(prev.Pos))
			}
		}
	}
	// required's minLength 1 says nothing that a format or an enum without "" does not.
	return slices.DeleteFunc(out, func(v vitem) bool {
		return v.rule == "required" && v.Key == "minLength" && slices.ContainsFunc(out, func(o vitem) bool {
			return o.Key == "format" || o.Key == "enum" && !slices.Contains(o.Values, "")
		})
	})
}

// cmpNumber compares two JSON numbers.
func cmpNumber(a, b string) int {
	x, errx := parseNumber(a)
	y, erry := parseNumber(b)
	if errx != nil || erry != nil {
		return 0
	}
	return x.Cmp(y)
}

// validateNumber reads a numeric parameter as the validator does for a value of t
// (strconv with base 0 for integers, ParseFloat for floats) and writes it as JSON.
func validateNumber(s string, t *model.Type) (string, bool) {
	switch t.Kind {
	case model.Int:
		n, err := strconv.ParseInt(s, 0, 64)
		return strconv.FormatInt(n, 10), err == nil
	case model.Uint:
		n, err := strconv.ParseUint(s, 0, 64)
		return strconv.FormatUint(n, 10), err == nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return "", false
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	if !ok {
		return "", false
	}
	return formatNumber(r, t), true
}

// excludesZero reports whether the constraints rule 0 out, as validate's required
// does for a number.
func excludesZero(c model.Constraints, bounds map[string]bound, e *namedEntry) bool {
	zero := new(big.Rat)
	if bd, ok := bounds["minimum"]; ok && bd.num.Cmp(zero) > 0 {
		return true
	}
	if bd, ok := bounds["exclusiveMinimum"]; ok && bd.num.Cmp(zero) >= 0 {
		return true
	}
	if bd, ok := bounds["maximum"]; ok && bd.num.Cmp(zero) < 0 {
		return true
	}
	if bd, ok := bounds["exclusiveMaximum"]; ok && bd.num.Cmp(zero) <= 0 {
		return true
	}
	isZero := func(s string) bool {
		n, err := parseNumber(s)
		return err == nil && n.Sign() == 0
	}
	if c.Const != "" {
		return !isZero(c.Const)
	}
	if len(c.Enum) > 0 {
		return !slices.ContainsFunc(c.Enum, isZero)
	}
	if e != nil && len(e.nt.Enum) > 0 {
		return !slices.ContainsFunc(e.nt.Enum, func(v *model.EnumValue) bool { return isZero(v.Value) })
	}
	return false
}

// warnNonZero warns that validate's required rule on a number also rejects 0, which
// the decoder checks, when nothing in the schema says it.
func (b *pkgBuilder) warnNonZero(j *fieldJob, at kv) {
	if j.output {
		return
	}
	name := j.field.GoPath[len(j.field.GoPath)-1]
	b.warnf(at.Pos, "field %s: validate rule %q also rejects 0, which the schema cannot say here: the decoder refuses 0, but the schema does not tell the model; to tell it, add a bound (validate:\"gt=0\" or tool:\"minimum=1\")", name, at.Rule)
}
