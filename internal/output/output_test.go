package output

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/generator"
)

// oldTime is set on files before Apply, so that a rewrite always shows.
var oldTime = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)

// writeTree writes files (slash paths relative to root) and backdates them.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, oldTime, oldTime); err != nil {
			t.Fatal(err)
		}
	}
}

// readTree returns every file under root, by slash path relative to root.
func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func mtime(t *testing.T, path string) time.Time {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.ModTime()
}

func files(kv ...string) []generator.File {
	var out []generator.File
	for i := 0; i < len(kv); i += 2 {
		out = append(out, generator.File{Path: kv[i], Data: []byte(kv[i+1])})
	}
	return out
}

// summary renders changes as "op path" lines.
func summary(changes []Change) string {
	var b strings.Builder
	for _, c := range changes {
		b.WriteString(c.Op.String() + " " + c.Path + "\n")
	}
	return b.String()
}

func TestPlan(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"b/toolgen.gen.go":          "package b // same\n",
		"b/toolschema/stale.json":   "{\"old\": true}\n",
		"b/toolschema/orphan.json":  "{\"orphan\": true}\n",
		"b/toolschema/notes.txt":    "not toolgen's\n",
		"b/toolschema/sub/x.json":   "{}\n", // not directly in toolschema: not toolgen's
		"b/other.json":              "{}\n", // not in toolschema: not toolgen's
		"a/toolschema/orphan.json":  "{}\n",
		"a/toolgen.gen.go":          "package a // orphaned\n",
		"c/toolschema/unknown.json": "{}\n",
	})
	changes, err := Plan(root, []Dir{
		{Path: "b", Files: files(
			"toolgen.gen.go", "package b // same\n",
			"toolschema/missing.json", "{\"new\": true}\n",
			"toolschema/stale.json", "{\"new\": true}\n",
		)},
		{Path: "a"}, // no tools any more
		{Path: "d", Files: files("toolgen.gen.go", "package d\n")}, // directory not on disk yet
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `orphaned a/toolgen.gen.go
orphaned a/toolschema/orphan.json
missing b/toolschema/missing.json
orphaned b/toolschema/orphan.json
stale b/toolschema/stale.json
missing d/toolgen.gen.go
`
	if got := summary(changes); got != want {
		t.Errorf("Plan:\n%s\nwant:\n%s", got, want)
	}
	for _, c := range changes {
		switch c.Path {
		case "b/toolschema/stale.json":
			if string(c.Old) != "{\"old\": true}\n" || string(c.New) != "{\"new\": true}\n" {
				t.Errorf("%s: Old %q, New %q", c.Path, c.Old, c.New)
			}
		case "b/toolschema/missing.json":
			if c.Old != nil || string(c.New) != "{\"new\": true}\n" {
				t.Errorf("%s: Old %q, New %q", c.Path, c.Old, c.New)
			}
		case "b/toolschema/orphan.json":
			if string(c.Old) != "{\"orphan\": true}\n" || c.New != nil {
				t.Errorf("%s: Old %q, New %q", c.Path, c.Old, c.New)
			}
		}
	}
	// Plan only reads.
	if got := readTree(t, root); len(got) != 9 {
		t.Errorf("Plan changed the tree: %v", slices.Sorted(maps.Keys(got)))
	}
}

func TestPlanRootPackage(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"toolschema/x.json": "{}\n"})
	changes, err := Plan(root, []Dir{{Path: ".", Files: files("toolgen.gen.go", "package x\n", "toolschema/x.json", "{}\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summary(changes), "missing toolgen.gen.go\n"; got != want {
		t.Errorf("Plan = %q, want %q", got, want)
	}
}

func TestPlanUpToDate(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"p/toolgen.gen.go":    "package p\n",
		"p/toolschema/x.json": "{}\n",
	})
	changes, err := Plan(root, []Dir{{Path: "p", Files: files("toolgen.gen.go", "package p\n", "toolschema/x.json", "{}\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 0 {
		t.Errorf("Plan = %s, want no changes", summary(changes))
	}
}

func TestApply(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"p/toolgen.gen.go":          "package p // same\n",
		"p/toolschema/same.json":    "{}\n",
		"p/toolschema/stale.json":   "{\"old\": true}\n",
		"p/toolschema/orphan.json":  "{}\n",
		"p/toolschema/README.md":    "hand-written\n",
		"gone/toolgen.gen.go":       "package gone\n",
		"gone/toolschema/mcp.json":  "{}\n",
		"gone/toolschema/ping.json": "{}\n",
		"gone/gone.go":              "package gone\n",
	})
	dirs := []Dir{
		{Path: "p", Files: files(
			"toolgen.gen.go", "package p // same\n",
			"toolschema/new.json", "{\"new\": true}\n",
			"toolschema/same.json", "{}\n",
			"toolschema/stale.json", "{\"new\": true}\n",
		)},
		{Path: "gone"},
		{Path: "fresh", Files: files("toolgen.gen.go", "package fresh\n", "toolschema/t.json", "{}\n")},
	}
	changes, err := Plan(root, dirs)
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(root, changes); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"p/toolgen.gen.go":        "package p // same\n",
		"p/toolschema/same.json":  "{}\n",
		"p/toolschema/stale.json": "{\"new\": true}\n",
		"p/toolschema/new.json":   "{\"new\": true}\n",
		"p/toolschema/README.md":  "hand-written\n",
		"gone/gone.go":            "package gone\n",
		"fresh/toolgen.gen.go":    "package fresh\n",
		"fresh/toolschema/t.json": "{}\n",
	}
	got := readTree(t, root)
	for name, data := range want {
		if got[name] != data {
			t.Errorf("%s = %q, want %q", name, got[name], data)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			// Also catches temporary files left behind.
			t.Errorf("unexpected file %s", name)
		}
	}

	// Unchanged files are not rewritten.
	for _, name := range []string{"p/toolgen.gen.go", "p/toolschema/same.json", "p/toolschema/README.md"} {
		if m := mtime(t, filepath.Join(root, name)); !m.Equal(oldTime) {
			t.Errorf("%s was rewritten (mtime %v)", name, m)
		}
	}
	if m := mtime(t, filepath.Join(root, "p/toolschema/stale.json")); m.Equal(oldTime) {
		t.Errorf("p/toolschema/stale.json was not rewritten")
	}
	info, err := os.Stat(filepath.Join(root, "p/toolschema/new.json"))
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o644 {
		t.Errorf("p/toolschema/new.json has mode %v, want 0644", perm)
	}

	// A toolschema directory left empty is removed; the package directory stays.
	if _, err := os.Stat(filepath.Join(root, "gone", generator.SchemaDir)); !os.IsNotExist(err) {
		t.Errorf("gone/toolschema still exists (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(root, "gone")); err != nil {
		t.Errorf("gone/ was removed: %v", err)
	}

	// Now everything is up to date.
	changes, err = Plan(root, dirs)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 0 {
		t.Errorf("Plan after Apply = %s, want no changes", summary(changes))
	}
}

// TestApplyFailureLeavesNoTemp checks that a write that cannot complete leaves
// neither a temporary file nor a partial file behind.
func TestApplyFailureLeavesNoTemp(t *testing.T) {
	root := t.TempDir()
	// A directory where the file should go makes the final rename fail.
	if err := os.MkdirAll(filepath.Join(root, "p", "toolschema", "x.json", "inner"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := Apply(root, []Change{{Op: Create, Path: "p/toolschema/x.json", New: []byte("{}\n")}})
	if err == nil || !strings.Contains(err.Error(), "write p/toolschema/x.json") {
		t.Fatalf("Apply = %v, want an error writing p/toolschema/x.json", err)
	}
	entries, err := os.ReadDir(filepath.Join(root, "p", "toolschema"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"x.json"}) {
		t.Errorf("toolschema holds %q, want only the x.json directory", names)
	}
}

func TestDiff(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Change
		want string
	}{{
		name: "missing",
		c:    Change{Op: Create, Path: "p/toolschema/x.json", New: []byte("{\n  \"a\": 1\n}\n")},
		want: "diff /dev/null b/p/toolschema/x.json\n" +
			"--- /dev/null\n" +
			"+++ b/p/toolschema/x.json\n" +
			"@@ -0,0 +1,3 @@\n" +
			"+{\n" +
			"+  \"a\": 1\n" +
			"+}\n",
	}, {
		name: "stale",
		c:    Change{Op: Update, Path: "toolschema/x.json", Old: []byte("{\n  \"a\": 1\n}\n"), New: []byte("{\n  \"a\": 2\n}\n")},
		want: "diff a/toolschema/x.json b/toolschema/x.json\n" +
			"--- a/toolschema/x.json\n" +
			"+++ b/toolschema/x.json\n" +
			"@@ -1,3 +1,3 @@\n" +
			" {\n" +
			"-  \"a\": 1\n" +
			"+  \"a\": 2\n" +
			" }\n",
	}, {
		name: "orphaned",
		c:    Change{Op: Delete, Path: "toolgen.gen.go", Old: []byte("package p\n")},
		want: "diff a/toolgen.gen.go /dev/null\n" +
			"--- a/toolgen.gen.go\n" +
			"+++ /dev/null\n" +
			"@@ -1,1 +0,0 @@\n" +
			"-package p\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(Diff(tc.c)); got != tc.want {
				t.Errorf("Diff:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

func TestOpString(t *testing.T) {
	for op, want := range map[Op]string{Create: "missing", Update: "stale", Delete: "orphaned"} {
		if got := op.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", op, got, want)
		}
	}
}

// TestApplyFreshSchemaDir checks that a toolschema directory that does not exist yet
// appears complete or not at all: with its files and the modes of the others when
// every write succeeds, not at all (and no temporary directory) when one fails.
func TestApplyFreshSchemaDir(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"p/p.go": "package p\n"})
	changes := []Change{
		{Op: Create, Path: "p/toolgen.gen.go", New: []byte("package p\n")},
		{Op: Create, Path: "p/toolschema/a.json", New: []byte("{}\n")},
		{Op: Create, Path: "p/toolschema/b.json", New: []byte("[]\n")},
	}
	if err := Apply(root, changes); err != nil {
		t.Fatal(err)
	}
	got := readTree(t, root)
	want := map[string]string{"p/p.go": "package p\n", "p/toolgen.gen.go": "package p\n", "p/toolschema/a.json": "{}\n", "p/toolschema/b.json": "[]\n"}
	if !maps.Equal(got, want) {
		t.Errorf("tree = %q, want %q", got, want)
	}
	for name, perm := range map[string]fs.FileMode{"p/toolschema": 0o755, "p/toolschema/a.json": 0o644, "p/toolschema/b.json": 0o644} {
		info, err := os.Stat(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != perm {
			t.Errorf("%s has mode %v, want %v", name, info.Mode().Perm(), perm)
		}
	}

	// A file that cannot be written (its name holds a NUL byte) leaves no directory.
	err := Apply(root, []Change{
		{Op: Create, Path: "q/toolschema/a.json", New: []byte("{}\n")},
		{Op: Create, Path: "q/toolschema/b\x00.json", New: []byte("{}\n")},
	})
	if err == nil || !strings.Contains(err.Error(), "write q/toolschema/b") {
		t.Fatalf("Apply = %v, want an error writing q/toolschema/b", err)
	}
	entries, err := os.ReadDir(filepath.Join(root, "q"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("q holds %v after a failed write, want nothing", entries)
	}
}

// TestStager checks the directories staged ahead of Apply: Apply puts one in place
// when it holds the files the changes create, and writes the changes' own otherwise;
// what Apply does not take goes; a directory that exists is not staged; and a staged
// write that fails leaves Apply to write, and to report the error with the path.
func TestStager(t *testing.T) {
	fresh := func(t *testing.T) string {
		root := t.TempDir()
		writeTree(t, root, map[string]string{"p/p.go": "package p\n"})
		return root
	}
	gen := files("toolgen.gen.go", "package p\n", "toolschema/a.json", "{}\n", "toolschema/b.json", "[]\n")
	want := map[string]string{"p/p.go": "package p\n", "p/toolgen.gen.go": "package p\n", "p/toolschema/a.json": "{}\n", "p/toolschema/b.json": "[]\n"}
	plan := func(t *testing.T, root string, fs []generator.File) []Change {
		changes, err := Plan(root, []Dir{{Path: "p", Files: fs}})
		if err != nil {
			t.Fatal(err)
		}
		return changes
	}
	t.Run("taken", func(t *testing.T) {
		root := fresh(t)
		s := NewStager(root)
		s.Stage("p", gen)
		s.Stage("p", files("toolschema/c.json", "{}\n")) // staged already: ignored
		changes := plan(t, root, gen)
		s.mu.Lock()
		st := s.dirs[filepath.Join(root, "p", "toolschema")]
		s.mu.Unlock()
		if st == nil {
			t.Fatal("nothing staged for p/toolschema")
		}
		<-st.done
		tmp := st.tmp
		if err := s.Apply(changes); err != nil {
			t.Fatal(err)
		}
		if got := readTree(t, root); !maps.Equal(got, want) {
			t.Errorf("tree = %q, want %q", got, want)
		}
		if _, err := os.Lstat(tmp); !os.IsNotExist(err) {
			t.Errorf("staged directory %s still there (%v)", tmp, err)
		}
		info, err := os.Stat(filepath.Join(root, "p", "toolschema"))
		if err != nil || info.Mode().Perm() != 0o755 {
			t.Errorf("toolschema: %v, %v; want mode 0755", info, err)
		}
	})
	t.Run("different", func(t *testing.T) {
		root := fresh(t)
		s := NewStager(root)
		s.Stage("p", files("toolschema/a.json", "old\n", "toolschema/z.json", "{}\n"))
		if err := s.Apply(plan(t, root, gen)); err != nil {
			t.Fatal(err)
		}
		if got := readTree(t, root); !maps.Equal(got, want) {
			t.Errorf("tree = %q, want %q", got, want)
		}
	})
	t.Run("discarded", func(t *testing.T) {
		root := fresh(t)
		s := NewStager(root)
		s.Stage("p", gen)
		s.Discard()
		if got, want := readTree(t, root), map[string]string{"p/p.go": "package p\n"}; !maps.Equal(got, want) {
			t.Errorf("tree after Discard = %q, want %q", got, want)
		}
		entries, err := os.ReadDir(filepath.Join(root, "p"))
		if err != nil || len(entries) != 1 {
			t.Errorf("p holds %v (%v) after Discard, want only p.go", entries, err)
		}
	})
	t.Run("after discard", func(t *testing.T) {
		// An interrupt discards while generation goes on: what it stages next is
		// not staged, or nothing would remove it.
		root := fresh(t)
		writeTree(t, root, map[string]string{"q/q.go": "package q\n"})
		s := NewStager(root)
		s.Stage("p", gen)
		s.Discard()
		s.Stage("q", gen)
		s.Wait()
		if len(s.dirs) != 0 {
			t.Errorf("staged %v after Discard, want nothing", s.dirs)
		}
		for _, d := range []string{"p", "q"} {
			if entries, err := os.ReadDir(filepath.Join(root, d)); err != nil || len(entries) != 1 {
				t.Errorf("%s holds %v (%v), want only its .go file", d, entries, err)
			}
		}
	})
	t.Run("wait", func(t *testing.T) {
		root := fresh(t)
		s := NewStager(root)
		s.Stage("p", gen)
		s.Wait()
		s.mu.Lock()
		st := s.dirs[filepath.Join(root, "p", "toolschema")]
		s.mu.Unlock()
		select {
		case <-st.done:
		default:
			t.Error("Wait returned before the staged directory was written")
		}
		if st.err != nil || st.tmp == "" {
			t.Errorf("staged: %q, %v", st.tmp, st.err)
		}
		s.Discard()
	})
	t.Run("exists", func(t *testing.T) {
		root := fresh(t)
		writeTree(t, root, map[string]string{"p/toolschema/a.json": "{}\n"})
		s := NewStager(root)
		s.Stage("p", gen)
		if len(s.dirs) != 0 {
			t.Errorf("staged %v, want nothing: toolschema exists", s.dirs)
		}
	})
	t.Run("failed", func(t *testing.T) {
		root := fresh(t)
		bad := files("toolschema/a.json", "{}\n", "toolschema/b\x00.json", "{}\n")
		s := NewStager(root)
		s.Stage("p", bad)
		err := s.Apply(plan(t, root, bad))
		if err == nil || !strings.Contains(err.Error(), "write p/toolschema/b") {
			t.Fatalf("Apply = %v, want an error writing p/toolschema/b", err)
		}
		entries, err := os.ReadDir(filepath.Join(root, "p"))
		if err != nil || len(entries) != 1 {
			t.Errorf("p holds %v (%v) after a failed write, want only p.go", entries, err)
		}
	})
}

// TestWriteFilesFirstError checks that of several files that cannot be written, the
// error is the first's, in order, with its path, whichever goroutine failed first.
func TestWriteFilesFirstError(t *testing.T) {
	dir := t.TempDir()
	var changes []Change
	for i := range 40 {
		name := fmt.Sprintf("p/toolschema/%02d.json", i)
		if i >= 10 && i%3 == 1 {
			name = fmt.Sprintf("p/toolschema/%02d\x00.json", i)
		}
		changes = append(changes, Change{Op: Create, Path: name, New: []byte("{}\n")})
	}
	err := writeFiles(dir, changes)
	if err == nil || !strings.Contains(err.Error(), "write p/toolschema/10") {
		t.Fatalf("writeFiles = %v, want the error of p/toolschema/10", err)
	}
}
