// Package dynfuzz generates input schemas and arguments from fuzz input, for the fuzz
// targets that hold dynamic tools (runtime.NewTool) to JSON Schema and to their cost
// bounds: a small grammar of the keywords NewTool reads, each choice made by a byte.
//
// Normalized says what a dynamic tool must decide for generated arguments, from what
// santhosh-tekuri/jsonschema (draft 2020-12, formats asserted) decides for them once
// the leniencies of docs/DESIGN.md ("Decoding") are applied, and the places where a
// dynamic tool reads a schema as a Go type would: integers are int64 (uint64 for the
// unsigned form toolgen writes), so an integer past that range is refused; numbers are
// float64, and the value run gets must meet the bounds and uniqueItems too (1e-400 is
// not greater than 0 once rounded: the pool of numbers has none that rounds past a
// bound; 9223372036854775807 and 9223372036854775808, in the pool, are one float64, so
// that a list holding both is not unique). Defaults fill absent properties in what run
// gets and are not validated: JSON Schema's default is an annotation.
package dynfuzz

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// Schema is one generated schema.
type Schema struct {
	Type       string // "" for any value
	Nullable   bool   // type [T, "null"]
	OrNull     bool   // anyOf [this, {"type": "null"}]
	Ref        int    // > 0: {"$ref": "#/$defs/D<Ref>"}, the rest unused
	Enum       []string
	Const      string
	MinLength  int // -1 when absent, as the other counts
	MaxLength  int
	Pattern    string
	Format     string
	Bounds     map[string]string // minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf
	Props      []Prop
	Additional *Schema // nil: absent
	NoMore     bool    // additionalProperties false
	Names      []string
	HasNames   bool
	MinProps   int
	MaxProps   int
	Items      *Schema
	MinItems   int
	MaxItems   int
	Unique     bool
	// Variants, when not nil, make the schema a tagged union as toolgen writes it: a
	// oneOf of closed objects, each with the required property UnionTag whose const is
	// its own (the first of its Props).
	Variants []*Schema
}

// UnionTag is the discriminator of the generated unions.
const UnionTag = "kind"

// Prop is a property of an object schema.
type Prop struct {
	Name     string
	Schema   *Schema
	Required bool
	Default  string // JSON text, or ""
}

// reader hands out the fuzz input's bytes, then zeros.
type reader struct {
	b []byte
	i int
}

func (r *reader) next() int {
	if r.i >= len(r.b) {
		return 0
	}
	r.i++
	return int(r.b[r.i-1])
}

func (r *reader) pick(n int) int { return r.next() % n }

func (r *reader) chance(in int) bool { return r.pick(in) == 0 }

var (
	names    = []string{"a", "b", "c", "A", "ab"}
	strs     = []string{`""`, `"a"`, `"ab"`, `"abc"`, `"é"`, `"a@b.c"`, `"2024-01-01"`, `"2024-01-01T00:00:00Z"`, `"10.0.0.1"`, `"b"`, `"null"`, `"{}"`, `"[]"`, `"{\"a\":1}"`, `"[1]"`}
	nums     = []string{"0", "-0", "1", "1.0", "2", "2.5", "-1", "3", "10", "1e1", "0.1", "-2.5", "100", "9223372036854775807", "9223372036854775808", "18446744073709551616", "1e30", "-1e30"}
	patterns = []string{"^a", "b$", "^[a-c]*$", "é", "^.{2}$", "a|b"}
	formats  = []string{"email", "date", "date-time", "ipv4", "hostname", "uuid"}
	bounds   = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
	boundVal = []string{"0", "1", "2", "-1", "2.5", "0.5", "1e30", "-1e30", "10", "255", "3"}
)

// Generate makes a schema, with the definitions it refers to, from data.
func Generate(data []byte) (root *Schema, defs []*Schema, rest []byte) {
	r := &reader{b: data}
	g := &gen{r: r}
	for range r.pick(3) {
		g.defs = append(g.defs, nil)
	}
	for i := range g.defs {
		g.defs[i] = g.schema(2, false)
	}
	root = g.object(3)
	return root, g.defs, data[min(r.i, len(data)):]
}

