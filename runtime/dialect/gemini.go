package dialect

import (
	"encoding/json"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/runtime/jsonread"
	"github.com/toolgen/toolgen/runtime/schematree"
)

// geminiSchema is a node of Gemini's function parameters: the OpenAPI 3.0 subset of
// genai.Schema. Its fields are the ones genai.Schema has, written in this order.
type geminiSchema struct {
	Type          string          `json:"type,omitempty"`
	Format        string          `json:"format,omitempty"`
	Title         string          `json:"title,omitempty"`
	Description   string          `json:"description,omitempty"`
	Nullable      bool            `json:"nullable,omitempty"`
	Enum          []string        `json:"enum,omitempty"`
	Pattern       string          `json:"pattern,omitempty"`
	MinLength     *int            `json:"minLength,omitempty"`
	MaxLength     *int            `json:"maxLength,omitempty"`
	Minimum       json.RawMessage `json:"minimum,omitempty"`
	Maximum       json.RawMessage `json:"maximum,omitempty"`
	Items         *geminiSchema   `json:"items,omitempty"`
	MinItems      *int            `json:"minItems,omitempty"`
	MaxItems      *int            `json:"maxItems,omitempty"`
	Properties    geminiMap       `json:"properties,omitempty"`
	Required      []string        `json:"required,omitempty"`
	MinProperties *int            `json:"minProperties,omitempty"`
	MaxProperties *int            `json:"maxProperties,omitempty"`
	AnyOf         []*geminiSchema `json:"anyOf,omitempty"`
	Default       json.RawMessage `json:"default,omitempty"`

	// notes restate what the node could not carry; finish appends them to Description.
	notes string
	// note is the canonical node's note (an enum's documented values), kept when a
	// property's description replaces the type's.
	note string
}

// finish appends the notes of n and its subschemas to their descriptions.
func (n *geminiSchema) finish() {
	if n == nil {
		return
	}
	n.Description, n.notes = schematree.JoinText(n.Description, n.notes), ""
	n.Items.finish()
	for _, p := range n.Properties {
		p.Schema.finish()
	}
	for _, a := range n.AnyOf {
		a.finish()
	}
}

// describe replaces n's description with a property's own, keeping the type's note.
func (n *geminiSchema) describe(desc string) {
	if desc == "" {
		return
	}
	if n.note != "" && !strings.Contains(desc, n.note) {
		desc = schematree.JoinText(desc, n.note)
	}
	n.Description = desc
}

// geminiMap is "properties", in declaration order.
type geminiMap = schematree.Map[*geminiSchema]

// geminiProperty is one entry of a geminiMap.
type geminiProperty = schematree.Entry[*geminiSchema]

// geminiTypes maps JSON Schema types to Gemini's.
var geminiTypes = map[string]string{
	"string": "STRING", "integer": "INTEGER", "number": "NUMBER", "boolean": "BOOLEAN",
	"array": "ARRAY", "object": "OBJECT", "null": "NULL",
}

// geminiLowering lowers one tool's canonical input schema to Gemini's subset.
type geminiLowering struct {
	defs map[string]*schema
	// stack holds the "$defs" keys being inlined, to stop at recursion.
	stack  []string
	issues issueList
}

// lowerGemini returns the tool's Gemini parameters: the canonical schema with every
// "$defs" entry inlined, upper-case types, nullable instead of null in a type array or
// an anyOf, and only the keywords genai.Schema has. What Gemini cannot carry is restated
// in descriptions:
//
//   - enum and const stay on strings only (as format "enum"); on numbers and booleans
//     they become "Must be one of ..." (the decoder wants numbers, not strings);
//   - format stays only for date-time (the one string format Gemini documents besides
//     enum); exclusiveMinimum/exclusiveMaximum on an integer become minimum/maximum when
//     no bound is tighter, else are restated, as are multipleOf, uniqueItems,
//     contentEncoding, propertyNames and deprecated;
//   - a map is an OBJECT without properties, its values described;
//   - a free-form value is an anyOf of every type;
//   - a recursive type is inlined once; below that its values are plain OBJECTs, with a
//     warning, since Gemini has no references.
//
// The issues are warnings: nothing here switches off anything.
func lowerGemini(input *schema) (*geminiSchema, issueList) {
	g := &geminiLowering{defs: defIndex(input)}
	root := g.lower(input, "", "")
	root.finish()
	return root, g.issues
}

