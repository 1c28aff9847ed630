package generator

import (
	"github.com/toolgen/toolgen/model"
	"github.com/toolgen/toolgen/runtime/schematree"
)

// schema is one JSON Schema (draft 2020-12) node, as the builder makes it: its exported
// fields are the keywords toolgen writes (see schematree.Schema), its Ext what the builder
// knows about the node beside them. The dialects lower the schema's JSON
// (runtime/dialect), never this tree.
type schema = schematree.Schema[ext]

// schemaMap is an ordered JSON object of schemas: "properties" in declaration order,
// "$defs" sorted by name.
type schemaMap = schematree.Map[*schema]

// namedSchema is one entry of a schemaMap.
type namedSchema = schematree.Entry[*schema]

// typeList is the "type" keyword.
type typeList = schematree.TypeList

// ext is what the builder knows about a node besides its keywords, so descriptions can
// be moved to the property that holds it, and so warnings can point at a field.
type ext struct {
	// named is the named type whose schema this node is: the target of a $ref, or a
	// named type's inlined body.
	named string
	// typeDoc is the named type's doc comment, for an inlined named type.
	typeDoc string
	// note is text the node adds to the description of the property that holds it: an
	// enum's list of values, the syntax of a duration.
	note string
	// field is the struct field or parameter whose property this node is, so dialects
	// can point warnings at it; nil for other nodes.
	field *model.Field
}

// nullable returns s made to accept null as well: a type array for a plain node, else
// {"anyOf":[s,{"type":"null"}]}.
func nullable(s *schema) *schema {
	if s.AcceptsNull() {
		return s
	}
	if len(s.Type) == 1 && s.Ref == "" && s.Enum == nil && s.Const == nil && s.AnyOf == nil {
		s.Type = append(s.Type, "null")
		return s
	}
	return &schema{AnyOf: []*schema{s, {Type: typeList{"null"}}}}
}

// nonNull returns the branch of a nullable anyOf that is not null, or s itself.
func nonNull(s *schema) *schema {
	if len(s.AnyOf) == 2 && s.AnyOf[1].IsNull() {
		return s.AnyOf[0]
	}
	return s
}
