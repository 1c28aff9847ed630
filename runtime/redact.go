package runtime

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Redacted replaces the values of sensitive properties in logged arguments.
const Redacted = "[redacted]"

// Redact returns args with the values of t's sensitive properties (Tool.Sensitive)
// replaced by "[redacted]", for logs and approval prompts, in whatever form they
// arrived: inside an object or array sent as a string, or in arguments encoded twice.
// Arguments that are not well-formed JSON are not echoed at all.
func Redact(t *Tool, args []byte) json.RawMessage {
	d := NewDecoder(args, Limits{})
	v, ok := d.anyValue(true) // numbers as sent: what people approve is what runs
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
// reaches in v. It reads values as the decoder does: a string that holds a whole
// object or array (the double-encoding leniency) is read as that value. Any other value
// that stands where the path goes on, a string, a number or an array where an object
// was due, is replaced whole: it may hold the sensitive value in another form.
func redactPath(v any, path []string) any {
	if len(path) == 0 {
		return Redacted
	}
	seg := strings.NewReplacer("~1", "/", "~0", "~").Replace(path[0])
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			// A name that differs only in case is redacted too: the decoder refuses
			// it, but it may well hold the value.
			if seg == "*" || strings.EqualFold(k, seg) {
				x[k] = redactPath(child, path[1:])
			}
		}
	case []any:
		if seg != "*" {
			if _, err := strconv.Atoi(seg); err != nil {
				return Redacted // an array where an object was due
			}
		}
		for i, child := range x {
			if seg == "*" || seg == strconv.Itoa(i) {
				x[i] = redactPath(child, path[1:])
			}
		}
	case string:
		if held, ok := heldValue(x); ok {
			return redactPath(held, path)
		}
		return Redacted
	case nil:
	default:
		return Redacted
	}
	return v
}

// heldValue returns the object or array a string holds whole, as the decoder reads it
// under the double-encoding leniency.
func heldValue(s string) (any, bool) {
	inner := trimSpace([]byte(s))
	if len(inner) == 0 || inner[0] != '{' && inner[0] != '[' {
		return nil, false
	}
	d := NewDecoder(inner, Limits{})
	v, ok := d.Any()
	if !ok || !d.Finish() {
		return nil, false
	}
	return v, true
}
