package runtime

import (
	goruntime "runtime"
	"sync"
)

// workers keeps the idle goroutines a Toolset's calls run their tools on (invoke), so
// that a call does not start a goroutine of its own: a worker keeps the stack the calls
// before it grew, where a new goroutine starts with the smallest one and copies it as
// the tool (and the decode under it) goes deeper. A Toolset and the ones made from it
// by the With methods, Group and Select share one.
//
// The guarantees of a goroutine per call stay, since a worker runs one call at a time
// and is handed back only when the call is over:
//   - a tool's runtime.Goexit ends its worker (the call is answered with an internal
//     error, see running.finish), and that worker is not handed back: a new one is
//     started the next time;
//   - a tool's panic is recovered on the worker, which goes on;
//   - a call whose deadline passes or whose context ends is answered at once while the
//     tool goes on; its worker is never handed back, and its late result is dropped.
//
// What a worker keeps from one call to the next is what Go keeps on a goroutine: its
// stack, its profiler labels and a lock on its OS thread; Toolset.Call's doc tells
// tools to undo the last two.
//
// Nothing leaks: the idle workers are held by a sync.Pool, which drops what it holds
// when unused over two collections, and a worker's handle, once unreachable (dropped by
// the pool, by a call that did not wait for its tool, or with the Toolset), closes its
// goroutine's channel: the goroutine then ends, at once when idle, else when its tool
// returns. No goroutine of its own watches them.
type workers struct {
	idle sync.Pool // of *worker
}

// worker is the handle of one worker goroutine: its goroutine holds the channels and
// never the handle, so the handle can become unreachable while the goroutine waits.
type worker struct {
	jobs chan *running // the call to run; closed when the handle is unreachable
	done chan struct{} // one value when a call ended, however it ended
}

// get returns an idle worker, or a new one. A nil ws gives a worker that runs one call
// and ends.
func (ws *workers) get() *worker {
	if ws != nil {
		if w, _ := ws.idle.Get().(*worker); w != nil {
			return w
		}
	}
	w := &worker{jobs: make(chan *running), done: make(chan struct{}, 1)}
	go work(w.jobs, w.done)
	if ws != nil {
		goruntime.AddCleanup(w, closeJobs, w.jobs)
	}
	return w
}

// run hands c to the worker, which runs it and then tells w.done.
func (ws *workers) run(w *worker, c *running) {
	w.jobs <- c
	if ws == nil {
		close(w.jobs) // the goroutine ends after c
	}
}

// put hands w back once its call c ended on it, when the worker goes on: not after a
// Goexit, which ended it.
func (ws *workers) put(w *worker, c *running) {
	if ws != nil && !c.goexit {
		ws.idle.Put(w)
	}
}

// closeJobs ends a worker goroutine whose handle is unreachable.
func closeJobs(jobs chan *running) { close(jobs) }

// work is the loop of one worker goroutine: each call it is given runs to its end,
// which is told on done (running.finish), until jobs is closed or a tool ends the
// goroutine with runtime.Goexit.
func work(jobs <-chan *running, done chan<- struct{}) {
	for c := range jobs {
		c.finish(done)
	}
}
