package dialect

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/runtime/jsonread"
	"github.com/toolgen/toolgen/runtime/schematree"
)

// This file holds what the provider dialects share: walking a schema through its
// references, inlining a reference that has keywords beside it, and restating in a
// description the keywords a dialect has to drop. The decoder enforces every keyword
// of the canonical schema whatever a dialect sends, so a dropped keyword only loses the
// provider's help, never a check; restating it tells the model anyway.

// defIndex returns the "$defs" of root by key.
func defIndex(root *schema) map[string]*schema {
	defs := make(map[string]*schema, len(root.Defs))
	for _, e := range root.Defs {
		defs[e.Name] = e.Schema
	}
	return defs
}

// refKey returns the "$defs" key a local reference points to. The builder's keys never
// hold "/" or "~", so no unescaping is needed.
func refKey(ref string) string {
	return strings.TrimPrefix(ref, "#/$defs/")
}

// children calls fn for each direct subschema of n (not its "$defs"), with the JSON
// Pointer segment that leads to it.
func children(n *schema, fn func(c *schema, seg string)) {
	if n.Items != nil {
		fn(n.Items, "/items")
	}
	if n.Properties != nil {
		for _, e := range *n.Properties {
			fn(e.Schema, "/properties/"+jsonread.EscapeToken(e.Name))
		}
	}
	if n.AdditionalProperties != nil {
		fn(n.AdditionalProperties, "/additionalProperties")
	}
	if n.PropertyNames != nil {
		fn(n.PropertyNames, "/propertyNames")
	}
	for i, a := range n.AnyOf {
		fn(a, "/anyOf/"+strconv.Itoa(i))
	}
	for i, a := range n.OneOf {
		fn(a, "/oneOf/"+strconv.Itoa(i))
	}
}

// visitRefs walks the tree under root, following each reference into "$defs" the first
// time it is met, depth first. fn gets each node, its JSON Pointer (within the
// referencing tree, so a warning names a path the author recognizes) and the nearest
// enclosing property's field; it returns false to skip the node's subschemas.
func visitRefs(root *schema, fn func(n *schema, path string, f string) bool) {
	defs := defIndex(root)
	entered := map[string]bool{}
	var visit func(n *schema, path string, f string)
	visit = func(n *schema, path string, f string) {
		if n == nil {
			return
		}
		if n.Ext.field != "" {
			f = n.Ext.field
		}
		if !fn(n, path, f) {
			return
		}
		if n.Ref != "" {
			key := refKey(n.Ref)
			if d := defs[key]; d != nil && !entered[key] {
				entered[key] = true
				visit(d, path, f)
			}
		}
		children(n, func(c *schema, seg string) { visit(c, path+seg, f) })
	}
	visit(root, "", "")
}

// cyclicDefs returns the keys of the "$defs" entries that reach themselves.
func cyclicDefs(root *schema) map[string]bool {
	refs := map[string][]string{}
	for _, e := range root.Defs {
		var out []string
		var collect func(n *schema)
		collect = func(n *schema) {
			if n.Ref != "" {
				out = append(out, refKey(n.Ref))
			}
			children(n, func(c *schema, _ string) { collect(c) })
		}
		collect(e.Schema)
		refs[e.Name] = out
	}
	cyclic := map[string]bool{}
	for _, e := range root.Defs {
		seen := map[string]bool{}
		stack := slices.Clone(refs[e.Name])
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if k == e.Name {
				cyclic[e.Name] = true
				break
			}
			if !seen[k] {
				seen[k] = true
				stack = append(stack, refs[k]...)
			}
		}
	}
	return cyclic
}

// isMap reports whether n is an object with free property names: a Go map.
func isMap(n *schema) bool {
	return n.AdditionalProperties != nil && n.AdditionalProperties.Boolean == nil && n.Properties == nil
}

// isOpenObject reports whether n is an object that says nothing of its properties, so
// takes any: {"type":"object"}. toolgen never writes one; a schema written by hand may.
func isOpenObject(n *schema) bool {
	return slices.Contains(n.Type, "object") && n.Properties == nil && n.AdditionalProperties == nil && n.Ref == "" && n.AnyOf == nil && n.OneOf == nil
}

