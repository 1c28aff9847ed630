package generator

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/model"
)

// examplesPkg returns the package of the parser's examples case.
func examplesPkg(t *testing.T) *model.Package {
	t.Helper()
	for _, c := range parserCases(t) {
		if c.name == "examples" {
			return c.pkgs[0]
		}
	}
	t.Fatal("no examples case")
	return nil
}

// TestExamplesCarried checks where a tool's input examples go: the canonical input
// schema's "examples", the MCP tools/list file, and Anthropic's input_examples, in the
// order written; a tool without examples gets none of them.
func TestExamplesCarried(t *testing.T) {
	files, _, err := Generate(examplesPkg(t))
	if err != nil {
		t.Fatal(err)
	}
	byPath := filesByName(files)
	const want = `[{"city":"Paris"},{"city":"Tokyo","days":3},{"city":"Lima","days":1}]`
	var canonical struct {
		InputSchema struct {
			Examples json.RawMessage `json:"examples"`
		} `json:"inputSchema"`
	}
	if err := json.Unmarshal(byPath["forecast.json"], &canonical); err != nil {
		t.Fatal(err)
	}
	if got := compactJSON(string(canonical.InputSchema.Examples)); got != want {
		t.Errorf("toolschema/forecast.json examples = %s, want %s", got, want)
	}
	var anthropic []struct {
		Name          string          `json:"name"`
		InputExamples json.RawMessage `json:"input_examples"`
	}
	if err := json.Unmarshal(byPath["anthropic.json"], &anthropic); err != nil {
		t.Fatal(err)
	}
	for _, tool := range anthropic {
		got := compactJSON(string(tool.InputExamples))
		switch tool.Name {
		case "forecast":
			if got != want {
				t.Errorf("anthropic.json forecast input_examples = %s, want %s", got, want)
			}
		case "plain":
			if tool.InputExamples != nil {
				t.Errorf("anthropic.json plain input_examples = %s, want none", got)
			}
		}
	}
	if !strings.Contains(string(byPath["mcp.json"]), `"examples": [`) {
		t.Error("mcp.json carries no examples")
	}
}

// TestExamplesChecked checks that an input example the input schema refuses is an
// error at the example's position, saying what it breaks, every one at once, and that
// Generate returns them unwrapped as SourceErrors.
func TestExamplesChecked(t *testing.T) {
	pkg := examplesPkg(t)
	var forecast *model.Tool
	for _, tool := range pkg.Tools {
		if tool.Name == "forecast" {
			forecast = tool
		}
	}
	forecast.Examples = []model.Example{
		{JSON: `{"city":"Paris"}`, Pos: model.Pos{File: "ex/ex.go", Line: 7, Col: 4}},
		{JSON: `{"city":1,"days":3}`, Pos: model.Pos{File: "ex/ex.go", Line: 8, Col: 4}},
		{JSON: `{"town":"Lima"}`, Pos: model.Pos{File: "ex/ex.go", Line: 9, Col: 4}},
	}
	_, _, err := Generate(pkg)
	var errs SourceErrors
	if !errors.As(err, &errs) {
		t.Fatalf("err = %v, want SourceErrors", err)
	}
	want := `ex/ex.go:8:4: input example of forecast breaks its input schema: /city: must be a string (got 1)
ex/ex.go:9:4: input example of forecast breaks its input schema: /town: unknown property; expected one of "city", "days"; /city: missing required property`
	if err.Error() != want {
		t.Errorf("err:\n%s\nwant\n%s", err, want)
	}
}
