// Package schemasuite runs the JSON Schema Test Suite (draft 2020-12) through
// runtime.NewTool, with santhosh-tekuri/jsonschema/v6 on the same cases as the peer
// it must agree with the suite at least as often as.
package schemasuite

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen/toolgen/runtime"
)

// suiteDir returns the JSON Schema Test Suite's draft 2020-12 directory, which ships
// in the module zip of google/jsonschema-go: read from the module cache, never copied.
func suiteDir(t *testing.T) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/google/jsonschema-go").Output()
	if err != nil {
		t.Fatalf("go list -m github.com/google/jsonschema-go: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "jsonschema", "testdata", "draft2020-12")
}

type group struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

func echo(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
	return runtime.TextResult(string(args)), nil
}

// skippedFiles are the suite's files left out: remote references, which need a
// server the suite's harness runs (NewTool refuses every reference that leaves the
// document).
var skippedFiles = []string{"refRemote.json"}

// listed are the cases where toolgen does not follow the suite, each with the
// documented behaviour that applies (README "Dynamic tools: JSON Schema 2020-12",
// docs/DESIGN.md "The dynamic engine"). The test fails when a listed case agrees
// with the suite (the table is stale) or an unlisted one does not.
var listed = func() map[string]string {
	listed := map[string]string{}
	remote := "refused: the schema refers to a document outside it (NewTool resolves references within the input schema only)"
	for _, c := range []string{
		"defs.json|validate definition against metaschema|valid definition schema",
		"defs.json|validate definition against metaschema|invalid definition schema",
		"dynamicRef.json|strict-tree schema, guards against misspelled properties|instance with misspelled field",
		"dynamicRef.json|strict-tree schema, guards against misspelled properties|instance with correct field",
		"dynamicRef.json|tests for implementation dynamic anchor and reference link|incorrect parent schema",
		"dynamicRef.json|tests for implementation dynamic anchor and reference link|incorrect extended schema",
		"dynamicRef.json|tests for implementation dynamic anchor and reference link|correct extended schema",
		"dynamicRef.json|$ref and $dynamicAnchor are independent of order - $defs first|incorrect parent schema",
		"dynamicRef.json|$ref and $dynamicAnchor are independent of order - $defs first|incorrect extended schema",
		"dynamicRef.json|$ref and $dynamicAnchor are independent of order - $defs first|correct extended schema",
		"dynamicRef.json|$ref and $dynamicAnchor are independent of order - $ref first|incorrect parent schema",
		"dynamicRef.json|$ref and $dynamicAnchor are independent of order - $ref first|incorrect extended schema",
		"dynamicRef.json|$ref and $dynamicAnchor are independent of order - $ref first|correct extended schema",
		"dynamicRef.json|$ref to $dynamicRef finds detached $dynamicAnchor|number is valid",
		"dynamicRef.json|$ref to $dynamicRef finds detached $dynamicAnchor|non-number is invalid",
		"ref.json|remote ref, containing refs itself|remote ref valid",
		"ref.json|remote ref, containing refs itself|remote ref invalid",
	} {
		listed[c] = remote
	}
	return listed
}()

// wrap makes a tool's input schema of a suite schema, which may take any value: an
// object whose one required property v holds the schema, so that the arguments
// {"v": data} test the engine on data (required, so that null is v's value, not the
// leniency of an absent optional property). A schema with references and no $id of
// its own gets one, so that "#..." references name it, as they name the suite's
// document, rather than the wrapper.
func wrap(schema json.RawMessage) json.RawMessage {
	s := strings.TrimSpace(string(schema))
	if strings.HasPrefix(s, "{") && (strings.Contains(s, `"$ref"`) || strings.Contains(s, `"$dynamicRef"`)) {
		var m map[string]json.RawMessage
		if json.Unmarshal(schema, &m) == nil {
			if _, ok := m["$id"]; !ok {
				m["$id"] = json.RawMessage(`"https://toolgen.invalid/suite/schema.json"`)
				b, _ := json.Marshal(m)
				s = string(b)
			}
		}
	}
	return json.RawMessage(`{"type":"object","properties":{"v":` + s + `},"required":["v"],"additionalProperties":false}`)
}

// peer compiles schema with santhosh-tekuri/jsonschema, draft 2020-12 (format an
// annotation, as the suite's required files say), or returns nil when it refuses it.
func peer(schema json.RawMessage) *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(schema)))
	if err != nil {
		return nil
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("https://suite.invalid/schema.json", doc); err != nil {
		return nil
	}
	s, err := c.Compile("https://suite.invalid/schema.json")
	if err != nil {
		return nil
	}
	return s
}

// TestJSONSchemaTestSuite runs every case of the suite's draft 2020-12 files (but
// skippedFiles) through NewTool: each agrees with the suite but the listed ones, and
// on the cases not listed NewTool agrees at least as often as santhosh-tekuri.
func TestJSONSchemaTestSuite(t *testing.T) {
	dir := suiteDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no suite files in %s: %v", dir, err)
	}
	slices.Sort(files)
	var total, ours, theirs, oursListed, theirsListed int
	seen := map[string]bool{}
	for _, f := range files {
		name := filepath.Base(f)
		if slices.Contains(skippedFiles, name) {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var groups []group
		if err := json.Unmarshal(b, &groups); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, g := range groups {
			ts, terr := runtime.NewTool(runtime.Tool{Name: "suite", InputSchema: wrap(g.Schema)}, echo)
			sch := peer(g.Schema)
			for _, tc := range g.Tests {
				key := name + "|" + g.Description + "|" + tc.Description
				seen[key] = true
				total++
				peerAgrees := false
				if sch != nil {
					inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(tc.Data)))
					peerAgrees = err == nil && (sch.Validate(inst) == nil) == tc.Valid
				}
				agrees, why := false, ""
				if terr != nil {
					why = "refused: " + terr.Error()
				} else {
					res := ts.Call(context.Background(), "suite", []byte(`{"v":`+string(tc.Data)+`}`))
					agrees = (res.Outcome == runtime.OutcomeOK) == tc.Valid
					why = res.Text()
				}
				reason, isListed := listed[key]
				switch {
				case isListed:
					if peerAgrees {
						theirsListed++
					}
					if agrees {
						oursListed++
						t.Errorf("%s: listed (%s) but agrees with the suite: take it off the list", key, reason)
					}
				default:
					if peerAgrees {
						theirs++
					}
					if agrees {
						ours++
					} else {
						t.Errorf("%s: want valid=%v, got %s\n%s", key, tc.Valid, why, g.Schema)
					}
				}
			}
		}
	}
	for key := range listed {
		if !seen[key] {
			t.Errorf("listed case %q is not in the suite", key)
		}
	}
	if ours < theirs {
		t.Errorf("NewTool agrees with the suite on %d of the %d cases not listed, santhosh-tekuri/jsonschema on %d", ours, total-len(listed), theirs)
	}
	t.Logf("%d cases: NewTool agrees on %d of the %d not listed (santhosh-tekuri: %d); of the %d listed, NewTool %d, santhosh-tekuri %d",
		total, ours, total-len(listed), theirs, len(listed), oursListed, theirsListed)
}
