package runtime

import (
	"encoding/json"

	"github.com/toolgen/toolgen/runtime/internal/engine"
)

// Redacted replaces the values of sensitive properties in logged arguments.
const Redacted = engine.Redacted

// Redact returns args with the values of t's sensitive properties (Tool.Sensitive)
// replaced by "[redacted]", for logs and approval prompts, in whatever form they
// arrived: inside an object or array sent as a string, or in arguments encoded twice,
// and at any depth a path's "**" reaches. Arguments that are not well-formed JSON are
// not echoed at all.
func Redact(t *Tool, args []byte) json.RawMessage { return engine.Redact(t.Sensitive, args) }
