// Package b names its constructor after a declaration of its own.
//
//toolgen:package tools=Mine
package b

// Ping checks the connection.
//
//toolgen:tool readonly
func Ping() string { return "pong" }

// Mine is taken.
const Mine = 1 // want `Mine is declared here, but toolgen generates func Mine\(\) \*runtime\.Toolset in toolgen\.gen\.go, returning the package-level tools \(ping\), named by tools=Mine at \S*\.go:\d+:\d+: rename this declaration, or choose another tools=`
