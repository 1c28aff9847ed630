package generator

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestEstimateTokens checks the heuristic: bytes/4, rounded up.
func TestEstimateTokens(t *testing.T) {
	for n, want := range map[int]int{0: 0, 1: 1, 3: 1, 4: 1, 5: 2, 8: 2, 9: 3, 1000: 250, 1001: 251} {
		if got := EstimateTokens(n); got != want {
			t.Errorf("EstimateTokens(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestCatalog measures the weather case's tools and checks each size against the
// tool's definition found in the dialect file independently, re-encoded compactly.
func TestCatalog(t *testing.T) {
	pkg := weatherPackage()
	files, _, err := Generate(pkg)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := Catalog(pkg, files)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Tool.Name)
	}
	if want := []string{"get_weather", "list_cities"}; !slices.Equal(names, want) {
		t.Fatalf("Catalog tools = %q, want %q", names, want)
	}
	var providers []string
	for _, p := range Providers {
		providers = append(providers, p.Name)
	}
	if want := []string{"openai", "anthropic", "gemini", "mcp"}; !slices.Equal(providers, want) {
		t.Errorf("Providers = %q, want %q", providers, want)
	}
	for _, e := range entries {
		if len(e.Bytes) != len(Providers) {
			t.Fatalf("%s: %d sizes for %d providers", e.Tool.Name, len(e.Bytes), len(Providers))
		}
		for i, p := range Providers {
			want := definitionSize(t, files, p.File, e.Tool.Name)
			if e.Bytes[i] != want {
				t.Errorf("%s for %s: %d bytes, want %d", e.Tool.Name, p.Name, e.Bytes[i], want)
			}
			if got := e.Tokens()[i]; got != (want+3)/4 {
				t.Errorf("%s for %s: %d tokens for %d bytes", e.Tool.Name, p.Name, got, want)
			}
		}
	}
	// The MCP definition holds the output schema and annotations, so it is the largest
	// for get_weather.
	if b := entries[0].Bytes; b[3] <= b[0] {
		t.Errorf("get_weather: MCP definition %d bytes, OpenAI %d: want MCP larger", b[3], b[0])
	}
}

// definitionSize finds tool's definition in a dialect file by walking the decoded
// document, and returns the length of its compact encoding.
func definitionSize(t *testing.T, files []File, file, tool string) int {
	t.Helper()
	var data []byte
	for _, f := range files {
		if f.Path == SchemaDir+"/"+file {
			data = f.Data
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	var list []any
	switch d := doc.(type) {
	case []any:
		list = d
	case map[string]any:
		for _, key := range []string{"tools", "functionDeclarations"} {
			if l, ok := d[key].([]any); ok {
				list = l
			}
		}
	}
	for _, def := range list {
		m := def.(map[string]any)
		name, _ := m["name"].(string)
		if fn, ok := m["function"].(map[string]any); ok {
			name, _ = fn["name"].(string)
		}
		if name != tool {
			continue
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(def); err != nil {
			t.Fatal(err)
		}
		return len(strings.TrimSuffix(buf.String(), "\n"))
	}
	t.Fatalf("%s: no tool %s", file, tool)
	return 0
}

// TestCatalogErrors checks that Catalog refuses files that do not match the package.
func TestCatalogErrors(t *testing.T) {
	pkg := weatherPackage()
	files, _, err := Generate(pkg)
	if err != nil {
		t.Fatal(err)
	}
	without := slices.DeleteFunc(slices.Clone(files), func(f File) bool { return f.Path == SchemaDir+"/gemini.json" })
	if _, err := Catalog(pkg, without); err == nil || !strings.Contains(err.Error(), "no toolschema/gemini.json") {
		t.Errorf("Catalog without gemini.json: %v", err)
	}
	other := paramsPackage()
	if _, err := Catalog(other, files); err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Errorf("Catalog of another package's files: %v", err)
	}
	fewer := weatherPackage()
	fewer.Tools = fewer.Tools[:1]
	if _, err := Catalog(fewer, files); err == nil {
		t.Error("Catalog with a tool missing from the package: no error")
	}
	more := weatherPackage()
	extra := *more.Tools[1]
	extra.Name = "list_towns"
	more.Tools = append(more.Tools, &extra)
	if _, err := Catalog(more, files); err == nil || !strings.Contains(err.Error(), "has 2 tools, want 3") {
		t.Errorf("Catalog with a tool missing from the files: %v", err)
	}
}
