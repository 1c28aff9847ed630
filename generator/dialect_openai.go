package generator

import (
	"slices"

	"github.com/toolgen/toolgen/model"
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

// The providers' names in warnings.
const (
	openAIDialect    = "OpenAI"
	anthropicDialect = "Anthropic"
	geminiDialect    = "Gemini"
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
func lowerOpenAI(ts *toolSchema) (*schema, bool, issueList) {
	if !ts.tool.Strict {
		return ts.input, false, nil
	}
	var issues issueList
	strictBlockers(ts.input, &issues)
	if len(issues) > 0 {
		return ts.input, false, issues
	}
	s := ts.input.clone()
	inlineRefSiblings(s)
	s.walk(func(n *schema) {
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
	s.walk(func(n *schema) { n.restate(dropKeywords(n, openAIStrictKeeps)) })
	openAILimits(s, &issues)
	if len(issues) > 0 {
		return ts.input, false, issues
	}
	return s, true, nil
}

// strictBlockers adds an issue for every node a strict mode cannot describe: maps and
// free-form values, which need additionalProperties other than false or no type.
func strictBlockers(root *schema, issues *issueList) {
	visitRefs(root, func(n *schema, path string, f *model.Field) bool {
		switch {
		case n.boolean != nil:
			return false
		case n.isMap():
			issues.add(f, path, "a map (free property names) cannot be strict: strict mode needs additionalProperties false on every object")
			return false
		case n.isFreeForm():
			issues.add(f, path, "a free-form value (any JSON) cannot be strict: strict mode needs a type on every value")
			return false
		}
		return true
	})
}

// openAILimits adds an issue for each of OpenAI's strict-mode limits s exceeds.
func openAILimits(s *schema, issues *issueList) {
	props, enumValues, text := 0, 0, 0
	s.walk(func(n *schema) {
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
			issues.add(n.field, "", "an enum of %d values and %d characters is over strict mode's limit of %d characters for an enum of over %d values", len(n.Enum), enumText, openAIMaxEnumText, openAIBigEnum)
		}
	})
	if props > openAIMaxProperties {
		issues.add(nil, "", "%d properties are over strict mode's limit of %d", props, openAIMaxProperties)
	}
	if enumValues > openAIMaxEnumValues {
		issues.add(nil, "", "%d enum values are over strict mode's limit of %d", enumValues, openAIMaxEnumValues)
	}
	if text > openAIMaxSchemaText {
		issues.add(nil, "", "%d characters of property names and enum values are over strict mode's limit of %d", text, openAIMaxSchemaText)
	}
	if d := objectDepth(s); d > openAIMaxDepth {
		issues.add(nil, "", "objects nested %d deep are over strict mode's limit of %d", d, openAIMaxDepth)
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
		n.children(func(c *schema, _ string) { d = max(d, depth(c, stack)) })
		if n.Properties != nil {
			d++
		}
		return d
	}
	return depth(root, nil)
}
