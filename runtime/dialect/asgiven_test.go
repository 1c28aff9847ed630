package dialect

import (
	"encoding/json"
	"testing"
)

// TestAsGivenDropsTheRootSchemaKeyword: a schema sent as given (not strict, or one
// strict mode cannot take) goes without the "$schema" of its root, which
// //toolgen:package schema=2020-12 writes, and is otherwise byte for byte the same.
func TestAsGivenDropsTheRootSchemaKeyword(t *testing.T) {
	const uri = `"$schema":"https://json-schema.org/draft/2020-12/schema"`
	for _, c := range []struct{ in, want string }{
		{`{` + uri + `,"type":"object"}`, `{"type":"object"}`},
		{`{"type":"object", ` + uri + ` ,"properties":{"a":{"type":"string"}}}`, `{"type":"object","properties":{"a":{"type":"string"}}}`},
		{`{"type":"object",` + uri + `}`, `{"type":"object"}`},
		{`{` + uri + `}`, `{}`},
		// Only the root's: a nested one is a property named "$schema".
		{`{"type":"object","properties":{"$schema":{"type":"string"}}}`, `{"type":"object","properties":{"$schema":{"type":"string"}}}`},
		{`{"type":"object"}`, `{"type":"object"}`},
		{`not json "$schema"`, `not json "$schema"`},
		{`["$schema"]`, `["$schema"]`},
	} {
		if got := string(asGiven(json.RawMessage(c.in))); got != c.want {
			t.Errorf("asGiven(%s) = %s, want %s", c.in, got, c.want)
		}
	}
	// A map keeps a schema out of strict mode: it goes as given, without "$schema".
	free := json.RawMessage(`{` + uri + `,"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}`)
	want := `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}`
	for name, l := range map[string]Lowered{
		"openai strict":        first(OpenAI(free, true)),
		"openai not strict":    first(OpenAI(free, false)),
		"anthropic strict":     first(Anthropic(free, true)),
		"anthropic not strict": first(Anthropic(free, false)),
	} {
		if l.Strict || string(l.Parameters) != want {
			t.Errorf("%s: strict=%v %s, want %s", name, l.Strict, l.Parameters, want)
		}
	}
}

func first(l Lowered, _ []Warning) Lowered { return l }
