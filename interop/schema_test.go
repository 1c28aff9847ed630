package interop_test

import (
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/dialect"
)

// toolName is the name every provider accepts (OpenAI's and Anthropic's rule, which
// Gemini's contains).
var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// sentTool is a tool definition as a request carried it.
type sentTool struct {
	name, description string
	strict            bool
	schema            json.RawMessage
}

// checkTools checks the tools a request offers: exactly the tools of ts, each named
// as the providers allow, described, with the schema and strict flag runtime/dialect
// lowers for the provider (what pick returns). tooltest.Read has held the schemas to
// the provider's rules (strict subsets, Gemini's parameters).
func checkTools(ts *runtime.Toolset, sent []sentTool, pick func(*runtime.Tool) dialect.Lowered) error {
	tools := ts.Tools()
	if len(sent) != len(tools) {
		return fmt.Errorf("%d tools offered, want the %d of the toolset", len(sent), len(tools))
	}
	for _, s := range sent {
		if !toolName.MatchString(s.name) {
			return fmt.Errorf("tool name %q is invalid", s.name)
		}
		t, ok := ts.Lookup(s.name)
		if !ok {
			return fmt.Errorf("tool %q is not in the toolset", s.name)
		}
		want := pick(t)
		switch {
		case s.description != t.Description:
			return fmt.Errorf("tool %q: description %q, want %q", s.name, s.description, t.Description)
		case s.strict != want.Strict:
			return fmt.Errorf("tool %q: strict %v, want %v", s.name, s.strict, want.Strict)
		case !jsonEqual(s.schema, want.Parameters):
			return fmt.Errorf("tool %q: schema %s, want %s", s.name, s.schema, want.Parameters)
		}
	}
	return nil
}
