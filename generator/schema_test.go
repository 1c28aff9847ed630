package generator

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/model"
)

// schemaGoldenDir holds the golden schema files, one directory per case.
const schemaGoldenDir = "../testdata/generator/schema"

// The -update flag rewrites golden files. Another test file of this package may
// register it too: whichever file registers it first, the other reuses it.
var _ = registerUpdateFlag()

// registerUpdateFlag registers -update unless it is already registered.
func registerUpdateFlag() bool {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
	return true
}

// updateGolden reports whether -update was given.
func updateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// TestSchemaGolden compares the schema files of every case with its golden directory.
func TestSchemaGolden(t *testing.T) {
	for _, tc := range schemaCases() {
		t.Run(tc.name, func(t *testing.T) {
			set, err := buildSchemas(tc.pkg())
			if err != nil {
				t.Fatal(err)
			}
			files := set.files()
			dir := filepath.Join(schemaGoldenDir, tc.name)
			// The warnings sit beside toolschema/, in warnings.txt, for review.
			var warnings bytes.Buffer
			for _, w := range set.warnings {
				fmt.Fprintln(&warnings, w)
			}
			warningsFile := filepath.Join(dir, "warnings.txt")
			if updateGolden() {
				if err := os.RemoveAll(dir); err != nil {
					t.Fatal(err)
				}
				if warnings.Len() > 0 {
					write(t, warningsFile, warnings.Bytes())
				}
				for _, f := range files {
					p := filepath.Join(dir, filepath.FromSlash(f.Path))
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, f.Data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			if golden, err := os.ReadFile(warningsFile); (err == nil || warnings.Len() > 0) && string(golden) != warnings.String() {
				t.Errorf("warnings differ from %s (run go test ./generator -run Schema -update):\n--- got\n%s--- want\n%s", warningsFile, warnings.Bytes(), golden)
			}
			var want []string
			err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && p != warningsFile {
					rel, _ := filepath.Rel(dir, p)
					want = append(want, filepath.ToSlash(rel))
				}
				return err
			})
			if err != nil {
				t.Fatalf("%v (run go test ./generator -run Schema -update)", err)
			}
			var got []string
			for _, f := range files {
				got = append(got, f.Path)
				golden, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
				if err != nil {
					t.Errorf("%s: %v", f.Path, err)
					continue
				}
				if !bytes.Equal(f.Data, golden) {
					t.Errorf("%s differs from its golden file:\n--- got\n%s\n--- want\n%s", f.Path, f.Data, golden)
				}
			}
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("files = %q, golden files = %q", got, want)
			}
		})
	}
}

// TestSchemaFiles checks the shape of the files: sorted, indented, one per tool plus
// mcp.json, and the compact schemas equal to the ones in the files.
func TestSchemaFiles(t *testing.T) {
	for _, tc := range schemaCases() {
		pkg := tc.pkg()
		set, err := buildSchemas(pkg)
		if err != nil {
			t.Fatal(err)
		}
		files := set.files()
		if !slices.IsSortedFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) }) {
			t.Errorf("%s: files are not sorted", tc.name)
		}
		if len(files) != len(pkg.Tools)+len(dialects()) {
			t.Errorf("%s: %d files for %d tools", tc.name, len(files), len(pkg.Tools))
		}
		for _, f := range files {
			if !Owned(f.Path) {
				t.Errorf("%s: %s is not a path toolgen owns", tc.name, f.Path)
			}
			switch f.Path {
			case SchemaDir + "/openai.json", SchemaDir + "/openai-responses.json", SchemaDir + "/anthropic.json":
				// The providers' "tools" arrays.
				if !bytes.HasSuffix(f.Data, []byte("]\n")) || !bytes.HasPrefix(f.Data, []byte("[\n  {\n")) {
					t.Errorf("%s: %s is not an indented array with a trailing newline", tc.name, f.Path)
				}
			default:
				if !bytes.HasSuffix(f.Data, []byte("}\n")) || !bytes.HasPrefix(f.Data, []byte("{\n  \"")) {
					t.Errorf("%s: %s is not an indented object with a trailing newline", tc.name, f.Path)
				}
			}
		}
		for _, tool := range pkg.Tools {
			var doc struct {
				InputSchema  json.RawMessage `json:"inputSchema"`
				OutputSchema json.RawMessage `json:"outputSchema"`
			}
			data := fileData(t, files, SchemaDir+"/"+tool.Name+".json")
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			if got, want := set.inputJSON(tool.Name), compact(t, doc.InputSchema); string(got) != want {
				t.Errorf("%s: inputJSON = %s, file has %s", tool.Name, got, want)
			}
			out := set.outputJSON(tool.Name)
			if (out == nil) != !tool.Output.Structured() {
				t.Errorf("%s: outputJSON = %s for output kind %s", tool.Name, out, tool.Output.Kind)
			}
			if doc.OutputSchema != nil {
				if want := compact(t, doc.OutputSchema); string(out) != want {
					t.Errorf("%s: outputJSON = %s, file has %s", tool.Name, out, want)
				}
			}
			if bytes.ContainsAny(set.inputJSON(tool.Name), "\n ") && !strings.Contains(tool.Description, " ") {
				t.Errorf("%s: inputJSON is not compact", tool.Name)
			}
		}
		if set.inputJSON("no_such_tool") != nil || set.outputJSON("no_such_tool") != nil {
			t.Errorf("%s: schemas for an unknown tool", tc.name)
		}
	}
}