// lower returns the Gemini node of n, found at path in the property f.
func (g *geminiLowering) lower(n *schema, path string, f string) *geminiSchema {
	if n.Ext.field != "" {
		f = n.Ext.field
	}
	if len(n.Ext.extra) > 0 {
		g.issues.add(f, path, "%s dropped: Gemini's schema has no such keyword", keywordList(n.Ext.extra))
	}
	if n.Boolean != nil || isFreeForm(n) {
		out := geminiAny()
		out.Title, out.Description, out.Default = n.Title, n.Description, n.Default
		var notes []string
		if n.Deprecated {
			notes = append(notes, "Deprecated.")
		}
		out.notes = strings.Join(append(notes, "Any JSON value."), " ")
		return out
	}
	if n.Ref != "" {
		key := refKey(n.Ref)
		merged := mergeRef(n, g.defs)
		if merged == nil {
			return geminiAny()
		}
		if slices.Contains(g.stack, key) {
			return g.cut(key, merged, path, f)
		}
		g.stack = append(g.stack, key)
		out := g.lower(merged, path, f)
		g.stack = g.stack[:len(g.stack)-1]
		return out
	}
	if n.OneOf != nil {
		// Gemini has anyOf, not oneOf: a tagged union's variants exclude each other by
		// their discriminator's const, so anyOf says the same of them.
		c := n.Clone()
		if c.AnyOf != nil {
			g.issues.add(f, path, "keyword \"oneOf\" beside \"anyOf\" dropped: Gemini's schema has anyOf alone")
		} else {
			c.AnyOf = c.OneOf
		}
		c.OneOf = nil
		return g.union(c, path, f)
	}
	if n.AnyOf != nil {
		return g.union(n, path, f)
	}
	var types []string
	nullable := false
	for _, t := range n.Type {
		if t == "null" {
			nullable = true
		} else {
			types = append(types, t)
		}
	}
	if len(types) > 1 {
		// Not written by the builder, but lowered faithfully: one branch per type.
		var out geminiSchema
		for _, t := range types {
			c := n.Clone()
			c.Type = typeList{t}
			c.Title, c.Description, c.Default = "", "", nil
			out.AnyOf = append(out.AnyOf, g.lower(c, path, f))
		}
		for _, b := range out.AnyOf {
			b.Nullable = b.Nullable || nullable
		}
		out.Title, out.Description, out.Default = n.Title, n.Description, n.Default
		return &out
	}
	if len(types) == 0 && n.Enum != nil {
		types = []string{"string"}
		for _, v := range n.Enum {
			if len(v) == 0 || v[0] != '"' {
				types = nil
			}
		}
	}
	out := &geminiSchema{Title: n.Title, Nullable: nullable, Default: n.Default, Description: n.Description, note: n.Ext.note}
	var notes []string
	if len(types) == 1 {
		out.Type = geminiTypes[types[0]]
	}
	// Values: enum and const.
	switch {
	case out.Type == "STRING" && n.Enum != nil:
		out.Enum, out.Format = stringValues(n.Enum), "enum"
	case out.Type == "STRING" && n.Const != nil:
		out.Enum, out.Format = stringValues([]json.RawMessage{n.Const}), "enum"
	case n.Enum != nil:
		notes = append(notes, "Must be "+valueList(n.Enum)+".")
	case n.Const != nil:
		notes = append(notes, "Must be "+string(n.Const)+".")
	}
	if n.Format != "" {
		if n.Format == "date-time" && out.Format == "" {
			out.Format = n.Format
		} else {
			notes = append(notes, formatSentence(n.Format))
		}
	}
	if n.ContentEncoding != "" {
		notes = append(notes, encodingSentence(n.ContentEncoding))
	}
	out.Pattern, out.MinLength, out.MaxLength = n.Pattern, schematree.CloneInt(n.MinLength), schematree.CloneInt(n.MaxLength)
	// Numbers.
	out.Minimum, out.Maximum = n.Minimum, n.Maximum
	if n.ExclusiveMinimum != nil {
		b, ok := exclusiveToInclusive(out.Type, n.ExclusiveMinimum, 1)
		switch {
		case ok && (out.Minimum == nil || compareNumbers(string(b), string(out.Minimum)) > 0):
			out.Minimum = b
		case !ok:
			notes = append(notes, "Greater than "+string(n.ExclusiveMinimum)+".")
		}
	}
	if n.ExclusiveMaximum != nil {
		b, ok := exclusiveToInclusive(out.Type, n.ExclusiveMaximum, -1)
		switch {
		case ok && (out.Maximum == nil || compareNumbers(string(b), string(out.Maximum)) < 0):
			out.Maximum = b
		case !ok:
			notes = append(notes, "Less than "+string(n.ExclusiveMaximum)+".")
		}
	}
	if n.MultipleOf != nil {
		notes = append(notes, "A multiple of "+string(n.MultipleOf)+".")
	}
	// Arrays.
	if n.Items != nil {
		out.Items = g.lower(n.Items, path+"/items", f)
	}
	out.MinItems, out.MaxItems = schematree.CloneInt(n.MinItems), schematree.CloneInt(n.MaxItems)
	if n.UniqueItems {
		notes = append(notes, "Items must be unique.")
	}
	// Objects.
	if n.Properties != nil {
		for _, e := range *n.Properties {
			out.Properties = append(out.Properties, geminiProperty{Name: e.Name, Schema: g.lower(e.Schema, path+"/properties/"+jsonread.EscapeToken(e.Name), f)})
		}
		out.Required = slices.Clone(n.Required)
	}
	if isMap(n) {
		notes = append(notes, mapSentence(n.AdditionalProperties, g.defs, g.stack))
	}
	out.MinProperties, out.MaxProperties = schematree.CloneInt(n.MinProperties), schematree.CloneInt(n.MaxProperties)
	if n.PropertyNames != nil {
		notes = append(notes, keysSentence(n.PropertyNames))
	}
	if n.Deprecated {
		notes = append(notes, "Deprecated.")
	}
	out.notes = strings.Join(notes, " ")
	return out
}

