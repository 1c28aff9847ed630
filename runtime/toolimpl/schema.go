package toolimpl

import (
	"encoding/json"
	"fmt"

	"github.com/toolgen/toolgen/runtime/internal/engine"
)

// This file is for the generator, at generate time, not for generated code: the
// read-only view of the program an input schema compiles to, the one the dynamic
// engine interprets, from which the generator emits a generated decoder's checks.

// Program is an input schema compiled by the engine runtime.NewTool compiles with.
type Program struct {
	root Node
	// Sensitive are the JSON Pointers of the sensitive properties: those given to
	// CompileSchema and those the schema marks.
	Sensitive []string
}

// Node is a read-only view of one compiled schema (see engine.Node): its kind, its
// keywords as the schema writes them and its children, references looked through.
type Node = engine.Node

// Prop is a read-only view of one property of an object Node.
type Prop = engine.Prop

// Bounds are a number's keywords as the schema writes them, "" for one absent.
type Bounds = engine.Bounds

// CompileSchema compiles the input schema raw of the tool name, whose sensitive
// properties are at the JSON Pointers sensitive, as runtime.NewTool does. A schema
// beyond the keywords toolgen writes, which only the general engine reads, is an
// error: it has no nodes to walk.
func CompileSchema(name string, raw json.RawMessage, sensitive []string) (*Program, error) {
	def := &engine.Tool{Name: name, InputSchema: raw, Sensitive: sensitive}
	p, err := engine.Compile(def)
	if err != nil {
		return nil, err
	}
	root, err := p.View()
	if err != nil {
		return nil, fmt.Errorf("tool %q: %w", name, err)
	}
	return &Program{root: root, Sensitive: def.Sensitive}, nil
}

// Root returns the node of the arguments' object.
func (p *Program) Root() Node { return p.root }
