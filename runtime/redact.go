package runtime

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Redacted replaces the values of sensitive properties in logged arguments.
const Redacted = "[redacted]"

// Redact returns args with the values of t's sensitive properties (Tool.Sensitive)
// replaced by "[redacted]", for logs and approval prompts. Arguments that are not
// well-formed JSON are not echoed at all.
func Redact(t *Tool, args []byte) json.RawMessage {
	d := NewDecoder(args, Limits{})
	v, ok := d.Any()
	if !ok || !d.Finish() {
		return json.RawMessage(`"[malformed arguments, not shown]"`)
	}
	for _, p := range t.Sensitive {
		v = redactPath(v, strings.Split(strings.TrimPrefix(p, "/"), "/"))
	}
	out, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`"[arguments not shown]"`)
	}
	return out
}

// redactPath replaces what path (JSON Pointer segments, "*" for any key or index)
// reaches in v.
func redactPath(v any, path []string) any {
	if len(path) == 0 {
		return Redacted
	}
	seg := strings.NewReplacer("~1", "/", "~0", "~").Replace(path[0])
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			if seg == "*" || k == seg {
				x[k] = redactPath(child, path[1:])
			}
		}
	case []any:
		for i, child := range x {
			if seg == "*" || seg == strconv.Itoa(i) {
				x[i] = redactPath(child, path[1:])
			}
		}
	}
	return v
}