// isFreeForm reports whether n accepts any JSON value: {} or true.
func isFreeForm(n *schema) bool {
	if n.Boolean != nil {
		return *n.Boolean
	}
	return len(n.Type) == 0 && n.Ref == "" && n.Enum == nil && n.Const == nil && n.AnyOf == nil && n.OneOf == nil &&
		n.Properties == nil && n.Items == nil && n.AdditionalProperties == nil
}

// hasRefSiblings reports whether n is a reference with other keywords beside "$ref".
func hasRefSiblings(n *schema) bool {
	if n.Ref == "" {
		return false
	}
	c := *n
	c.Ref = ""
	return c.Keywords() != "{}"
}

// overlay copies every keyword set on src, except "$ref" and "$defs", onto dst: what
// stands beside a reference wins over the definition's own keyword.
func overlay(dst, src *schema) {
	if src.Type != nil {
		dst.Type = slices.Clone(src.Type)
	}
	if src.Title != "" {
		dst.Title = src.Title
	}
	if src.Description != "" {
		// The property's description replaces the type's, but not the type's note
		// (its documented enum values, the syntax of a duration).
		d := src.Description
		if dst.Ext.note != "" && !strings.Contains(d, dst.Ext.note) {
			d = schematree.JoinText(d, dst.Ext.note)
		}
		dst.Description = d
	}
	if src.Enum != nil {
		dst.Enum = src.Clone().Enum
	}
	if src.Const != nil {
		dst.Const = slices.Clone(src.Const)
	}
	if src.Format != "" {
		dst.Format = src.Format
	}
	if src.Pattern != "" {
		dst.Pattern = src.Pattern
	}
	if src.ContentEncoding != "" {
		dst.ContentEncoding = src.ContentEncoding
	}
	if src.MinLength != nil {
		dst.MinLength = schematree.CloneInt(src.MinLength)
	}
	if src.MaxLength != nil {
		dst.MaxLength = schematree.CloneInt(src.MaxLength)
	}
	if src.Minimum != nil {
		dst.Minimum = slices.Clone(src.Minimum)
	}
	if src.ExclusiveMinimum != nil {
		dst.ExclusiveMinimum = slices.Clone(src.ExclusiveMinimum)
	}
	if src.Maximum != nil {
		dst.Maximum = slices.Clone(src.Maximum)
	}
	if src.ExclusiveMaximum != nil {
		dst.ExclusiveMaximum = slices.Clone(src.ExclusiveMaximum)
	}
	if src.MultipleOf != nil {
		dst.MultipleOf = slices.Clone(src.MultipleOf)
	}
	if src.Items != nil {
		dst.Items = src.Items.Clone()
	}
	if src.MinItems != nil {
		dst.MinItems = schematree.CloneInt(src.MinItems)
	}
	if src.MaxItems != nil {
		dst.MaxItems = schematree.CloneInt(src.MaxItems)
	}
	if src.UniqueItems {
		dst.UniqueItems = true
	}
	if src.Properties != nil {
		p := schematree.CloneMap(*src.Properties)
		dst.Properties = &p
	}
	if src.Required != nil {
		dst.Required = slices.Clone(src.Required)
	}
	if src.AdditionalProperties != nil {
		dst.AdditionalProperties = src.AdditionalProperties.Clone()
	}
	if src.PropertyNames != nil {
		dst.PropertyNames = src.PropertyNames.Clone()
	}
	if src.MinProperties != nil {
		dst.MinProperties = schematree.CloneInt(src.MinProperties)
	}
	if src.MaxProperties != nil {
		dst.MaxProperties = schematree.CloneInt(src.MaxProperties)
	}
	if src.AnyOf != nil {
		dst.AnyOf = src.Clone().AnyOf
	}
	if src.OneOf != nil {
		dst.OneOf = src.Clone().OneOf
	}
	if src.Default != nil {
		dst.Default = slices.Clone(src.Default)
	}
	if src.Deprecated {
		dst.Deprecated = true
	}
	if src.Ext.field != "" {
		dst.Ext.field = src.Ext.field
	}
}

// mergeRef returns the definition n refers to, with the keywords beside n's "$ref"
// laid over it, or nil if the definition is missing.
func mergeRef(n *schema, defs map[string]*schema) *schema {
	d := defs[refKey(n.Ref)]
	if d == nil {
		return nil
	}
	body := d.Clone()
	body.Defs = nil
	side := *n
	side.Ref = ""
	overlay(body, &side)
	return body
}

