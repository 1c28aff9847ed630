// Package difftest is the test oracle of toolgen's differential tests and fuzz targets:
// it says, independently of the generated decoders, whether a tool's arguments must be
// accepted and what they must decode to.
//
// It holds toolgen's two differential checks: Check, of a generated decoder against
// this oracle (a peer validator and encoding/json), and Pair.Check, the one check that
// the two readers of a tool's compiled program, the emitted code and the interpreter
// (the dynamic tool runtime.NewTool builds from the same canonical schema), agree on
// its semantics: on every argument text, but where a Go type decides (see dynamic.go).
//
// The oracle applies the leniencies of docs/DESIGN.md ("Decoding") to the arguments, then
// accepts them iff the result validates against the tool's canonical input schema
// (github.com/santhosh-tekuri/jsonschema/v6, draft 2020-12, formats asserted), and
// encoding/json can unmarshal it into the tool's Go argument type, and the arguments
// give no key twice in one object, nest no deeper than runtime.DefaultMaxDepth and are
// at most runtime.DefaultMaxArgumentBytes long. An accepted value must decode to what
// encoding/json makes of the normalized JSON (Verdict.GoJSON: integral numbers as
// integers, where the schema wants one, and date-times in the case time.Time parses).
package difftest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen/toolgen/runtime"
)

// Stage is where the oracle decided.
type Stage int

// The stages of the oracle, in the order it applies them.
const (
	Accepted  Stage = iota
	TooLarge        // over runtime.DefaultMaxArgumentBytes
	Syntax          // not one well-formed JSON value
	TooDeep         // nested deeper than runtime.DefaultMaxDepth
	Duplicate       // a key given twice in one object
	Schema          // the normalized value does not validate against the input schema
	Unmarshal       // encoding/json cannot unmarshal the normalized value into the Go type
)

func (s Stage) String() string {
	return [...]string{"accept", "reject (too large)", "reject (syntax)", "reject (too deep)",
		"reject (duplicate key)", "reject (schema)", "reject (encoding/json)"}[s]
}

// Verdict is what the oracle makes of one argument text.
type Verdict struct {
	Stage  Stage
	Reason string // why it rejects; "" when it accepts
	// Input is the arguments as parsed, with the double-encoding leniency applied and
	// nothing else; nil when they are not JSON.
	Input *Node
	// Normalized is Input with null optional properties removed and defaults filled in.
	Normalized *Node
	// GoJSON is Normalized as encoding/json must read it into the Go type to get what
	// the decoder makes of it: integral numbers where the schema wants an integer
	// written as integers (2.0 is 2, as JSON Schema says), and, when the Go type
	// needs it, the lowercase "t" and "z" of date-times made uppercase (RFC 3339
	// allows them; time.Time does not parse them).
	GoJSON []byte
}

// Accept reports whether the oracle accepts the arguments.
func (v Verdict) Accept() bool { return v.Stage == Accepted }

func (v Verdict) String() string {
	if v.Reason == "" {
		return v.Stage.String()
	}
	return v.Stage.String() + ": " + v.Reason
}

// Oracle judges the arguments of one tool.
type Oracle struct {
	Tool   string
	doc    map[string]any     // the input schema, as jsonschema reads it
	strict *jsonschema.Schema // formats asserted
	// goTime is strict but for date-time, which accepts whatever time.Time's
	// UnmarshalText does: it tells the known divergence laxDateTime apart.
	goTime *jsonschema.Schema
}

var (
	cacheMu sync.Mutex
	cache   = map[string]*Oracle{}
)

// For returns the oracle of the tool whose canonical input schema is inputSchema.
// Oracles are compiled once per tool and schema text.
func For(tool string, inputSchema []byte) (*Oracle, error) {
	key := tool + "\x00" + string(inputSchema)
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if o, ok := cache[key]; ok {
		return o, nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(inputSchema))
	if err != nil {
		return nil, fmt.Errorf("input schema of %s: %w", tool, err)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("input schema of %s is not an object", tool)
	}
	o := &Oracle{Tool: tool, doc: obj}
	for _, goTime := range []bool{false, true} {
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		c.AssertFormat()
		if goTime {
			c.RegisterFormat(&jsonschema.Format{Name: "date-time", Validate: goDateTime})
		}
		const url = "toolgen:///input.json"
		if err := c.AddResource(url, doc); err != nil {
			return nil, err
		}
		sch, err := c.Compile(url)
		if err != nil {
			return nil, fmt.Errorf("input schema of %s: %w", tool, err)
		}
		if goTime {
			o.goTime = sch
		} else {
			o.strict = sch
		}
	}
	cache[key] = o
	return o, nil
}

