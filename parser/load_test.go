package parser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadCompilesDependenciesOnly checks that Load has the go command compile the
// packages the matched package imports, for their export data, and not the matched
// package itself, which it type-checks from source: a compiler run through -toolexec
// logs the packages it compiles.
func TestLoadCompilesDependenciesOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.22\n")
	write("dep/dep.go", "package dep\n\n// Point is a point.\ntype Point struct{ X, Y int }\n")
	write("tools/tools.go", `package tools

import "example.com/m/dep"

// Move moves a point.
//
//toolgen:tool
func Move(p dep.Point) dep.Point { return p }
`)
	log := filepath.Join(dir, "compiled.log")
	write("toolexec.sh", "#!/bin/sh\necho \"$@\" >>"+log+"\nexec \"$@\"\n")
	if err := os.Chmod(filepath.Join(dir, "toolexec.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOFLAGS", "-toolexec="+filepath.Join(dir, "toolexec.sh"))
	t.Setenv("GOCACHE", filepath.Join(dir, "cache"))
	t.Setenv("GOWORK", "off")

	pkgs, err := Load(Config{Dir: dir}, "./tools")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Tools) != 1 || pkgs[0].Tools[0].Name != "move" {
		t.Fatalf("Load = %+v, want package tools with the tool move", pkgs)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var compiled []string
	for _, line := range strings.Split(string(data), "\n") {
		if _, after, ok := strings.Cut(line, " -p "); ok && strings.Contains(line, "/compile ") {
			compiled = append(compiled, strings.Fields(after)[0])
		}
	}
	if !strings.Contains(strings.Join(compiled, " "), "example.com/m/dep") {
		t.Errorf("compiled %q, want example.com/m/dep (its export data)", compiled)
	}
	for _, p := range compiled {
		if p == "example.com/m/tools" {
			t.Errorf("compiled %q: the matched package example.com/m/tools was compiled", compiled)
		}
	}
}

// TestLoadRootThroughDependency checks a matched package imported by another matched
// package only through a package outside the match: its types are the same whichever
// way they are reached (Load falls back to go/packages' own type-checking for it).
func TestLoadRootThroughDependency(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"c/c.go": "package c\n\n// T is a value.\ntype T struct{ X int }\n",
		"b/b.go": "package b\n\nimport \"example.com/m/c\"\n\n// Make makes a T.\nfunc Make() c.T { return c.T{X: 1} }\n",
		"a/a.go": `package a

import (
	"example.com/m/b"
	"example.com/m/c"
)

// Get gets a value.
//
//toolgen:tool
func Get(v c.T) c.T { v = b.Make(); return v }
`,
	} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOWORK", "off")
	pkgs, err := Load(Config{Dir: dir}, "./a", "./c")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 2 || len(pkgs[0].Tools) != 1 {
		t.Fatalf("Load = %+v, want packages a (with the tool get) and c", pkgs)
	}
}
