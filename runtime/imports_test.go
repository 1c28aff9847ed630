package runtime_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly keeps runtime/... free of non-standard imports: every program
// that uses generated tools links it. Packages of runtime/ it reaches are listed by
// -deps with what they import, so each is held to the standard library too.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, path := range strings.Fields(string(out)) {
		if !strings.HasPrefix(path, "github.com/toolgen/toolgen/runtime/") && path != "github.com/toolgen/toolgen/runtime" {
			t.Errorf("runtime reaches the non-standard package %s", path)
		}
	}
}
