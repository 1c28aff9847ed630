package runtime_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly keeps runtime/... free of non-standard imports: every program
// that uses generated tools links it. The one package of the module it may reach outside
// runtime/ is internal/schematree, the JSON Schema tree runtime/dialect shares with the
// generator; since -deps lists what that package imports too, this also holds it to the
// standard library.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, path := range strings.Fields(string(out)) {
		if path != "github.com/toolgen/toolgen/internal/schematree" && !strings.HasPrefix(path, "github.com/toolgen/toolgen/runtime") {
			t.Errorf("runtime reaches the non-standard package %s", path)
		}
	}
}
