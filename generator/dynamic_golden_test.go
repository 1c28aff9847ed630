package generator

import (
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/model"
)

// TestGoldenDynamicDifferential runs the golden tools both ways: each parser golden
// case's sources, with everything generated for them, go into a module, beside a test
// that calls every tool through its generated Toolset and as runtime.NewTool builds it
// from the tool's InputSchema, on the structural cases and a matrix of values for each
// property. Both must agree on accept/reject and on the model's text of a rejection.
// (internal/difftest does the same, with the values and each Go type's reasons, for the
// examples and the conformance tools, which this module builds.)
func TestGoldenDynamicDifferential(t *testing.T) {
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
			tests := 0
			for _, pkg := range c.pkgs {
				files, _, err := Generate(pkg)
				if err != nil {
					t.Fatalf("Generate(%s): %v", pkg.Path, err)
				}
				for _, f := range files {
					p := filepath.Join(dir, filepath.FromSlash(path.Join(pkg.Dir, f.Path)))
					write(t, p, f.Data)
					if f.Path == GoFile {
						if test, ok := dynamicTest(f.Data, goTyped(pkg)); ok {
							write(t, filepath.Join(filepath.Dir(p), "toolgen_dynamic_test.go"), test)
							tests++
						}
					}
				}
			}
			if tests == 0 {
				t.Skip("no tools")
			}
			args := []string{"test", "-count=1", "-v", "-run", "TestToolgenDynamic"}
			for line := range strings.Lines(string(c.archive.Comment)) {
				if tags, ok := strings.CutPrefix(line, "tags:"); ok {
					args = append(args, "-tags="+strings.Join(strings.Fields(tags), ","))
				}
			}
			cmd := exec.Command("go", append(args, "./...")...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the dynamic differential test: %v\n%s", err, out)
			}
			for line := range strings.Lines(string(out)) {
				if strings.Contains(line, "toolgen_dynamic_test.go") {
					t.Log(strings.TrimSpace(line))
				}
			}
		})
	}
}

var (
	packageClause = regexp.MustCompile(`(?m)^package (\w+)`)
	setFunc       = regexp.MustCompile(`(?m)^func (\w+)\(\) \*\w+\.Toolset`)
	recvSetFunc   = regexp.MustCompile(`(?m)^func (\w+)\(recv \*(\w+)\) \*\w+\.Toolset`)
)

// goTyped returns, per tool, the top-level properties whose Go type the canonical
// schema does not say, so that a dynamic tool reads them otherwise (internal/difftest
// lists why): a float32, a TextUnmarshaler, a Go array, a json.RawMessage, a string
// with format date-time, a time.Time with a layout, an unsigned integer (its signedness
// is a guess from its bounds, which an enum or a const leave out), a signed one with
// minimum 0, a narrow one with an enum or a const; and lists, maps and pointers of them.
// So are the properties with a check that no schema keyword says (validate's required
// on a number, a duration or a time: NotZero; its unique on a map), which a dynamic
// tool cannot know.
func goTyped(pkg *model.Package) map[string][]string {
	var typed func(t *model.Type, c *model.Constraints, depth int) bool
	typed = func(t *model.Type, c *model.Constraints, depth int) bool {
		if depth > 8 {
			return false
		}
		enum := c.Const != "" || len(c.Enum) > 0
		if t.Kind == model.Named {
			nt := pkg.Type(t.Ref)
			if nt == nil || nt.Underlying == nil {
				return false
			}
			t, enum = nt.Underlying, enum || len(nt.Enum) > 0
		}
		switch t.Kind {
		case model.Float:
			return t.Bits == 32
		case model.Text, model.Array, model.Raw:
			return true
		case model.String:
			return c.Format == "date-time"
		case model.Time:
			// A layout's schema is a string with a pattern; time.Parse reads the value.
			return c.Layout != ""
		case model.Uint:
			return true
		case model.Int:
			// With an enum or a const, the schema leaves out the range of a narrow type.
			return c.Minimum == "0" || enum && t.Bits > 0 && t.Bits < 64
		case model.Pointer, model.Slice, model.Map:
			return typed(t.Elem, c, depth+1)
		}
		return false
	}
	out := map[string][]string{}
	for _, tool := range pkg.Tools {
		fields := tool.Input.Params
		if tool.Input.Kind == model.InputStruct {
			fields = structFields(pkg, tool.Input.Type)
		}
		for _, f := range fields {
			if typed(f.Type, &f.Constraints, 0) || unsaid(pkg, f) {
				out[tool.Name] = append(out[tool.Name], f.Name)
			}
		}
	}
	return out
}

// unsaid reports whether a property has a check that its schema does not say.
func unsaid(pkg *model.Package, f *model.Field) bool {
	if f.Constraints.NotZero {
		return true
	}
	t := f.Type
	for range 8 {
		switch {
		case t.Kind == model.Pointer:
			t = t.Elem
		case t.Kind == model.Named && pkg.Type(t.Ref) != nil:
			t = pkg.Type(t.Ref).Underlying
		default:
			return t.Kind == model.Map && f.Constraints.UniqueItems
		}
	}
	return false
}

// dynamicTest returns the test that compares a generated file's tools with their
// dynamic twins, in the file's package; goTyped names the properties whose
// violations are not compared.
func dynamicTest(gen []byte, goTyped map[string][]string) ([]byte, bool) {
	name := packageClause.FindSubmatch(gen)
	if name == nil {
		return nil, false
	}
	var sets []string
	for _, m := range setFunc.FindAllSubmatch(gen, -1) {
		sets = append(sets, string(m[1])+"()")
	}
	for _, m := range recvSetFunc.FindAllSubmatch(gen, -1) {
		sets = append(sets, string(m[1])+"(new("+string(m[2])+"))")
	}
	if len(sets) == 0 {
		return nil, false
	}
	excused, _ := json.Marshal(goTyped)
	src := strings.NewReplacer("PKG", string(name[1]), "SETS", strings.Join(sets, ", "), "EXCUSED", strconv.Quote(string(excused))).Replace(dynamicTestSource)
	return []byte(src), true
}

