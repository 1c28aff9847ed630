package toolgenai_test

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"strings"
	"testing"
)

// TestREADME checks that docs/providers.md's example of this bridge is the body of
// ExampleRun, which compiles, as it is.
func TestREADME(t *testing.T) {
	readme, err := os.ReadFile("../docs/providers.md")
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no docs/providers.md beside the module (a module downloaded alone)")
	}
	if err != nil {
		t.Fatal(err)
	}
	body := exampleBody(t, "example_test.go", "ExampleRun")
	if !strings.Contains(string(readme), "```go\n"+body+"\n```\n") {
		t.Errorf("docs/providers.md has no go code block of ExampleRun's body:\n%s", body)
	}
}

// exampleBody returns the body of the named function in file, one tab of indentation
// less, without its braces.
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
			lines := strings.Split(strings.Trim(text, "\n"), "\n")
			for i, l := range lines {
				lines[i] = strings.TrimPrefix(l, "\t")
			}
			return strings.Join(lines, "\n")
		}
	}
	t.Fatalf("%s has no function %s", file, name)
	return ""
}
