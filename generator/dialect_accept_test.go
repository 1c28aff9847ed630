package generator

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestDialectsAcceptCanonical checks that each dialect's schema accepts what the
// canonical input schema accepts: every valid instance of the oracle checks is
// validated against the OpenAI and Anthropic parameters (JSON Schema, so validated as
// they are) and against the Gemini parameters read back as JSON Schema. For a strict
// OpenAI schema the instance first gets null for every absent property, as OpenAI sends
// it (the decoder reads null for an optional property as absent).
func TestDialectsAcceptCanonical(t *testing.T) {
	sets := map[string]*schemaSet{}
	for _, tc := range schemaCases() {
		set, err := buildSchemas(tc.pkg())
		if err != nil {
			t.Fatal(err)
		}
		sets[tc.name] = set
	}
	tested := map[string]bool{}
	for _, c := range oracleChecks() {
		if c.output {
			continue
		}
		ts := sets[c.pkg].lookup(c.tool)
		if ts == nil {
			t.Fatalf("no tool %s in %s", c.tool, c.pkg)
		}
		dialects := []struct {
			name   string
			schema []byte
			nulls  bool
		}{
			{"openai", ts.openAI.json, ts.openAI.strict},
			{"anthropic", ts.anthropic.json, false},
			{"gemini", geminiAsJSONSchema(t, ts.geminiJSON), false},
		}
		for _, d := range dialects {
			sch := compileSchema(t, c.tool+"."+d.name, d.schema)
			var lowered any
			if d.nulls {
				lowered = decode(t, c.tool+"."+d.name, d.schema)
			}
			for _, oc := range c.cases {
				if !oc.valid {
					continue
				}
				inst, err := jsonschema.UnmarshalJSON(strings.NewReader(oc.instance))
				if err != nil {
					t.Fatalf("%s: %v", oc.instance, err)
				}
				if d.nulls {
					fillNulls(inst, asMap(lowered), asMap(asMap(lowered)["$defs"]))
				}
				if err := sch.Validate(inst); err != nil {
					t.Errorf("%s %s schema rejects %s, which the canonical schema accepts: %v", c.tool, d.name, oc.instance, err)
				}
				tested[d.name] = true
			}
		}
	}
	for _, d := range []string{"openai", "anthropic", "gemini"} {
		if !tested[d] {
			t.Errorf("no instance tested against %s", d)
		}
	}
}

// fillNulls sets every property of an object instance that s lists but the instance
// lacks to null, at every level, as OpenAI's strict mode sends optional properties.
func fillNulls(v any, s map[string]any, defs map[string]any) {
	if ref, ok := s["$ref"].(string); ok {
		fillNulls(v, asMap(defs[strings.TrimPrefix(ref, "#/$defs/")]), defs)
		return
	}
	for _, b := range asList(s["anyOf"]) {
		if !constsMatch(v, asMap(b)) {
			continue // another variant of a tagged union: its properties are not v's
		}
		fillNulls(v, asMap(b), defs)
	}
	switch x := v.(type) {
	case map[string]any:
		for name, ps := range asMap(s["properties"]) {
			if pv, ok := x[name]; ok {
				fillNulls(pv, asMap(ps), defs)
			} else {
				x[name] = nil
			}
		}
	case []any:
		if items, ok := s["items"].(map[string]any); ok {
			for _, it := range x {
				fillNulls(it, items, defs)
			}
		}
	}
}

// constsMatch reports whether the object v holds, for each property of the object
// schema s that is a const, that const (or nothing): whether v may be the variant s of
// a tagged union. A value that is not an object matches.
func constsMatch(v any, s map[string]any) bool {
	x, ok := v.(map[string]any)
	if !ok {
		return true
	}
	for name, ps := range asMap(s["properties"]) {
		c, isConst := asMap(ps)["const"]
		if pv, present := x[name]; isConst && present && fmt.Sprint(pv) != fmt.Sprint(c) {
			return false
		}
	}
	return true
}

// geminiAsJSONSchema reads Gemini parameters back as JSON Schema: lower-case types,
// nullable as a null type (and a null enum value), format "enum" dropped.
func geminiAsJSONSchema(t *testing.T, data []byte) []byte {
	t.Helper()
	var convert func(n map[string]any) map[string]any
	convert = func(n map[string]any) map[string]any {
		out := map[string]any{}
		nullable := n["nullable"] == true
		for k, v := range n {
			switch k {
			case "nullable":
			case "type":
				ty := strings.ToLower(v.(string))
				if nullable {
					out[k] = []any{ty, "null"}
				} else {
					out[k] = ty
				}
			case "format":
				if v != "enum" {
					out[k] = v
				}
			case "enum":
				vals := asList(v)
				if nullable {
					vals = append(vals, nil)
				}
				out[k] = vals
			case "items":
				out[k] = convert(asMap(v))
			case "properties":
				props := map[string]any{}
				for name, p := range asMap(v) {
					props[name] = convert(asMap(p))
				}
				out[k] = props
			case "anyOf":
				var branches []any
				for _, b := range asList(v) {
					branches = append(branches, convert(asMap(b)))
				}
				if nullable {
					branches = append(branches, map[string]any{"type": "null"})
				}
				out[k] = branches
			default:
				out[k] = v
			}
		}
		return out
	}
	b, err := json.Marshal(convert(asMap(decode(t, "gemini", data))))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
