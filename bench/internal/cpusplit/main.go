// Command cpusplit splits a CPU profile of cmd/mcpserve between the parts of a call's
// path: toolgen, the MCP SDK (with the JSON Schema and JSON libraries it calls),
// net/http (with the network and syscalls below it), and the Go runtime's own work
// (garbage collection, scheduling).
//
//	go run ./internal/cpusplit PROFILE...   # in bench
//
// Each sample goes to the part of the innermost frame that belongs to toolgen, the SDK
// or net/http: time spent in encoding/json or in the allocator on toolgen's behalf is
// toolgen's, on the SDK's behalf the SDK's. A sample with none of them on its stack is
// the runtime's: garbage collection when a background collector goroutine (marking,
// sweeping, scavenging) is on it, else scheduling, timers and the rest.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/google/pprof/profile"
)

// parts are the owners a sample may go to, in the order they are printed.
var parts = []string{"toolgen", "sdk", "net/http", "runtime-gc", "runtime-other"}

// owner returns the part a function belongs to, or "" for a function of no part
// (the standard library's helpers, the allocator).
func owner(fn string) string {
	switch {
	case strings.HasPrefix(fn, "github.com/toolgen/toolgen/"):
		return "toolgen"
	case strings.HasPrefix(fn, "github.com/modelcontextprotocol/go-sdk/"),
		strings.HasPrefix(fn, "github.com/google/jsonschema-go/"),
		strings.HasPrefix(fn, "github.com/segmentio/"),
		strings.HasPrefix(fn, "github.com/yosida95/"):
		return "sdk"
	case strings.HasPrefix(fn, "net/http."), strings.HasPrefix(fn, "net."),
		strings.HasPrefix(fn, "internal/poll."), strings.HasPrefix(fn, "syscall."),
		strings.HasPrefix(fn, "bufio."):
		return "net/http"
	}
	return ""
}

// gcRoot reports whether fn is one of the runtime's background collector goroutines:
// marking, sweeping and returning memory to the system.
func gcRoot(fn string) bool {
	for _, root := range []string{"runtime.gcBgMarkWorker", "runtime.bgsweep", "runtime.bgscavenge"} {
		if strings.HasPrefix(fn, root) {
			return true
		}
	}
	return false
}

func split(p *profile.Profile) (map[string]int64, int64) {
	cpu := len(p.SampleType) - 1 // the cpu nanoseconds of a CPU profile
	byPart := map[string]int64{}
	var total int64
	for _, s := range p.Sample {
		v := s.Value[cpu]
		total += v
		part := ""
		gc := false
	stack:
		for _, loc := range s.Location { // innermost first
			for _, line := range loc.Line {
				name := line.Function.Name
				if gcRoot(name) {
					gc = true
				}
				if o := owner(name); o != "" {
					part = o
					break stack
				}
			}
		}
		switch {
		case part != "":
		case gc:
			part = "runtime-gc"
		default:
			part = "runtime-other"
		}
		byPart[part] += v
	}
	return byPart, total
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: cpusplit PROFILE...")
		os.Exit(2)
	}
	fmt.Printf("%-32s %10s", "profile", "cpu-s")
	for _, part := range parts {
		fmt.Printf(" %13s", part)
	}
	fmt.Println()
	for _, path := range os.Args[1:] {
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "cpusplit:", err)
			os.Exit(1)
		}
		p, err := profile.Parse(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "cpusplit: %s: %v\n", path, err)
			os.Exit(1)
		}
		byPart, total := split(p)
		name := path[strings.LastIndex(path, "/")+1:]
		fmt.Printf("%-32s %10.2f", name, float64(total)/1e9)
		for _, part := range parts {
			share := 0.0
			if total > 0 {
				share = 100 * float64(byPart[part]) / float64(total)
			}
			fmt.Printf(" %12.1f%%", share)
		}
		fmt.Println()
	}
}
