package fixlint

// Hint states no hint.
//
//toolgen:tool idempotent
func Hint() {} // want `warning: tool hint: neither readonly nor destructive: clients will treat it as destructive; add readonly if it changes nothing, or destructive=false if it only adds or updates`

//toolgen:tool readonly
func Bare() {} // want `warning: tool bare: no description: write a doc comment on Bare saying what it does and when to use it`

//toolgen:tool
func Neither() {} // want `warning: tool neither: neither readonly nor destructive` `warning: tool neither: no description`

// Writes changes something but says readonly=false only: no obvious fix.
//
//toolgen:tool readonly=false
func Writes() {} // want `warning: tool writes: readonly=false without destructive: clients will treat it as destructive; add destructive=false if it only adds or updates, or destructive to say so`

// Typo is a request with a misspelt validate rule.
type Typo struct {
	// Name is the name.
	Name string `json:"name" validate:"requird,min=1"` // want `warning: field Name: unknown validate rule "requird" \(did you mean "required"\?\)`
}

// Check checks it.
//
//toolgen:tool readonly
func Check(t Typo) {}
