package dialect

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goldenInputs returns the input schemas of the generator's golden tools, by file.
func goldenInputs(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	files, err := filepath.Glob("../../testdata/generator/schema/*/toolschema/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden schemas: %v", err)
	}
	out := map[string]json.RawMessage{}
	for _, f := range files {
		switch filepath.Base(f) {
		case "openai.json", "openai-responses.json", "anthropic.json", "gemini.json", "mcp.json":
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var tool struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if err := json.Unmarshal(data, &tool); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[f] = compact(tool.InputSchema)
	}
	return out
}

// Every keyword toolgen writes is read and written back as it was, so what a lowering
// leaves alone goes out unchanged.
func TestParseRoundTrip(t *testing.T) {
	for f, in := range goldenInputs(t) {
		s, err := parse(in)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var extra []string
		s.Walk(func(n *schema) { extra = append(extra, n.Ext.extra...) })
		if len(extra) > 0 {
			t.Errorf("%s: keywords not read: %q", f, extra)
		}
		if out := s.Keywords(); out != string(in) {
			t.Errorf("%s: written back as\n%s\nwant\n%s", f, out, in)
		}
	}
}

// A clone is deep, and walk visits every node: the seam the lowerings build on.
func TestCloneWalk(t *testing.T) {
	for f, in := range goldenInputs(t) {
		if !strings.Contains(f, "place_order") {
			continue
		}
		orig, err := parse(in)
		if err != nil {
			t.Fatal(err)
		}
		before := orig.Keywords()
		c := orig.Clone()
		if c.Keywords() != before {
			t.Fatalf("clone differs:\n%s\n%s", c.Keywords(), before)
		}
		n := 0
		c.Walk(func(s *schema) {
			n++
			s.Description = ""
			if s.Type != nil {
				s.Type[0] = "changed"
			}
			if len(s.Enum) > 0 {
				s.Enum[0][0] = 'X'
			}
		})
		if n < 20 {
			t.Errorf("walk visited %d nodes", n)
		}
		if orig.Keywords() != before {
			t.Errorf("changing the clone changed the original")
		}
		if strings.Contains(c.Keywords(), "description") {
			t.Errorf("walk missed a description: %s", c.Keywords())
		}
		return
	}
	t.Fatal("no place_order golden")
}

// The notes recovered from a description are those toolgen adds, and only those.
func TestSplitNote(t *testing.T) {
	for _, tc := range []struct{ schema, note string }{
		{`{"type":"string","enum":["a","b"],"description":"Doc.\n\n- \"a\": first\n- \"b\""}`, "- \"a\": first\n- \"b\""},
		{`{"type":"string","enum":["a","b"],"description":"- \"a\"\n- \"c\""}`, ""},
		{`{"type":"string","description":"Doc.\n\nA Go duration such as \"1h30m\" or \"90s\"."}`, `A Go duration such as "1h30m" or "90s".`},
		{`{"type":"string","description":"- \"a\""}`, ""},
	} {
		s, err := parse(json.RawMessage(tc.schema))
		if err != nil {
			t.Fatal(err)
		}
		if s.Ext.note != tc.note {
			t.Errorf("%s: note %q, want %q", tc.schema, s.Ext.note, tc.note)
		}
	}
}
