package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/runtime/internal/engine"
	"github.com/toolgen/toolgen/runtime/invalid"
)

// NewTool returns a Toolset holding one tool built at run time: def describes it, and
// run runs its calls. def.InputSchema is a JSON Schema (2020-12) of the keywords toolgen
// writes; NewTool compiles it once into a program that reads each call's arguments
// over the same Decoder, with the same calls, as a generated decoder of that schema
// does. So a dynamic tool gets the same validation, violation messages and paths,
// leniencies, limits, violation budget, approvals, annotations and observer events as
// a generated one, and joins generated ones with Join.
//
// run receives the validated arguments re-encoded as compact JSON: defaults filled in
// for absent optional properties, null optional properties removed, integers written
// as integers (2.0 is 2), date-times and durations in their Go form
// (time.RFC3339Nano, time.Duration.String), base64 re-encoded, and objects or arrays
// that arrived as JSON strings decoded.
//
// A schema of the keywords toolgen writes (type, one or ["T", "null"]; properties,
// required, additionalProperties, items, $defs, a local $ref, the anyOf of an optional
// value, enum, const, default, the bounds, lengths, pattern, format, contentEncoding
// base64, minItems, maxItems, uniqueItems, minProperties, maxProperties, a
// propertyNames enum, and the oneOf of a tagged union: closed objects, each with a
// required string const of the same name, its discriminator) is read as a generated
// decoder reads it, below; a tagged union as a generated union decoder reads it (the
// discriminator found wherever it stands, the variant it names read in one pass, the
// same messages). Any other schema
// is read by the general engine, as JSON Schema draft 2020-12 says: every assertion of
// the core, applicator, validation and unevaluated vocabularies (anyOf, oneOf, allOf,
// not, if/then/else, dependentRequired, dependentSchemas, prefixItems, contains with
// minContains and maxContains, patternProperties, propertyNames, type lists, enum and
// const of any JSON value, boolean schemas, unevaluatedProperties and
// unevaluatedItems), format asserted for the formats of Format (others are
// annotations), $ref, $anchor, $dynamicRef and $dynamicAnchor resolved within the
// document, embedded resources with their own $id included. Unknown keywords are
// annotations (discriminator, nullable, "x-..."). NewTool refuses, with a *SchemaError
// naming the keyword and its JSON Pointer in the schema, a reference that leaves the
// document, a keyword whose value is malformed, a pattern RE2 cannot read (but for
// ECMA-262 lookaheads at its start, which zod and pydantic write), and a schema that
// applies itself to the same value without end. The general engine reads the
// arguments into a tree and checks them with the same leniencies: empty or null
// arguments are {}, null for a declared optional property means absent, an object or
// array that arrives as a JSON string holding it is read from it where the schema
// takes no string, and defaults of the schemas the value matched fill absent optional
// properties. A failed anyOf or oneOf says which of its schemas came closest (the one
// whose discriminator const matches, else one of the value's type that declares most
// of the object's names, with the fewest violations) and lists that schema's
// violations. Its numbers are passed to run as they came.
// An x-mcp-header annotation (HeaderKeyword) must follow MCP SEP-2243's rules, as
// Tool.HeaderParams checks them: NewTool refuses a tool with one that does not, which
// an MCP client would drop from the server's tools.
//
// Where the schema does not say the Go type behind a value, it is read as toolgen
// writes the schema for the usual type: a string of format date-time as a time.Time
// (the Decoder's Time), one under toolgen's duration pattern as a time.Duration, base64 text
// as a []byte, an integer of minimum 0 and no maximum (or that of a uint8, uint16 or
// uint32) as unsigned (its Uint), any other integer as an int64, and any number as a
// float64.
//
// A property is sensitive when its schema says `"x-toolgen-sensitive": true`
// (SensitiveKeyword) or def.Sensitive names it; the Tool's Sensitive lists both, so
// its values are never echoed in violations, logs or approval prompts.
//
// An empty InputSchema is an object without properties.
//
// Keywords are applied as JSON Schema says, whatever stands beside them: propertyNames
// to declared properties too, minLength, maxLength, pattern and format to a value an
// enum or const allows, an enum or const without null to null under type [T, "null"],
// numbers compared with their bounds, enum and const exactly (and, as the float64 run
// gets, with their bounds too), uniqueItems on values equal as JSON (0 and -0 alike,
// object members in any order).
//
// Compiling costs in proportion to the schema's length; NewTool refuses a schema
// longer than MaxSchemaBytes, nested deeper than MaxSchemaDepth, or with a pattern
// whose program is larger than MaxPatternSize, so that a call costs in proportion to
// its arguments whatever the schema.
//
// Provider adapters offer a dynamic tool as they offer any Tool built by hand.
func NewTool(def Tool, run func(ctx context.Context, args json.RawMessage) (*Result, error)) (*Toolset, error) {
	if run == nil {
		return nil, errors.New("runtime: NewTool " + strconv.Quote(def.Name) + ": run is nil")
	}
	if def.Name == "" {
		return nil, errors.New("runtime: NewTool: the tool has no name")
	}
	if !validToolName(def.Name) {
		return nil, errors.New("runtime: NewTool " + strconv.Quote(def.Name) + ": a tool's name is 1 to " + strconv.Itoa(MaxToolNameBytes) + " letters, digits, '_', '-' and '.' (MCP's tool names)")
	}
	in := engine.Tool{Name: def.Name, InputSchema: def.InputSchema, Sensitive: def.Sensitive}
	prog, err := engine.Compile(&in)
	if err != nil {
		return nil, schemaError(err)
	}
	def.Sensitive = in.Sensitive
	if _, err := def.HeaderParams(); err != nil {
		return nil, errors.New("runtime: NewTool " + strconv.Quote(def.Name) + ": " + err.Error())
	}
	def.Groups = slices.Clone(def.Groups)
	def.Examples = slices.Clone(def.Examples)
	tools := []Tool{def}
	ts := NewToolset(tools, func(_ int, d *engine.Decoder, ctx context.Context) (invocation, *Result, error) {
		args, ok := prog.Decode(d)
		if !ok {
			return nil, nil, nil
		}
		if ctx != nil {
			r, err := run(ctx, args)
			return nil, r, err
		}
		return func(ctx context.Context) (*Result, error) { return run(ctx, args) }, nil, nil
	})
	if err := checkExamples(ts); err != nil {
		return nil, err
	}
	return ts, nil
}

