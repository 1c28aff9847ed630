// Package model is toolgen's intermediate representation: what the parser reads from
// annotated Go source and what the generator turns into schemas and Go code.
//
// The model is plain data. It holds no go/types values, so it can be written to JSON,
// compared in golden tests, and built by hand in the generator's tests. Every value that
// ends up in a schema (defaults, enum values, bounds) is kept as JSON text, exactly as it
// will be written, so the generator never re-interprets what the parser decided.
package model

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Package is one Go package's tools and the named types they use.
type Package struct {
	// Path is the package's import path, for example "example.com/shop/orders".
	Path string `json:"path"`
	// Name is the package name as written in its package clause.
	Name string `json:"name"`
	// Dir is the package directory, relative to the directory toolgen ran in, using
	// forward slashes ("." for the current directory).
	Dir string `json:"dir"`
	// Tools are the package's tools, sorted by Name.
	Tools []*Tool `json:"tools"`
	// Types are the named types reachable from the tools' inputs and outputs, sorted by
	// ID. Type nodes of kind Named refer to them by ID.
	Types []*NamedType `json:"types,omitempty"`
	// ToolsFunc is the name of the generated function that returns the package-level
	// tools; empty means DefaultToolsFunc. Use Constructor rather than reading it.
	ToolsFunc string `json:"toolsFunc,omitempty"`
	// TypeToolsFunc is the pattern of the names of the generated functions that return
	// the tools of a receiver type's methods, "*" standing for the type's name; empty
	// means DefaultTypeToolsFunc. Use Constructor rather than reading it.
	TypeToolsFunc string `json:"typeToolsFunc,omitempty"`
	// SchemaDialect is the value of the package's schema= option: SchemaDialect202012,
	// or empty when absent. When set, the root of every tool's canonical input and
	// output schema (toolschema/<tool>.json, toolschema/mcp.json and the schemas of the
	// generated runtime.Tool definitions) names the dialect with "$schema" (see
	// SchemaURI); the provider dialect files do not get it. The schemas are 2020-12
	// either way.
	SchemaDialect string `json:"schemaDialect,omitempty"`
	// ImportNamesTaken are the package-level names declared by the package's own
	// source that are also the names of packages its generated file imports (see
	// GeneratedImports; the packages of its types count too), sorted. A name cannot be
	// declared both in the package block and by an import, so the generated file imports
	// those packages under names of its own.
	ImportNamesTaken []string `json:"importNamesTaken,omitempty"`
	// Warnings are the problems found in the package's source that do not stop
	// generation (a near-miss directive, a struct tag toolgen does not read), sorted
	// by position.
	Warnings []Warning `json:"warnings,omitempty"`
}

// Names of generated code.
const (
	// DefaultToolsFunc is the default name of the generated function that returns a
	// package's package-level tools.
	DefaultToolsFunc = "Tools"
	// DefaultTypeToolsFunc is the default pattern of the name of the generated function
	// that returns the tools of a receiver type's methods: "*" stands for the type's
	// name, so the tools of Service are returned by ServiceTools.
	DefaultTypeToolsFunc = "*Tools"
	// HelperPrefix starts the name of every package-level declaration of generated code
	// other than the constructors (toolgenTools, toolgenDispatch, toolgenDecodeX, ...).
	// It is followed by an upper-case letter.
	HelperPrefix = "toolgen"
)

// Values of Package.SchemaDialect.
const (
	// SchemaDialect202012 is JSON Schema draft 2020-12, written schema=2020-12.
	SchemaDialect202012 = "2020-12"
	// SchemaURI202012 is the "$schema" of draft 2020-12.
	SchemaURI202012 = "https://json-schema.org/draft/2020-12/schema"
)

// SchemaURI returns the "$schema" the roots of the package's canonical schemas carry,
// or "" when they carry none (SchemaDialect is empty or unknown).
func (p *Package) SchemaURI() string {
	if p.SchemaDialect == SchemaDialect202012 {
		return SchemaURI202012
	}
	return ""
}

// GeneratedImports are the import paths of the packages generated code may import,
// besides those of the packages that declare the tools' types.
var GeneratedImports = []string{"context", "encoding/json", "github.com/toolgen/toolgen/runtime", "github.com/toolgen/toolgen/runtime/invalid", "github.com/toolgen/toolgen/runtime/toolimpl", "math", "time"}

