package dialect

import "github.com/toolgen/toolgen/runtime/schematree"

// schema is one JSON Schema (draft 2020-12) node, as parse reads it: its exported fields
// are the keywords this package lowers (see schematree.Schema), its Ext what parse
// records beside them. A lowering works on a Clone.
type schema = schematree.Schema[ext]

// schemaMap is an ordered JSON object of schemas: "properties" and "$defs".
type schemaMap = schematree.Map[*schema]

// namedSchema is one entry of a schemaMap.
type namedSchema = schematree.Entry[*schema]

// typeList is the "type" keyword.
type typeList = schematree.TypeList

// ext is what parse records on a node besides its keywords.
type ext struct {
	// note is the text a named type adds to the description of a property that refers
	// to it (its documented enum values, the syntax of a duration), recovered from the
	// end of the node's description (see splitNote).
	note string
	// field is the JSON Pointer, in the schema as given, of the property whose value
	// this node is, so warnings can point at it; "" for other nodes.
	field string
	// extra lists the keywords this package does not lower, in the order met.
	extra []string
}

// boolSchema returns the boolean schema b.
func boolSchema(b bool) *schema {
	return schematree.Bool[ext](b)
}
