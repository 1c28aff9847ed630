// Package output compares the files toolgen wants in each package directory with what
// is on disk, and writes the difference (generate) or reports it as diffs (check).
//
// A package directory's toolgen files are toolgen.gen.go and every .json file in
// toolschema/; any of them that generation no longer produces is orphaned and goes.
package output

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sync"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/toolgen/toolgen/generator"
)

// Op is what a Change does to a file.
type Op int

// The kinds of change.
const (
	Create Op = iota // the file is missing
	Update           // the file is stale
	Delete           // the file is orphaned
)

func (o Op) String() string {
	switch o {
	case Create:
		return "missing"
	case Update:
		return "stale"
	}
	return "orphaned"
}

// Change is one file that differs from what generation wants.
type Change struct {
	Op Op
	// Path is the file's path, relative to the directory toolgen ran in.
	Path string
	// Old is the content on disk (nil when missing); New is the wanted content (nil
	// when orphaned).
	Old, New []byte
}

// Plan compares the wanted files of each package directory (relative to root) with
// the disk and returns the changes, sorted by path. Unchanged files are left out.
func Plan(root string, dirs []Dir) ([]Change, error) {
	var changes []Change
	for _, d := range dirs {
		c, err := planDir(root, d)
		if err != nil {
			return nil, err
		}
		changes = append(changes, c...)
	}
	slices.SortFunc(changes, func(a, b Change) int {
		switch {
		case a.Path < b.Path:
			return -1
		case a.Path > b.Path:
			return 1
		}
		return 0
	})
	return changes, nil
}

// Dir is one package directory and the files generation wants in it.
type Dir struct {
	// Path is relative to the root, with forward slashes.
	Path  string
	Files []generator.File
}

func planDir(root string, d Dir) ([]Change, error) {
	base := filepath.Join(root, filepath.FromSlash(d.Path))
	want := map[string][]byte{}
	for _, f := range d.Files {
		want[f.Path] = f.Data
	}
	existing, noSchemaDir, err := ownedFiles(base)
	if err != nil {
		return nil, err
	}
	var changes []Change
	for _, f := range d.Files {
		rel := filepath.ToSlash(filepath.Join(d.Path, f.Path))
		if noSchemaDir && f.Path != generator.GoFile && generator.Owned(f.Path) {
			// No need to look for each of thousands of files.
			changes = append(changes, Change{Op: Create, Path: rel, New: f.Data})
			continue
		}
		old, err := os.ReadFile(filepath.Join(base, filepath.FromSlash(f.Path)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			changes = append(changes, Change{Op: Create, Path: rel, New: f.Data})
		case err != nil:
			return nil, fmt.Errorf("read %s: %w", rel, err)
		case !bytes.Equal(old, f.Data):
			changes = append(changes, Change{Op: Update, Path: rel, Old: old, New: f.Data})
		}
	}
	for _, name := range existing {
		if _, ok := want[name]; ok {
			continue
		}
		rel := filepath.ToSlash(filepath.Join(d.Path, name))
		old, err := os.ReadFile(filepath.Join(base, filepath.FromSlash(name)))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", rel, err)
		}
		changes = append(changes, Change{Op: Delete, Path: rel, Old: old})
	}
	return changes, nil
}

// ownedFiles lists the toolgen files present in a package directory, relative to it,
// and reports whether its toolschema directory is missing.
func ownedFiles(dir string) ([]string, bool, error) {
	var out []string
	if _, err := os.Stat(filepath.Join(dir, generator.GoFile)); err == nil {
		out = append(out, generator.GoFile)
	}
	entries, err := os.ReadDir(filepath.Join(dir, generator.SchemaDir))
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		return nil, false, fmt.Errorf("list %s: %w", generator.SchemaDir, err)
	}
	for _, e := range entries {
		name := generator.SchemaDir + "/" + e.Name()
		if !e.IsDir() && generator.Owned(name) {
			out = append(out, name)
		}
	}
	return out, missing, nil
}

// Apply makes the changes on disk under root. Each file is written atomically: to a
// temporary file in its directory, then renamed over the old one. A toolschema
// directory that does not exist yet is written whole, as a temporary directory beside
// it renamed into place: its files get their names at once, which for a package of
// thousands of tools saves a rename and a cleanup per file. A toolschema directory left
// empty is removed.
func Apply(root string, changes []Change) error {
	return NewStager(root).Apply(changes)
}