type gen struct {
	r    *reader
	defs []*Schema
}

func (g *gen) schema(depth int, refs bool) *Schema {
	r := g.r
	if refs && len(g.defs) > 0 && r.chance(6) {
		s := newSchema("")
		s.Ref = 1 + r.pick(len(g.defs))
		if r.chance(3) {
			// The list keywords toolgen writes beside a $ref.
			switch r.pick(5) {
			case 0:
				s.MinItems = r.pick(3)
			case 1:
				s.MaxItems = r.pick(3)
			case 2:
				s.Unique = true
			case 3:
				s.MinProps = r.pick(3)
			default:
				s.MaxProps = r.pick(3)
			}
		}
		return s
	}
	var s *Schema
	switch k := r.pick(7); {
	case k == 0:
		s = &Schema{}
	case k == 1 || depth <= 0 && k >= 5:
		s = g.scalar("string")
	case k == 2:
		s = g.scalar([]string{"integer", "number"}[r.pick(2)])
	case k == 3:
		s = g.scalar("boolean")
	case k == 4 && depth > 0 && r.chance(3):
		s = g.union(depth - 1)
	case k == 4:
		s = g.object(depth - 1)
	default:
		s = g.array(depth - 1)
	}
	if s.Variants != nil {
		s.OrNull = r.chance(5)
	} else if s.Type != "" {
		switch r.pick(5) {
		case 0:
			s.Nullable = true
		case 1:
			s.OrNull = true
		}
	}
	return s
}

func newSchema(typ string) *Schema {
	return &Schema{Type: typ, MinLength: -1, MaxLength: -1, MinProps: -1, MaxProps: -1, MinItems: -1, MaxItems: -1}
}

func (g *gen) scalar(typ string) *Schema {
	r := g.r
	s := newSchema(typ)
	pool := strs
	switch typ {
	case "string":
		if r.chance(3) {
			s.MinLength = r.pick(4)
		}
		if r.chance(3) {
			s.MaxLength = r.pick(4)
		}
		if r.chance(4) {
			s.Pattern = patterns[r.pick(len(patterns))]
		}
		if r.chance(5) {
			s.Format = formats[r.pick(len(formats))]
		}
	case "integer", "number":
		pool = nums
		s.Bounds = map[string]string{}
		for _, b := range bounds {
			if r.chance(4) {
				v := boundVal[r.pick(len(boundVal))]
				if b == "multipleOf" && (v == "0" || strings.HasPrefix(v, "-")) {
					v = "2"
				}
				s.Bounds[b] = v
			}
		}
	case "boolean":
		pool = []string{"true", "false"}
	}
	switch r.pick(5) {
	case 0:
		for range 1 + r.pick(3) {
			s.Enum = append(s.Enum, pool[r.pick(len(pool))])
		}
		if r.chance(4) {
			s.Enum = append(s.Enum, "null")
		}
	case 1:
		s.Const = pool[r.pick(len(pool))]
	}
	return s
}

func (g *gen) object(depth int) *Schema {
	r := g.r
	s := newSchema("object")
	for _, name := range names {
		if depth < 0 || !r.chance(2) {
			continue
		}
		p := Prop{Name: name, Schema: g.schema(depth, true), Required: r.chance(3)}
		if !p.Required && r.chance(4) {
			p.Default = strs[r.pick(len(strs))]
		}
		s.Props = append(s.Props, p)
	}
	switch r.pick(3) {
	case 0:
		s.NoMore = true
	case 1:
		s.Additional = g.schema(depth-1, true)
	}
	if r.chance(4) {
		s.HasNames = true
		for _, n := range names {
			if r.chance(2) {
				s.Names = append(s.Names, n)
			}
		}
	}
	if r.chance(4) {
		s.MinProps = r.pick(3)
	}
	if r.chance(4) {
		s.MaxProps = r.pick(3)
	}
	return s
}

