// Package placeholders holds the placeholders toolgen-vet -fix writes, not replaced:
// each is a warning (so -strict fails), with no fix (a second -fix writes no second
// placeholder), and none reaches the description.
package placeholders

// Level is how loud.
type Level string

const (
	// Low is quiet.
	Low Level = "low"
	// High TODO: say what the value means.
	High Level = "high" // want `warning: enum value "high" of type Level \(constant High\): its comment holds a placeholder \("TODO: say what ..."\), which toolgen leaves out of the description: replace it with what the value means`
)

// Input is what Set takes.
type Input struct {
	// Level is the level.
	Level Level `json:"level"`
	// Note TODO: say what it holds.
	Note string `json:"note"` // want `warning: property "note": the comment of field Note holds a placeholder \("TODO: say what ..."\), which toolgen leaves out of the description: replace it with what the property holds`
}

// Set TODO: say what it does and when to use it.
//
//toolgen:tool destructive=false
func Set(in Input) error { return nil } // want `warning: tool set: the doc comment of Set holds a placeholder \("TODO: say what ..."\), which toolgen leaves out of the description: replace it with what the tool does and when to use it`
