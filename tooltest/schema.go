package tooltest

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
)

// The schema subsets the APIs hold a tool's parameters to: OpenAI's and Anthropic's
// strict tools, and Gemini's "parameters" always.

// schemaRules are the rules a provider holds a tool's parameter schema to.
type schemaRules struct {
	// keywords are the keywords a schema node may use.
	keywords []string
	// types are the values "type" may take.
	types []string
	// rootType is the type the root must have.
	rootType string
	// closed asks every object for additionalProperties: false.
	closed bool
	// allRequired asks every object to require all of its properties.
	allRequired bool
	// node, when set, checks one node further.
	node func(path string, n map[string]any) error
}

// openAIStrict are OpenAI's Structured Outputs rules, which strict tools must meet in
// both Chat Completions and Responses.
var openAIStrict = schemaRules{
	keywords: []string{"type", "description", "title", "properties", "required", "additionalProperties",
		"items", "enum", "const", "anyOf", "$ref", "$defs", "pattern", "format", "multipleOf",
		"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems"},
	types:       []string{"object", "array", "string", "number", "integer", "boolean", "null"},
	rootType:    "object",
	closed:      true,
	allRequired: true,
}

// anthropicStrict are the rules of Anthropic's strict tool use.
var anthropicStrict = schemaRules{
	keywords: []string{"$ref", "$defs", "type", "anyOf", "oneOf", "allOf", "description", "title", "enum",
		"const", "properties", "additionalProperties", "required", "items", "minItems", "format", "pattern"},
	types:    []string{"object", "array", "string", "number", "integer", "boolean", "null"},
	rootType: "object",
	closed:   true,
	node: func(path string, n map[string]any) error {
		if m, ok := n["minItems"]; ok && m != 0.0 && m != 1.0 {
			return fmt.Errorf("%s: minItems %v: strict tools take 0 or 1 only", path, m)
		}
		return nil
	},
}

// geminiParameters are the rules of Gemini's "parameters", an OpenAPI 3.0 subset.
var geminiParameters = schemaRules{
	keywords: []string{"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
		"properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern",
		"example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum"},
	types:    []string{"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"},
	rootType: "OBJECT",
	node: func(path string, n map[string]any) error {
		if e, ok := n["enum"].([]any); ok {
			for _, v := range e {
				if _, ok := v.(string); !ok {
					return fmt.Errorf("%s: enum value %v is not a string", path, v)
				}
			}
		}
		return nil
	},
}

// check checks a tool's parameter schema against the rules.
func (r schemaRules) check(schema json.RawMessage) error {
	var root any
	if err := json.Unmarshal(schema, &root); err != nil {
		return fmt.Errorf("schema: %v", err)
	}
	m, ok := root.(map[string]any)
	if !ok || m["type"] != r.rootType {
		return fmt.Errorf("schema root %s: want type %q", schema, r.rootType)
	}
	return r.walk("#", m)
}

func (r schemaRules) walk(path string, n map[string]any) error {
	for k := range n {
		if !slices.Contains(r.keywords, k) {
			return fmt.Errorf("%s: keyword %q is not supported", path, k)
		}
	}
	switch t := n["type"].(type) {
	case nil:
	case string:
		if !slices.Contains(r.types, t) {
			return fmt.Errorf("%s: type %q", path, t)
		}
	case []any:
		for _, e := range t {
			if s, _ := e.(string); !slices.Contains(r.types, s) {
				return fmt.Errorf("%s: type %v", path, e)
			}
		}
	default:
		return fmt.Errorf("%s: type %v", path, t)
	}
	if r.node != nil {
		if err := r.node(path, n); err != nil {
			return err
		}
	}
	props, isObject := n["properties"].(map[string]any)
	if isObject || n["type"] == "object" {
		if ap, ok := n["additionalProperties"]; ok && ap != false || r.closed && !ok {
			return fmt.Errorf("%s: additionalProperties %v, want false", path, ap)
		}
		var required []string
		for _, v := range asSlice(n["required"]) {
			s, _ := v.(string)
			if _, ok := props[s]; !ok {
				return fmt.Errorf("%s: required %q is no property", path, s)
			}
			required = append(required, s)
		}
		if r.allRequired {
			names := make([]string, 0, len(props))
			for k := range props {
				names = append(names, k)
			}
			sort.Strings(names)
			sort.Strings(required)
			if !slices.Equal(names, required) {
				return fmt.Errorf("%s: required %v, want every property %v", path, required, names)
			}
		}
	}
	var children []struct {
		path string
		node any
	}
	add := func(p string, v any) {
		children = append(children, struct {
			path string
			node any
		}{p, v})
	}
	for k, v := range props {
		add(path+"/properties/"+k, v)
	}
	if defs, ok := n["$defs"].(map[string]any); ok {
		for k, v := range defs {
			add(path+"/$defs/"+k, v)
		}
	}
	if items, ok := n["items"]; ok {
		add(path+"/items", items)
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		for i, v := range asSlice(n[k]) {
			add(fmt.Sprintf("%s/%s/%d", path, k, i), v)
		}
	}
	for _, c := range children {
		m, ok := c.node.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: not a schema object", c.path)
		}
		if err := r.walk(c.path, m); err != nil {
			return err
		}
	}
	return nil
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}