// union makes a tagged union of one to three variants.
func (g *gen) union(depth int) *Schema {
	r := g.r
	s := newSchema("")
	for i := range 1 + r.pick(3) {
		v := g.object(depth)
		v.NoMore, v.Additional = true, nil
		if r.chance(3) {
			v.HasNames, v.Names = false, nil
		}
		tag := newSchema("string")
		tag.Const = strconv.Quote("v" + strconv.Itoa(i))
		v.Props = append([]Prop{{Name: UnionTag, Schema: tag, Required: true}}, v.Props...)
		s.Variants = append(s.Variants, v)
	}
	return s
}

func (g *gen) array(depth int) *Schema {
	r := g.r
	s := newSchema("array")
	if !r.chance(4) {
		s.Items = g.schema(depth, true)
	}
	if r.chance(3) {
		s.MinItems = r.pick(3)
	}
	if r.chance(3) {
		s.MaxItems = r.pick(3)
	}
	s.Unique = r.chance(2)
	return s
}

// JSON writes the schema, its definitions under $defs when root.
func (s *Schema) JSON(defs []*Schema) string {
	var b strings.Builder
	s.write(&b, defs)
	return b.String()
}

func (s *Schema) write(b *strings.Builder, defs []*Schema) {
	if s.OrNull {
		inner := *s
		inner.OrNull = false
		b.WriteString(`{"anyOf":[`)
		inner.write(b, nil)
		b.WriteString(`,{"type":"null"}]}`)
		return
	}
	var kv []string
	add := func(k, v string) { kv = append(kv, strconv.Quote(k)+":"+v) }
	count := func(k string, n int) {
		if n >= 0 {
			add(k, strconv.Itoa(n))
		}
	}
	if s.Variants != nil {
		var vs []string
		for _, v := range s.Variants {
			var vb strings.Builder
			v.write(&vb, nil)
			vs = append(vs, vb.String())
		}
		add("oneOf", "["+strings.Join(vs, ",")+"]")
	}
	if s.Ref > 0 {
		add("$ref", strconv.Quote(fmt.Sprintf("#/$defs/D%d", s.Ref)))
		count("minItems", s.MinItems)
		count("maxItems", s.MaxItems)
		count("minProperties", s.MinProps)
		count("maxProperties", s.MaxProps)
		if s.Unique {
			add("uniqueItems", "true")
		}
		b.WriteString("{" + strings.Join(kv, ",") + "}")
		return
	}
	if s.Type != "" {
		if s.Nullable {
			add("type", `["`+s.Type+`","null"]`)
		} else {
			add("type", strconv.Quote(s.Type))
		}
	}
	if s.Enum != nil {
		add("enum", "["+strings.Join(s.Enum, ",")+"]")
	}
	if s.Const != "" {
		add("const", s.Const)
	}
	count("minLength", s.MinLength)
	count("maxLength", s.MaxLength)
	if s.Pattern != "" {
		add("pattern", strconv.Quote(s.Pattern))
	}
	if s.Format != "" {
		add("format", strconv.Quote(s.Format))
	}
	for _, k := range bounds {
		if v, ok := s.Bounds[k]; ok {
			add(k, v)
		}
	}
	if s.Type == "object" {
		var props []string
		var req []string
		for _, p := range s.Props {
			var pb strings.Builder
			p.Schema.write(&pb, nil)
			text := pb.String()
			if p.Default != "" {
				text = strings.TrimSuffix(text, "}")
				if !strings.HasSuffix(text, "{") {
					text += ","
				}
				text += `"default":` + p.Default + "}"
			}
			props = append(props, strconv.Quote(p.Name)+":"+text)
			if p.Required {
				req = append(req, strconv.Quote(p.Name))
			}
		}
		add("properties", "{"+strings.Join(props, ",")+"}")
		if req != nil {
			add("required", "["+strings.Join(req, ",")+"]")
		}
		if s.NoMore {
			add("additionalProperties", "false")
		} else if s.Additional != nil {
			var ab strings.Builder
			s.Additional.write(&ab, nil)
			add("additionalProperties", ab.String())
		}
		if s.HasNames {
			var q []string
			for _, n := range s.Names {
				q = append(q, strconv.Quote(n))
			}
			add("propertyNames", `{"enum":[`+strings.Join(q, ",")+`]}`)
		}
		count("minProperties", s.MinProps)
		count("maxProperties", s.MaxProps)
	}
	if s.Type == "array" {
		if s.Items != nil {
			var ib strings.Builder
			s.Items.write(&ib, nil)
			add("items", ib.String())
		}
		count("minItems", s.MinItems)
		count("maxItems", s.MaxItems)
		if s.Unique {
			add("uniqueItems", "true")
		}
	}
	if len(defs) > 0 {
		var d []string
		for i, def := range defs {
			var db strings.Builder
			def.write(&db, nil)
			d = append(d, fmt.Sprintf(`"D%d":%s`, i+1, db.String()))
		}
		add("$defs", "{"+strings.Join(d, ",")+"}")
	}
	b.WriteString("{" + strings.Join(kv, ",") + "}")
}

