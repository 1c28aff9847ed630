package oasdiff

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"
	"github.com/oasdiff/oasdiff/diff"
	"github.com/oasdiff/oasdiff/load"

	"github.com/toolgen/toolgen/internal/contractdiff"
)

var update = flag.Bool("update", false, "write oasdiff's verdicts into the table")

// tablePath is contractdiff's table of contract changes.
const tablePath = "../../internal/contractdiff/testdata/oasdiff.json"

// document wraps a schema in an OpenAPI 3.1 document with one operation: as its
// request body (side "request") or as its 200 response (side "response"); the other
// side is a fixed object.
func document(side string, schema json.RawMessage) []byte {
	fixed := json.RawMessage(`{"type":"object"}`)
	req, resp := schema, fixed
	if side == "response" {
		req, resp = fixed, schema
	}
	doc := map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": "tool", "version": "1"},
		"paths": map[string]any{
			"/tool": map[string]any{
				"post": map[string]any{
					"operationId": "tool",
					"requestBody": map[string]any{
						"required": true,
						"content":  map[string]any{"application/json": map[string]any{"schema": req}},
					},
					"responses": map[string]any{
						"200": map[string]any{
							"description": "the result",
							"content":     map[string]any{"application/json": map[string]any{"schema": resp}},
						},
					},
				},
			},
		},
	}
	data, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return data
}

// verdict runs oasdiff over the pair and returns "breaking" when it reports a change
// at level WARN or ERR (what `oasdiff breaking` prints and `--fail-on WARN` fails
// on), "compatible" otherwise, with the ids of the changes it reported at any level.
func verdict(t *testing.T, side string, old, new json.RawMessage) (string, []string) {
	t.Helper()
	load1 := func(name string, data []byte) *load.SpecInfo {
		loader := openapi3.NewLoader()
		s, err := load.NewSpecInfoFromData(loader, data, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return s
	}
	s1, s2 := load1("base.json", document(side, old)), load1("revision.json", document(side, new))
	d, osm, err := diff.GetWithOperationsSourcesMap(diff.NewConfig(), s1, s2)
	if err != nil {
		t.Fatal(err)
	}
	changes := checker.CheckBackwardCompatibilityUntilLevel(checker.NewConfig(checker.GetAllChecks()), d, osm, checker.INFO)
	v := "compatible"
	var ids []string
	for _, c := range changes {
		ids = append(ids, fmt.Sprintf("%s (%s)", c.GetId(), c.GetLevel()))
		if c.GetLevel() >= checker.WARN {
			v = "breaking"
		}
	}
	slices.Sort(ids)
	return v, slices.Compact(ids)
}

// pair is a row of the table.
type pair struct {
	Name string          `json:"name"`
	Side string          `json:"side"`
	Old  json.RawMessage `json:"old"`
	New  json.RawMessage `json:"new"`
	// OASDiff is oasdiff's verdict, and Rules the rules it fired, with their levels.
	OASDiff string   `json:"oasdiff"`
	Rules   []string `json:"rules"`
	// Disagree, when set, says why toolgen diff's verdict differs from oasdiff's.
	Disagree string `json:"disagree,omitempty"`
}

// TestTableIsOASDiffs checks every row's recorded verdict and rules against oasdiff's,
// and that toolgen diff agrees with oasdiff on every row but those that say why not.
func TestTableIsOASDiffs(t *testing.T) {
	data, err := os.ReadFile(tablePath)
	if err != nil {
		t.Fatal(err)
	}
	var pairs []pair
	if err := json.Unmarshal(data, &pairs); err != nil {
		t.Fatal(err)
	}
	agree := 0
	for i := range pairs {
		p := &pairs[i]
		v, rules := verdict(t, p.Side, p.Old, p.New)
		if *update {
			p.OASDiff, p.Rules = v, rules
		}
		if v != p.OASDiff || !slices.Equal(rules, p.Rules) {
			t.Errorf("%s %s: oasdiff says %s %v; the table says %s %v", p.Side, p.Name, v, rules, p.OASDiff, p.Rules)
		}
		got := toolgenVerdict(t, p.Side, p.Old, p.New)
		switch {
		case got == v:
			agree++
			if p.Disagree != "" {
				t.Errorf("%s %s: toolgen diff agrees with oasdiff (%s), but the table says it disagrees", p.Side, p.Name, v)
			}
		case p.Disagree == "":
			t.Errorf("%s %s: toolgen diff says %s, oasdiff %s %v", p.Side, p.Name, got, v, rules)
		}
	}
	t.Logf("toolgen diff agrees with oasdiff on %d of %d pairs", agree, len(pairs))
	if *update {
		// One pair a line, so that a change of the table reads as a change of rows.
		var buf bytes.Buffer
		buf.WriteString("[\n")
		for i, p := range pairs {
			var row bytes.Buffer
			enc := json.NewEncoder(&row)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(p); err != nil {
				t.Fatal(err)
			}
			buf.Write(bytes.TrimSuffix(row.Bytes(), []byte("\n")))
			if i < len(pairs)-1 {
				buf.WriteString(",")
			}
			buf.WriteString("\n")
		}
		buf.WriteString("]\n")
		if err := os.WriteFile(tablePath, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// toolgenVerdict is contractdiff's verdict on the pair, as the input or output schema
// of a tool.
func toolgenVerdict(t *testing.T, side string, old, new json.RawMessage) string {
	t.Helper()
	key := "inputSchema"
	if side == "response" {
		key = "outputSchema"
	}
	file := func(s json.RawMessage) []byte {
		data, err := json.Marshal(map[string]any{"name": "tool", key: s})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	const path = "p/toolschema/tool.json"
	changes, err := contractdiff.Compare(map[string][]byte{path: file(old)}, map[string][]byte{path: file(new)})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		if c.Kind == contractdiff.Breaking {
			return "breaking"
		}
	}
	return "compatible"
}
