package fixdocs

// Level is how loud.
type Level string

const (
	// Low is quiet.
	Low Level = "low"
	// want +2 `warning: enum value "high" of type Level \(constant High\) has no doc comment`

	High Level = "high"
)

// Input is what Set takes.
type Input struct {
	// Level is the level.
	Level Level `json:"level"`
	// want +2 `warning: property "note" has no description: write a doc comment on field Note`

	Note string `json:"note"`
	// want +2 `warning: property "A" has no description`

	Inline struct{ A string } `json:"inline"` // Inline is a one-line struct: no fix for its field.
}

// Set sets the level.
//
//toolgen:tool destructive=false
func Set(in Input) error { return nil }
