package dialect

import (
	"slices"
)

// anthropicMaxUnions is the number of union-typed values (type arrays, anyOf, oneOf) a strict
// Anthropic tool may have.
const anthropicMaxUnions = 16

// anthropicFormats are the string formats Anthropic's strict mode supports (the SDK's
// supportedStringFormats).
var anthropicFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}

// anthropicStrictKeeps says which droppable keywords Anthropic's strict mode takes:
// minItems (0 or 1, see lowerAnthropic) and the listed formats. Its allowed keys are
// $ref, $defs, type, anyOf, oneOf, allOf, description, title, enum, const, properties,
// additionalProperties (false), required, items, minItems, format and pattern.
func anthropicStrictKeeps(kw string, n *schema) bool {
	switch kw {
	case kwMinItems:
		return *n.MinItems <= 1
	case kwFormat:
		return slices.Contains(anthropicFormats, n.Format)
	}
	return false
}

// lowerAnthropic returns the tool's input_schema for Anthropic and whether it is
// strict. Without strict mode Anthropic takes any JSON Schema 2020-12 object, so the
// canonical schema goes as it is. A strict tool gets only the keys strict mode allows,
// the others restated in descriptions, with a minItems over 1 lowered to 1 (and
// restated) and references with keywords beside them inlined. Optional properties stay
// optional. Maps, free-form values, recursive types and more than 16 union-typed values
// keep the tool out of strict mode, with issues that say why.
func lowerAnthropic(input *schema, strict bool) (*schema, bool, issueList) {
	if !strict {
		return input, false, nil
	}
	var issues issueList
	strictBlockers(input, &issues)
	if cyclic := cyclicDefs(input); len(cyclic) > 0 {
		visitRefs(input, func(n *schema, path string, f string) bool {
			if n.Ref != "" && cyclic[refKey(n.Ref)] {
				issues.add(f, "", "type %s is recursive, which strict mode does not allow", refKey(n.Ref))
				return false
			}
			return true
		})
	}
	if len(issues) > 0 {
		return input, false, issues
	}
	s := input.Clone()
	inlineRefSiblings(s)
	unions := 0
	s.Walk(func(n *schema) {
		// Strict mode needs additionalProperties false on every object; toolgen writes
		// it, a schema written by hand may leave it out.
		if n.Properties != nil && n.AdditionalProperties == nil {
			n.AdditionalProperties = boolSchema(false)
		}
		// Item counts are restated together; minItems stays as 1 when it was more.
		var lo, hi *int
		if n.MinItems != nil && *n.MinItems > 1 {
			lo, n.MinItems = n.MinItems, intPtr(1)
		}
		if n.MaxItems != nil {
			hi, n.MaxItems = n.MaxItems, nil
		}
		sentences := dropKeywords(n, anthropicStrictKeeps)
		restate(n, append(appendCount(nil, lo, hi, "item", "items"), sentences...))
		if len(n.Type) > 1 || len(n.AnyOf) > 0 || len(n.OneOf) > 0 {
			unions++
		}
	})
	if unions > anthropicMaxUnions {
		issues.add("", "", "%d union-typed values (nullable, anyOf or oneOf) are over strict mode's limit of %d", unions, anthropicMaxUnions)
		return input, false, issues
	}
	return s, true, nil
}
