// want +2 `invalid tools=Bad-Name: "Bad-Name" is not a Go identifier` `invalid typetools=\*: the constructor would have the receiver type's own name; add to it, as in typetools=\*Toolset` `option "descriptions" needs a value \(descriptions=\.\.\.\)`

//toolgen:package tools=Bad-Name typetools=* descriptions
package d

// Ping checks the connection.
//
//toolgen:tool readonly
func Ping() string { return "pong" }