// Value is a generated argument value: JSON text, or an object or array, possibly sent
// as a JSON string holding it (the double-encoding leniency).
type Value struct {
	Text    string // a scalar's JSON text, when Keys and Items are nil and not Obj/Arr
	Obj     bool
	Keys    []string
	Vals    []*Value
	Arr     bool
	Items   []*Value
	Encoded bool // sent as a JSON string holding it
}

// Args generates argument values for root from data.
func Args(root *Schema, defs []*Schema, data []byte) *Value {
	g := &argGen{r: &reader{b: data}, defs: defs}
	return g.value(root, 4)
}

type argGen struct {
	r    *reader
	defs []*Schema
}

func (g *argGen) value(s *Schema, depth int) *Value {
	r := g.r
	for s != nil && s.Ref > 0 {
		s = g.defs[s.Ref-1]
	}
	if s == nil || depth <= 0 || r.chance(5) {
		return g.random(depth)
	}
	if s.Variants != nil {
		// A variant's object, its tag (when sent) moved anywhere; or one whose tag is
		// of no variant.
		v := g.value(s.Variants[r.pick(len(s.Variants))], depth)
		if v.Obj && len(v.Keys) > 1 && v.Keys[0] == UnionTag && r.chance(2) {
			v.Keys = append(v.Keys[1:], v.Keys[0])
			v.Vals = append(v.Vals[1:], v.Vals[0])
		}
		if v.Obj && r.chance(6) && slices.Contains(v.Keys, UnionTag) {
			v.Vals[slices.Index(v.Keys, UnionTag)] = &Value{Text: `"v9"`}
		}
		return v
	}
	switch s.Type {
	case "object":
		v := &Value{Obj: true, Encoded: r.chance(8)}
		for _, p := range s.Props {
			if r.chance(3) {
				continue
			}
			v.Keys = append(v.Keys, p.Name)
			v.Vals = append(v.Vals, g.value(p.Schema, depth-1))
		}
		for range r.pick(3) {
			name := names[r.pick(len(names))] + []string{"", "x"}[r.pick(2)]
			if slices.Contains(v.Keys, name) {
				continue
			}
			v.Keys = append(v.Keys, name)
			v.Vals = append(v.Vals, g.value(s.Additional, depth-1))
		}
		return v
	case "array":
		v := &Value{Arr: true, Encoded: r.chance(8)}
		for range r.pick(4) {
			if len(v.Items) > 0 && r.chance(3) {
				v.Items = append(v.Items, v.Items[r.pick(len(v.Items))])
				continue
			}
			v.Items = append(v.Items, g.value(s.Items, depth-1))
		}
		return v
	}
	if len(s.Enum) > 0 && r.chance(2) {
		return &Value{Text: s.Enum[r.pick(len(s.Enum))]}
	}
	if s.Const != "" && r.chance(2) {
		return &Value{Text: s.Const}
	}
	switch s.Type {
	case "string":
		return &Value{Text: strs[r.pick(len(strs))]}
	case "integer", "number":
		return &Value{Text: nums[r.pick(len(nums))]}
	case "boolean":
		return &Value{Text: []string{"true", "false"}[r.pick(2)]}
	}
	return g.random(depth)
}

