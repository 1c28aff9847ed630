package tooltest_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImports keeps tooltest to the standard library and toolgen's runtime: a team's
// tests import it, so it must bring nothing into their module graph. (Its own tests
// may import more, such as the examples' tools.)
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, path := range strings.Fields(string(out)) {
		if path != "github.com/toolgen/toolgen/tooltest" && path != "github.com/toolgen/toolgen/runtime" && !strings.HasPrefix(path, "github.com/toolgen/toolgen/runtime/") {
			t.Errorf("tooltest reaches the package %s", path)
		}
	}
}