// Judge decides whether args must be accepted. unmarshal must unmarshal JSON into a
// fresh value of the tool's Go argument type with encoding/json.
func (o *Oracle) Judge(args []byte, unmarshal func([]byte) error) Verdict {
	return o.judge(args, unmarshal, o.strict)
}

func (o *Oracle) judge(args []byte, unmarshal func([]byte) error, sch *jsonschema.Schema) Verdict {
	if len(args) > runtime.DefaultMaxArgumentBytes {
		return Verdict{Stage: TooLarge, Reason: strconv.Itoa(len(args)) + " bytes"}
	}
	// Leniency: empty, white space only and null arguments are {}.
	if t := bytes.TrimLeft(args, " \t\r\n"); len(t) == 0 || string(bytes.TrimRight(t, " \t\r\n")) == "null" {
		args = []byte("{}")
	}
	in, err := Parse(args)
	if err != nil {
		return Verdict{Stage: Syntax, Reason: err.Error()}
	}
	in = o.expand(in, o.doc)
	v := Verdict{Input: in}
	if d := in.Depth(); d > runtime.DefaultMaxDepth {
		v.Stage, v.Reason = TooDeep, strconv.Itoa(d)+" levels"
		return v
	}
	if p, ok := in.Duplicate(); ok {
		v.Stage, v.Reason = Duplicate, strconv.Quote(p)
		return v
	}
	v.Normalized = o.lenient(in.clone(), o.doc)
	if err := sch.Validate(v.Normalized.Value()); err != nil {
		v.Stage, v.Reason = Schema, oneLine(err)
		return v
	}
	goValue := o.integers(v.Normalized.clone(), o.doc)
	v.GoJSON = goValue.JSON()
	err = unmarshal(v.GoJSON)
	if err != nil {
		if upper := o.upperDateTimes(goValue, o.doc).JSON(); string(upper) != string(v.GoJSON) {
			if unmarshal(upper) == nil {
				v.GoJSON, err = upper, nil
			}
		}
	}
	if err != nil {
		v.Stage, v.Reason = Unmarshal, err.Error()
		return v
	}
	return v
}

// integers rewrites the integral numbers where s wants an integer in integer form
// (2.0, 1e1 and 150e-1 become 2, 10 and 15). Exponents too large for big.Rat to be
// quick are left as they are: no Go integer holds such a number either way.
func (o *Oracle) integers(n *Node, s map[string]any) *Node {
	if s == nil {
		return n
	}
	s = o.resolve(s)
	switch n.Kind {
	case KindNumber:
		num := string(n.Num)
		if !allows(s, "integer") || !strings.ContainsAny(num, ".eE") {
			return n
		}
		if i := strings.IndexAny(num, "eE"); i >= 0 && len(strings.TrimLeft(num[i+1:], "+-0")) > 4 {
			return n
		}
		var r big.Rat
		if _, ok := r.SetString(num); ok && r.IsInt() {
			n.Num = json.Number(r.Num().String())
		}
	case KindObject:
		for i, k := range n.Keys {
			n.Vals[i] = o.integers(n.Vals[i], o.property(s, k))
		}
	case KindArray:
		for i := range n.Items {
			n.Items[i] = o.integers(n.Items[i], o.item(s, i))
		}
	}
	return n
}

// upperDateTimes returns a copy of n with the "t" and "z" of every date-time string
// where s wants one made uppercase.
func (o *Oracle) upperDateTimes(n *Node, s map[string]any) *Node {
	n = n.clone()
	if s == nil {
		return n
	}
	s = o.resolve(s)
	switch n.Kind {
	case KindString:
		if f, _ := s["format"].(string); f == "date-time" && len(n.Str) > 10 {
			b := []byte(n.Str)
			if b[10] == 't' {
				b[10] = 'T'
			}
			if b[len(b)-1] == 'z' {
				b[len(b)-1] = 'Z'
			}
			n.Str = string(b)
		}
	case KindObject:
		for i, k := range n.Keys {
			n.Vals[i] = o.upperDateTimes(n.Vals[i], o.property(s, k))
		}
	case KindArray:
		for i := range n.Items {
			n.Items[i] = o.upperDateTimes(n.Items[i], o.item(s, i))
		}
	}
	return n
}

