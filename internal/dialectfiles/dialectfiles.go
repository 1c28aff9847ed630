// Package dialectfiles checks that a package's checked-in toolschema/ dialect files are
// what the provider adapters send for its tools: toolschema/openai.json and
// openai-responses.json against runtime/openai's ChatTools and ResponsesTools,
// anthropic.json against runtime/anthropic's Tools, and gemini.json against
// runtime/gemini's Tools, each marshaled as toolgen writes the files (two-space indent,
// no HTML escaping, a trailing newline).
package dialectfiles

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/runtime/openai"
)

// Files returns the dialect files the adapters' definitions of ts make, by base name.
func Files(ts *runtime.Toolset) (map[string][]byte, error) {
	decls := gemini.Tools(ts)
	doc := gemini.ToolDeclarations{FunctionDeclarations: []gemini.FunctionDeclaration{}}
	if len(decls) > 0 {
		doc = decls[0]
	}
	docs := map[string]any{
		"openai.json":           orEmpty(openai.ChatTools(ts)),
		"openai-responses.json": orEmpty(openai.ResponsesTools(ts)),
		"anthropic.json":        orEmpty(anthropic.Tools(ts)),
		"gemini.json":           doc,
	}
	out := make(map[string][]byte, len(docs))
	for name, v := range docs {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			return nil, err
		}
		out[name] = buf.Bytes()
	}
	return out, nil
}

// orEmpty returns s, or an empty slice for nil, which marshals as [].
func orEmpty[E any](s []E) []E {
	if s == nil {
		return []E{}
	}
	return s
}

// Check fails t for every dialect file in dir (a package's toolschema directory) that
// differs from what the adapters send for ts, the package's tools.
func Check(t testing.TB, ts *runtime.Toolset, dir string) {
	t.Helper()
	files, err := Files(ts)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	for _, name := range []string{"openai.json", "openai-responses.json", "anthropic.json", "gemini.json"} {
		path := filepath.Join(dir, name)
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if got := files[name]; !bytes.Equal(got, want) {
			t.Errorf("%s differs from what the adapter sends:\n--- sent\n%s--- file\n%s", path, got, want)
		}
	}
}