// dynamicTestSource is the test written into each golden package. Its imports are
// renamed: the packages may declare runtime, json, context or testing themselves.
const dynamicTestSource = `package PKG

import (
	tgcontext "context"
	tgjson "encoding/json"
	tgerrors "errors"
	tgslices "slices"
	tgstrings "strings"
	tgtesting "testing"
	tgtime "time"

	tgruntime "github.com/toolgen/toolgen/runtime"
	tginvalid "github.com/toolgen/toolgen/runtime/invalid"
)

// toolgenExcused holds, per tool, the properties whose Go type the schema does not say.
const toolgenExcused = EXCUSED

// toolgenKept returns the violations of a result outside the excused properties, and
// whether any was left out.
func toolgenKept(r *tgruntime.Result, excused []string) ([]string, bool) {
	var ae *tginvalid.ArgumentError
	if !tgerrors.As(r.Err, &ae) {
		return nil, false
	}
	var kept []string
	dropped := false
	for _, v := range ae.Violations {
		if tgslices.ContainsFunc(excused, func(p string) bool { return v.Path == "/"+p || tgstrings.HasPrefix(v.Path, "/"+p+"/") }) {
			dropped = true
			continue
		}
		kept = append(kept, v.String())
	}
	return kept, dropped
}

var toolgenDynamicValues = []string{
	"null", "true", "false", "0", "-0", "1", "-1", "2.0", "1e1", "1.5", "-128", "255", "256", "65536",
	"4294967296", "9223372036854775807", "9223372036854775808", "1e39", "1e400", "0.1", "100", "\"\"", "\"x\"",
	"\"2026-11-30T12:00:00Z\"", "\"2026-11-30\"", "\"1h30m\"", "\"aGk=\"", "\"{}\"", "\"[]\"", "[]", "[1]", "[1,2]",
	"[\"a\",\"a\"]", "[null]", "[{}]", "{}", "{\"a\":1}", "{\"a\":1,\"a\":2}", "{\"name\":\"n\"}",
	// Tagged unions (the unions case's "kind" and "type"): the tag anywhere, missing,
	// of no variant, not a string, repeated; a variant's own violations; in lists and maps.
	"{\"kind\":\"card\",\"number\":\"1\"}", "{\"number\":1,\"kind\":\"card\",\"x\":2}", "{\"kind\":\"bank\"}",
	"{\"kind\":\"nope\"}", "{\"kind\":1}", "{\"kind\":\"card\",\"kind\":\"bank\",\"number\":\"1\"}", "{\"iban\":\"x\"}",
	"{\"type\":\"circle\",\"radius\":\"r\"}", "{\"radius\":1,\"type\":\"circle\"}", "{\"k\":{\"type\":\"circle\"}}",
	"[{\"kind\":\"bank\",\"iban\":\"x\"},{\"kind\":\"x\"},{\"iban\":2}]", "{\"kind\":\"card\",\"number\":{\"kind\":\"bank\"}",
}

func TestToolgenDynamic(t *tgtesting.T) {
	ctx := tgcontext.Background()
	var excused map[string][]string
	if err := tgjson.Unmarshal([]byte(toolgenExcused), &excused); err != nil {
		t.Fatal(err)
	}
	differ := 0
	for _, ts := range []*tgruntime.Toolset{SETS} {
		ts = ts.WithTimeout(200 * tgtime.Millisecond)
		for _, tool := range ts.Tools() {
			dyn, err := tgruntime.NewTool(*tool, func(_ tgcontext.Context, args tgjson.RawMessage) (*tgruntime.Result, error) {
				return tgruntime.TextResult(string(args)), nil
			})
			if err != nil {
				t.Errorf("%s: %v", tool.Name, err)
				continue
			}
			var s struct {
				Properties map[string]tgjson.RawMessage ` + "`json:\"properties\"`" + `
			}
			_ = tgjson.Unmarshal(tool.InputSchema, &s)
			cases := []string{"", "{}", "null", "[]", "\"{}\"", "{\"zz\":1}", "{\"a\":1,\"a\":2}", "{", "1"}
			for p := range s.Properties {
				key, _ := tgjson.Marshal(p)
				for _, v := range toolgenDynamicValues {
					cases = append(cases, "{"+string(key)+":"+v+"}")
				}
			}
			for _, args := range cases {
				g := ts.Call(ctx, tool.Name, []byte(args))
				d := dyn.Call(ctx, tool.Name, []byte(args))
				gb, db := g.Outcome == tgruntime.OutcomeInvalidArguments, d.Outcome == tgruntime.OutcomeInvalidArguments
				if gb != db || gb && g.Text() != d.Text() {
					gk, gd := toolgenKept(g, excused[tool.Name])
					dk, dd := toolgenKept(d, excused[tool.Name])
					if (gd || dd) && tgslices.Equal(gk, dk) && (gb && db || len(gk) == 0) {
						differ++
						continue
					}
					t.Errorf("%s %q:\n  generated: %s %s\n  dynamic:   %s %s", tool.Name, args, g.Outcome, g.Text(), d.Outcome, d.Text())
				}
			}
			t.Logf("%s: %d cases", tool.Name, len(cases))
		}
	}
	t.Logf("%d cases differ only in properties whose Go type the schema does not say", differ)
}
`