// goDateTime accepts the strings Go's time.Time parses as RFC 3339 (see laxDateTime).
func goDateTime(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	var t time.Time
	b := []byte(s)
	if len(b) > 10 && b[10] == 't' {
		b[10] = 'T'
	}
	if len(b) > 0 && b[len(b)-1] == 'z' {
		b[len(b)-1] = 'Z'
	}
	return t.UnmarshalText(b)
}

func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// resolve follows a local $ref ("#/$defs/T", "#/definitions/T", "#").
func (o *Oracle) resolve(s map[string]any) map[string]any {
	for range 32 {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		toks, err := SplitPointer(strings.TrimPrefix(ref, "#"))
		if err != nil {
			return s
		}
		var cur any = o.doc
		for _, t := range toks {
			m, ok := cur.(map[string]any)
			if !ok {
				return s
			}
			cur = m[t]
		}
		next, ok := cur.(map[string]any)
		if !ok {
			return s
		}
		s = next
	}
	return s
}

// types returns the JSON types a schema allows; nil when it does not say.
func types(s map[string]any) []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if str, ok := x.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	return nil
}

func allows(s map[string]any, typ string) bool {
	for _, t := range types(s) {
		if t == typ {
			return true
		}
	}
	return false
}

// property returns the schema of an object's member named key, or nil.
func (o *Oracle) property(s map[string]any, key string) map[string]any {
	if props, ok := s["properties"].(map[string]any); ok {
		if p, ok := props[key].(map[string]any); ok {
			return o.resolve(p)
		}
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok {
		return o.resolve(ap)
	}
	return nil
}

// item returns the schema of an array's item at index i, or nil.
func (o *Oracle) item(s map[string]any, i int) map[string]any {
	if pre, ok := s["prefixItems"].([]any); ok && i < len(pre) {
		if p, ok := pre[i].(map[string]any); ok {
			return o.resolve(p)
		}
	}
	if it, ok := s["items"].(map[string]any); ok {
		return o.resolve(it)
	}
	return nil
}

// expand applies the double-encoding leniency wherever the schema wants an object or
// an array: a string holding exactly one well-formed object (or array) is that value.
func (o *Oracle) expand(n *Node, s map[string]any) *Node {
	if s == nil {
		return n
	}
	s = o.resolve(s)
	if n.Kind == KindString && !allows(s, "string") {
		inner := bytes.TrimLeft([]byte(n.Str), " \t\r\n")
		if len(inner) > 0 && (inner[0] == '{' && allows(s, "object") || inner[0] == '[' && allows(s, "array")) {
			if m, err := Parse(inner); err == nil {
				n = m
			}
		}
	}
	switch n.Kind {
	case KindObject:
		for i, k := range n.Keys {
			n.Vals[i] = o.expand(n.Vals[i], o.property(s, k))
		}
	case KindArray:
		for i := range n.Items {
			n.Items[i] = o.expand(n.Items[i], o.item(s, i))
		}
	}
	return n
}

// lenient removes null optional properties and fills in the defaults of absent ones.
func (o *Oracle) lenient(n *Node, s map[string]any) *Node {
	if s == nil {
		return n
	}
	s = o.resolve(s)
	switch n.Kind {
	case KindObject:
		required := map[string]bool{}
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if name, ok := r.(string); ok {
					required[name] = true
				}
			}
		}
		var keys []string
		var vals []*Node
		for i, k := range n.Keys {
			v := n.Vals[i]
			if v.Kind == KindNull && !required[k] && o.declared(s, k) {
				continue // null for an optional property means absent
			}
			keys = append(keys, k)
			vals = append(vals, o.lenient(v, o.property(s, k)))
		}
		n.Keys, n.Vals = keys, vals
		if props, ok := s["properties"].(map[string]any); ok {
			for _, k := range slices.Sorted(maps.Keys(props)) {
				p, _ := props[k].(map[string]any)
				def, ok := p["default"]
				if !ok || required[k] || n.Has(k) {
					continue
				}
				b, err := json.Marshal(def)
				if err != nil {
					panic(err)
				}
				dn, err := Parse(b)
				if err != nil {
					panic(err)
				}
				n.Keys = append(n.Keys, k)
				n.Vals = append(n.Vals, dn)
			}
		}
	case KindArray:
		for i := range n.Items {
			n.Items[i] = o.lenient(n.Items[i], o.item(s, i))
		}
	}
	return n
}

// declared reports whether the object schema s lists a property named key.
func (o *Oracle) declared(s map[string]any, key string) bool {
	props, ok := s["properties"].(map[string]any)
	if !ok {
		return false
	}
	_, ok = props[key]
	return ok
}
