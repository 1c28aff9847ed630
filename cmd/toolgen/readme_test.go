package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// readmeBlock is a fenced code block of README.md.
type readmeBlock struct {
	// info is the block's info string: "sh", "go file=tools.go", "text", "".
	info string
	// text is the block's content, with its final newline.
	text string
	// line is the line of the opening fence, from 1.
	line int
}

// file returns the file name of a block marked as a file ("go file=NAME"), or "".
func (b readmeBlock) file() string {
	for _, f := range strings.Fields(b.info) {
		if name, ok := strings.CutPrefix(f, "file="); ok {
			return name
		}
	}
	return ""
}

// readme holds README.md's blocks.
type readme struct {
	blocks []readmeBlock
}

// readREADME reads the fenced blocks of the README at the repository's root.
func readREADME(t *testing.T, root string) *readme {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	r := &readme{}
	var cur *readmeBlock
	for i, line := range strings.SplitAfter(string(src), "\n") {
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &readmeBlock{info: strings.TrimSpace(strings.TrimPrefix(line, "```")), line: i + 1}
		case cur != nil && strings.TrimSpace(line) == "```":
			r.blocks = append(r.blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += line
		}
	}
	if cur != nil {
		t.Fatalf("README.md:%d: a fence that never closes", cur.line)
	}
	return r
}

// commands returns the commands of the README's sh blocks, in order, a line continued
// with a backslash joined to the next.
func (r *readme) commands() []string {
	var out []string
	for _, b := range r.blocks {
		if b.info != "sh" {
			continue
		}
		for _, c := range strings.Split(strings.ReplaceAll(b.text, "\\\n", ""), "\n") {
			if c = strings.TrimSpace(c); c != "" {
				out = append(out, c)
			}
		}
	}
	return out
}

// command returns the README's command that starts with prefix; the test fails when
// there is none.
func (r *readme) command(t *testing.T, prefix string) string {
	t.Helper()
	for _, c := range r.commands() {
		if strings.HasPrefix(c, prefix) {
			return c
		}
	}
	t.Fatalf("README.md has no command %s...", prefix)
	return ""
}

// fileBlock returns the README's block marked as the file name.
func (r *readme) fileBlock(t *testing.T, name string) string {
	t.Helper()
	for _, b := range r.blocks {
		if b.file() == name {
			return b.text
		}
	}
	t.Fatalf("README.md has no go block marked file=%s", name)
	return ""
}

// outputAfter returns the text block that follows the sh block holding command: what
// the README says the command prints.
func (r *readme) outputAfter(t *testing.T, command string) string {
	t.Helper()
	for i, b := range r.blocks {
		if b.info == "sh" && slices.Contains(strings.Split(b.text, "\n"), command) {
			if i+1 < len(r.blocks) && (r.blocks[i+1].info == "text" || r.blocks[i+1].info == "") {
				return r.blocks[i+1].text
			}
		}
	}
	t.Fatalf("README.md shows no output after %s", command)
	return ""
}

// session runs a user's commands in a directory, with the environment of
// TestUserModule's scripts, and records which of the README's commands it ran.
type session struct {
	t   *testing.T
	dir string
	env []string
	ran map[string]bool
}

// run runs a command with sh, as a user types it, and returns its standard output;
// the test fails when it fails. Every output is checked for the "upgraded ... =>"
// message that a local checkout's placeholder versions would print.
func (s *session) run(command string) string {
	s.t.Helper()
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir, cmd.Env = s.dir, append(os.Environ(), s.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		s.t.Fatalf("in %s: %s: %v\n%s%s", s.dir, command, err, stdout.String(), stderr.String())
	}
	if strings.Contains(stderr.String(), "upgraded") {
		s.t.Errorf("%s says what a user should not need to read:\n%s", command, stderr.String())
	}
	s.ran[command] = true
	return stdout.String()
}

// write writes the README's block of a file into the directory.
func (s *session) write(r *readme, name string) {
	s.t.Helper()
	if err := os.WriteFile(filepath.Join(s.dir, name), []byte(r.fileBlock(s.t, name)), 0o666); err != nil {
		s.t.Fatal(err)
	}
}

// durations matches the timings of the demo's output, which differ from run to run.
var durations = regexp.MustCompile(`\d+(\.\d+)?(ns|µs|ms|s)\b`)

// sameOutput reports whether got prints what the README shows, want: its lines in
// order, timings aside, a line ending in "..." standing for a line that starts as it
// does and a line "..." for any lines.
func sameOutput(want, got string) bool {
	lines := strings.Split(durations.ReplaceAllString(got, "T"), "\n")
	for _, w := range strings.Split(strings.TrimRight(durations.ReplaceAllString(want, "T"), "\n"), "\n") {
		if strings.TrimSpace(w) == "..." {
			continue
		}
		prefix, cut := strings.CutSuffix(w, "...")
		i := slices.IndexFunc(lines, func(l string) bool {
			return l == w || cut && strings.HasPrefix(l, prefix)
		})
		if i < 0 {
			return false
		}
		lines = lines[i+1:]
	}
	return true
}

