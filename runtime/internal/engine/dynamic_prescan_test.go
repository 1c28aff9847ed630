package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestBeyondToolgenOnlyWhatToolgenRefuses: the first look that sends a schema straight
// to the general engine (beyondToolgen) never takes one the toolgen engine reads: on the
// input schemas toolgen writes for the examples and on the corpus of ecosystem schemas,
// whenever the toolgen engine compiles a schema, beyondToolgen passes it.
func TestBeyondToolgenOnlyWhatToolgenRefuses(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../../../examples/*/toolschema/*.json", "../../../examples/*/*/toolschema/*.json", "../../testdata/toolschemas/*.json"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	read := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			InputSchema json.RawMessage `json:"inputSchema"`
			Schema      json.RawMessage `json:"schema"`
		}
		if json.Unmarshal(b, &c) != nil {
			continue // a dialect's file, a list
		}
		schema := c.InputSchema
		if schema == nil {
			schema = c.Schema
		}
		if schema == nil {
			continue
		}
		doc, err := parseSchema(schema)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		comp := &compiler{tool: "t", root: doc, nodes: map[*jv]*node{}}
		comp.compileAll(doc)
		if comp.err == nil {
			comp.checkCycles()
		}
		if comp.err == nil {
			read++
			if beyondToolgen(doc, 0) {
				t.Errorf("%s: the toolgen engine reads the schema, beyondToolgen sends it past", f)
			}
		}
	}
	if read < 20 {
		t.Errorf("only %d schemas the toolgen engine reads", read)
	}
	t.Logf("%d files, %d read by the toolgen engine", len(files), read)
}
