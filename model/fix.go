package model

// Fix is a change to the source that resolves a warning or an error, such as the
// option a misspelt one was meant to be, or the readonly hint a tool leaves unsaid.
// Editors offer it (the analysis package turns it into a suggested fix); the CLI
// ignores it.
type Fix struct {
	// Message says what the fix does ("replace with readonly").
	Message string `json:"message"`
	// Edits are the changes, which do not overlap.
	Edits []Edit `json:"edits"`
}

// Edit replaces the text Old at Pos with New; an empty Old inserts New at Pos. A tool
// applies it only where the source still reads Old, since Pos is a line and a column
// (in bytes) of the file as it was read.
type Edit struct {
	Pos Pos    `json:"pos"`
	Old string `json:"old,omitempty"`
	New string `json:"new"`
}

// PlaceholderMark is what every doc comment placeholder that toolgen-vet -fix writes
// holds: "// Note TODO: say what it holds." above a field, "TODO: say what the value
// means." above a constant, "TODO: say what it does and when to use it." above a tool.
// A comment line that holds it is never part of a description (the model would read
// it as one), and the linter warns about it until it is replaced.
const PlaceholderMark = "TODO: say what "
