package dynfuzz

import (
	"strconv"
	"strings"
)

// The grammar of GenerateFull: schemas of every keyword of draft 2020-12 that the
// general engine of NewTool reads, as JSON text, each choice made by a byte.

var (
	fullTypes  = []string{"null", "boolean", "object", "array", "number", "string", "integer"}
	fullValues = []string{`null`, `true`, `false`, `0`, `1`, `1.0`, `2.5`, `-1`, `""`, `"a"`, `"ab"`, `"b"`, `"é"`, `[]`, `[1]`, `[1,"a"]`, `{}`, `{"a":1}`, `{"b":[null]}`, `"a@b.c"`, `"2024-01-01"`}
)

// FullSchema is a schema of the general engine's grammar: the wrapper NewTool takes
// ({"type":"object","allOf":[true],"properties":{"v":Root},"required":["v"],"$defs":...}),
// an allOf at its root so that the general engine reads it whatever its keywords.
type FullSchema struct {
	Root string
	Defs []string
}

// JSON writes the tool's input schema.
func (f *FullSchema) JSON() string {
	defs := make([]string, len(f.Defs))
	for i, d := range f.Defs {
		defs[i] = `"D` + strconv.Itoa(i) + `":` + d
	}
	return `{"type":"object","allOf":[true],"properties":{"v":` + f.Root + `},"required":["v"],"$defs":{` + strings.Join(defs, ",") + `}}`
}

// GenerateFull makes a schema of the general engine's grammar from data, and returns
// the bytes left for arguments.
func GenerateFull(data []byte) (*FullSchema, []byte) {
	r := &reader{b: data}
	g := &fullGen{r: r, ndefs: r.pick(3)}
	f := &FullSchema{}
	for range g.ndefs {
		f.Defs = append(f.Defs, g.schema(2))
	}
	f.Root = g.schema(3)
	return f, data[min(r.i, len(data)):]
}

type fullGen struct {
	r     *reader
	ndefs int
}

func (g *fullGen) value() string { return fullValues[g.r.pick(len(fullValues))] }

func (g *fullGen) name() string { return strconv.Quote(names[g.r.pick(len(names))]) }

