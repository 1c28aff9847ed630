package engine

import "github.com/toolgen/toolgen/runtime/internal/argcheck"

// simpleMatcher is a pattern a greedy byte matcher decides exactly as regexp does:
// the dynamic tools' side of the simple patterns, whose rules and matcher live in
// runtime/internal/argcheck (CompileSimple), the same the generator writes its
// functions from.
type simpleMatcher = argcheck.SimplePattern

// compileSimple returns the matcher of a simple pattern, or nil (argcheck.CompileSimple).
func compileSimple(src string) *simpleMatcher { return argcheck.CompileSimple(src) }