// inlineRefSiblings rewrites, in root (a clone) and its "$defs", every reference that
// has keywords beside it, which strict modes do not take: it is replaced by the
// definition with those keywords laid over it, or, for a definition being inlined
// already (recursion), by {"anyOf":[{"$ref":...}]} with the keywords beside the anyOf.
// Definitions no longer referenced are removed.
func inlineRefSiblings(root *schema) {
	defs := defIndex(root)
	var rewrite func(n *schema, stack []string) *schema
	rewrite = func(n *schema, stack []string) *schema {
		if n == nil {
			return nil
		}
		if hasRefSiblings(n) {
			key := refKey(n.Ref)
			if merged := mergeRef(n, defs); merged != nil && !slices.Contains(stack, key) {
				return rewrite(merged, append(slices.Clone(stack), key))
			}
			w := n.Clone()
			w.Ref = ""
			w.AnyOf = []*schema{{Ref: n.Ref}}
			n = w
		}
		n.Items = rewrite(n.Items, stack)
		if n.Properties != nil {
			for i := range *n.Properties {
				(*n.Properties)[i].Schema = rewrite((*n.Properties)[i].Schema, stack)
			}
		}
		n.AdditionalProperties = rewrite(n.AdditionalProperties, stack)
		n.PropertyNames = rewrite(n.PropertyNames, stack)
		for i := range n.AnyOf {
			n.AnyOf[i] = rewrite(n.AnyOf[i], stack)
		}
		for i := range n.OneOf {
			n.OneOf[i] = rewrite(n.OneOf[i], stack)
		}
		return n
	}
	defsOnly := root.Defs
	root.Defs = nil
	rewritten := rewrite(root, nil)
	*root = *rewritten
	for i := range defsOnly {
		defsOnly[i].Schema = rewrite(defsOnly[i].Schema, []string{defsOnly[i].Name})
	}
	root.Defs = defsOnly
	pruneDefs(root)
}

// pruneDefs removes the "$defs" entries root no longer reaches.
func pruneDefs(root *schema) {
	used := map[string]bool{}
	visitRefs(root, func(n *schema, _ string, _ string) bool {
		if n.Ref != "" {
			used[refKey(n.Ref)] = true
		}
		return true
	})
	root.Defs = slices.DeleteFunc(root.Defs, func(e namedSchema) bool { return !used[e.Name] })
	if len(root.Defs) == 0 {
		root.Defs = nil
	}
}

// nullableProperty returns a property made to accept null, for strict modes that send
// null for an optional property: a type array for a plain node, else an anyOf with
// null that takes over the property's own keywords (description, title, default,
// deprecation) so they stay beside the union.
func nullableProperty(s *schema) *schema {
	if s.AcceptsNull() {
		return s
	}
	if len(s.Type) == 1 && s.Ref == "" && s.Enum == nil && s.Const == nil && s.AnyOf == nil && s.OneOf == nil {
		s.Type = append(s.Type, "null")
		return s
	}
	if bare := *s; s.AnyOf != nil {
		// An anyOf with nothing beside it but what a property says of itself (a tagged
		// union, once OpenAI's anyOf): null is one more branch, not a union around it.
		bare.AnyOf, bare.Title, bare.Description, bare.Default, bare.Deprecated = nil, "", "", nil, false
		if bare.Keywords() == "{}" {
			s.AnyOf = append(s.AnyOf, &schema{Type: typeList{"null"}})
			return s
		}
	}
	w := &schema{
		AnyOf:       []*schema{s, {Type: typeList{"null"}}},
		Title:       s.Title,
		Description: s.Description,
		Default:     s.Default,
		Deprecated:  s.Deprecated,
		Ext:         ext{field: s.Ext.field},
	}
	s.Title, s.Description, s.Default, s.Deprecated = "", "", nil, false
	return w
}

// restate appends sentences to n's description as a paragraph of their own.
func restate(n *schema, sentences []string) {
	if len(sentences) > 0 {
		n.Description = schematree.JoinText(n.Description, strings.Join(sentences, " "))
	}
}

