package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the cmp sections of testdata/script/*.txtar that fail")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"toolgen": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI scripts of testdata/script. Each script runs in a module
// example.com/app that requires this repository through a replace directive (unless
// the script has its own go.mod), with the host's build and module caches and no
// network.
func TestScripts(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/app\n\ngo 1.26\n\nrequire github.com/toolgen/toolgen v0.0.0\n\nreplace github.com/toolgen/toolgen => " + root + "\n"
	env := goEnv(t)
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join(root, "testdata", "script"),
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(e *testscript.Env) error {
			e.Vars = append(e.Vars, env...)
			if _, err := os.Stat(filepath.Join(e.WorkDir, "go.mod")); err == nil {
				return nil
			}
			if err := os.WriteFile(filepath.Join(e.WorkDir, "go.mod"), []byte(gomod), 0o666); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(e.WorkDir, "go.sum"), gosum, 0o666)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode": cmdExitcode,
			"mtimes":   cmdMtimes,
			"backdate": cmdBackdate,
			"replace":  cmdReplace,
		},
	})
}

// goEnv returns the environment the scripts' go commands need. testscript sets HOME
// to /no-home, so what the go command would derive from HOME (GOPATH, GOMODCACHE,
// GOCACHE, and the settings of the go env file) is taken from the host here.
func goEnv(t *testing.T) []string {
	names := []string{"GOPATH", "GOMODCACHE", "GOCACHE"}
	out, err := exec.Command("go", append([]string{"env", "-json"}, names...)...).Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	var host map[string]string
	if err := json.Unmarshal(out, &host); err != nil {
		t.Fatalf("go env: %v", err)
	}
	var env []string
	for _, name := range names {
		v := os.Getenv(name)
		if v == "" {
			v = host[name]
		}
		env = append(env, name+"="+v)
	}
	// Settings that do not depend on HOME and that the host may have set.
	for _, name := range []string{"CGO_ENABLED", "GOEXPERIMENT", "GOROOT"} {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	return append(env,
		"GOFLAGS=-mod=mod",
		"GOPROXY=off", // the module cache has everything; never touch the network
		"GOWORK=off",
		"GOTOOLCHAIN=local",
	)
}

// cmdExitcode runs a program and checks its exit status, which `exec` cannot see:
//
//	exitcode CODE PROGRAM [ARGS...]
//
// Its standard output and error are then available to stdout, stderr and cmp.
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: bad code %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// cmdMtimes prints the files given, and every file under the directories given
// (default: the current directory) but for dot directories and go.mod/go.sum, each
// with its modification time, one per line, sorted:
//
//	mtimes [FILE|DIR...]
func cmdMtimes(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! mtimes")
	}
	files := walkFiles(ts, args)
	var buf bytes.Buffer
	for _, f := range files {
		info, err := os.Stat(ts.MkAbs(f))
		ts.Check(err)
		fmt.Fprintf(&buf, "%s %s\n", f, info.ModTime().UTC().Format(time.RFC3339Nano))
	}
	ts.Stdout().Write(buf.Bytes())
}

// oldTime is what backdate sets: long before any script runs, so that a file
// written again afterwards always shows a different time.
var oldTime = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)

// cmdBackdate sets the modification time of the files mtimes would list to
// 2001-02-03T04:05:06Z:
//
//	backdate [FILE|DIR...]
func cmdBackdate(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! backdate")
	}
	for _, f := range walkFiles(ts, args) {
		ts.Check(os.Chtimes(ts.MkAbs(f), oldTime, oldTime))
	}
}

// walkFiles lists the files mtimes and backdate work on, relative to the current
// directory, with forward slashes.
func walkFiles(ts *testscript.TestScript, dirs []string) []string {
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	base := ts.MkAbs(".")
	var files []string
	for _, d := range dirs {
		err := filepath.WalkDir(ts.MkAbs(d), func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := e.Name()
			if e.IsDir() {
				if strings.HasPrefix(name, ".") && path != ts.MkAbs(d) {
					return filepath.SkipDir
				}
				return nil
			}
			if name == "go.mod" || name == "go.sum" {
				return nil
			}
			rel, err := filepath.Rel(base, path)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
			return nil
		})
		ts.Check(err)
	}
	slices.Sort(files)
	return files
}

// cmdReplace replaces text in a file, and fails unless it occurs exactly once:
//
//	replace FILE OLD NEW
func cmdReplace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace FILE OLD NEW")
	}
	file, old, new := ts.MkAbs(args[0]), args[1], args[2]
	data, err := os.ReadFile(file)
	ts.Check(err)
	if n := strings.Count(string(data), old); n != 1 {
		ts.Fatalf("replace: %q occurs %d times in %s, want once", old, n, args[0])
	}
	ts.Check(os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o666))
}

// TestExitCodes checks the exit statuses the scripts cannot see through exec.
func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"--nope"}, exitUsage, "toolgen: unknown flag: --nope\nRun 'toolgen --help' for usage.\n"},
		{[]string{"generate", "--nope"}, exitUsage, "toolgen: unknown flag: --nope\nRun 'toolgen --help' for usage.\n"},
		{[]string{"check", "-x"}, exitUsage, "toolgen: unknown shorthand flag: 'x' in -x\nRun 'toolgen --help' for usage.\n"},
		{[]string{"generate", "-tags"}, exitUsage, "toolgen: flag needs an argument: --tags\nRun 'toolgen --help' for usage.\n"},
		{[]string{"generate", "-strict=maybe"}, exitUsage, "toolgen: invalid argument \"maybe\" for \"--strict\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax\nRun 'toolgen --help' for usage.\n"},
		{[]string{"list", "-v"}, exitUsage, "toolgen: unknown shorthand flag: 'v' in -v\nRun 'toolgen --help' for usage.\n"},
		{[]string{"frob"}, exitUsage, "toolgen: unknown command \"frob\" for \"toolgen\"\nRun 'toolgen --help' for usage.\n"},
		{[]string{"version", "extra"}, exitUsage, "toolgen: unknown command \"extra\" for \"toolgen version\"\nRun 'toolgen --help' for usage.\n"},
		{[]string{"version"}, exitOK, ""},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tc.args, &stdout, &stderr); code != tc.code {
			t.Errorf("run(%q) = %d, want %d (stderr %q)", tc.args, code, tc.code, stderr.String())
		}
		if stderr.String() != tc.stderr {
			t.Errorf("run(%q) wrote to stderr\n%s\nwant\n%s", tc.args, stderr.String(), tc.stderr)
		}
	}
}

// TestGoFlagSpelling checks that the long flags take one dash or two, as the go
// command's flags do, and that arguments after -- are left alone.
func TestGoFlagSpelling(t *testing.T) {
	got := goFlagSpelling([]string{"generate", "-tags", "a,b", "-tags=c", "--tags", "d", "-v", "-t", "-strict", "-strict=false", "-json", "-jsonx", "--", "-tags"})
	want := []string{"generate", "--tags", "a,b", "--tags=c", "--tags", "d", "-v", "-t", "--strict", "--strict=false", "--json", "-jsonx", "--", "-tags"}
	if !slices.Equal(got, want) {
		t.Errorf("goFlagSpelling = %q, want %q", got, want)
	}
}

// TestModuleVersion checks that version finds toolgen's module whether it is the
// main module (go install) or a dependency (go run from the user's module).
func TestModuleVersion(t *testing.T) {
	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "(devel)"},
		{"installed", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v1.2.3"}}, "v1.2.3"},
		{"main module in development", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}}, "(devel)"},
		{"go run from the user's module", &debug.BuildInfo{
			Main: debug.Module{Path: "example.com/app", Version: "v0.9.0"},
			Deps: []*debug.Module{{Path: "github.com/spf13/cobra", Version: "v1.10.2"}, {Path: modulePath, Version: "v1.2.3"}},
		}, "v1.2.3"},
		{"replaced by another version", &debug.BuildInfo{
			Main: debug.Module{Path: "example.com/app"},
			Deps: []*debug.Module{{Path: modulePath, Version: "v1.2.3", Replace: &debug.Module{Path: "example.com/fork", Version: "v1.2.4"}}},
		}, "v1.2.4"},
		{"replaced by a directory", &debug.BuildInfo{
			Main: debug.Module{Path: "example.com/app"},
			Deps: []*debug.Module{{Path: modulePath, Version: "v0.0.0", Replace: &debug.Module{Path: "../toolgen"}}},
		}, "(devel)"},
		{"not in the build", &debug.BuildInfo{Main: debug.Module{Path: "example.com/app", Version: "v0.9.0"}}, "(devel)"},
	} {
		if got := moduleVersion(tc.info); got != tc.want {
			t.Errorf("%s: moduleVersion = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestCommandName checks the command toolgen's messages name: go tool toolgen for an
// executable where the go command puts the ones it runs (its build cache, its work
// directory), toolgen for any other (installed, or the test's own).
func TestCommandName(t *testing.T) {
	hex := strings.Repeat("0123456789abcdef", 4)
	tests := []struct{ argv0, want string }{
		{"/root/.cache/go-build/3f/" + hex + "-d/toolgen", "go tool toolgen"},
		{`C:\Users\a\AppData\Local\go-build\3f\` + hex + `-d\toolgen.exe`, "go tool toolgen"},
		{"/tmp/go-build1234567/b001/exe/toolgen", "go tool toolgen"},
		{"toolgen", "toolgen"},
		{"/usr/local/bin/toolgen", "toolgen"},
		{"/root/go/bin/toolgen", "toolgen"},
		{"/root/.cache/go-build/3f/" + hex[:63] + "-d/toolgen", "toolgen"},
		{"/root/.cache/go-build/3fx/" + hex + "-d/toolgen", "toolgen"},
		{"/tmp/go-build/b001/exe/toolgen", "toolgen"},
		{"/tmp/go-build12/bin/exe/toolgen", "toolgen"},
		{"/home/a/exe/toolgen", "toolgen"},
		{"", "toolgen"},
	}
	for _, tt := range tests {
		if got := commandName(tt.argv0); got != tt.want {
			t.Errorf("commandName(%q) = %q, want %q", tt.argv0, got, tt.want)
		}
	}
}

// TestCPUProfile checks the hidden -cpuprofile flag: the command runs as without it
// and leaves a profile that runtime/pprof wrote (gzip, as pprof's format is), and a
// file it cannot create is an error, not a profile-less run.
func TestCPUProfile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cpu.prof")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"version", "-cpuprofile", file}, &stdout, &stderr); code != exitOK {
		t.Fatalf("run = %d, stderr %q", code, stderr.String())
	}
	if !strings.HasPrefix(stdout.String(), "toolgen ") {
		t.Errorf("stdout %q, want the version", stdout.String())
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Errorf("profile starts %q, want gzip", data[:min(len(data), 2)])
	}
	stderr.Reset()
	bad := filepath.Join(t.TempDir(), "missing", "cpu.prof")
	if code := run([]string{"version", "--cpuprofile=" + bad}, &stdout, &stderr); code != exitFail || !strings.Contains(stderr.String(), "cpu profile") {
		t.Errorf("run with %s = %d, stderr %q; want %d and the error", bad, code, stderr.String(), exitFail)
	}
}

// TestSetGC checks the garbage collector's target: gcPercent when GOGC is not set,
// the runtime's own (GOGC's) when it is, even set empty.
func TestSetGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	if got := setGC(func(string) (string, bool) { return "", false }); got != gcPercent {
		t.Errorf("setGC without GOGC = %d, want %d", got, gcPercent)
	}
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("GC percent after setGC without GOGC = %d, want %d", got, gcPercent)
	}
	for _, v := range []string{"50", "off", ""} {
		lookup := func(k string) (string, bool) { return v, k == "GOGC" }
		if got := setGC(lookup); got != -1 {
			t.Errorf("setGC with GOGC=%q = %d, want -1", v, got)
		}
		if got := debug.SetGCPercent(100); got != 100 {
			t.Errorf("GC percent after setGC with GOGC=%q = %d, want 100 (left alone)", v, got)
		}
	}
}