// ImportName is the name generated code knows a package by, unless it is taken: the
// last element of its import path, in lower case, without characters other than
// letters and digits (and leading digits).
func ImportName(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		path = path[i+1:]
	}
	var b strings.Builder
	for _, r := range strings.ToLower(path) {
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) && (b.Len() > 0 || !unicode.IsDigit(r)) {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "pkg"
	}
	return b.String()
}

// Constructor returns the name of the generated function that returns the tools of
// the methods of receiver type recv, or of the package-level tools when recv is "".
func (p *Package) Constructor(recv string) string {
	if recv == "" {
		if p.ToolsFunc != "" {
			return p.ToolsFunc
		}
		return DefaultToolsFunc
	}
	pattern := p.TypeToolsFunc
	if pattern == "" {
		pattern = DefaultTypeToolsFunc
	}
	return strings.Replace(pattern, "*", recv, 1)
}

// IsHelperName reports whether name has the form of a generated helper's name:
// HelperPrefix followed by an upper-case letter.
func IsHelperName(name string) bool {
	rest, ok := strings.CutPrefix(name, HelperPrefix)
	if !ok || rest == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return unicode.IsUpper(r)
}

// Type returns the named type with the given ID, or nil.
func (p *Package) Type(id string) *NamedType {
	// Types are sorted by ID: a binary search, which the generator's thousands of
	// look-ups in a package of thousands of types need; a package built unsorted
	// still finds its types, by the scan below.
	if i, ok := slices.BinarySearchFunc(p.Types, id, func(t *NamedType, id string) int {
		return strings.Compare(t.ID, id)
	}); ok {
		return p.Types[i]
	}
	for _, t := range p.Types {
		if t.ID == id {
			return t
		}
	}
	return nil
}

// Tool is one annotated function or method.
type Tool struct {
	// Name is the tool name the model sees, matching ^[a-zA-Z0-9_-]{1,64}$.
	Name string `json:"name"`
	// GoName is the function or method name.
	GoName string `json:"goName"`
	// Directive is where the //toolgen:tool line is, for suggested fixes (not part of
	// the JSON model); its File is empty when unknown.
	Directive Pos `json:"-"`
	// Receiver is the receiver's type name for a method ("Service" for
	// func (s *Service) ...), empty for a package-level function.
	Receiver string `json:"receiver,omitempty"`
	// ReceiverPointer reports a pointer receiver.
	ReceiverPointer bool `json:"receiverPointer,omitempty"`
	// Title is the human title (MCP title and annotations.title).
	Title string `json:"title,omitempty"`
	// Description is the doc comment text without directive lines, paragraphs kept.
	Description string `json:"description,omitempty"`
	// Placeholder reports that the doc comment holds a placeholder that toolgen-vet
	// -fix wrote ("TODO: say what it does and when to use it."), which Description
	// leaves out.
	Placeholder bool `json:"placeholder,omitempty"`
	// Examples are the tool's input examples, from the doc comment's "Examples:"
	// paragraph (which Description leaves out), in the order written.
	Examples []Example `json:"examples,omitempty"`
	// Groups lists the tool's groups in the order written.
	Groups []string `json:"groups,omitempty"`
	// Annotations are the MCP hints exactly as written.
	Annotations Annotations `json:"annotations"`
	// Strict asks for strict schemas in the dialects that have them.
	Strict bool `json:"strict"`
	// Sequential asks the runtime to run the tool alone, after parallel calls.
	Sequential bool `json:"sequential,omitempty"`
	// Timeout is a Go duration string ("30s"), empty for none.
	Timeout string `json:"timeout,omitempty"`
	// Task is the tool's task support (the task= option): "optional", "required", or
	// "" for none (task=forbidden).
	Task string `json:"task,omitempty"`
	// TaskPrelude reports the taskprelude option: a call that would run as a task
	// runs in its request until the tool calls client.StartTask.
	TaskPrelude bool `json:"taskPrelude,omitempty"`
	// MaxResultBytes is the tool's result budget in bytes (the budget= option), 0 for
	// the Toolset's.
	MaxResultBytes int `json:"maxResultBytes,omitempty"`
	// Context reports that the function's first parameter is a context.Context.
	Context bool `json:"context,omitempty"`
	// Input says how the model's arguments reach the function.
	Input Input `json:"input"`
	// Output says what the function returns.
	Output Output `json:"output"`
	// Pos is where the function is declared.
	Pos Pos `json:"pos"`
}