// Keywords a dialect may drop; see dropKeywords.
const (
	kwFormat          = "format"
	kwContentEncoding = "contentEncoding"
	kwMinLength       = "minLength"
	kwMaxLength       = "maxLength"
	kwMinimum         = "minimum"
	kwExclusiveMin    = "exclusiveMinimum"
	kwMaximum         = "maximum"
	kwExclusiveMax    = "exclusiveMaximum"
	kwMultipleOf      = "multipleOf"
	kwMinItems        = "minItems"
	kwMaxItems        = "maxItems"
	kwUniqueItems     = "uniqueItems"
	kwMinProperties   = "minProperties"
	kwMaxProperties   = "maxProperties"
	kwPropertyNames   = "propertyNames"
	kwDefault         = "default"
	kwDeprecated      = "deprecated"
)

// dropKeywords removes from n the keywords keep refuses and returns sentences that
// restate them, in a fixed order.
func dropKeywords(n *schema, keep func(kw string, n *schema) bool) []string {
	drop := func(kw string, present bool) bool { return present && !keep(kw, n) }
	var out []string
	if drop(kwFormat, n.Format != "") {
		out = append(out, formatSentence(n.Format))
		n.Format = ""
	}
	if drop(kwContentEncoding, n.ContentEncoding != "") {
		out = append(out, encodingSentence(n.ContentEncoding))
		n.ContentEncoding = ""
	}
	var lo, hi *int
	if drop(kwMinLength, n.MinLength != nil) {
		lo, n.MinLength = n.MinLength, nil
	}
	if drop(kwMaxLength, n.MaxLength != nil) {
		hi, n.MaxLength = n.MaxLength, nil
	}
	out = appendCount(out, lo, hi, "character", "characters")
	var min, max json.RawMessage
	if drop(kwMinimum, n.Minimum != nil) {
		min, n.Minimum = n.Minimum, nil
	}
	if drop(kwMaximum, n.Maximum != nil) {
		max, n.Maximum = n.Maximum, nil
	}
	switch {
	case min != nil && max != nil:
		out = append(out, fmt.Sprintf("From %s to %s.", min, max))
	case min != nil:
		out = append(out, fmt.Sprintf("At least %s.", min))
	case max != nil:
		out = append(out, fmt.Sprintf("At most %s.", max))
	}
	if drop(kwExclusiveMin, n.ExclusiveMinimum != nil) {
		out = append(out, fmt.Sprintf("Greater than %s.", n.ExclusiveMinimum))
		n.ExclusiveMinimum = nil
	}
	if drop(kwExclusiveMax, n.ExclusiveMaximum != nil) {
		out = append(out, fmt.Sprintf("Less than %s.", n.ExclusiveMaximum))
		n.ExclusiveMaximum = nil
	}
	if drop(kwMultipleOf, n.MultipleOf != nil) {
		out = append(out, fmt.Sprintf("A multiple of %s.", n.MultipleOf))
		n.MultipleOf = nil
	}
	lo, hi = nil, nil
	if drop(kwMinItems, n.MinItems != nil) {
		lo, n.MinItems = n.MinItems, nil
	}
	if drop(kwMaxItems, n.MaxItems != nil) {
		hi, n.MaxItems = n.MaxItems, nil
	}
	out = appendCount(out, lo, hi, "item", "items")
	if drop(kwUniqueItems, n.UniqueItems) {
		out = append(out, "Items must be unique.")
		n.UniqueItems = false
	}
	lo, hi = nil, nil
	if drop(kwMinProperties, n.MinProperties != nil) {
		lo, n.MinProperties = n.MinProperties, nil
	}
	if drop(kwMaxProperties, n.MaxProperties != nil) {
		hi, n.MaxProperties = n.MaxProperties, nil
	}
	out = appendCount(out, lo, hi, "entry", "entries")
	if drop(kwPropertyNames, n.PropertyNames != nil) {
		out = append(out, keysSentence(n.PropertyNames))
		n.PropertyNames = nil
	}
	if drop(kwDefault, n.Default != nil) {
		out = append(out, fmt.Sprintf("Defaults to %s.", n.Default))
		n.Default = nil
	}
	if drop(kwDeprecated, n.Deprecated) {
		out = append(out, "Deprecated.")
		n.Deprecated = false
	}
	return out
}

