package generator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	toolparser "github.com/toolgen/toolgen/parser"
)

// TestTableCallsPerTool checks the dispatch of a table-driven package: one small
// function per tool, which a switch of returns picks, and no closure of its own per
// tool (toolimpl.Calls makes the calls to run), so that the compiler compiles small
// functions in parallel rather than one switch of a case per tool, whose time grows
// faster than the number of tools.
func TestTableCallsPerTool(t *testing.T) {
	pkg := manyTools(TableMinTools)
	src := goFile(t, pkg, Options{})
	file, err := parser.ParseFile(token.NewFileSet(), GoFile, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]*ast.FuncDecl{}
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			funcs[fd.Name.Name] = fd
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			t.Errorf("a closure at offset %d: the tools' calls to run are toolimpl.Calls's", n.Pos())
		}
		return true
	})
	pick := funcs["toolgenCall"]
	if pick == nil {
		t.Fatal("no toolgenCall")
	}
	var cases int
	ast.Inspect(pick.Body, func(n ast.Node) bool {
		cc, ok := n.(*ast.CaseClause)
		if !ok {
			return true
		}
		cases++
		if len(cc.Body) != 1 {
			t.Fatalf("toolgenCall: a case of %d statements, want one return", len(cc.Body))
		}
		ret, ok := cc.Body[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 2 {
			t.Fatalf("toolgenCall: a case does not return a function and a table")
		}
		return false
	})
	if cases != len(pkg.Tools) {
		t.Errorf("toolgenCall has %d cases, want %d", cases, len(pkg.Tools))
	}
	for i := range pkg.Tools {
		name := "toolgenCall" + strconv.Itoa(i)
		fd := funcs[name]
		if fd == nil {
			t.Fatalf("no %s", name)
		}
		if n := len(fd.Body.List); n > 4 {
			t.Errorf("%s has %d statements", name, n)
		}
	}
	if funcs["toolgenDispatch"] != nil {
		t.Error("a table-driven package still declares toolgenDispatch")
	}
}

// callsSource is a package whose tools take every kind of input (none, a struct, a
// pointer to one, parameters, a receiver), return every kind of output, and panic or
// end their goroutine, for TestTableCallsRun.
const callsSource = `package calls

import (
	"context"
	"errors"
	goruntime "runtime"
)

// Args are the arguments of echo.
type Args struct {
	// Text is what to echo.
	Text string ` + "`json:\"text\" tool:\"minLength=1\"`" + `
	// Times is how many times.
	Times int ` + "`json:\"times,omitempty\" tool:\"minimum=1,maximum=3,default=1\"`" + `
}

// Echo echoes a text.
//
//toolgen:tool name=echo
func Echo(a Args) string { return repeat(a.Text, a.Times) }

// EchoPtr echoes a text, or fails on "fail".
//
//toolgen:tool name=echo_ptr
func EchoPtr(ctx context.Context, a *Args) (string, error) {
	if ctx == nil {
		return "", errors.New("no context")
	}
	if a.Text == "fail" {
		return "", errors.New("it failed")
	}
	return repeat(a.Text, a.Times), nil
}

// Add adds two numbers.
//
//toolgen:tool name=add
//toolgen:param a desc="The first." maximum=100
//toolgen:param b desc="The second."
func Add(a, b int) int { return a + b }

// Ping does nothing.
//
//toolgen:tool name=ping
func Ping(ctx context.Context) error { return nil }

// Boom panics.
//
//toolgen:tool name=boom
func Boom() string { panic("boom") }

// Quit ends its goroutine.
//
//toolgen:tool name=quit
func Quit() string {
	goruntime.Goexit()
	return ""
}

// Count counts the package's tools: a tool that calls the constructor, which an
// array of the tools' functions would make an initialization cycle of.
//
//toolgen:tool name=count
func Count() int { return len(Tools().Tools()) }

// Counter counts.
type Counter struct{ n int }

// Inc adds to the count.
//
//toolgen:tool name=inc
//toolgen:param by desc="What to add." minimum=1
func (c *Counter) Inc(by int) int {
	c.n += by
	return c.n
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}
`

