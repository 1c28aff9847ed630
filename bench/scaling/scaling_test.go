// Package scaling measures how toolgen scales with the number of tools in a package:
// generating 100, 1,000 and 5,000 tools with realistic argument structs (see
// bench/internal/synth), end to end and step by step, and building what it generated.
//
// The benchmarks write modules under a temporary directory and take minutes, so they
// run only with -scaling:
//
//	go test -run '^$' -bench . -benchtime 1x -count 3 ./scaling -scaling   # in bench
package scaling

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/toolgen/toolgen/bench/internal/synth"
	"github.com/toolgen/toolgen/generator"
	"github.com/toolgen/toolgen/internal/output"
	"github.com/toolgen/toolgen/parser"
)

var (
	scaling = flag.Bool("scaling", false, "run the generator scaling benchmarks (they take minutes)")
	sizes   = flag.String("sizes", "100,1000,5000", "comma-separated numbers of tools")
)

// BenchmarkGenerate measures, for packages of each size:
//
//   - step=end_to_end: `toolgen generate ./...` run as a command in the module, with
//     no generated files yet (the binary is built beforehand);
//   - step=regenerate: the same with every generated file present and current, as
//     go generate and toolgen check run most of the time (nothing is written);
//   - step=load: packages.Load with the parser's load mode (go list, parsing and
//     type-checking the sources), no generated file present;
//   - step=load_parse: parser.Load, which is that load plus reading the directives,
//     doc comments, tags and types into the model (parse alone is the difference);
//   - step=generate: generator.Generate, model in, files out, in memory;
//   - step=write: output.Plan and output.Apply writing every file, none present;
//   - step=build: `go build ./...` of the module once generated, recompiling the
//     generated package (its dependencies come from the build cache).
func BenchmarkGenerate(b *testing.B) {
	if !*scaling {
		b.Skip("pass -scaling to run: it generates and builds packages of up to 5,000 tools")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	work := b.TempDir()
	toolgen := filepath.Join(work, "toolgen")
	run(b, root, "go", "build", "-o", toolgen, "./cmd/toolgen")

	for _, n := range parseSizes(b) {
		mod := filepath.Join(work, "m"+strconv.Itoa(n))
		writeModule(b, root, mod, n)
		pkgDir := filepath.Join(mod, "synthetic")
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			b.Run("step=end_to_end", func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					removeGenerated(b, pkgDir)
					b.StartTimer()
					run(b, mod, toolgen, "generate", "./...")
				}
			})
			b.Run("step=regenerate", func(b *testing.B) {
				run(b, mod, toolgen, "generate", "./...")
				for b.Loop() {
					run(b, mod, toolgen, "generate", "./...")
				}
			})
			b.Run("step=build", func(b *testing.B) {
				run(b, mod, toolgen, "generate", "./...")
				run(b, mod, "go", "build", "./...") // warms the cache of the dependencies
				for b.Loop() {
					b.StopTimer()
					// A new constant makes the package's sources, so its build, new.
					nonce := fmt.Sprintf("package synthetic\n\nconst nonce = %q\n", time.Now().String())
					writeFile(b, filepath.Join(pkgDir, "nonce.go"), []byte(nonce))
					b.StartTimer()
					run(b, mod, "go", "build", "./...")
				}
				b.StopTimer()
				os.Remove(filepath.Join(pkgDir, "nonce.go"))
				reportGenerated(b, pkgDir)
			})
			removeGenerated(b, pkgDir)
			b.Run("step=load", func(b *testing.B) {
				for b.Loop() {
					cfg := &packages.Config{Mode: parserLoadMode, Dir: mod}
					pkgs, err := packages.Load(cfg, "./...")
					if err != nil || packages.PrintErrors(pkgs) > 0 {
						b.Fatalf("load: %v", err)
					}
				}
			})
			b.Run("step=load_parse", func(b *testing.B) {
				for b.Loop() {
					if _, err := parser.Load(parser.Config{Dir: mod}, "./..."); err != nil {
						b.Fatal(err)
					}
				}
			})
			pkgs, err := parser.Load(parser.Config{Dir: mod}, "./...")
			if err != nil {
				b.Fatal(err)
			}
			b.Run("step=generate", func(b *testing.B) {
				for b.Loop() {
					for _, p := range pkgs {
						if _, _, err := generator.Generate(p); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
			var dirs []output.Dir
			for _, p := range pkgs {
				files, _, err := generator.Generate(p)
				if err != nil {
					b.Fatal(err)
				}
				dirs = append(dirs, output.Dir{Path: p.Dir, Files: files})
			}
			b.Run("step=write", func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					removeGenerated(b, pkgDir)
					b.StartTimer()
					changes, err := output.Plan(mod, dirs)
					if err != nil {
						b.Fatal(err)
					}
					if err := output.Apply(mod, changes); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// parserLoadMode is the parser's load mode (parser.loadMode).
const parserLoadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports |
	packages.NeedModule

func parseSizes(b *testing.B) []int {
	var out []int
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			b.Fatalf("-sizes: bad size %q", f)
		}
		out = append(out, n)
	}
	return out
}

// writeModule writes a module at dir whose package synthetic holds n tools and that
// uses the toolgen module at root.
func writeModule(b testing.TB, root, dir string, n int) {
	gomod := "module example.com/scaling\n\ngo 1.26.0\n\nrequire github.com/toolgen/toolgen v0.0.0\n\nreplace github.com/toolgen/toolgen => " + root + "\n"
	writeFile(b, filepath.Join(dir, "go.mod"), []byte(gomod))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		b.Fatal(err)
	}
	writeFile(b, filepath.Join(dir, "go.sum"), sum)
	files := synth.Files("synthetic", n, false)
	for _, name := range synth.Names(files) {
		writeFile(b, filepath.Join(dir, "synthetic", name), files[name])
	}
}

func writeFile(b testing.TB, path string, data []byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
}

func removeGenerated(b *testing.B, pkgDir string) {
	for _, p := range []string{generator.GoFile, generator.SchemaDir} {
		if err := os.RemoveAll(filepath.Join(pkgDir, p)); err != nil {
			b.Fatal(err)
		}
	}
}

// reportGenerated reports the size of the generated files.
func reportGenerated(b *testing.B, pkgDir string) {
	var goBytes, schemaBytes, schemaFiles int64
	if fi, err := os.Stat(filepath.Join(pkgDir, generator.GoFile)); err == nil {
		goBytes = fi.Size()
	}
	entries, _ := os.ReadDir(filepath.Join(pkgDir, generator.SchemaDir))
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			schemaBytes += fi.Size()
			schemaFiles++
		}
	}
	b.ReportMetric(float64(goBytes)/1e6, "MB_go")
	b.ReportMetric(float64(schemaBytes)/1e6, "MB_schemas")
	b.ReportMetric(float64(schemaFiles), "schema_files")
}

func run(b *testing.B, dir, name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}