// appendCount appends a sentence for a lower and an upper count of things.
func appendCount(out []string, lo, hi *int, one, many string) []string {
	unit := func(n int) string {
		if n == 1 {
			return one
		}
		return many
	}
	switch {
	case lo != nil && hi != nil && *lo == *hi:
		return append(out, fmt.Sprintf("Exactly %d %s.", *lo, unit(*lo)))
	case lo != nil && hi != nil:
		return append(out, fmt.Sprintf("From %d to %d %s.", *lo, *hi, many))
	case lo != nil:
		return append(out, fmt.Sprintf("At least %d %s.", *lo, unit(*lo)))
	case hi != nil:
		return append(out, fmt.Sprintf("At most %d %s.", *hi, unit(*hi)))
	}
	return out
}

// formatSentences restate the formats toolgen writes.
var formatSentences = map[string]string{
	"date-time": "A date and time in RFC 3339 format, such as 2026-01-02T15:04:05Z.",
	"date":      "A date in RFC 3339 format (YYYY-MM-DD).",
	"time":      "A time of day in RFC 3339 format (HH:MM:SS, with an optional offset).",
	"duration":  "An ISO 8601 duration, such as P3DT4H.",
	"email":     "An email address.",
	"hostname":  "A host name.",
	"ipv4":      "An IPv4 address.",
	"ipv6":      "An IPv6 address.",
	"uri":       "An absolute URI.",
	"uuid":      "A UUID.",
}

func formatSentence(f string) string {
	if s, ok := formatSentences[f]; ok {
		return s
	}
	return "Format: " + f + "."
}

func encodingSentence(enc string) string {
	if enc == "base64" {
		return "Base64-encoded (standard alphabet, with padding)."
	}
	return "Encoded as " + enc + "."
}

// keysSentence restates a "propertyNames" schema.
func keysSentence(names *schema) string {
	if len(names.Enum) > 0 {
		return "Keys are " + valueList(names.Enum) + "."
	}
	return "Keys must match " + names.Keywords() + "."
}

// valueList lists JSON values as "a", "b" or "c".
func valueList(vals []json.RawMessage) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = string(v)
	}
	switch len(parts) {
	case 0:
		return "nothing"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// integerText reports whether a JSON number is an integer and returns it.
func integerText(raw json.RawMessage) (*big.Int, bool) {
	r, ok := new(big.Rat).SetString(string(raw))
	if !ok || !r.IsInt() {
		return nil, false
	}
	return r.Num(), true
}

// summary describes a schema in a few words, for a description that stands in for it
// ("an integer", "a list of strings", "an object"). stack holds the "$defs" keys being
// described already: a reference to one of them is "the same kind of object".
func summary(n *schema, defs map[string]*schema, stack []string) string {
	if n == nil || isFreeForm(n) {
		return "any JSON value"
	}
	if n.Boolean != nil {
		return "nothing"
	}
	if n.Ref != "" {
		key := refKey(n.Ref)
		d := defs[key]
		if d == nil || slices.Contains(stack, key) {
			return "a " + key + " (the same kind of value as the one it is in)"
		}
		return summary(d, defs, append(slices.Clone(stack), key))
	}
	var types []string
	for _, t := range n.Type {
		if t != "null" {
			types = append(types, t)
		}
	}
	nullable := slices.Contains(n.Type, "null")
	var parts []string
	switch {
	case n.AnyOf != nil || n.OneOf != nil:
		for _, a := range slices.Concat(n.AnyOf, n.OneOf) {
			if a.IsNull() {
				nullable = true
				continue
			}
			parts = append(parts, summary(a, defs, stack))
		}
	case n.Enum != nil:
		parts = append(parts, "one of "+valueList(n.Enum))
	case n.Const != nil:
		parts = append(parts, string(n.Const))
	default:
		for _, t := range types {
			switch t {
			case "array":
				parts = append(parts, "a list of "+plural(summary(n.Items, defs, stack)))
			case "object":
				if isMap(n) {
					parts = append(parts, "an object mapping keys to "+plural(summary(n.AdditionalProperties, defs, stack)))
				} else {
					parts = append(parts, "an object")
				}
			case "integer":
				parts = append(parts, "an integer")
			default:
				parts = append(parts, "a "+t)
			}
		}
	}
	if nullable {
		parts = append(parts, "null")
	}
	return strings.Join(parts, " or ")
}

// plural turns "an integer" into "integers" for the simple summaries, and leaves other
// phrases as "values that are ...".
func plural(s string) string {
	for _, p := range []string{"a ", "an "} {
		if rest, ok := strings.CutPrefix(s, p); ok && !strings.ContainsAny(rest, " ") {
			return rest + "s"
		}
	}
	return "values that are " + s
}
