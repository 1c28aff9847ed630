package dialect

import (
	"slices"
	"strconv"
	"strings"
)

// OpenAI's strict mode (Structured Outputs), as of this writing. A schema over these
// limits is sent without strict mode.
const (
	openAIMaxDepth      = 10
	openAIMaxProperties = 5000
	openAIMaxEnumValues = 1000
	openAIMaxEnumText   = 15000 // characters in one string enum of more than openAIBigEnum values
	openAIBigEnum       = 250
	openAIMaxSchemaText = 120000 // characters of property names, enum and const values
)

// openAIFormats are the string formats strict mode supports.
var openAIFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

// openAIStrictKeeps says which droppable keywords OpenAI's strict mode takes: numeric
// bounds, item counts, pattern and the listed formats. minLength and maxLength, which
// older documentation lists as unsupported, are left out to be safe.
func openAIStrictKeeps(kw string, n *schema) bool {
	switch kw {
	case kwMinimum, kwMaximum, kwExclusiveMin, kwExclusiveMax, kwMultipleOf, kwMinItems, kwMaxItems:
		return true
	case kwFormat:
		return slices.Contains(openAIFormats, n.Format)
	}
	return false
}

// lowerOpenAI returns the tool's parameters for OpenAI, the same for Chat Completions
// and the Responses API, and whether they are strict. A tool that asks for strict mode
// gets a strict schema: every property required, the optional ones nullable (OpenAI
// sends null for them, which the decoder reads as absent), additionalProperties false
// everywhere, references with keywords beside them inlined, and the keywords strict mode
// refuses restated in descriptions. When the schema cannot be made strict (maps,
// free-form values, OpenAI's size limits), the canonical schema is sent without strict
// mode and the issues say why.
func lowerOpenAI(input *schema, strict bool) (*schema, bool, issueList) {
	if !strict {
		return input, false, nil
	}
	var issues issueList
	strictBlockers(input, &issues)
	if len(issues) > 0 {
		return input, false, issues
	}
	s := input.Clone()
	inlineRefSiblings(s)
	// Strict mode has anyOf, not oneOf: a tagged union's variants exclude each other by
	// their discriminator's const, so anyOf says the same of them. (strictBlockers keeps
	// a node with both out of strict mode.)
	s.Walk(func(n *schema) {
		if n.OneOf != nil {
			n.AnyOf, n.OneOf = n.OneOf, nil
		}
	})
	s.Walk(func(n *schema) {
		if n.Properties == nil {
			return
		}
		var names []string
		for i, e := range *n.Properties {
			names = append(names, e.Name)
			if !slices.Contains(n.Required, e.Name) {
				(*n.Properties)[i].Schema = nullableProperty(e.Schema)
			}
		}
		n.Required = names
		n.AdditionalProperties = boolSchema(false)
	})
	s.Walk(func(n *schema) { restate(n, dropKeywords(n, openAIStrictKeeps)) })
	openAILimits(s, &issues)
	if len(issues) > 0 {
		return input, false, issues
	}
	return s, true, nil
}

// strictBlockers adds an issue for every node a strict mode cannot describe: maps and
// free-form values, which need additionalProperties other than false or no type.
func strictBlockers(root *schema, issues *issueList) {
	defs := defIndex(root)
	visitRefs(root, func(n *schema, path string, f string) bool {
		switch {
		case n.Boolean != nil:
			return false
		case len(n.Ext.extra) > 0:
			issues.add(f, path, "%s cannot be strict: this lowering does not know %s", keywordList(n.Ext.extra), pronoun(n.Ext.extra))
			return false
		case n.AnyOf != nil && n.OneOf != nil:
			issues.add(f, path, "anyOf and oneOf on one value cannot be strict: strict mode has anyOf alone")
			return false
		case n.Ref != "" && defs[refKey(n.Ref)] == nil:
			issues.add(f, path, "reference %q cannot be strict: it is not to an entry of the root's $defs", n.Ref)
			return false
		case isOpenObject(n):
			issues.add(f, path, "an object with neither properties nor additionalProperties takes any property names, which strict mode cannot describe")
			return false
		case isMap(n):
			issues.add(f, path, "a map (free property names) cannot be strict: strict mode needs additionalProperties false on every object")
			return false
		case isFreeForm(n):
			issues.add(f, path, "a free-form value (any JSON) cannot be strict: strict mode needs a type on every value")
			return false
		}
		return true
	})
}

// keywordList names keywords: "keyword oneOf", "keywords oneOf and not".
func keywordList(kws []string) string {
	q := make([]string, len(kws))
	for i, k := range kws {
		q[i] = strconv.Quote(k)
	}
	if len(q) == 1 {
		return "keyword " + q[0]
	}
	return "keywords " + strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// pronoun is "it" or "them", for kws.
func pronoun(kws []string) string {
	if len(kws) == 1 {
		return "it"
	}
	return "them"
}

// openAILimits adds an issue for each of OpenAI's strict-mode limits s exceeds.
func openAILimits(s *schema, issues *issueList) {
	props, enumValues, text := 0, 0, 0
	s.Walk(func(n *schema) {
		if n.Properties != nil {
			props += len(*n.Properties)
			for _, e := range *n.Properties {
				text += len(e.Name)
			}
		}
		enumValues += len(n.Enum)
		enumText := 0
		for _, v := range n.Enum {
			enumText += len(v)
		}
		text += enumText + len(n.Const)
		if len(n.Enum) > openAIBigEnum && enumText > openAIMaxEnumText {
			issues.add(n.Ext.field, "", "an enum of %d values and %d characters is over strict mode's limit of %d characters for an enum of over %d values", len(n.Enum), enumText, openAIMaxEnumText, openAIBigEnum)
		}
	})
	if props > openAIMaxProperties {
		issues.add("", "", "%d properties are over strict mode's limit of %d", props, openAIMaxProperties)
	}
	if enumValues > openAIMaxEnumValues {
		issues.add("", "", "%d enum values are over strict mode's limit of %d", enumValues, openAIMaxEnumValues)
	}
	if text > openAIMaxSchemaText {
		issues.add("", "", "%d characters of property names and enum values are over strict mode's limit of %d", text, openAIMaxSchemaText)
	}
	if d := objectDepth(s); d > openAIMaxDepth {
		issues.add("", "", "objects nested %d deep are over strict mode's limit of %d", d, openAIMaxDepth)
	}
}

// objectDepth returns how deeply objects nest in s, the root object counting 1,
// following references; a recursive reference adds nothing more (it is unbounded by
// nature, and OpenAI accepts recursion).
func objectDepth(root *schema) int {
	defs := defIndex(root)
	var depth func(n *schema, stack []string) int
	depth = func(n *schema, stack []string) int {
		if n == nil {
			return 0
		}
		d := 0
		if n.Ref != "" {
			key := refKey(n.Ref)
			if def := defs[key]; def != nil && !slices.Contains(stack, key) {
				d = depth(def, append(slices.Clone(stack), key))
			}
		}
		children(n, func(c *schema, _ string) { d = max(d, depth(c, stack)) })
		if n.Properties != nil {
			d++
		}
		return d
	}
	return depth(root, nil)
}