// Apply is the package's Apply, under the Stager's root, taking for each toolschema
// directory to create the one staged for it when that holds exactly the files the
// changes create there (otherwise it writes them as Apply does). It then discards
// whatever else was staged.
func (s *Stager) Apply(changes []Change) error {
	defer s.Discard()
	root := s.root
	fresh := freshDirs(root, changes)
	made := map[string]bool{} // directories known to exist
	for _, c := range changes {
		path := filepath.Join(root, filepath.FromSlash(c.Path))
		dir := filepath.Dir(path)
		if group, ok := fresh[dir]; ok {
			if group != nil {
				if !s.take(dir, group) {
					if err := writeDir(dir, group); err != nil {
						return err
					}
				}
				fresh[dir] = nil // written
			}
			continue
		}
		if c.Op == Delete {
			if err := os.Remove(path); err != nil {
				return fmt.Errorf("remove %s: %w", c.Path, err)
			}
			if filepath.Base(dir) == generator.SchemaDir {
				// Fails, harmlessly, when the directory still holds files.
				_ = os.Remove(dir)
			}
			continue
		}
		if !made[dir] {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("write %s: %w", c.Path, err)
			}
			made[dir] = true
		}
		if err := writeAtomic(path, c.New); err != nil {
			return fmt.Errorf("write %s: %w", c.Path, err)
		}
	}
	return nil
}

// freshDirs returns the changes to make in each toolschema directory that does not
// exist yet, by absolute directory: only files to create, since nothing is there.
func freshDirs(root string, changes []Change) map[string][]Change {
	groups := map[string][]Change{}
	for _, c := range changes {
		dir := filepath.Dir(filepath.Join(root, filepath.FromSlash(c.Path)))
		if c.Op == Create && filepath.Base(dir) == generator.SchemaDir {
			groups[dir] = append(groups[dir], c)
		}
	}
	for dir := range groups {
		if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
			delete(groups, dir)
		}
	}
	return groups
}

// writeDir creates the directory dir, which does not exist, holding the files of
// changes: it writes them in a temporary directory beside it, then renames that into
// place, so that dir appears complete or not at all.
func writeDir(dir string, changes []Change) (err error) {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", changes[0].Path, err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", changes[0].Path, err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err := writeFiles(tmp, changes); err != nil {
		return err
	}
	return publishDir(tmp, dir, changes[0].Path)
}

// publishDir renames the temporary directory tmp, written whole, to dir; first is the
// path of a file in it, for errors.
func publishDir(tmp, dir, first string) error {
	// MkdirTemp makes the directory private; it gets the mode MkdirAll gives.
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", first, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("write %s: %w", first, err)
	}
	return nil
}

// writeFiles creates the files of changes, which do not exist, in the directory dir,
// each under its base name, one after the other: creating a file is the kernel's
// work under the directory's lock, so that more goroutines creating files in one
// directory take more CPU time and no less wall time (5,000 files on this project's
// 2-core machine: 4.2-4.6 s of wall and 4.3-4.7 s of CPU time on one goroutine,
// 4.2-4.5 s and 7.3-8.0 s on two, 4.4-4.5 s and 8.0-8.1 s on four;
// bench/results/2026-12-03/big/create-files.txt), CPU time that the rendering of the
// Go source, which runs meanwhile (Stager), then lacks. The error is
// the one of the first file that could not be written, wrapped with its path.
func writeFiles(dir string, changes []Change) error {
	for _, c := range changes {
		if err := writeNew(filepath.Join(dir, filepath.Base(filepath.FromSlash(c.Path))), c.New); err != nil {
			return fmt.Errorf("write %s: %w", c.Path, err)
		}
	}
	return nil
}

// Stager writes, ahead of Apply, the toolschema directories that do not exist yet,
// while the rest of generation goes on: a package's schema files are ready before its
// toolgen.gen.go, and creating thousands of files is mostly the kernel's time, which a
// second processor can spend while the first renders the Go source. A staged
// directory is a temporary one beside its place; only Apply renames it into place, so
// that a toolschema directory still appears whole or not at all, and only if Apply
// runs. Its methods may be called from several goroutines.
type Stager struct {
	root   string
	mu     sync.Mutex
	dirs   map[string]*staged // by the absolute path of the toolschema directory
	closed bool               // Discard has begun: Stage stages nothing more
}