// union lowers an anyOf: a nullable union of one branch becomes that branch, nullable,
// with the union's own keywords (the property's description, title, default) over it.
func (g *geminiLowering) union(n *schema, path string, f string) *geminiSchema {
	var branches []*schema
	nullable := slices.Contains(n.Type, "null")
	for _, a := range n.AnyOf {
		if a.IsNull() {
			nullable = true
		} else {
			branches = append(branches, a)
		}
	}
	var out *geminiSchema
	if len(branches) == 1 {
		out = g.lower(branches[0], path+"/anyOf/0", f)
	} else {
		out = &geminiSchema{}
		for i, b := range branches {
			out.AnyOf = append(out.AnyOf, g.lower(b, path+"/anyOf/"+strconv.Itoa(i), f))
		}
	}
	if nullable {
		// OpenAPI's nullable applies to a node with a type: on a union, to its branches.
		if out.Type == "" && out.AnyOf != nil {
			for _, b := range out.AnyOf {
				b.Nullable = true
			}
		} else {
			out.Nullable = true
		}
	}
	if n.Title != "" {
		out.Title = n.Title
	}
	out.describe(n.Description)
	side := n.Clone()
	side.AnyOf, side.Type, side.Title, side.Description, side.Default = nil, nil, "", "", nil
	if notes := dropKeywords(side, func(string, *schema) bool { return false }); len(notes) > 0 {
		out.notes = schematree.JoinText(out.notes, strings.Join(notes, " "))
	}
	if n.Default != nil {
		out.Default = n.Default
	}
	return out
}