func (g *argGen) random(depth int) *Value {
	r := g.r
	switch k := r.pick(8); {
	case k == 0:
		return &Value{Text: "null"}
	case k == 1:
		return &Value{Text: []string{"true", "false"}[r.pick(2)]}
	case k == 2 || k == 3:
		return &Value{Text: nums[r.pick(len(nums))]}
	case k == 4 || depth <= 0:
		return &Value{Text: strs[r.pick(len(strs))]}
	case k == 5:
		v := &Value{Obj: true}
		for range r.pick(3) {
			name := names[r.pick(len(names))]
			if !slices.Contains(v.Keys, name) {
				v.Keys = append(v.Keys, name)
				v.Vals = append(v.Vals, g.random(depth-1))
			}
		}
		return v
	}
	v := &Value{Arr: true}
	for range r.pick(3) {
		v.Items = append(v.Items, g.random(depth-1))
	}
	return v
}

// JSON writes the value as the arguments send it.
func (v *Value) JSON() string {
	text := v.plain()
	if v.Encoded {
		return strconv.Quote(text) // valid JSON for the ASCII and é of the pools
	}
	return text
}

func (v *Value) plain() string {
	switch {
	case v.Obj:
		parts := make([]string, len(v.Keys))
		for i, k := range v.Keys {
			parts[i] = strconv.Quote(k) + ":" + v.Vals[i].JSON()
		}
		return "{" + strings.Join(parts, ",") + "}"
	case v.Arr:
		parts := make([]string, len(v.Items))
		for i, it := range v.Items {
			parts[i] = it.JSON()
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return v.Text
}

// Normalized returns the value a JSON Schema validator must judge for the arguments v
// under s, with the leniencies applied: a double-encoded object or array is itself
// where s wants one, a null optional property is absent. ok is false when a dynamic
// tool must refuse v whatever the validator says: an integer past its Go range.
func Normalized(s *Schema, defs []*Schema, v *Value) (out any, ok bool) {
	n := &normalizer{defs: defs, ok: true}
	out = n.value(s, v)
	return out, n.ok
}

type normalizer struct {
	defs []*Schema
	ok   bool
}

func (n *normalizer) resolve(s *Schema) *Schema {
	for s != nil && s.Ref > 0 {
		s = n.defs[s.Ref-1]
	}
	return s
}

func (n *normalizer) value(s *Schema, v *Value) any {
	unique := s != nil && s.Unique // beside a $ref too
	s = n.resolve(s)
	unique = unique || s != nil && s.Unique
	if s != nil && s.Variants != nil {
		// A union reads an object (sent as one, or as a string holding one) as the
		// variant its tag names; anything else the validator refuses as it stands.
		obj := v
		if !v.Obj && !v.Arr && strings.HasPrefix(v.Text, `"`) {
			str, _ := strconv.Unquote(v.Text)
			if inner := parseValue(str); inner != nil && inner.Obj {
				obj = inner
			}
		}
		if !obj.Obj {
			s = nil
		} else {
			s = n.variant(s, obj)
			v = obj
		}
	}
	if v.Encoded && (s == nil || s.Type != "object" && s.Type != "array" || !(v.Obj && s.Type == "object" || v.Arr && s.Type == "array")) {
		return v.plain() // sent as a string, read as one
	}
	switch {
	case v.Obj:
		m := map[string]any{}
		for i, k := range v.Keys {
			var ps *Schema
			declared, required := false, false
			if s != nil && s.Type == "object" {
				for _, p := range s.Props {
					if p.Name == k {
						ps, declared, required = p.Schema, true, p.Required
					}
				}
				if !declared {
					ps = s.Additional
				}
			}
			if declared && !required && v.Vals[i].Text == "null" && !v.Vals[i].Obj && !v.Vals[i].Arr {
				continue // null for an optional property is absent
			}
			m[k] = n.value(ps, v.Vals[i])
		}
		return m
	case v.Arr:
		var items []any
		for _, it := range v.Items {
			var is *Schema
			if s != nil && s.Type == "array" {
				is = s.Items
			}
			items = append(items, n.value(is, it))
		}
		if items == nil {
			items = []any{}
		}
		if unique && s != nil && s.Type == "array" {
			n.roundedUnique(s.Items, items)
		}
		return items
	}
	if v.Text == "null" {
		return nil
	}
	if v.Text[0] == '"' {
		str, _ := strconv.Unquote(v.Text)
		// A string holding an object or an array, where s wants one and no string.
		if inner := parseValue(str); inner != nil && s != nil && (inner.Obj && s.Type == "object" || inner.Arr && s.Type == "array") {
			return n.value(s, inner)
		}
		return str
	}
	if v.Text == "true" || v.Text == "false" {
		return v.Text == "true"
	}
	if s != nil && s.Type == "integer" {
		n.checkRange(s, v.Text)
	}
	return json.Number(v.Text)
}

// variant returns the variant of the union s that the object v's tag names, or nil.
func (n *normalizer) variant(s *Schema, v *Value) *Schema {
	i := slices.Index(v.Keys, UnionTag)
	if i < 0 {
		return nil
	}
	for _, vs := range s.Variants {
		if vs.Props[0].Schema.Const == v.Vals[i].Text && !v.Vals[i].Obj && !v.Vals[i].Arr {
			return vs
		}
	}
	return nil
}

// checkRange refuses an integral number past the Go type a dynamic tool reads it into.
func (n *normalizer) checkRange(s *Schema, text string) {
	var r big.Rat
	if _, ok := r.SetString(text); !ok || !r.IsInt() {
		return // not an integer: the validator refuses it
	}
	lo, hi := new(big.Int).Lsh(big.NewInt(-1), 63), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 63), big.NewInt(1))
	if s.unsigned() {
		lo, hi = big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 64), big.NewInt(1))
	}
	if r.Num().Cmp(lo) < 0 || r.Num().Cmp(hi) > 0 {
		n.ok = false
	}
}

