package runtime

import "github.com/toolgen/toolgen/runtime/internal/engine"

// Default limits on a call's arguments.
const (
	// DefaultMaxArgumentBytes is the largest argument text a call accepts: 1 MiB, the
	// default text size of toolgen's JSON reader (jsonread.DefaultMaxBytes).
	DefaultMaxArgumentBytes = engine.DefaultMaxArgumentBytes
	// DefaultMaxDepth is the deepest nesting of objects and arrays a call accepts: 64,
	// the JSON reader's default (jsonread.DefaultMaxDepth).
	DefaultMaxDepth = engine.DefaultMaxDepth
	// DefaultMaxViolations is how many violations of one call are reported in full;
	// the rest are only counted.
	DefaultMaxViolations = engine.DefaultMaxViolations
	// DefaultMaxViolationBytes bounds the text of the violations reported in full
	// (paths, messages and values got, added up): once it is reached, the rest are only
	// counted.
	DefaultMaxViolationBytes = engine.DefaultMaxViolationBytes
)

// Limits bound what one call's arguments may cost. A zero field means its default.
// The decoder reads them as engine.Limits, a struct of the same fields (the
// conversion in decoderLimits fails to build if the two differ).
type Limits struct {
	// MaxArgumentBytes is the largest argument text accepted, in bytes.
	MaxArgumentBytes int
	// MaxDepth is the deepest nesting of objects and arrays accepted.
	MaxDepth int
	// MaxViolations is how many violations are reported in full; the others are
	// counted (see ArgumentError.Omitted).
	MaxViolations int
	// MaxViolationBytes bounds the text of the violations reported in full.
	MaxViolationBytes int
}

// decoderLimits returns l as the decoder takes it.
func decoderLimits(l Limits) engine.Limits { return engine.Limits(l) }