// testREADME runs every command of the README, in a fresh module of a user's as the
// README's first section says, then from a local checkout with the nested module
// toolopenai and the README's test through openai-go, and this repository's demo; it
// builds every file the README shows and compares what the programs print with what
// the README says they print. A README command none of them runs fails the test.
func testREADME(t *testing.T, root string, env []string) {
	r := readREADME(t, root)
	ran := map[string]bool{}
	newSession := func(t *testing.T, dir string, env []string) *session {
		if err := os.MkdirAll(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		return &session{t: t, dir: dir, env: env, ran: ran}
	}
	const goRun = "go run ."

	t.Run("published", func(t *testing.T) {
		// The module cache as the proxy: go get finds there the latest versions that
		// the root module's and toolopenai's downloads put in it, and finds no
		// toolgen, which the replaces below stand in for.
		cacheProxy := "GOPROXY=file://" + filepath.ToSlash(filepath.Join(envValue(env, "GOMODCACHE"), "cache", "download"))
		s := newSession(t, filepath.Join(t.TempDir(), "weather"), append(slices.Clone(env), cacheProxy))
		s.run(r.command(t, "go mod init "))
		// The stand-in for the published versions, which the module proxy would serve:
		// the checkout's modules, all at one version.
		s.run("go mod edit -replace github.com/toolgen/toolgen=" + root + " -require github.com/toolgen/toolgen@v0.0.0" +
			" -replace github.com/toolgen/toolgen/toolopenai=" + filepath.Join(root, "toolopenai"))
		s.run(r.command(t, "go get -tool "))
		s.write(r, "tools.go")
		s.write(r, "main.go")
		s.run(r.command(t, "go generate ./..."))
		if got, want := s.run(goRun), r.outputAfter(t, goRun); got != want {
			t.Errorf("go run . printed\n%s\nthe README says\n%s", got, want)
		}
		s.run("go tool toolgen check ./...")
		s.run(r.command(t, "go get github.com/toolgen/toolgen/toolopenai "))
		s.write(r, "weather_test.go")
		// The test compiles against what go get added; the checkout's session runs it.
		s.run("go vet ./...")
	})

	t.Run("checkout", func(t *testing.T) {
		// The checkout beside the module, as the README has it: ../toolgen. go mod
		// tidy records the checksums of what the tests of toolgen's dependencies
		// import, which the module cache may lack: the host's proxy is on, and no
		// command may ask it for toolgen's modules, which it does not know.
		base := t.TempDir()
		if err := os.Symlink(root, filepath.Join(base, "toolgen")); err != nil {
			t.Fatal(err)
		}
		s := newSession(t, filepath.Join(base, "weather"), append(slices.Clone(env), "GOPROXY="+envValue(env, "HOSTGOPROXY")))
		s.run(r.command(t, "go mod init "))
		s.write(r, "tools.go")
		s.write(r, "main.go")
		s.write(r, "weather_test.go")
		s.run(r.command(t, "go mod edit -replace github.com/toolgen/toolgen=../toolgen "))
		s.run(r.command(t, "go generate ./..."))
		if got, want := s.run(goRun), r.outputAfter(t, goRun); got != want {
			t.Errorf("go run . printed\n%s\nthe README says\n%s", got, want)
		}
		s.run(r.command(t, "go test ./..."))
		// go.mod names the checkout's modules at v0.0.0, through replaces, and the
		// SDK the test imports as a direct requirement.
		mod, err := os.ReadFile(filepath.Join(s.dir, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			`(?m)^replace github.com/toolgen/toolgen => ../toolgen$`,
			`(?m)^replace github.com/toolgen/toolgen/toolopenai => ../toolgen/toolopenai$`,
			`(?m)^(require |\t)github.com/toolgen/toolgen v0.0.0$`,
			`(?m)^(require |\t)github.com/toolgen/toolgen/toolopenai v0.0.0$`,
			`(?m)^(require |\t)github.com/openai/openai-go/v3 v\S+$`,
			`(?m)^tool github.com/toolgen/toolgen/cmd/toolgen$`,
		} {
			if !regexp.MustCompile(want).Match(mod) {
				t.Errorf("go.mod has no line %s:\n%s", want, mod)
			}
		}
	})

	t.Run("demo", func(t *testing.T) {
		s := newSession(t, root, nil)
		demo := r.command(t, "go generate ./examples/")
		if got, want := s.run(demo), r.outputAfter(t, demo); !sameOutput(want, got) {
			t.Errorf("%s printed\n%s\nthe README shows\n%s", demo, got, want)
		}
	})

	for _, c := range r.commands() {
		if !ran[c] {
			t.Errorf("no test runs the README's command %s", c)
		}
	}
	for _, b := range r.blocks {
		if strings.HasPrefix(b.info, "go") && b.file() == "" {
			t.Errorf("README.md:%d: a go block that is not a file (mark it file=NAME, and build it here)", b.line)
		}
	}
}

// envValue returns the value of a variable of an environment, "" when it has none.
func envValue(env []string, name string) string {
	v := ""
	for _, e := range env {
		if s, ok := strings.CutPrefix(e, name+"="); ok {
			v = s
		}
	}
	return v
}