// unsigned reports whether a dynamic tool reads the integers of s as a uint64: minimum
// 0, and no maximum or that of a uint8, uint16 or uint32.
func (s *Schema) unsigned() bool {
	max, hasMax := s.Bounds["maximum"]
	return s.Bounds["minimum"] == "0" && (!hasMax || max == "255" || max == "65535" || max == "4294967295")
}

// parseValue parses an object or array text into a Value, or returns nil.
func parseValue(text string) *Value {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	v, err := parseTokens(dec)
	if err != nil || dec.More() || !(v.Obj || v.Arr) {
		return nil
	}
	if _, err := dec.Token(); err == nil {
		return nil // more than one value
	}
	return v
}

func parseTokens(dec *json.Decoder) (*Value, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		v := &Value{Obj: t == '{', Arr: t == '['}
		for dec.More() {
			if v.Obj {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v.Keys = append(v.Keys, k.(string))
			}
			it, err := parseTokens(dec)
			if err != nil {
				return nil, err
			}
			if v.Obj {
				v.Vals = append(v.Vals, it)
			} else {
				v.Items = append(v.Items, it)
			}
		}
		_, err := dec.Token()
		return v, err
	case string:
		b, _ := json.Marshal(t)
		return &Value{Text: string(b)}, nil
	case json.Number:
		return &Value{Text: t.String()}, nil
	case bool:
		return &Value{Text: strconv.FormatBool(t)}, nil
	}
	return &Value{Text: "null"}, nil
}

