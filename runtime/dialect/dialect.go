// Package dialect lowers a tool's input schema, a JSON Schema (draft 2020-12) such as
// toolgen writes or a user gives runtime.NewTool, to what each provider takes: OpenAI's
// strict mode (Chat Completions and the Responses API take the same schema),
// Anthropic's strict subset, and Gemini's OpenAPI 3.0 subset.
//
// toolgen writes its toolschema/ dialect files with it, and the provider adapters
// (runtime/openai, runtime/anthropic, runtime/gemini) send what it returns, so a tool
// gets the same lowering whether it was generated or built at run time. A lowering
// drops only what a provider cannot take, restating it in descriptions; the runtime's
// decoder enforces the whole canonical schema whatever a provider was sent.
//
// The functions are pure and deterministic: the same schema gives the same bytes. They
// depend on the standard library only.
package dialect

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/toolgen/toolgen/runtime/schematree"
)

// Lowered is an input schema in one provider's dialect.
type Lowered struct {
	// Parameters is the schema as the provider takes it, compact JSON. It is the schema
	// as given when the lowering sends it as it is (a tool that is not strict, or one
	// strict mode cannot take), unchanged but for a "$schema" at its root, which no
	// provider needs (toolgen writes one with //toolgen:package schema=2020-12).
	Parameters json.RawMessage
	// Strict reports that Parameters meets the provider's strict mode and that strict
	// mode was asked for.
	Strict bool
}

// Warning is one thing a lowering had to give up: why a schema is not strict, or what a
// dialect can only approximate.
type Warning struct {
	// Field is the JSON Pointer, in the schema as given, of the property the warning is
	// about ("/properties/user/properties/name"), so a generator can point at the
	// source of that property; "" for the tool as a whole.
	Field string
	// Path is the JSON Pointer of the value concerned as the arguments reach it (through
	// references), or "" when Message says where.
	Path string
	// Message says what is wrong, without the tool or the provider.
	Message string
}

// String returns the warning as "path: message", or the message when Path is "".
func (w Warning) String() string {
	if w.Path == "" {
		return w.Message
	}
	return w.Path + ": " + w.Message
}

// OpenAI returns the schema to send to OpenAI, the same for Chat Completions and the
// Responses API. With strict, the schema is made strict if it can be: every property
// required, the optional ones nullable (OpenAI sends null for them, which toolgen's
// decoder reads as absent), additionalProperties false everywhere, references with
// keywords beside them inlined, and the keywords strict mode refuses restated in
// descriptions. When it cannot (maps, free-form values, OpenAI's size limits, a keyword
// this package does not know), the schema goes as given, not strict, and the warnings
// say why. Without strict, the schema goes as given.
func OpenAI(schema json.RawMessage, strict bool) (Lowered, []Warning) {
	return Parse(schema).OpenAI(strict)
}

// Anthropic returns the input_schema to send to Anthropic. Without strict mode
// Anthropic takes any JSON Schema object, so the schema goes as given. With strict, it
// gets only the keys strict mode allows, the others restated in descriptions, a
// minItems over 1 lowered to 1 (and restated) and references with keywords beside them
// inlined; optional properties stay optional. Maps, free-form values, recursive types,
// more than 16 union-typed values and keywords this package does not know keep the
// schema out of strict mode, as given, with warnings that say why.
func Anthropic(schema json.RawMessage, strict bool) (Lowered, []Warning) {
	return Parse(schema).Anthropic(strict)
}

// Gemini returns the "parameters" of a Gemini function declaration: the schema with
// every "$defs" entry inlined, upper-case types, nullable instead of null in a type
// array or an anyOf, and only the keywords genai.Schema has; what Gemini cannot carry
// is restated in descriptions, and a recursive type is cut where it nests in itself.
// The warnings say what was approximated. Gemini has no strict mode: Strict is false.
// For a schema that is not JSON Schema it can read, Parameters is nil (send the schema
// as "parametersJsonSchema" instead) and a warning says why.
func Gemini(schema json.RawMessage) (Lowered, []Warning) {
	return Parse(schema).Gemini()
}

// Parsed is one input schema to lower to several dialects, read once: toolgen lowers
// every tool's schema to all of them. Its methods return what the functions of the
// same names return for the schema. A Parsed is not safe for concurrent use.
type Parsed struct {
	raw  json.RawMessage
	root *schema // once read
	err  error   // why it cannot be read
	read bool    // root or err is set
	lent bool    // root was given to a lowering, which gets a copy from then on
}