// callsTest calls the tools of callsSource through Toolset.Call, inline (the tool run
// at once by its toolimpl.Call) and not (the call to run made by toolimpl.Calls).
const callsTest = `package calls

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

func TestCalls(t *testing.T) {
	ctx := context.Background()
	c := &Counter{}
	for _, inline := range []bool{false, true} {
		for _, ts := range []*runtime.Toolset{Tools().WithInlineCalls(inline), Tools().WithInlineCalls(inline).WithTimeout(time.Minute)} {
			for _, tc := range []struct{ tool, args, want string; fail bool }{
				{"echo", ` + "`" + `{"text":"ab","times":2}` + "`" + `, "abab", false},
				{"echo", ` + "`" + `{"text":"ab"}` + "`" + `, "ab", false},
				{"echo", ` + "`" + `{"text":""}` + "`" + `, "at least 1", true},
				{"echo_ptr", ` + "`" + `{"text":"x","times":3}` + "`" + `, "xxx", false},
				{"echo_ptr", ` + "`" + `{"text":"fail"}` + "`" + `, "echo_ptr failed", true},
				{"add", ` + "`" + `{"a":2,"b":3}` + "`" + `, "5", false},
				{"add", ` + "`" + `{"a":200,"b":3}` + "`" + `, "at most 100", true},
				{"ping", ` + "``" + `, "ok", false},
				{"ping", ` + "`" + `{"x":1}` + "`" + `, "x", true},
				{"boom", ` + "`" + `{}` + "`" + `, "boom failed with an internal error", true},
				{"quit", ` + "`" + `{}` + "`" + `, "quit failed with an internal error", true},
				{"count", ` + "`" + `{}` + "`" + `, "7", false},
			} {
				if tc.tool == "quit" && inline {
					continue // a Goexit run inline ends the caller's goroutine, as documented
				}
				r := ts.Call(ctx, tc.tool, []byte(tc.args))
				if r.IsError != tc.fail || !strings.Contains(r.Text(), tc.want) {
					t.Errorf("inline %v: %s(%s) = %q (error %v), want %q (error %v)", inline, tc.tool, tc.args, r.Text(), r.IsError, tc.want, tc.fail)
				}
			}
		}
		ts := CounterTools(c).WithInlineCalls(inline)
		if r := ts.Call(ctx, "inc", []byte(` + "`" + `{"by":2}` + "`" + `)); r.IsError || r.Text() != ` + "`" + `{"result":2}` + "`" + ` {
			t.Errorf("inline %v: inc = %q", inline, r.Text())
		}
		if r := ts.Call(ctx, "inc", []byte(` + "`" + `{"by":0}` + "`" + `)); !r.IsError {
			t.Errorf("inline %v: inc by 0 = %q", inline, r.Text())
		}
		c.n = 0
	}
}
`

// TestTableCallsRun generates callsSource with table-driven decoders and runs
// callsTest on it: every tool's call, valid and not, inline and on a goroutine of its
// own, the panic and the Goexit included.
func TestTableCallsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	root, gosum := toolgenModule(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), []byte("module example.com/calls\n\ngo 1.26\n\nrequire github.com/toolgen/toolgen v0.0.0\n\nreplace github.com/toolgen/toolgen => "+root+"\n"))
	write(t, filepath.Join(dir, "go.sum"), gosum)
	write(t, filepath.Join(dir, "calls.go"), []byte(callsSource))
	write(t, filepath.Join(dir, "calls_test.go"), []byte(callsTest))
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOWORK", "off")
	pkgs, err := toolparser.Load(toolparser.Config{Dir: dir}, ".")
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := GenerateWith(pkgs[0], Options{Decoders: DecodersTable})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		write(t, filepath.Join(dir, filepath.FromSlash(path.Clean(f.Path))), f.Data)
		if f.Path == GoFile && !strings.Contains(string(f.Data), "toolimpl.Calls(") {
			t.Fatalf("%s does not dispatch with toolimpl.Calls", GoFile)
		}
		if f.Path == GoFile && (!strings.Contains(string(f.Data), "toolimpl.Text(out)") || strings.Contains(string(f.Data), "runtime.TextResult(")) {
			t.Fatalf("%s: a string result is not made by toolimpl.Text, which is not inlined", GoFile)
		}
	}
	cmd := exec.Command("go", "test", "-count=1", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test on the table-driven package: %v\n%s", err, out)
	}
}
