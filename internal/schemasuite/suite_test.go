package schemasuite

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"


	"github.com/toolgen/toolgen/runtime"
)

// suiteDir returns the JSON Schema Test Suite's draft 2020-12 directory, which ships
// in the module zip of google/jsonschema-go.
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