// Parse returns schema to lower, which is read when a lowering first needs it (a
// schema sent as given is not read).
func Parse(schema json.RawMessage) *Parsed {
	return &Parsed{raw: schema}
}

// tree returns the schema's tree for one lowering: the first gets the tree read, the
// others a copy, so that no lowering sees what another did.
func (p *Parsed) tree() (*schema, error) {
	if !p.read {
		p.root, p.err = parse(p.raw)
		p.read = true
	}
	if p.err != nil {
		return nil, p.err
	}
	if p.lent {
		return p.root.Clone(), nil
	}
	p.lent = true
	return p.root, nil
}

// OpenAI is the function OpenAI for the schema.
func (p *Parsed) OpenAI(strict bool) (Lowered, []Warning) {
	if !strict {
		return Lowered{Parameters: asGiven(p.raw)}, nil
	}
	root, err := p.tree()
	if err != nil {
		return Lowered{Parameters: p.raw}, []Warning{{Message: err.Error()}}
	}
	s, ok, issues := lowerOpenAI(root, true)
	if !ok {
		return Lowered{Parameters: asGiven(p.raw)}, issues.warnings()
	}
	return Lowered{Parameters: mustEncode(s), Strict: true}, nil
}

// Anthropic is the function Anthropic for the schema.
func (p *Parsed) Anthropic(strict bool) (Lowered, []Warning) {
	if !strict {
		return Lowered{Parameters: asGiven(p.raw)}, nil
	}
	root, err := p.tree()
	if err != nil {
		return Lowered{Parameters: p.raw}, []Warning{{Message: err.Error()}}
	}
	s, ok, issues := lowerAnthropic(root, true)
	if !ok {
		return Lowered{Parameters: asGiven(p.raw)}, issues.warnings()
	}
	return Lowered{Parameters: mustEncode(s), Strict: true}, nil
}

// Gemini is the function Gemini for the schema.
func (p *Parsed) Gemini() (Lowered, []Warning) {
	root, err := p.tree()
	if err != nil {
		return Lowered{}, []Warning{{Message: err.Error()}}
	}
	g, issues := lowerGemini(root)
	return Lowered{Parameters: mustEncode(g)}, issues.warnings()
}

// asGiven returns schema as it is, without the "$schema" member of its root object when
// it has one: the other members keep their bytes and their order. A schema that is not
// an object of valid JSON is returned unchanged.
func asGiven(schema json.RawMessage) json.RawMessage {
	if !bytes.Contains(schema, []byte(`"$schema"`)) {
		return schema
	}
	dec := json.NewDecoder(bytes.NewReader(schema))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return schema
	}
	out := make([]byte, 0, len(schema))
	out = append(out, '{')
	found := false
	for dec.More() {
		start := dec.InputOffset() // at the key, or at the comma before it
		k, err := dec.Token()
		if err != nil {
			return schema
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return schema
		}
		if k == "$schema" {
			found = true
			continue
		}
		member := bytes.TrimLeft(schema[start:dec.InputOffset()], " \t\r\n,")
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, member...)
	}
	if !found {
		return schema
	}
	return append(out, '}')
}

// mustEncode marshals a lowered schema, which is always representable.
func mustEncode(v any) json.RawMessage {
	b, err := schematree.EncodeJSON(v, false)
	if err != nil {
		panic("dialect: " + err.Error())
	}
	return b
}

// issue is one problem a lowering found.
type issue struct {
	// field is the JSON Pointer of the property the problem is in, "" for the tool.
	field string
	// path locates the value (a JSON Pointer through references), or "".
	path string
	// text says what is wrong.
	text string
}

// issueList collects the issues of one lowering, without duplicates.
type issueList []issue

func (l *issueList) add(f string, path, format string, args ...any) {
	is := issue{field: f, path: path, text: fmt.Sprintf(format, args...)}
	for _, old := range *l {
		if old.path == is.path && old.text == is.text {
			return
		}
	}
	*l = append(*l, is)
}

func (l issueList) warnings() []Warning {
	if len(l) == 0 {
		return nil
	}
	out := make([]Warning, len(l))
	for i, is := range l {
		out[i] = Warning{Field: is.field, Path: is.path, Message: is.text}
	}
	return out
}

// intPtr returns a pointer to n.
func intPtr(n int) *int {
	return &n
}
