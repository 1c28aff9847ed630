package difftest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// The golden tools of testdata/generator are not packages this module builds, so no
// generated decoder of theirs can run here: every input schema they hold (the Go
// golden files' InputSchema literals and the schema golden files' <tool>.json) must
// at least compile into a dynamic tool, and its structural cases must be answered
// without a panic.

var inputSchemaLiteral = regexp.MustCompile("(?m)^\tName:\\s+\"([^\"]+)\",(?:\n\t[^\n]*)*?\n\tInputSchema:\\s+json.RawMessage\\(`([^`]*)`\\)")

func goldenSchemas(t *testing.T) map[string][]byte {
	root := filepath.Join("..", "..", "testdata", "generator")
	out := map[string][]byte{}
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case strings.HasSuffix(path, "toolgen.gen.go"):
			for _, m := range inputSchemaLiteral.FindAllSubmatch(b, -1) {
				out[rel+" "+string(m[1])] = m[2]
			}
		case filepath.Base(filepath.Dir(path)) == "toolschema" && strings.HasSuffix(path, ".json"):
			var f struct {
				Name        string          `json:"name"`
				InputSchema json.RawMessage `json:"inputSchema"`
			}
			if json.Unmarshal(b, &f) == nil && f.Name != "" && f.InputSchema != nil {
				out[rel] = f.InputSchema
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestGoldenSchemasCompile(t *testing.T) {
	schemas := goldenSchemas(t)
	if len(schemas) < 30 {
		t.Fatalf("found only %d golden input schemas", len(schemas))
	}
	run := func(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
		return runtime.TextResult(string(args)), nil
	}
	for name, schema := range schemas {
		ts, err := runtime.NewTool(runtime.Tool{Name: "golden", InputSchema: schema}, run)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, args := range []string{``, `{}`, `{"x":1}`, `"{}"`, `[]`, `{"a":`} {
			if r := ts.Call(context.Background(), "golden", []byte(args)); r.Outcome != runtime.OutcomeOK && r.Outcome != runtime.OutcomeInvalidArguments {
				t.Errorf("%s: %s: outcome %s: %s", name, args, r.Outcome, r.Text())
			}
		}
	}
	t.Logf("%d golden input schemas compile", len(schemas))
}
