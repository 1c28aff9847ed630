package generator

import (
	"encoding/json"
	"go/ast"
	goparser "go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/toolgen/toolgen/model"
)

var _ = registerUpdateFlag()

// TestGoldenGoCode generates every package of the parser's golden cases
// (testdata/parser/*.txtar, whose want.json is the model) and compares the Go file with
// testdata/generator/gocode/<case>/<dir>/toolgen.gen.go. The parser and the generator
// are thus tested apart, through the model they share. Run with -update to rewrite the
// golden files, and read the diff before committing it.
func TestGoldenGoCode(t *testing.T) {
	for _, c := range parserCases(t) {
		t.Run(c.name, func(t *testing.T) {
			for _, pkg := range c.pkgs {
				files, _, err := Generate(pkg)
				if err != nil {
					t.Fatalf("Generate(%s): %v", pkg.Path, err)
				}
				for _, f := range files {
					if f.Path != GoFile {
						continue // the schema tests cover toolschema/
					}
					golden := filepath.Join("..", "testdata", "generator", "gocode", c.name, filepath.FromSlash(pkg.Dir), GoFile)
					compareGolden(t, golden, f.Data)
				}
			}
		})
	}
}

// TestGeneratedCodeBuilds writes each parser golden case's sources with everything
// generated for them into a module, and runs go vet on it: the generated code must
// compile and pass vet for every shape of input.
func TestGeneratedCodeBuilds(t *testing.T) { vetGenerated(t, Options{}) }

// TestTableGeneratedCodeBuilds is TestGeneratedCodeBuilds with table-driven decoders,
// which packages of generator.TableMinTools tools get: every shape of input must
// compile and pass vet that way too.
func TestTableGeneratedCodeBuilds(t *testing.T) { vetGenerated(t, Options{Decoders: DecodersTable}) }

func vetGenerated(t *testing.T, opts Options) {
	if testing.Short() {
		t.Skip("builds modules")
	}
	root, gosum := toolgenModule(t)
	for _, c := range parserCases(t) {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			gomod := "module example.com/x\n\ngo 1.26\n\nrequire github.com/toolgen/toolgen v0.0.0\n\nreplace github.com/toolgen/toolgen => " + root + "\n"
			write(t, filepath.Join(dir, "go.mod"), []byte(gomod))
			write(t, filepath.Join(dir, "go.sum"), gosum)
			for _, f := range c.archive.Files {
				if !strings.HasPrefix(f.Name, "want.") {
					write(t, filepath.Join(dir, filepath.FromSlash(f.Name)), f.Data)
				}
			}
			for _, pkg := range c.pkgs {
				files, _, err := GenerateWith(pkg, opts)
				if err != nil {
					t.Fatalf("Generate(%s): %v", pkg.Path, err)
				}
				for _, f := range files {
					write(t, filepath.Join(dir, filepath.FromSlash(path.Join(pkg.Dir, f.Path))), f.Data)
				}
			}
			args := []string{"vet", "-structtag=false"} // the fixtures hold a deliberately odd tag
			for line := range strings.Lines(string(c.archive.Comment)) {
				if tags, ok := strings.CutPrefix(line, "tags:"); ok {
					args = append(args, "-tags="+strings.Join(strings.Fields(tags), ","))
				}
			}
			cmd := exec.Command("go", append(args, "./...")...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go vet on the generated code: %v\n%s", err, out)
			}
		})
	}
}

type parserCase struct {
	name    string
	archive *txtar.Archive
	pkgs    []*model.Package
}

// parserCases reads the parser golden archives that expect a model (not errors).
func parserCases(t *testing.T) []parserCase {
	t.Helper()
	archives, err := filepath.Glob(filepath.Join("..", "testdata", "parser", "*.txtar"))
	if err != nil || len(archives) == 0 {
		t.Fatalf("no parser golden archives: %v", err)
	}
	var cases []parserCase
	for _, file := range archives {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name != "want.json" {
				continue
			}
			var pkgs []*model.Package
			if err := json.Unmarshal(f.Data, &pkgs); err != nil {
				t.Fatalf("%s: want.json: %v", file, err)
			}
			cases = append(cases, parserCase{name: strings.TrimSuffix(filepath.Base(file), ".txtar"), archive: ar, pkgs: pkgs})
		}
	}
	return cases
}

func write(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// compareGolden compares data with the golden file, or rewrites it under -update.
func compareGolden(t *testing.T, golden string, data []byte) {
	t.Helper()
	if updateGolden() {
		write(t, golden, data)
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./generator -update)", err)
	}
	if string(want) != string(data) {
		t.Errorf("%s differs from the generated code (run go test ./generator -update and review the diff)", golden)
	}
}

// TestGeneratedNames checks the promises the parser relies on to load a package whose
// generated file is missing and to report collisions: at package level, generated code
// declares the constructors pkg.Constructor names, one per tool set, and otherwise only
// names of helpers (model.IsHelperName); it imports only model.GeneratedImports and the
// packages of the tools' types.
func TestGeneratedNames(t *testing.T) {
	for _, c := range parserCases(t) {
		for _, pkg := range c.pkgs {
			files, _, err := Generate(pkg)
			if err != nil {
				t.Fatalf("%s: Generate(%s): %v", c.name, pkg.Path, err)
			}
			ctors := map[string]bool{}
			for _, set := range toolSets(pkg) {
				ctors[pkg.Constructor(set.recv)] = true
			}
			for _, f := range files {
				if f.Path != GoFile {
					continue
				}
				syntax, err := goparser.ParseFile(token.NewFileSet(), f.Path, f.Data, goparser.SkipObjectResolution)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				for _, name := range packageLevelNames(syntax) {
					if !ctors[name] && !model.IsHelperName(name) && name != "_" {
						t.Errorf("%s: %s declares %s, neither a constructor (%v) nor a helper name", c.name, pkg.Path, name, ctors)
					}
					delete(ctors, name)
				}
				if len(ctors) > 0 {
					t.Errorf("%s: %s does not declare the constructors %v", c.name, pkg.Path, ctors)
				}
				// The parser finds the import names a package takes from this list.
				for _, spec := range syntax.Imports {
					path := strings.Trim(spec.Path.Value, `"`)
					if !slices.Contains(model.GeneratedImports, path) && !slices.ContainsFunc(pkg.Types, func(nt *model.NamedType) bool { return nt.PkgPath == path }) {
						t.Errorf("%s: %s imports %s, which is neither in model.GeneratedImports nor a package of its types", c.name, pkg.Path, path)
					}
				}
			}
		}
	}
}

// packageLevelNames are the names a file declares in the package block.
func packageLevelNames(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names = append(names, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	return names
}

// toolgenModule returns the directory of the toolgen module, for a test module's
// replace directive, and its go.sum, for the test module's own.
func toolgenModule(t *testing.T) (root string, gosum []byte) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	gosum, err = os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	return root, gosum
}
