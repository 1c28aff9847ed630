package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolgen/toolgen/internal/contractdiff"
	"github.com/toolgen/toolgen/runtime/safetext"
)

const diffLong = `Diff compares the tool contracts of the packages (default ".") in the working tree with
those at a git revision (-base, default HEAD) and classifies every change as breaking
or compatible for a client, or a model, that learned the old contract.

The contract of a tool is its file toolschema/<tool>.json, as checked in: input and
output schema, annotations and groups. The dialect files beside it derive from it and
are not compared. The old files are read from git (git ls-tree and git cat-file at the
revision); no old code is built. The new files are read from the working tree as they
are, so run toolgen check too if they may be stale. The packages are found as generate
and check find them; with a pattern ending in /..., a package directory that had
contracts at the revision and is gone from the working tree is compared too (its tools
are removed).

Breaking, for an input schema: anything that can reject a call the old schema accepted
(a tool or property removed, a new required property, a type changed or narrowed, an
enum narrowed, bounds or lengths tightened, a pattern or format added, an object
closed); for an output schema: anything a client may now get that it did not expect (a
property removed, a type changed or widened); for annotations: a read-only, idempotent
or closed-world promise withdrawn, or destructiveHint added. A rename is a tool removed
and a tool added. Compatible: new tools, new optional properties, widened bounds and
enums, descriptions, titles and defaults.

Each change is printed on one line, sorted by package directory, tool and pointer:

	breaking    DIR  TOOL  POINTER  CHANGE

where POINTER is the JSON Pointer of the change in the tool's file (in the old file
for what the new one no longer has; "-" for the whole tool). -json prints a JSON array
of {dir, tool, pointer, kind, change, old, new} instead. A summary goes to standard
error when anything changed.

Exit status: 1 when any change is breaking (or the comparison failed), 0 otherwise, and
2 on usage errors, which include git being missing, the directory not being in a git
repository and a revision that is not a commit: a CI step can tell "breaking" from
"could not compare".`

// diffFlags are the flags of diff.
type diffFlags struct {
	base string
	json bool
	tags []string
}

func newDiffCommand(stdout, stderr io.Writer) *cobra.Command {
	var flags diffFlags
	cmd := &cobra.Command{
		Use:   "diff [-base REV] [-json] [packages]",
		Short: "Classify the changes of the tool contracts since a git revision; exit 1 if any is breaking",
		Long:  diffLong,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDiff(args, flags, stdout, stderr)
		},
	}
	cmd.Flags().StringVar(&flags.base, "base", "HEAD", "the git revision to compare with")
	cmd.Flags().BoolVar(&flags.json, "json", false, "print the changes as a JSON array")
	registerTags(cmd, &flags.tags)
	return cmd
}

func runDiff(patterns []string, flags diffFlags, stdout, stderr io.Writer) error {
	g, err := openGit(flags.base)
	if err != nil {
		return err
	}
	pkgs, err := loadPackages(patterns, flags.tags, stderr)
	if err != nil {
		return err
	}
	var dirs []string
	for _, p := range pkgs {
		if d, ok := g.inside(p.Dir); ok && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	gone, err := g.goneDirs(patterns, dirs)
	if err != nil {
		return err
	}
	dirs = append(dirs, gone...)
	slices.Sort(dirs)

	old, err := g.contracts(dirs)
	if err != nil {
		return err
	}
	cur, err := workingContracts(dirs)
	if err != nil {
		return err
	}
	changes, err := contractdiff.Compare(old, cur)
	if err != nil {
		return err
	}
	breaking := 0
	for _, c := range changes {
		if c.Kind == contractdiff.Breaking {
			breaking++
		}
	}
	if flags.json {
		if changes == nil {
			changes = []contractdiff.Change{}
		}
		data, err := json.MarshalIndent(changes, "", "  ")
		if err != nil {
			return err
		}
		if _, err := stdout.Write(append(data, '\n')); err != nil {
			return err
		}
	} else {
		var buf bytes.Buffer
		for _, c := range changes {
			ptr := c.Pointer
			if ptr == "" {
				ptr = "-"
			}
			if c.Pointer != "" {
				ptr = safetext.Field(ptr)
			}
			fmt.Fprintf(&buf, "%-10s  %s  %s  %s  %s\n", c.Kind, safetext.Field(c.Dir), safetext.Field(c.Tool), ptr, safetext.Line(c.Change))
		}
		if _, err := stdout.Write(buf.Bytes()); err != nil {
			return err
		}
	}
	if len(changes) > 0 {
		compatible := len(changes) - breaking
		fmt.Fprintf(stderr, "toolgen diff: %d breaking %s, %d compatible %s since %s\n",
			breaking, plural(breaking, "change", "changes"), compatible, plural(compatible, "change", "changes"), flags.base)
	}
	if breaking > 0 {
		return errReported
	}
	return nil
}

// gitTree reads the files of one commit of the repository the current directory is in.
type gitTree struct {
	top    string // the repository's top directory, absolute
	commit string
}

// openGit finds the repository and the commit rev names. What goes wrong here is a
// usage error: there is nothing to compare with.
func openGit(rev string) (*gitTree, error) {
	out, err := git(nil, "rev-parse", "--show-toplevel")
	if errors.Is(err, exec.ErrNotFound) {
		return nil, usageError{errors.New("diff reads the old contracts with git, which is not installed")}
	}
	if err != nil {
		return nil, usageError{fmt.Errorf("diff compares with a git revision, but the current directory is not in a git repository (%v)", err)}
	}
	top := strings.TrimSpace(string(out))
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, usageError{fmt.Errorf("-base %q is not a revision", rev)}
	}
	out, err = git(nil, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return nil, usageError{fmt.Errorf("-base %s: no such commit in this repository", rev)}
	}
	abs, err := filepath.EvalSymlinks(top)
	if err == nil {
		top = abs
	}
	return &gitTree{top: top, commit: strings.TrimSpace(string(out))}, nil
}

