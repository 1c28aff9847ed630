package engine

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/runtime/jsonread"
)

// Redacted replaces the values of sensitive properties in logged arguments.
const Redacted = "[redacted]"

// Redact returns args with the values of the sensitive properties (the JSON Pointers
// of sensitive, as a Tool's Sensitive lists them) replaced by "[redacted]", for logs and approval prompts, in whatever form they
// arrived: inside an object or array sent as a string, or in arguments encoded twice,
// and at any depth a path's "**" reaches. Arguments that are not well-formed JSON are
// not echoed at all.
func Redact(sensitive []string, args []byte) json.RawMessage {
	d := NewDecoder(args, Limits{})
	v, ok := d.anyValue(true) // numbers as sent: what people approve is what runs
	if !ok || !d.Finish() {
		return json.RawMessage(`"[malformed arguments, not shown]"`)
	}
	r := newRedactor(sensitive)
	v = r.redact(v, r.start())
	out, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`"[arguments not shown]"`)
	}
	return out
}

// redactor matches values against sensitive paths (JSON Pointers, "*" standing for
// one key or index, "**" for any number of them) as one automaton: a state is a path
// and how many of its segments the way to the value matched, so that a value is
// visited once whatever the number of paths and of "**" in them.
type redactor struct {
	paths [][]string // the segments, unescaped but "*" and "**"
	// deep is, for each path, the index of its first "**" (its length when none):
	// states past it are loose (see redact).
	deep []int
}

// redactState is a state of the automaton: segments of the path matched so far, and
// whether a "**" matched a key or index (the state is then loose).
type redactState struct {
	path, seg int
	below     bool
}

func newRedactor(paths []string) *redactor {
	r := &redactor{}
	for _, p := range paths {
		segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
		deep := len(segs)
		for i, s := range segs {
			if s == "**" {
				deep = min(deep, i)
			} else if s != "*" {
				segs[i] = jsonread.UnescapeToken(s)
			}
		}
		r.paths = append(r.paths, segs)
		r.deep = append(r.deep, deep)
	}
	return r
}

// start returns the states at the root.
func (r *redactor) start() []redactState {
	var states []redactState
	for i := range r.paths {
		states = r.add(states, redactState{path: i})
	}
	return states
}

// add adds s to states, with the states a "**" at s matching nothing leads to.
func (r *redactor) add(states []redactState, s redactState) []redactState {
	for {
		if slices.Contains(states, s) {
			return states
		}
		states = append(states, s)
		if segs := r.paths[s.path]; s.seg == len(segs) || segs[s.seg] != "**" {
			return states
		}
		s.seg++
	}
}

// step returns the states after states for the member named key, or the item at
// index key of an array.
func (r *redactor) step(states []redactState, key string, index bool) []redactState {
	var next []redactState
	for _, s := range states {
		segs := r.paths[s.path]
		if s.seg == len(segs) {
			continue
		}
		switch seg := segs[s.seg]; {
		case seg == "**":
			s.below = true
			next = r.add(next, s)
		case seg == "*" || index && seg == key || !index && strings.EqualFold(key, seg):
			// A name that differs only in case is redacted too: the decoder refuses
			// it, but it may well hold the value.
			next = r.add(next, redactState{s.path, s.seg + 1, s.below})
		}
	}
	return next
}

// redact replaces what the states' paths reach in v. It reads values as the decoder
// does: a string that holds a whole object or array (the double-encoding leniency) is
// read as that value. Any other value that stands where a path goes on, a string, a
// number or an array where an object was due, is replaced whole: it may hold the
// sensitive value in another form. Below a "**" the paths are loose: a value they do
// not reach is left as it is, since a "**" does not say what is due.
func (r *redactor) redact(v any, states []redactState) any {
	if len(states) == 0 {
		return v
	}
	strict, strictName := false, false
	for _, s := range states {
		segs := r.paths[s.path]
		if s.seg == len(segs) {
			return Redacted
		}
		if !s.below && s.seg <= r.deep[s.path] {
			strict = true
			if seg := segs[s.seg]; seg != "*" && seg != "**" {
				if _, err := strconv.Atoi(seg); err != nil {
					strictName = true
				}
			}
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			x[k] = r.redact(child, r.step(states, k, false))
		}
	case []any:
		if strictName {
			return Redacted // an array where an object was due
		}
		for i, child := range x {
			x[i] = r.redact(child, r.step(states, strconv.Itoa(i), true))
		}
	case string:
		if held, ok := heldValue(x); ok {
			return r.redact(held, states)
		}
		if strict {
			return Redacted
		}
	case nil:
	default:
		if strict {
			return Redacted
		}
	}
	return v
}

// heldValue returns the object or array a string holds whole, as the decoder reads it
// under the double-encoding leniency.
func heldValue(s string) (any, bool) {
	inner := jsonread.TrimSpace([]byte(s))
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
