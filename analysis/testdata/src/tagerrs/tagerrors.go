package tagerrors

// Args are the arguments.
type Args struct {
	// Escape is a pattern whose backslash is not doubled.
	Escape string `json:"escape" tool:"pattern=^\d+$"` // want `field Escape: malformed struct tag, which reflect\.StructTag cannot read and go vet rejects: bad syntax for struct tag value of tool: \\d is not a Go string escape; write \\\\d \(a tag value is a Go string: its backslashes are doubled\)`
	// Open misses a closing quote.
	Open string `tool:"maxLength=1" json:"open` // want `field Open: malformed struct tag, which reflect\.StructTag cannot read and go vet rejects: bad syntax for struct tag value of json: missing closing quote`
	// Bare has a value without quotes.
	Bare string `json:bare` // want `field Bare: malformed struct tag, which reflect\.StructTag cannot read and go vet rejects: bad syntax for struct tag value of json: the value must be in double quotes`
	// Comma separates pairs with a comma.
	Comma string `json:"comma",tool:"maxLength=3"` // want `field Comma: malformed struct tag, which reflect\.StructTag cannot read and go vet rejects: key:"value" pairs not separated by spaces`
	// NoColon has a key alone.
	NoColon string `json:"nocolon" tool` // want `field NoColon: malformed struct tag, which reflect\.StructTag cannot read and go vet rejects: bad syntax for struct tag pair: want key:"value"`
	// Quoted is interpreted, so its position is the literal's.
	Quoted string "json:\"quoted\" tool:\"x" // want `field Quoted: malformed struct tag, which reflect\.StructTag cannot read and go vet rejects: bad syntax for struct tag value of tool: missing closing quote`
	// Fine is fine.
	Fine string `json:"fine" tool:"pattern=^\\d+$"`
}

// Lookup looks up.
//
//toolgen:tool readonly
func Lookup(args Args) error { return nil }