// Example is one input example of a tool: arguments a call could send, which the
// generator checks against the tool's input schema.
type Example struct {
	// JSON is the example, a JSON object, compact.
	JSON string `json:"json"`
	// Pos is where the example's line starts its JSON.
	Pos Pos `json:"pos"`
}

// Annotations are MCP tool hints. A nil hint was not written by the author; the runtime
// applies the MCP defaults to it.
type Annotations struct {
	ReadOnly    *bool `json:"readOnly,omitempty"`
	Destructive *bool `json:"destructive,omitempty"`
	Idempotent  *bool `json:"idempotent,omitempty"`
	OpenWorld   *bool `json:"openWorld,omitempty"`
}

// InputKind is the shape of a tool's parameters.
type InputKind string

// The input shapes of docs/DESIGN.md.
const (
	// InputNone: the function takes no arguments (besides an optional context).
	InputNone InputKind = "none"
	// InputStruct: one struct or pointer-to-struct parameter whose fields are the
	// properties. Input.Type is that parameter's type.
	InputStruct InputKind = "struct"
	// InputParams: ordinary parameters, each a property named as in the source.
	// Input.Params lists them in order.
	InputParams InputKind = "params"
)

// Input describes a tool's parameters.
type Input struct {
	Kind InputKind `json:"kind"`
	// Type is the struct parameter's type (kind Named, Struct or Pointer to one of
	// them) for InputStruct.
	Type *Type `json:"type,omitempty"`
	// Params are the parameters for InputParams. Each is a Field whose GoPath holds
	// the parameter name.
	Params []*Field `json:"params,omitempty"`
}

// OutputKind is the shape of a tool's result.
type OutputKind string

// The output shapes of docs/DESIGN.md.
const (
	// OutputNone: the function returns only an error, or nothing.
	OutputNone OutputKind = "none"
	// OutputText: the function returns a string, sent to the model as text.
	OutputText OutputKind = "text"
	// OutputResult: the function returns a runtime.Result (or a pointer to one).
	OutputResult OutputKind = "result"
	// OutputValue: the function returns a serializable value, sent as structured
	// content with an output schema.
	OutputValue OutputKind = "value"
	// OutputValueContent: the function returns (R, []runtime.Content, error): the value
	// R as for OutputValue (structured content, its JSON the model's text, the output
	// schema), and content blocks appended to the result's content, typically for the
	// user (runtime.UserText). Error is always set.
	OutputValueContent OutputKind = "valueContent"
)

// Output describes a tool's results.
type Output struct {
	Kind OutputKind `json:"kind"`
	// Type is the value's type for OutputValue and OutputValueContent.
	Type *Type `json:"type,omitempty"`
	// ResultPointer reports a *runtime.Result for OutputResult.
	ResultPointer bool `json:"resultPointer,omitempty"`
	// Error reports that the function returns an error (alone or last).
	Error bool `json:"error,omitempty"`
}

// Structured reports whether the tool's result is a structured value with an output
// schema: OutputValue or OutputValueContent.
func (o Output) Structured() bool {
	return o.Kind == OutputValue || o.Kind == OutputValueContent
}

// Kind is the kind of a Type node.
type Kind string

// The type kinds toolgen maps.
const (
	String   Kind = "string"
	Bool     Kind = "bool"
	Int      Kind = "int"   // Bits: 8, 16, 32, 64 (int and int64 are 64)
	Uint     Kind = "uint"  // Bits as for Int
	Float    Kind = "float" // Bits: 32 or 64
	Time     Kind = "time"  // time.Time, an RFC 3339 date-time string (see Constraints.Layout)
	Duration Kind = "duration"
	Bytes    Kind = "bytes" // []byte, base64 text
	Slice    Kind = "slice"
	Array    Kind = "array" // Len elements
	Map      Kind = "map"   // map[Key]Elem, Key a string type
	Pointer  Kind = "pointer"
	Struct   Kind = "struct" // an unnamed struct literal type
	Named    Kind = "named"  // a defined type; see Package.Types[Ref]
	Text     Kind = "text"   // implements encoding.TextUnmarshaler; a string
	Any      Kind = "any"    // any or interface{}: free-form JSON
	Raw      Kind = "raw"    // json.RawMessage: free-form JSON kept as bytes
	// Union is a sealed interface's underlying type: a tagged union of the struct types
	// that implement it (Tag, Variants). It is always a NamedType's Underlying.
	Union Kind = "union"
)

// DefaultUnionTag is the discriminator property of a union whose interface has no
// //toolgen:union line.
const DefaultUnionTag = "type"