// fileData returns the data of the file at path.
func fileData(t *testing.T, files []File, path string) []byte {
	t.Helper()
	for _, f := range files {
		if f.Path == path {
			return f.Data
		}
	}
	t.Fatalf("no file %s", path)
	return nil
}

// compact returns JSON text without white space.
func compact(t *testing.T, data []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestSchemaDeterministic generates every case twice, from two fresh packages (the
// second with its tools in reverse order), and expects identical bytes.
func TestSchemaDeterministic(t *testing.T) {
	for _, tc := range schemaCases() {
		for range 5 {
			a, err := buildSchemas(tc.pkg())
			if err != nil {
				t.Fatal(err)
			}
			pkg := tc.pkg()
			slices.Reverse(pkg.Tools)
			b, err := buildSchemas(pkg)
			if err != nil {
				t.Fatal(err)
			}
			fa, fb := a.files(), b.files()
			if len(fa) != len(fb) {
				t.Fatalf("%s: %d files, then %d", tc.name, len(fa), len(fb))
			}
			for i := range fa {
				if fa[i].Path != fb[i].Path || !bytes.Equal(fa[i].Data, fb[i].Data) {
					t.Errorf("%s: %s differs between two runs", tc.name, fa[i].Path)
				}
			}
		}
	}
}

// TestSchemaNoHTMLEscape checks that <, > and & are written as they are.
func TestSchemaNoHTMLEscape(t *testing.T) {
	set, err := buildSchemas(kindsPackage())
	if err != nil {
		t.Fatal(err)
	}
	in := string(set.inputJSON("configure"))
	if !strings.Contains(in, `Use <b>\"new\"</b> & friends instead.`) {
		t.Errorf("description escaped: %s", in)
	}
	if strings.Contains(in, `\u003c`) || strings.Contains(in, `\u0026`) {
		t.Errorf("HTML escapes in %s", in)
	}
}

// TestSchemaDurationPattern checks the duration pattern against time.ParseDuration.
func TestSchemaDurationPattern(t *testing.T) {
	re := regexp.MustCompile(durationPattern)
	for _, s := range []string{
		"0", "-0", "+0", "1h", "1h30m", "90s", "1.5h", ".5s", "1.s", "-1.5ms", "+3us",
		"3µs", "3μs", "2ns", "1h2m3s4ms5us6ns", "00", "0s", "01s", "1e3s", "",
		"1", "-", "+", ".", ".s", "s", "1.5", "1 h", " 1h", "1hh", "1H", "1d", "1h-2m",
		"--1s", "1..5s", "0.0s", "0x10s", "1h.5m",
	} {
		_, err := time.ParseDuration(s)
		if got, want := re.MatchString(s), err == nil; got != want {
			t.Errorf("pattern matches %q: %v, time.ParseDuration accepts it: %v", s, got, want)
		}
	}
}

// FuzzSchemaDurationPattern compares the duration pattern with time.ParseDuration on
// random strings; values out of time.Duration's range are the only allowed difference.
func FuzzSchemaDurationPattern(f *testing.F) {
	for _, s := range []string{"1h30m", "0", ".5s", "1.s", "3µs", "-0", "170000000m"} {
		f.Add(s)
	}
	re := regexp.MustCompile(durationPattern)
	f.Fuzz(func(t *testing.T, s string) {
		_, err := time.ParseDuration(s)
		got, want := re.MatchString(s), err == nil
		if got && !want && durationOverflows(s) {
			return
		}
		if got != want {
			t.Errorf("pattern matches %q: %v, time.ParseDuration accepts it: %v", s, got, want)
		}
	})
}

// durationOverflows reports whether a string the duration pattern matches denotes a
// magnitude of 2^63-2^16 nanoseconds or more, close to or out of time.Duration's range.
func durationOverflows(s string) bool {
	units := map[string]int64{
		"ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9,
	}
	sum := new(big.Rat)
	for _, m := range regexp.MustCompile(`([0-9.]+)(ns|us|µs|μs|ms|s|m|h)`).FindAllStringSubmatch(s, -1) {
		v, ok := new(big.Rat).SetString(m[1])
		if !ok {
			return false
		}
		sum.Add(sum, v.Mul(v, new(big.Rat).SetInt64(units[m[2]])))
	}
	limit := new(big.Rat).SetInt(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 63), big.NewInt(1<<16)))
	return sum.Cmp(limit) >= 0
}

