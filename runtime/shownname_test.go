package runtime

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/internal/argcheck"
	"github.com/toolgen/toolgen/runtime/invalid"
	"github.com/toolgen/toolgen/runtime/safetext"
)

// TestViolationPathsStayOnTheirLine: a name in a violation's path, one the arguments
// chose (an unknown property, a map key) or one the schema declares, shows its
// characters that are not printable escaped: a newline, a carriage return, a
// terminal escape, U+2028 or a bidirectional override made the model's error text,
// and every log line of it, hold a second line or rewrite a terminal.
func TestViolationPathsStayOnTheirLine(t *testing.T) {
	ts, err := NewTool(Tool{Name: "d", InputSchema: json.RawMessage(`{"type":"object","properties":{
		"a\nb":{"type":"string","minLength":3},
		"m":{"type":"object","additionalProperties":{"type":"integer"}}},"additionalProperties":false}`)},
		func(context.Context, json.RawMessage) (*Result, error) { return TextResult("ran"), nil })
	if err != nil {
		t.Fatal(err)
	}
	var got []invalid.Violation
	ts = ts.WithObserver(func(_ context.Context, e Event) { got = e.Violations })
	for _, tc := range []struct{ args, want string }{
		{`{"a\nb":"x"}`, `/a\nb: must be at least 3 characters long`},
		{`{"\u001b[31mX":1}`, `/\x1b[31mX: unknown property`},
		{`{"x\r::error::y":1}`, `/x\r::error::y: unknown property`},
		{`{"m":{"k\u2028":"s"}}`, `/m/k\u2028: must be an integer`},
		{`{"m":{"c\u202ed":"s"}}`, `/m/c\u202ed: must be an integer`},
		{"{\"m\":{\"k\xff\":\"s\"}}", `/m/k`},
	} {
		res := ts.Call(context.Background(), "d", []byte(tc.args))
		if !strings.Contains(res.Text(), tc.want) {
			t.Errorf("%s: %q, want %q in it", tc.args, res.Text(), tc.want)
		}
		if safetext.Line(res.Text()) != res.Text() {
			t.Errorf("%s: the text %q holds a character that is not printable", tc.args, res.Text())
		}
		for _, v := range got {
			if safetext.Line(v.Path) != v.Path {
				t.Errorf("%s: the path %q holds a character that is not printable", tc.args, v.Path)
			}
		}
	}
}

// TestPatternMessageStaysOnItsLine: a dynamic tool's pattern holding a newline or a
// terminal escape (a schema from a server it proxies) is shown escaped in the
// violation: it put a line of its own, or a terminal sequence, in the model's text.
func TestPatternMessageStaysOnItsLine(t *testing.T) {
	ts, err := NewTool(Tool{Name: "d", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","pattern":"^a\nb\u001b\u2028$"}}}`)},
		func(context.Context, json.RawMessage) (*Result, error) { return TextResult("ran"), nil })
	if err != nil {
		t.Fatal(err)
	}
	res := ts.Call(context.Background(), "d", []byte(`{"a":"x"}`))
	if want := `/a: must match the pattern ^a\nb\x1b\u2028$ (got "x")`; !strings.Contains(res.Text(), want) {
		t.Errorf("%q, want %q in it", res.Text(), want)
	}
	if got := argcheck.PatternMessage(`^\d+$`); got != `must match the pattern ^\d+$` {
		t.Errorf("PatternMessage of a printable pattern: %q", got)
	}
}

// TestNewToolName: a dynamic tool's name is one MCP allows, at most MaxToolNameBytes:
// NewTool took "a\nb" and a terminal escape, which every violation ("invalid
// arguments for a<newline>b: ...") and log printed as they were.
func TestNewToolName(t *testing.T) {
	run := func(context.Context, json.RawMessage) (*Result, error) { return TextResult("ran"), nil }
	for _, name := range []string{"get_weather", "a.b-c", "A9", strings.Repeat("n", MaxToolNameBytes)} {
		if _, err := NewTool(Tool{Name: name}, run); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
	for _, name := range []string{"a\nb", "x\u001b[2J", "a b", "a/b", "é", "a\u200b", strings.Repeat("n", MaxToolNameBytes+1)} {
		if _, err := NewTool(Tool{Name: name}, run); err == nil || !strings.Contains(err.Error(), "a tool's name is 1 to 128") {
			t.Errorf("%q: %v", name, err)
		}
	}
}