// Type is a node of a Go type as toolgen maps it.
type Type struct {
	Kind Kind `json:"kind"`
	// Bits is the size of Int, Uint and Float kinds.
	Bits int `json:"bits,omitempty"`
	// Basic is the Go spelling of an unnamed Int, Uint or Float type ("int",
	// "int64", "uint8", "float32", ...), since Bits alone cannot tell int from int64.
	Basic string `json:"basic,omitempty"`
	// Elem is the element of Slice, Array, Map and Pointer kinds.
	Elem *Type `json:"elem,omitempty"`
	// Key is a Map's key type: String, or Named with a string underlying type.
	Key *Type `json:"key,omitempty"`
	// Len is the length of an Array.
	Len int `json:"len,omitempty"`
	// Fields are a Struct's properties, flattened as encoding/json does.
	Fields []*Field `json:"fields,omitempty"`
	// Ref is the NamedType.ID of a Named kind.
	Ref string `json:"ref,omitempty"`
	// Tag is a Union's discriminator property: the name of the property whose value
	// says which variant an object is.
	Tag string `json:"tag,omitempty"`
	// Variants are a Union's variants, in declaration order.
	Variants []*Variant `json:"variants,omitempty"`
}

// Variant is one variant of a union: a named struct type that implements the union's
// interface, and the value its discriminator property holds.
type Variant struct {
	// Value is the discriminator's value for this variant (plain text, not JSON).
	Value string `json:"value"`
	// Type is the variant's struct type, of kind Named.
	Type *Type `json:"type"`
	// Pos is where the variant type is declared.
	Pos Pos `json:"pos"`
}

// NamedType is a defined Go type used by some tool.
type NamedType struct {
	// ID is unique within the Package: the type name, qualified by its package
	// name when two packages' types share a name ("Item", "other.Item").
	ID string `json:"id"`
	// Name is the type's name in its package.
	Name string `json:"name"`
	// PkgPath is the import path of the package that declares it.
	PkgPath string `json:"pkgPath"`
	// Doc is the type's doc comment text.
	Doc string `json:"doc,omitempty"`
	// Underlying is the mapped underlying type. For types that implement
	// encoding.TextUnmarshaler it is of kind Text; for time.Time, Time; and so on.
	Underlying *Type `json:"underlying"`
	// Enum lists the type's typed constants, in declaration order, when the type is a
	// string or integer type that has any in its package.
	Enum []*EnumValue `json:"enum,omitempty"`
	// Recursive reports that the type refers to itself, directly or not.
	Recursive bool `json:"recursive,omitempty"`
}

// EnumValue is one typed constant of an enum type.
type EnumValue struct {
	// GoName is the constant's name.
	GoName string `json:"goName"`
	// Value is the constant's value as JSON ("\"celsius\"" or "2").
	Value string `json:"value"`
	// Doc is the constant's doc or line comment text.
	Doc string `json:"doc,omitempty"`
	// Placeholder reports that the comment holds a placeholder that toolgen-vet -fix
	// wrote ("TODO: say what the value means."), which Doc leaves out.
	Placeholder bool `json:"placeholder,omitempty"`
	// Pos is where the constant is declared (its name), so that warnings about it,
	// such as a missing doc comment, can point at it. It is the zero Pos in models
	// built by hand.
	Pos Pos `json:"pos"`
}

// Field is one property of an object: a struct field (possibly promoted from an
// embedded struct) or a parameter of an ordinary function.
type Field struct {
	// Name is the JSON property name.
	Name string `json:"name"`
	// GoPath is the selector path from the struct to the field, one entry per embedded
	// struct crossed ("Inner", "Field"); a parameter's is its name alone.
	GoPath []string `json:"goPath"`
	// EmbeddedPointers marks, per GoPath entry but the last, an embedded struct reached
	// through a pointer, which the decoder must allocate.
	EmbeddedPointers []bool `json:"embeddedPointers,omitempty"`
	// Type is the field's type.
	Type *Type `json:"type"`
	// Description is the field's doc (or line) comment, else its type's doc comment.
	Description string `json:"description,omitempty"`
	// Placeholder reports that the field's comment holds a placeholder that
	// toolgen-vet -fix wrote ("TODO: say what it holds."), which Description leaves
	// out.
	Placeholder bool `json:"placeholder,omitempty"`
	// Required reports a required property.
	Required bool `json:"required"`
	// OmitEmpty reports omitempty or omitzero in the json tag (for output schemas).
	OmitEmpty bool `json:"omitEmpty,omitempty"`
	// Constraints are the tool tag's keywords.
	Constraints Constraints `json:"constraints"`
	// Pos is where the field (or parameter) is declared.
	Pos Pos `json:"pos"`
}

