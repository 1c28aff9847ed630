package interop_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlclark/regexp2"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen/toolgen/runtime"
)

// corpusCase is one file of runtime/testdata/toolschemas: a tool's input schema as
// pydantic v2 or zod v4 writes it, with arguments labelled valid and invalid.
type corpusCase struct {
	Generator string            `json:"generator"`
	Schema    json.RawMessage   `json:"schema"`
	Valid     []json.RawMessage `json:"valid"`
	Invalid   []json.RawMessage `json:"invalid"`
}

// TestEcosystemSchemas holds NewTool to the labelled corpus of tool schemas written
// as pydantic v2 and zod v4 write them: every schema is accepted, and every
// instance's verdict is its label and santhosh-tekuri/jsonschema's (formats asserted,
// as toolgen asserts them).
func TestEcosystemSchemas(t *testing.T) {
	files, err := filepath.Glob("../runtime/testdata/toolschemas/*.json")
	if err != nil || len(files) < 26 {
		t.Fatalf("the corpus has %d schemas, want at least 26 (%v)", len(files), err)
	}
	instances := 0
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c corpusCase
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(c.Valid) < 1 || len(c.Invalid) < 2 {
			t.Errorf("%s: %d valid and %d invalid instances, want several of each", name, len(c.Valid), len(c.Invalid))
		}
		ts, err := runtime.NewTool(runtime.Tool{Name: name, InputSchema: c.Schema}, echoArgs)
		if err != nil {
			t.Errorf("%s (%s): NewTool refuses the schema: %v", name, c.Generator, err)
			continue
		}
		sch := assertingPeer(t, name, c.Schema)
		for i, inst := range append(append([]json.RawMessage{}, c.Valid...), c.Invalid...) {
			instances++
			label := i < len(c.Valid)
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(inst)))
			if err != nil {
				t.Fatalf("%s: instance %s: %v", name, inst, err)
			}
			verr := sch.Validate(doc)
			if (verr == nil) != label {
				t.Errorf("%s: instance %s is labelled valid=%v, santhosh-tekuri says %v", name, inst, label, verr)
			}
			res := ts.Call(context.Background(), name, inst)
			if got := res.Outcome == runtime.OutcomeOK; got != label {
				t.Errorf("%s: instance %s: NewTool says valid=%v, labelled %v: %s", name, inst, got, label, res.Text())
			}
		}
	}
	t.Logf("%d schemas, %d instances", len(files), instances)
}

func echoArgs(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
	return runtime.TextResult(string(args)), nil
}

// ecmaRegexp is a pattern compiled by regexp2 in ECMAScript mode: the peer reads the
// patterns pydantic and zod write (lookaheads included) as JSON Schema says, with an
// engine of its own rather than toolgen's.
type ecmaRegexp struct{ re *regexp2.Regexp }

func (r ecmaRegexp) MatchString(s string) bool {
	ok, err := r.re.MatchString(s)
	return err == nil && ok
}

func (r ecmaRegexp) String() string { return r.re.String() }

// assertingPeer compiles schema with santhosh-tekuri/jsonschema, draft 2020-12,
// formats asserted, patterns read as ECMA-262 regular expressions (regexp2).
func assertingPeer(t *testing.T, name string, schema json.RawMessage) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(schema)))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseRegexpEngine(func(s string) (jsonschema.Regexp, error) {
		re, err := regexp2.Compile(s, regexp2.ECMAScript)
		if err != nil {
			return nil, err
		}
		return ecmaRegexp{re}, nil
	})
	if err := c.AddResource("https://corpus.invalid/"+name+".json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("https://corpus.invalid/" + name + ".json")
	if err != nil {
		t.Fatalf("%s: santhosh-tekuri refuses the schema: %v", name, err)
	}
	return s
}
