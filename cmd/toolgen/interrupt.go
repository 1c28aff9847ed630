package main

import (
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/toolgen/toolgen/internal/output"
)

// exitInterrupted is toolgen's exit code after SIGINT or SIGTERM: 128 plus SIGINT's
// number, as a shell reports a command it interrupted.
const exitInterrupted = 130

// interruptWatch removes what a Stager staged when SIGINT or SIGTERM arrives while a
// generate run plans, and then exits with exitInterrupted, so that an interrupted run
// leaves no hidden directory of schema files beside a package: the default action of
// those signals ends the process before its deferred Discard runs. Signals the process
// was started ignoring (a background job's SIGINT, or nohup's) stay ignored.
//
// The watch covers the planning, which is where a run spends its time and where the
// directories are staged: the run waits for what is staged to be written and stops
// the watch before it writes anything in place (Stager.Apply), so that a signal then
// has its default action, as it had before toolgen staged anything, and never exits
// between two of Apply's writes. A signal that arrives as the watch stops is dropped,
// and the run completes.
type interruptWatch struct {
	mu      sync.Mutex // held by a discard in progress, and by stop
	stopped bool
	sigs    chan os.Signal
	done    chan struct{}
}

// watchInterrupts starts an interruptWatch for stager.
func watchInterrupts(stager *output.Stager) *interruptWatch {
	w := &interruptWatch{sigs: make(chan os.Signal, 1), done: make(chan struct{})}
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		// Notify would turn a signal the process ignores back on.
		if !signal.Ignored(sig) {
			signal.Notify(w.sigs, sig)
		}
	}
	go w.discardOn(stager, os.Exit)
	return w
}

// stop ends the watch; it waits for a discard in progress, which then exits. Calling
// it again does nothing.
func (w *interruptWatch) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	w.stopped = true
	signal.Stop(w.sigs)
	close(w.done)
}

// discardOn waits for a signal, then, unless stop came first, discards stager's
// directories (waiting for the files being written into them) and calls
// exit(exitInterrupted); it returns once the watch is stopped.
func (w *interruptWatch) discardOn(stager *output.Stager, exit func(int)) {
	select {
	case <-w.sigs:
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.stopped {
			return
		}
		// A second signal, while the discard waits for files being written, has its
		// own action: it ends toolgen at once.
		signal.Stop(w.sigs)
		stager.Discard()
		exit(exitInterrupted)
	case <-w.done:
	}
}
