// Package validator holds tools whose arguments are checked by validate tags
// (go-playground/validator), one tool per rule or set of rules that toolgen reads,
// for the differential test in validator_test.go: over boundary values of every rule,
// the generated decoder accepts a call's arguments if and only if encoding/json and
// validator.Struct accept them, apart from the differences the test lists with their
// reasons, and whatever the decoder accepts passes validator.Struct when the tool
// gets it.
package validator

//go:generate go run gen.go
//go:generate go tool toolgen generate

// Recorder's tools record the arguments they get.
type Recorder struct {
	// Got is the argument struct of the last call.
	Got any
}

// A Case is one tool of the package.
type Case struct {
	// Tool is the tool's name.
	Tool string
	// Type is the name of the argument struct, and of the method that is the tool.
	Type string
	// GoType is the Go type of its property v.
	GoType string
	// Options are the options of v's json tag (",omitempty").
	Options string
	// Rules is the validate tag of its property v.
	Rules string
	// Corpus names the JSON values the test sends as v.
	Corpus string
	// New returns a pointer to a new argument struct.
	New func() any
}