// cut stands in for a recursive reference: a value of the type's kind without its
// inner structure, since Gemini has no references and the type cannot be inlined
// without end. The decoder still checks the whole value.
func (g *geminiLowering) cut(key string, body *schema, path string, f string) *geminiSchema {
	g.issues.add(f, "", "type %s is recursive and Gemini has no references: where it nests in itself, it is a plain %s", key, kindWord(body))
	var out *geminiSchema
	switch {
	case slices.Contains(body.Type, "object") || objectsOnly(body.OneOf):
		out = &geminiSchema{Type: "OBJECT"}
	case slices.Contains(body.Type, "array"):
		out = &geminiSchema{Type: "ARRAY", Items: geminiAny()}
	default:
		out = geminiAny()
	}
	out.Description = body.Description
	out.notes = "A " + key + " again, with the same fields as the enclosing one."
	out.Nullable = slices.Contains(body.Type, "null")
	return out
}

// kindWord names what a recursive type is cut to.
func kindWord(body *schema) string {
	switch {
	case slices.Contains(body.Type, "object") || objectsOnly(body.OneOf):
		return "object"
	case slices.Contains(body.Type, "array"):
		return "array"
	}
	return "free-form value"
}

// objectsOnly reports whether branches, the oneOf of a tagged union, are all objects.
func objectsOnly(branches []*schema) bool {
	return len(branches) > 0 && !slices.ContainsFunc(branches, func(b *schema) bool {
		return len(b.Type) != 1 || b.Type[0] != "object"
	})
}

// geminiAny is Gemini's closest to "any JSON value": Gemini needs a type (or an anyOf)
// on every node, and an array needs items, so it is an anyOf of every type, with arrays
// of anything but arrays. OpenAPI's nullable applies to a node with a type: it is on
// the OBJECT branch.
func geminiAny() *geminiSchema {
	branches := func() []*geminiSchema {
		return []*geminiSchema{{Type: "STRING"}, {Type: "NUMBER"}, {Type: "BOOLEAN"}, {Type: "OBJECT", Nullable: true}}
	}
	return &geminiSchema{AnyOf: append(branches(), &geminiSchema{Type: "ARRAY", Items: &geminiSchema{AnyOf: branches()}})}
}

// stringValues returns JSON strings as Go strings.
func stringValues(vals []json.RawMessage) []string {
	out := make([]string, 0, len(vals))
	for _, v := range vals {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			s = string(v)
		}
		out = append(out, s)
	}
	return out
}

// exclusiveToInclusive turns an exclusive integer bound into the inclusive one (dir 1
// for a minimum, -1 for a maximum), for an INTEGER node and an integer bound.
func exclusiveToInclusive(typ string, bound json.RawMessage, dir int64) (json.RawMessage, bool) {
	if typ != "INTEGER" {
		return nil, false
	}
	v, ok := integerText(bound)
	if !ok {
		return nil, false
	}
	return json.RawMessage(new(big.Int).Add(v, big.NewInt(dir)).String()), true
}

// mapSentence describes the values of a map, which Gemini cannot: an OBJECT there has
// only fixed properties.
func mapSentence(v *schema, defs map[string]*schema, stack []string) string {
	if isFreeForm(v) {
		return "An object with any keys and values of any type."
	}
	what := summary(v, defs, stack)
	if p := plural(what); !strings.HasPrefix(p, "values that are ") {
		return "An object mapping keys to " + p + valueNotes(v) + "."
	}
	return "An object whose values are each " + what + valueNotes(v) + "."
}

// valueNotes restates the constraints of a map's values after their summary.
func valueNotes(v *schema) string {
	c := v.Clone()
	notes := dropKeywords(c, func(string, *schema) bool { return false })
	if c.Pattern != "" {
		notes = append(notes, "Matching "+c.Pattern+".")
	}
	if len(notes) == 0 {
		return ""
	}
	for i, s := range notes {
		notes[i] = strings.ToLower(s[:1]) + strings.TrimSuffix(s[1:], ".")
	}
	return ", each " + strings.Join(notes, ", ")
}
