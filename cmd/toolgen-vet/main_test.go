package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVettool builds toolgen-vet and runs it the two ways docs/ci.md shows: under go
// vet -vettool, which reports, and on its own with -fix, which applies the fixes.
func TestVettool(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs the go command")
	}
	bin := filepath.Join(t.TempDir(), "toolgen-vet")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	src := "package m\n\n// Ping answers.\n//\n//toolgen:tool redonly\nfunc Ping() string { return \"pong\" }\n"
	for name, data := range map[string]string{"go.mod": "module example.com/m\n\ngo 1.26\n", "a.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOPROXY=off")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	out, err := run("go", "vet", "-vettool="+bin, "./...")
	if err == nil {
		t.Fatalf("go vet passed:\n%s", out)
	}
	if want := `a.go:5:16: unknown option "redonly" (did you mean "readonly"?)`; !strings.Contains(out, want) {
		t.Fatalf("go vet output lacks %q:\n%s", want, out)
	}

	if out, err := run(bin, "-fix", "./..."); err != nil {
		t.Fatalf("toolgen-vet -fix: %v\n%s", err, out)
	}
	got, err := os.ReadFile(filepath.Join(dir, "a.go"))
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(src, "redonly", "readonly", 1); string(got) != want {
		t.Fatalf("after -fix:\n%s\nwant\n%s", got, want)
	}
	if out, err := run("go", "vet", "-vettool="+bin, "./..."); err != nil {
		t.Fatalf("go vet after the fix: %v\n%s", err, out)
	}
}

// TestVettoolErrorsOnly runs go vet -vettool with -warnings=false, the CI gate for a
// package whose warnings are not all mended: a package with warnings alone passes,
// and one with an error fails on the error, its warnings left out.
func TestVettoolErrorsOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs the go command")
	}
	bin := filepath.Join(t.TempDir(), "toolgen-vet")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	// Ping has no description and states neither readonly nor destructive: warnings.
	src := "package m\n\n//toolgen:tool\nfunc Ping() string { return \"pong\" }\n"
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.26\n")
	write("a.go", src)
	vet := func(args ...string) (string, error) {
		cmd := exec.Command("go", append([]string{"vet", "-vettool=" + bin}, append(args, "./...")...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOPROXY=off")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	out, err := vet()
	if err == nil || !strings.Contains(out, "a.go:4:6: warning: tool ping: no description") {
		t.Fatalf("go vet: %v, want the warnings:\n%s", err, out)
	}
	if out, err := vet("-warnings=false"); err != nil || out != "" {
		t.Fatalf("go vet -warnings=false on warnings alone: %v, output:\n%s", err, out)
	}

	write("a.go", strings.Replace(src, "//toolgen:tool", "//toolgen:tool redonly", 1))
	out, err = vet("-warnings=false")
	if err == nil {
		t.Fatalf("go vet -warnings=false passed an error:\n%s", out)
	}
	if want := `a.go:3:16: unknown option "redonly" (did you mean "readonly"?)`; !strings.Contains(out, want) {
		t.Fatalf("go vet -warnings=false output lacks %q:\n%s", want, out)
	}
	if strings.Contains(out, "warning:") {
		t.Fatalf("go vet -warnings=false reported a warning:\n%s", out)
	}
}