// Constraints are JSON Schema keywords from a tool tag or a //toolgen:param line.
// Values are JSON text (numbers as written, strings quoted); a nil or empty value is
// absent.
//
// They apply to the field's value, looking through pointers. On a slice, array or map,
// the list keywords (MinItems, MaxItems, UniqueItems) constrain the list itself and all
// other value keywords (Enum, Const, bounds, lengths, Pattern, Format) constrain each
// item, so `tool:"enum=a|b,maxItems=3"` on a []string means "up to three of a and b".
// Title, Deprecated, Default and Sensitive belong to the property.
type Constraints struct {
	Enum             []string `json:"enum,omitempty"`
	Const            string   `json:"const,omitempty"`
	Default          string   `json:"default,omitempty"`
	Minimum          string   `json:"minimum,omitempty"`
	Maximum          string   `json:"maximum,omitempty"`
	ExclusiveMinimum string   `json:"exclusiveMinimum,omitempty"`
	ExclusiveMaximum string   `json:"exclusiveMaximum,omitempty"`
	MultipleOf       string   `json:"multipleOf,omitempty"`
	MinLength        *int     `json:"minLength,omitempty"`
	MaxLength        *int     `json:"maxLength,omitempty"`
	// Pattern is an RE2 expression, already checked.
	Pattern string `json:"pattern,omitempty"`
	// Format is one of the formats docs/DESIGN.md lists. On a time.Time it is
	// "date" (a date-only value, read as midnight UTC) or absent (a date-time).
	Format string `json:"format,omitempty"`
	// Layout is the Go time layout a time.Time is written in (tool:"layout=..."), such
	// as "2006-01-02 15:04:05", instead of RFC 3339; already checked.
	Layout      string `json:"layout,omitempty"`
	MinItems    *int   `json:"minItems,omitempty"`
	MaxItems    *int   `json:"maxItems,omitempty"`
	UniqueItems bool   `json:"uniqueItems,omitempty"`
	Title       string `json:"title,omitempty"`
	Deprecated  bool   `json:"deprecated,omitempty"`
	// Sensitive values are never echoed in errors or logs.
	Sensitive bool `json:"sensitive,omitempty"`
	// Header is the name of the HTTP header an MCP client mirrors the argument into
	// (tool:"header=Region": Mcp-Param-Region, MCP SEP-2243), written as the
	// property's "x-mcp-header"; already checked. It belongs to the property.
	Header string `json:"header,omitempty"`
	// NotNull marks a pointer property that must not be null, though a pointer: its
	// validate rules reject a nil pointer (go-playground/validator checks every rule
	// of a pointer without omitempty or omitnil against nil, and fails it). The schema
	// is not nullable and the decoder refuses null. It applies to the property, not
	// to the items of a list.
	NotNull bool `json:"notNull,omitempty"`
	// NotZero marks a time.Time, a time.Duration, a signed integer or a float (a
	// property, or the items of a list) that must not be zero (the zero time, 0s, 0),
	// as validate's required says; JSON Schema cannot say it, the decoder checks it.
	NotZero bool `json:"notZero,omitempty"`
}

// Pos is a source position. File is relative to the directory toolgen ran in, with
// forward slashes.
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// Warning is a problem that does not stop generation, at a source position: found in
// the source by the parser (Package.Warnings), or in the tools by the generator (a
// schema a provider's strict mode cannot take, a missing description). toolgen
// -strict makes warnings errors.
type Warning struct {
	// Pos is where the problem is; its File is empty when the position is unknown (a
	// model built by hand).
	Pos Pos `json:"pos"`
	// Msg says what happened and what to do about it.
	Msg string `json:"msg"`
	// Fix is a change that resolves the warning, when one is obvious; nil otherwise.
	Fix *Fix `json:"fix,omitempty"`
}

// String formats the warning as file:line:col: warning: msg, or warning: msg when the
// position is unknown.
func (w Warning) String() string {
	if w.Pos.File == "" {
		return "warning: " + w.Msg
	}
	return fmt.Sprintf("%s:%d:%d: warning: %s", w.Pos.File, w.Pos.Line, w.Pos.Col, w.Msg)
}
