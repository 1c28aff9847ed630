package runtime_test

import (
	"os/exec"
	"strings"
	"testing"
)

// sharedProgram is the one package outside runtime/ that the runtime imports: what the
// generator and the runtime share of a schema's program (the messages both report).
// It is internal to the module and held to the standard library as runtime/ is.
const sharedProgram = "github.com/toolgen/toolgen/internal/program"

// TestStandardLibraryOnly keeps runtime/... free of non-standard imports: every program
// that uses generated tools links it. Packages of runtime/ it reaches are listed by
// -deps with what they import, so each is held to the standard library too.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, path := range strings.Fields(string(out)) {
		if !strings.HasPrefix(path, "github.com/toolgen/toolgen/runtime/") && path != "github.com/toolgen/toolgen/runtime" && path != sharedProgram {
			t.Errorf("runtime reaches the non-standard package %s", path)
		}
	}
}