// staged is one directory being written, or written, by Stage.
type staged struct {
	done  chan struct{} // closed when the writing ends
	tmp   string        // the temporary directory, "" once taken or removed
	files map[string][]byte
	err   error
}

// NewStager returns a Stager for changes under root.
func NewStager(root string) *Stager {
	return &Stager{root: root, dirs: map[string]*staged{}}
}

// Stage starts writing the toolschema files among files, the generated files of the
// package directory dir (relative to the root, with forward slashes), into a
// temporary directory, if the package's toolschema directory does not exist (and was
// not staged already). It returns at once; failures to write are Apply's to find
// (which then writes the files itself, and reports its own errors). Stage must not
// be called once Apply has begun; once Discard has begun (on an interrupt, while
// generation goes on), it stages nothing. The files' data must not change after.
func (s *Stager) Stage(dir string, files []generator.File) {
	base := filepath.Join(s.root, filepath.FromSlash(dir))
	schemaDir := filepath.Join(base, generator.SchemaDir)
	var changes []Change
	for _, f := range files {
		if generator.Owned(f.Path) && f.Path != generator.GoFile {
			changes = append(changes, Change{Op: Create, Path: path.Join(dir, f.Path), New: f.Data})
		}
	}
	if len(changes) == 0 {
		return
	}
	if _, err := os.Lstat(schemaDir); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.dirs[schemaDir]; ok || s.closed {
		return
	}
	st := &staged{done: make(chan struct{}), files: map[string][]byte{}}
	for _, c := range changes {
		st.files[filepath.Base(filepath.FromSlash(c.Path))] = c.New
	}
	s.dirs[schemaDir] = st
	go func() {
		defer close(st.done)
		st.tmp, st.err = stageDir(schemaDir, changes)
	}()
}

// stageDir writes changes in a new temporary directory beside dir and returns its
// path; on failure, it leaves nothing.
func stageDir(dir string, changes []Change) (tmp string, err error) {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", err
	}
	tmp, err = os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp*")
	if err != nil {
		return "", err
	}
	if err := writeFiles(tmp, changes); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	return tmp, nil
}

// take renames the directory staged for dir into place, if it was written and holds
// exactly the files of changes, and reports whether it did. Otherwise the staged
// directory goes, and Apply writes the files itself.
func (s *Stager) take(dir string, changes []Change) bool {
	s.mu.Lock()
	st := s.dirs[dir]
	delete(s.dirs, dir)
	s.mu.Unlock()
	if st == nil {
		return false
	}
	<-st.done
	if st.err != nil || st.tmp == "" {
		return false
	}
	same := len(st.files) == len(changes)
	for _, c := range changes {
		data, ok := st.files[filepath.Base(filepath.FromSlash(c.Path))]
		same = same && ok && bytes.Equal(data, c.New)
	}
	if same && publishDir(st.tmp, dir, changes[0].Path) == nil {
		return true
	}
	os.RemoveAll(st.tmp)
	return false
}

// Wait waits until the directories staged so far are written (or failed to be).
func (s *Stager) Wait() {
	s.mu.Lock()
	var pending []*staged
	for _, st := range s.dirs {
		pending = append(pending, st)
	}
	s.mu.Unlock()
	for _, st := range pending {
		<-st.done
	}
}

// Discard waits for the directories being staged and removes those Apply did not
// take; Stage stages nothing after it. A generate that fails, or writes nothing,
// calls it, so that nothing staged stays behind.
func (s *Stager) Discard() {
	s.mu.Lock()
	dirs := s.dirs
	s.dirs = map[string]*staged{}
	s.closed = true
	s.mu.Unlock()
	for _, st := range dirs {
		<-st.done
		if st.tmp != "" {
			os.RemoveAll(st.tmp)
		}
	}
}

// writeNew writes a file that does not exist yet, with mode 0644.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil { // whatever the umask
		f.Close()
		return err
	}
	return f.Close()
}

// writeAtomic replaces or creates the file path, in an existing directory, with data:
// it writes a temporary file beside it and renames that over it.
func writeAtomic(path string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Diff renders a change as a unified diff, with /dev/null for a missing or orphaned
// side.
func Diff(c Change) []byte {
	oldName, newName := "a/"+c.Path, "b/"+c.Path
	switch c.Op {
	case Create:
		oldName = "/dev/null"
	case Delete:
		newName = "/dev/null"
	}
	return diff.Diff(oldName, c.Old, newName, c.New)
}
