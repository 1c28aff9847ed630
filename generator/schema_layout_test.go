package generator

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestLayoutSchemas generates the time layouts' golden case (testdata/parser/timelayout.txtar)
// and compares its toolschema/ files with testdata/generator/schema/timelayout. In
// every dialect the property of a time.Time with a layout tells the model its form:
// an example in the description everywhere, and the pattern where the dialect keeps it.
func TestLayoutSchemas(t *testing.T) {
	var found bool
	for _, c := range parserCases(t) {
		if c.name != "timelayout" {
			continue
		}
		found = true
		for _, pkg := range c.pkgs {
			files, _, err := Generate(pkg)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				if f.Path == GoFile {
					continue
				}
				compareGolden(t, filepath.Join("..", "testdata", "generator", "schema", "timelayout", filepath.FromSlash(f.Path)), f.Data)
				var doc any
				if err := json.Unmarshal(f.Data, &doc); err != nil {
					t.Fatalf("%s: %v", f.Path, err)
				}
				n := 0
				walkProps(doc, func(name string, p map[string]any) {
					if name != "from" {
						return
					}
					n++
					desc, _ := p["description"].(string)
					if !strings.Contains(desc, `Written like "2024-08-01 00:00:00".`) {
						t.Errorf("%s: from: description %q has no example", f.Path, desc)
					}
					if p["pattern"] != `^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$` {
						t.Errorf("%s: from: pattern %v", f.Path, p["pattern"])
					}
					if _, ok := p["format"]; ok {
						t.Errorf("%s: from: a format beside the layout", f.Path)
					}
				})
				if n == 0 && f.Path != "toolschema/cancel.json" {
					t.Errorf("%s: no property from", f.Path)
				}
			}
		}
	}
	if !found {
		t.Fatal("no timelayout case")
	}
}

// walkProps calls f with every property schema of every "properties" object under v.
func walkProps(v any, f func(name string, p map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		if props, ok := x["properties"].(map[string]any); ok {
			for name, p := range props {
				if m, ok := p.(map[string]any); ok {
					f(name, m)
				}
			}
		}
		for _, y := range x {
			walkProps(y, f)
		}
	case []any:
		for _, y := range x {
			walkProps(y, f)
		}
	}
}