// ExampleError is NewTool's error for a tool whose input examples (Tool.Examples) are
// not JSON objects its input schema accepts.
type ExampleError struct {
	Tool string
	// Invalid lists the refused examples, in order.
	Invalid []InvalidExample
}

// InvalidExample is one input example NewTool refused.
type InvalidExample struct {
	// Index is the example's index in Tool.Examples.
	Index int
	// Err says what is wrong: an *ArgumentError listing what the input schema refuses,
	// as a call with those arguments would get it, or why the example is not a JSON
	// object.
	Err error
}

// Error names the tool and, for each refused example, its index and what is wrong.
func (e *ExampleError) Error() string {
	var b strings.Builder
	b.WriteString("runtime: tool ")
	b.WriteString(strconv.Quote(e.Tool))
	b.WriteString(": ")
	for i, x := range e.Invalid {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString("input example ")
		b.WriteString(strconv.Itoa(x.Index))
		b.WriteString(": ")
		b.WriteString(x.Message())
	}
	return b.String()
}

// Message says what is wrong with the example: the violations of an *ArgumentError
// without its "invalid arguments for" lead, or the error's text.
func (x InvalidExample) Message() string {
	var ae *invalid.ArgumentError
	if errors.As(x.Err, &ae) {
		msg := ae.Error()
		return strings.TrimPrefix(msg, "invalid arguments for "+ae.Tool+": ")
	}
	return x.Err.Error()
}

