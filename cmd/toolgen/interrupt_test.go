package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/toolgen/toolgen/generator"
	"github.com/toolgen/toolgen/internal/output"
)

// TestInterruptWatch checks that a signal while a run plans removes the staged schema
// directory and exits with 130, and that once the watch is stopped a signal neither
// discards nor exits.
func TestInterruptWatch(t *testing.T) {
	stage := func(t *testing.T) (*output.Stager, string) {
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, "p"), 0o755); err != nil {
			t.Fatal(err)
		}
		s := output.NewStager(root)
		s.Stage("p", []generator.File{{Path: generator.SchemaDir + "/a.json", Data: []byte("{}\n")}})
		return s, filepath.Join(root, "p")
	}
	staged := func(t *testing.T, dir string) []string {
		t.Helper()
		m, err := filepath.Glob(filepath.Join(dir, "."+generator.SchemaDir+".tmp*"))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	watch := func() *interruptWatch {
		return &interruptWatch{sigs: make(chan os.Signal, 1), done: make(chan struct{})}
	}

	t.Run("signal", func(t *testing.T) {
		s, dir := stage(t)
		w := watch()
		w.sigs <- syscall.SIGINT
		code := -1
		w.discardOn(s, func(c int) { code = c })
		if code != exitInterrupted {
			t.Errorf("exit code %d, want %d", code, exitInterrupted)
		}
		if m := staged(t, dir); len(m) != 0 {
			t.Errorf("staged directories left behind: %q", m)
		}
		w.stop()
		w.stop() // again: nothing
	})
	t.Run("stopped", func(t *testing.T) {
		s, dir := stage(t)
		w := watch()
		w.stop()
		w.sigs <- syscall.SIGTERM // arrived as the run stopped the watch
		w.discardOn(s, func(int) { t.Error("exit called") })
		// The staging goes on, for Apply (it is what the signal case removed).
		for deadline := time.Now().Add(10 * time.Second); len(staged(t, dir)) == 0; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("nothing staged")
			}
		}
		s.Discard()
	})
}