// roundedUnique refuses items that differ as JSON values but not once their numbers
// are read as a dynamic tool reads them: as float64, but under an integer schema
// (9223372036854775807 and 9223372036854775808 are one float64).
func (n *normalizer) roundedUnique(items *Schema, vals []any) {
	seen := map[string]bool{}
	for _, v := range vals {
		k := n.rounded(items, v)
		if seen[k] {
			n.ok = false
		}
		seen[k] = true
	}
}

// rounded returns v under s as JSON, object keys sorted, numbers as float64 but under
// an integer schema.
func (n *normalizer) rounded(s *Schema, v any) string {
	s = n.resolve(s)
	switch v := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(v))
		parts := make([]string, len(keys))
		for i, k := range keys {
			var ps *Schema
			if s != nil && s.Type == "object" {
				ps = s.Additional
				for _, p := range s.Props {
					if p.Name == k {
						ps = p.Schema
					}
				}
			}
			parts[i] = strconv.Quote(k) + ":" + n.rounded(ps, v[k])
		}
		return "{" + strings.Join(parts, ",") + "}"
	case []any:
		parts := make([]string, len(v))
		for i, it := range v {
			var is *Schema
			if s != nil && s.Type == "array" {
				is = s.Items
			}
			parts[i] = n.rounded(is, it)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case json.Number:
		if s != nil && s.Type == "integer" {
			var r big.Rat
			if _, ok := r.SetString(v.String()); ok && r.IsInt() {
				return r.Num().String()
			}
		}
		f, _ := strconv.ParseFloat(v.String(), 64)
		if f == 0 {
			f = 0
		}
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// UsesGeneral reports whether NewTool reads the schema with its general engine: some
// schema of it is one the toolgen engine does not read (a keyword beside no type, as
// {"minLength": 0, "maxLength": 0}; null in the enum of a type without null; list
// keywords beside a reference to a schema they do not apply to), referenced or not,
// so that the general engine reads it all, numbers compared exactly, with no Go range.
func UsesGeneral(root *Schema, defs []*Schema) bool {
	seen := map[*Schema]bool{}
	var walk func(s *Schema) bool
	walk = func(s *Schema) bool {
		if s == nil || seen[s] {
			return false
		}
		seen[s] = true
		if s.Ref > 0 {
			// List keywords beside a reference to a schema they do not apply to.
			t := defs[s.Ref-1]
			items := s.MinItems >= 0 || s.MaxItems >= 0 || s.Unique
			props := s.MinProps >= 0 || s.MaxProps >= 0
			if items && t.Type != "array" || props && t.Type != "object" {
				return true
			}
			return walk(t)
		}
		if s.Type == "" && (s.MinLength >= 0 || s.MaxLength >= 0 || s.Pattern != "" || s.Format != "" || len(s.Bounds) > 0 || s.Enum != nil || s.Const != "") {
			return true
		}
		if slices.Contains(s.Enum, "null") && !s.Nullable {
			return true // null in the enum of a type that takes no null
		}
		for _, p := range s.Props {
			if walk(p.Schema) {
				return true
			}
		}
		for _, v := range s.Variants {
			if v.HasNames || walk(v) {
				return true // propertyNames in a variant: not toolgen's union
			}
		}
		return walk(s.Additional) || walk(s.Items)
	}
	if walk(root) {
		return true
	}
	// A definition no reference names is still a schema of the document, which
	// NewTool reads whole with one engine (found by FuzzDifferential: an unreferenced
	// {"minLength":0,"maxLength":0} took an integer past the Go range).
	for _, d := range defs {
		if walk(d) {
			return true
		}
	}
	return false
}