// checkExamples decodes each input example of the one tool of ts as a call's
// arguments, without running the tool, and returns an *ExampleError for those that
// are refused, or are not JSON objects (the decoder reads null, empty arguments and
// an object written as a JSON string as a call's arguments; an example is written as
// the object itself).
func checkExamples(ts *Toolset) error {
	e := ts.entries[0]
	var invalid []InvalidExample
	for i, ex := range e.tool.Examples {
		if t := bytes.TrimLeft(ex, " \t\r\n"); len(t) == 0 || t[0] != '{' || !json.Valid(ex) {
			invalid = append(invalid, InvalidExample{Index: i, Err: errors.New("not a JSON object")})
			continue
		}
		if _, err := ts.decode(e, ex); err != nil {
			invalid = append(invalid, InvalidExample{Index: i, Err: err})
		}
	}
	if invalid == nil {
		return nil
	}
	return &ExampleError{Tool: e.tool.Name, Invalid: invalid}
}

// MaxToolNameBytes is the longest name NewTool takes for a tool, MCP's bound on tool
// names.
const MaxToolNameBytes = 128

// validToolName reports whether name is a tool name MCP allows: 1 to MaxToolNameBytes
// ASCII letters, digits, '_', '-' and '.'. A name from a schema NewTool is given (an
// MCP server it proxies, a plugin) is printed in every violation, log and request: a
// newline or a terminal escape in it would start a line of its own.
func validToolName(name string) bool {
	if len(name) == 0 || len(name) > MaxToolNameBytes {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// The bounds on the schemas NewTool reads and on the work a dynamic tool's call may
// cost; runtime/internal/engine, which compiles and interprets the schemas, enforces
// them.
const (
	// MaxSchemaBytes is the longest input schema NewTool reads: a longer one is refused
	// with a *SchemaError. Compiling a schema costs time and memory in proportion to
	// its length (some 100 bytes of memory a byte, at most), up to this.
	MaxSchemaBytes = engine.MaxSchemaBytes
	// MaxSchemaDepth is the deepest nesting of objects and arrays in an input schema
	// that NewTool reads: a deeper one is refused with a *SchemaError. Arguments nest
	// at most DefaultMaxDepth levels, and each level of arguments takes two of the
	// schema (properties, then the property's schema).
	MaxSchemaDepth = engine.MaxSchemaDepth
	// MaxValidationSteps bounds the schemas the general engine of dynamic tools
	// applies to values in one call: past it the call stops with a violation. A
	// schema's references are evaluated once per value they are applied to (their
	// results are kept), so a call costs in proportion to its arguments times the
	// schema's size; the bound keeps a schema built to apply many schemas to each
	// value from costing more than it.
	MaxValidationSteps = engine.MaxValidationSteps
	// MaxLookaheads is the most lookaheads at the start of a pattern of a dynamic
	// tool's schema that NewTool reads (each is matched against the whole string).
	MaxLookaheads = engine.MaxLookaheads
)

// SensitiveKeyword is the schema extension that marks a property of a dynamic tool's
// input schema as sensitive, as the tool tag's sensitive keyword does for a generated
// tool: `"x-toolgen-sensitive": true` on the property's schema.
const SensitiveKeyword = engine.SensitiveKeyword

// SchemaError reports why NewTool refused a tool's input schema: a keyword it cannot
// enforce, or a schema it cannot read, at the JSON Pointer Path of the schema.
type SchemaError struct {
	Tool    string
	Path    string // the JSON Pointer in the schema ("" for its root)
	Keyword string // the keyword refused, or ""
	Reason  string
}

// Error says which tool, where in its schema and why.
func (e *SchemaError) Error() string { return (*engine.SchemaError)(e).Error() }

// schemaError returns err, the compiler's, with its *engine.SchemaError as a
// *SchemaError, the type NewTool documents.
func schemaError(err error) error {
	var se *engine.SchemaError
	if errors.As(err, &se) {
		return (*SchemaError)(se)
	}
	return err
}
