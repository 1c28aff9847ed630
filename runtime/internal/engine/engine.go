// Package engine reads a tool call's arguments for package runtime: the Decoder that
// generated decoders drive (package toolimpl names it for generated code), and the
// compiler and interpreter of dynamic tools (runtime.NewTool), which compile an input
// schema into a Program of nodes and read each call's arguments over the same Decoder,
// with the same calls, as a generated decoder of that schema does.
//
// Its API follows runtime and the generated code, not a compatibility promise: users
// read package runtime, generated code reaches this package through toolimpl's
// aliases, as protobuf-go's generated code reaches internal/impl through protoimpl.
// The compiler's entry point is Compile.
package engine

import "encoding/json"

// Tool is what Compile reads of a runtime.Tool: its name (for errors), its input
// schema, and the JSON Pointers of its sensitive properties ("*" for any key or index,
// "**" for any number of them), which Compile completes with the properties the schema
// marks (SensitiveKeyword).
type Tool struct {
	Name        string
	InputSchema json.RawMessage
	Sensitive   []string
}

// Compile compiles def's input schema (an empty one is an object without properties)
// into a Program, and completes def.Sensitive. A schema it refuses is a *SchemaError.
func Compile(def *Tool) (*Program, error) { return compileTool(def) }

// CanonicalArgs returns the canonical form of a call's arguments, which
// runtime.Digest hashes (see canonicalArgs).
func CanonicalArgs(args []byte) []byte { return canonicalArgs(args) }

// CutName cuts a name for a message or a path, keeping it valid UTF-8, as violation
// paths cut property names: at most 64 bytes and "…".
func CutName(s string) string { return cutName(s) }

// ValidText returns s with each run of invalid UTF-8 bytes replaced by U+FFFD.
func ValidText(s string) string { return validText(s) }

// Nearest returns the name of known the model most likely meant by name (a
// difference of case, separators or a small edit), or "" when none is near, as the
// violation of an unknown property suggests it.
func Nearest(name string, known []string) string { return nearest(name, known) }
