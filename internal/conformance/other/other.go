// Package other declares types that the conformance tools use from another package, to
// check that toolgen finds their doc comments and enum constants.
package other

// Level is a severity level.
type Level int

// The levels.
const (
	// Low can wait.
	Low Level = 1
	// High needs attention today.
	High Level = 2
)

// Tag labels something.
type Tag struct {
	// Key names the label.
	Key string `json:"key" tool:"minLength=1"`
	// Value is the label's value.
	Value string `json:"value,omitempty"`
}