func (g *fullGen) schema(depth int) string {
	r := g.r
	switch r.pick(12) {
	case 0:
		return []string{"true", "false"}[r.pick(2)]
	case 1:
		if g.ndefs > 0 {
			return `{"$ref":"#/$defs/D` + strconv.Itoa(r.pick(g.ndefs)) + `"}`
		}
	}
	var kv []string
	keys := map[string]bool{}
	add := func(k, v string) {
		if !keys[k] {
			keys[k] = true
			kv = append(kv, strconv.Quote(k)+":"+v)
		}
	}
	sub := func() string {
		if depth <= 0 {
			return []string{"true", "false", `{"type":"string"}`, `{"minimum":1}`}[r.pick(4)]
		}
		return g.schema(depth - 1)
	}
	list := func() string {
		var items []string
		for range 1 + r.pick(3) {
			items = append(items, sub())
		}
		return "[" + strings.Join(items, ",") + "]"
	}
	seen := map[int]bool{}
	for range 1 + r.pick(4) {
		k := r.pick(30)
		if seen[k] {
			continue
		}
		seen[k] = true
		switch k {
		case 0, 1:
			if r.chance(2) {
				add("type", strconv.Quote(fullTypes[r.pick(len(fullTypes))]))
			} else {
				a, b := fullTypes[r.pick(len(fullTypes))], fullTypes[r.pick(len(fullTypes))]
				if a == b {
					add("type", `["`+a+`"]`)
				} else {
					add("type", `["`+a+`","`+b+`"]`)
				}
			}
		case 2:
			var vals []string
			for range 1 + r.pick(3) {
				vals = append(vals, g.value())
			}
			add("enum", "["+strings.Join(vals, ",")+"]")
		case 3:
			add("const", g.value())
		case 4:
			add([]string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}[r.pick(4)], []string{"0", "1", "-1", "2.5"}[r.pick(4)])
		case 5:
			add("multipleOf", []string{"1", "2", "0.5"}[r.pick(3)])
		case 6:
			add([]string{"minLength", "maxLength"}[r.pick(2)], strconv.Itoa(r.pick(3)))
		case 7:
			add("pattern", strconv.Quote(patterns[r.pick(len(patterns))]))
		case 8:
			add("format", strconv.Quote(formats[r.pick(len(formats))]))
		case 9:
			var props []string
			used := map[string]bool{}
			for range 1 + r.pick(3) {
				if n := g.name(); !used[n] {
					used[n] = true
					props = append(props, n+":"+sub())
				}
			}
			add("properties", "{"+strings.Join(props, ",")+"}")
		case 10:
			add("required", "["+g.name()+"]")
		case 11:
			add("additionalProperties", sub())
		case 12:
			add("patternProperties", `{"^a":`+sub()+`}`)
		case 13:
			add("propertyNames", sub())
		case 14:
			add([]string{"minProperties", "maxProperties"}[r.pick(2)], strconv.Itoa(r.pick(3)))
		case 15:
			add("dependentRequired", "{"+g.name()+":["+g.name()+"]}")
		case 16:
			add("dependentSchemas", "{"+g.name()+":"+sub()+"}")
		case 17:
			add("items", sub())
		case 18:
			add("prefixItems", list())
		case 19:
			add("contains", sub())
			if r.chance(2) {
				add([]string{"minContains", "maxContains"}[r.pick(2)], strconv.Itoa(r.pick(3)))
			}
		case 20:
			add([]string{"minItems", "maxItems"}[r.pick(2)], strconv.Itoa(r.pick(3)))
		case 21:
			add("uniqueItems", "true")
		case 22:
			add("allOf", list())
		case 23:
			add("anyOf", list())
		case 24:
			add("oneOf", list())
		case 25:
			add("not", sub())
		case 26:
			add("if", sub())
			if r.chance(2) {
				add("then", sub())
			}
			if r.chance(2) {
				add("else", sub())
			}
		case 27:
			add("unevaluatedProperties", sub())
		case 28:
			add("unevaluatedItems", sub())
		case 29:
			if g.ndefs > 0 {
				add("$ref", `"#/$defs/D`+strconv.Itoa(r.pick(g.ndefs))+`"`)
			}
		}
	}
	return "{" + strings.Join(kv, ",") + "}"
}

// FullArgs generates a value of any shape for the property v from data, as text.
func FullArgs(data []byte) string {
	r := &reader{b: data}
	return `{"v":` + fullValue(r, 3) + `}`
}

func fullValue(r *reader, depth int) string {
	switch k := r.pick(6); {
	case k < 3 || depth <= 0:
		v := fullValues[r.pick(len(fullValues))]
		if depth <= 0 && (v[0] == '{' || v[0] == '[') {
			return `"a"`
		}
		return v
	case k == 3:
		var members []string
		seen := map[string]bool{}
		for range r.pick(4) {
			n := names[r.pick(len(names))]
			if seen[n] {
				continue
			}
			seen[n] = true
			members = append(members, strconv.Quote(n)+":"+fullValue(r, depth-1))
		}
		return "{" + strings.Join(members, ",") + "}"
	}
	var items []string
	for range r.pick(4) {
		items = append(items, fullValue(r, depth-1))
	}
	return "[" + strings.Join(items, ",") + "]"
}

// Lenient reports whether a leniency of dynamic tools may decide the arguments text
// differently from JSON Schema: a null member of an object (null for an optional
// property means absent) or a string holding an object or array (read as the value
// it holds where the schema takes no string). The values of FullArgs are compact and
// their strings hold no quote, so a scan of the text tells.
func Lenient(args string) bool {
	return strings.Contains(args, ":null") || strings.Contains(args, `"{`) || strings.Contains(args, `"[`)
}
