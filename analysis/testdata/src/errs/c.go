package bad

import "time"

// Inline takes an unnamed struct, whose type generated code cannot spell again.
//
//toolgen:tool
func Inline(in struct { // want `parameter in: an unnamed struct type cannot be a tool's argument struct; declare a named type for it`
	A string `json:"a"`
}) {
}

// Ptr takes a pointer to an unnamed struct.
//
//toolgen:tool
func Ptr(in *struct{ B bool }) {} // want `parameter in: an unnamed struct type cannot be a tool's argument struct; declare a named type for it`

// Stamp has keywords time.Time does not take.
type Stamp struct {
	At time.Time `json:"at" tool:"default=2024-01-01T00:00:00Z,enum=2024-01-01T00:00:00Z"` // want `default is only supported on strings, booleans and numbers, not time\.Time` `enum applies to strings, booleans and numbers, not time\.Time`
}

// UseStamp uses Stamp.
//
//toolgen:tool
func UseStamp(s Stamp) {}
