package toolotel_test

import (
	"errors"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"strings"
	"testing"

	"go/ast"
)

// TestREADME checks that docs/operations.md's example of this module is the body of
// ExampleObserver, which compiles and runs, as it is.
func TestREADME(t *testing.T) {
	readme, err := os.ReadFile("../docs/operations.md")
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no docs/operations.md beside the module (a module downloaded alone)")
	}
	if err != nil {
		t.Fatal(err)
	}
	body := exampleBody(t, "example_test.go", "ExampleObserver")
	if !strings.Contains(string(readme), "```go\n"+body+"\n```\n") {
		t.Errorf("docs/operations.md has no go code block of ExampleObserver's body:\n%s", body)
	}
}

// exampleBody returns the body of the named function in file, one tab of indentation
// less, without its braces and its Output comment.
func exampleBody(t *testing.T, file, name string) string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == name {
			text := string(src[fset.Position(fn.Body.Lbrace).Offset+1 : fset.Position(fn.Body.Rbrace).Offset])
			var lines []string
			for _, l := range strings.Split(strings.Trim(text, "\n"), "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), "// Output:") {
					continue
				}
				lines = append(lines, strings.TrimPrefix(l, "\t"))
			}
			return strings.Join(lines, "\n")
		}
	}
	t.Fatalf("%s has no function %s", file, name)
	return ""
}
