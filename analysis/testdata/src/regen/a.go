// Package regen has no toolgen.gen.go yet: its use of Tools is not an error, since
// generating declares it.
package regen

// Ping answers.
//
//toolgen:tool readonly
func Ping() string { return "pong" }

var _ = Tools