// TestSchemaDefKeys checks the sanitizing and the uniqueness of "$defs" keys.
func TestSchemaDefKeys(t *testing.T) {
	got := defKeys([]string{"Pair[int]", "Pair_int_", "other.Item", "Item", "a b"})
	want := map[string]string{
		"Item": "Item", "other.Item": "other.Item", "Pair[int]": "Pair_int_",
		"Pair_int_": "Pair_int__2", "a b": "a_b",
	}
	for id, key := range want {
		if got[id] != key {
			t.Errorf("defKeys[%q] = %q, want %q", id, got[id], key)
		}
	}
	// Pair[int] sorts before Pair_int_, so it keeps the plain key.
}

// TestSchemaWraps checks which output roots are wrapped in {"result": ...}.
func TestSchemaWraps(t *testing.T) {
	pkg := kindsPackage()
	for _, c := range []struct {
		t    *model.Type
		want bool
	}{
		{tNamed("Item"), false},
		{tStruct(), false},
		{tMap(tString(), tInt(64)), false},
		{tPtr(tNamed("Item")), true},
		{tSlice(tNamed("Item")), true},
		{tArray(2, tInt(8)), true},
		{tNamed("Tags"), true},
		{tNamed("Level"), true},
		{tString(), true},
		{tAny(), true},
		{tRaw(), true},
	} {
		if got := wrapsOutput(pkg, c.t); got != c.want {
			t.Errorf("wrapsOutput(%+v) = %v, want %v", c.t, got, c.want)
		}
	}
}

// TestSchemaErrors checks that malformed models are reported, not written.
func TestSchemaErrors(t *testing.T) {
	for _, c := range []struct {
		name   string
		modify func(p *model.Package)
		want   string
	}{
		{"unknown type", func(p *model.Package) {
			p.Tools[0].Input.Params[0].Type = tNamed("Nope")
		}, `tool greet: input schema: /properties/name: unknown named type "Nope"`},
		{"bad default", func(p *model.Package) {
			p.Tools[0].Input.Params[1].Constraints.Default = "one"
		}, `/properties/times: default "one" is not JSON`},
		{"bad bound", func(p *model.Package) {
			p.Tools[0].Input.Params[1].Constraints.Minimum = `"1"`
		}, `minimum "\"1\"" is not a number`},
		{"list keyword on a scalar", func(p *model.Package) {
			p.Tools[0].Input.Params[0].Constraints.MaxItems = ip(2)
		}, "minItems, maxItems and uniqueItems need a slice, array or map"},
		{"duplicate property", func(p *model.Package) {
			p.Tools[0].Input.Params[1].Name = "name"
		}, `two properties are named "name"`},
		{"duplicate tool", func(p *model.Package) {
			p.Tools[1].Name = "greet"
		}, `two tools are named "greet"`},
		{"reserved name", func(p *model.Package) {
			p.Tools[1].Name = "mcp"
		}, `the name "mcp" is reserved for toolschema/mcp.json`},
		{"struct input of another kind", func(p *model.Package) {
			p.Tools[1].Input = model.Input{Kind: model.InputStruct, Type: tString()}
		}, "input: a struct parameter is of kind string"},
		{"missing output type", func(p *model.Package) {
			p.Tools[1].Output = model.Output{Kind: model.OutputValue}
		}, "output schema: missing type"},
		{"unknown kind", func(p *model.Package) {
			p.Tools[0].Input.Params[0].Type = &model.Type{Kind: "chan"}
		}, `unknown type kind "chan"`},
	} {
		pkg := paramsPackage()
		c.modify(pkg)
		_, err := buildSchemas(pkg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}
