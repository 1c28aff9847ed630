// Command firsttools measures how soon the generated 1,000-tool package bench/thousand
// is ready: it prints the time from the start of main to the return of the first
// Tools() (and of the first listing of the tools), in nanoseconds. Run it with
// GODEBUG=inittrace=1 to see the package initialisation that comes before main:
//
//	go generate ./thousand && go build -o /tmp/firsttools ./cmd/firsttools
//	GODEBUG=inittrace=1 /tmp/firsttools
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/toolgen/toolgen/bench/thousand"
)

func main() {
	start := time.Now()
	ts := thousand.Tools()
	ready := time.Since(start)
	n := len(ts.Tools())
	listed := time.Since(start)
	if n != 1000 {
		fmt.Fprintf(os.Stderr, "firsttools: %d tools, want 1000\n", n)
		os.Exit(1)
	}
	fmt.Printf("tools=%d ready_ns=%d listed_ns=%d\n", n, ready.Nanoseconds(), listed.Nanoseconds())
}