// git runs git with the input given and returns its standard output; a failure's
// error holds what git printed on its standard error.
func git(stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("git %s: %s", args[0], msg)
		}
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	return out, nil
}

// inside returns a package directory, relative to the current directory, with
// forward slashes, and whether it is inside the repository.
func (g *gitTree) inside(dir string) (string, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	rel, err := filepath.Rel(g.top, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return path.Clean(filepath.ToSlash(dir)), true
}

// entry is one file of git ls-tree: its object and its path, relative to the current
// directory.
type entry struct {
	object, path string
}

// lsTree lists the files at the commit under the paths given (relative to the current
// directory).
func (g *gitTree) lsTree(paths []string) ([]entry, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	out, err := git(nil, append([]string{"ls-tree", "-r", "-z", g.commit, "--"}, paths...)...)
	if err != nil {
		return nil, err
	}
	var entries []entry
	for rec := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if rec == "" {
			continue
		}
		meta, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("git ls-tree: cannot read %q", rec)
		}
		if f[1] == "blob" {
			entries = append(entries, entry{object: f[2], path: path.Clean(p)})
		}
	}
	return entries, nil
}

// goneDirs returns the package directories under the patterns ending in /... that
// held contract files at the commit and are not among dirs: packages deleted since.
// It follows the go command's rules for /...: no directory named testdata or
// beginning with . or _, and none inside a nested module.
func (g *gitTree) goneDirs(patterns, dirs []string) ([]string, error) {
	var gone []string
	for _, pat := range patterns {
		prefix, ok := strings.CutSuffix(pat, "/...")
		if !ok || !(prefix == "." || prefix == ".." || strings.HasPrefix(prefix, "./") || strings.HasPrefix(prefix, "../")) {
			continue
		}
		prefix = path.Clean(prefix)
		if _, ok := g.inside(prefix); !ok {
			continue
		}
		entries, err := g.lsTree([]string{prefix})
		if err != nil {
			return nil, err
		}
		var modules []string
		for _, e := range entries {
			if path.Base(e.path) == "go.mod" && path.Dir(e.path) != prefix {
				modules = append(modules, path.Dir(e.path))
			}
		}
		for _, e := range entries {
			if !contractdiff.IsContract(e.path) {
				continue
			}
			d := path.Dir(path.Dir(e.path))
			if slices.Contains(dirs, d) || slices.Contains(gone, d) || !matchesDots(prefix, d, modules) {
				continue
			}
			gone = append(gone, d)
		}
	}
	return gone, nil
}

// matchesDots reports whether the go command's prefix/... would match package
// directory d, given the nested modules' directories.
func matchesDots(prefix, d string, modules []string) bool {
	rel := d
	if prefix != "." {
		var ok bool
		if rel, ok = strings.CutPrefix(d, prefix+"/"); !ok {
			return d == prefix
		}
	}
	if rel == "." {
		return true
	}
	sub := prefix
	for elem := range strings.SplitSeq(rel, "/") {
		if elem == "testdata" || strings.HasPrefix(elem, ".") || strings.HasPrefix(elem, "_") {
			return false
		}
		sub = path.Join(sub, elem)
		if slices.Contains(modules, sub) {
			return false
		}
	}
	return true
}

// contracts returns the contract files of the package directories at the commit, by
// path relative to the current directory.
func (g *gitTree) contracts(dirs []string) (map[string][]byte, error) {
	var paths []string
	for _, d := range dirs {
		paths = append(paths, path.Join(d, contractdiff.SchemaDir)+"/")
	}
	entries, err := g.lsTree(paths)
	if err != nil {
		return nil, err
	}
	entries = slices.DeleteFunc(entries, func(e entry) bool { return !contractdiff.IsContract(e.path) })
	files := map[string][]byte{}
	if len(entries) == 0 {
		return files, nil
	}
	var in bytes.Buffer
	for _, e := range entries {
		in.WriteString(e.object + "\n")
	}
	out, err := git(in.Bytes(), "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(bytes.NewReader(out))
	for _, e := range entries {
		header, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: reading %s: %w", e.path, err)
		}
		f := strings.Fields(header)
		if len(f) != 3 || f[0] != e.object {
			return nil, fmt.Errorf("git cat-file: reading %s: unexpected %q", e.path, strings.TrimSpace(header))
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("git cat-file: reading %s: %w", e.path, err)
		}
		data := make([]byte, size+1) // the content and a newline
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, fmt.Errorf("git cat-file: reading %s: %w", e.path, err)
		}
		files[e.path] = data[:size]
	}
	return files, nil
}

// workingContracts returns the contract files of the package directories in the
// working tree.
func workingContracts(dirs []string) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, d := range dirs {
		dir := filepath.Join(filepath.FromSlash(d), contractdiff.SchemaDir)
		list, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, e := range list {
			p := path.Join(d, contractdiff.SchemaDir, e.Name())
			if e.IsDir() || !contractdiff.IsContract(p) {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				return nil, err
			}
			files[p] = data
		}
	}
	return files, nil
}
