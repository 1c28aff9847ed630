package warnings

// Level is how loud.
type Level string

const (
	// Low is quiet.
	Low Level = "low"
	// want +2 `warning: enum value "high" of type Level \(constant High\) has no doc comment: write one saying what the value means`

	High Level = "high"
)

// Input is what Set takes.
type Input struct {
	// Level is the level.
	Level Level `json:"level"`
	// want +2 `warning: property "note" has no description: write a doc comment on field Note`

	Note string `json:"note"`
	// Extra holds anything: no strict mode can take a map.
	Extra map[string]string `json:"extra,omitempty"` // want `warning: tool set: not strict for OpenAI and Anthropic: /properties/extra: a map \(free property names\) cannot be strict`
}

// Set sets the level.
//
//toolgen:tool destructive=false
func Set(in Input) error { return nil }

// Greet greets.
//
//toolgen:tool readonly
//toolgen:param name desc="Who to greet."
func Greet(name string, times int) string { return "" } // want `warning: tool greet: parameter "times" has no description: add desc="\.\.\." to a //toolgen:param times line`
