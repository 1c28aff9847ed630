package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var goldenInputSchema = regexp.MustCompile("(?m)^\tName:\\s+\"([^\"]+)\",(?:\n\t[^\n]*)*?\n\tInputSchema:\\s+json.RawMessage\\(`([^`]*)`\\)")

// TestGeneratedSchemasOneEngine: every input schema toolgen writes (the golden
// generated files' and the examples' and internal packages' toolgen.gen.go and
// <tool>.json, tagged unions included) is read by the toolgen
// engine, the interpreter of the calls a generated decoder makes, never handed to the
// general engine: so a generated tool and its dynamic twin read one program.
func TestGeneratedSchemasOneEngine(t *testing.T) {
	n, unions := 0, 0
	walk := func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		schemas := map[string][]byte{}
		switch {
		case strings.HasSuffix(path, "toolgen.gen.go"):
			for _, m := range goldenInputSchema.FindAllSubmatch(b, -1) {
				schemas[string(m[1])] = m[2]
			}
		case filepath.Base(filepath.Dir(path)) == "toolschema" && strings.HasSuffix(path, ".json"):
			var f struct {
				Name        string          `json:"name"`
				InputSchema json.RawMessage `json:"inputSchema"`
			}
			if json.Unmarshal(b, &f) == nil && f.Name != "" && f.InputSchema != nil {
				schemas[f.Name] = f.InputSchema
			}
		}
		for name, s := range schemas {
			def := Tool{Name: name, InputSchema: s}
			p, err := compileTool(&def)
			switch {
			case err != nil:
				t.Errorf("%s %s: %v", path, name, err)
			case p.full != nil:
				t.Errorf("%s %s: read by the general engine, not as a generated decoder reads it", path, name)
			}
			n++
			if strings.Contains(string(s), `"oneOf"`) {
				unions++
			}
		}
		return nil
	}
	for _, root := range []string{filepath.Join("..", "..", "..", "testdata", "generator"), filepath.Join("..", "..", "..", "examples"), filepath.Join("..", "..", "..", "internal")} {
		if err := filepath.Walk(root, walk); err != nil {
			t.Fatal(err)
		}
	}
	if n < 30 || unions == 0 {
		t.Fatalf("found %d generated input schemas, %d with unions", n, unions)
	}
	t.Logf("%d generated input schemas (%d with unions), all read by the toolgen engine", n, unions)
}
