//go:build unix

package toolmcp_test

import (
	"syscall"
	"testing"
	"time"
)

// processCPU returns the CPU time the process has used so far, user and system, all
// threads (the garbage collector's included).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports, beside the wall time of ns/op, the process's CPU time per
// iteration since start (a processCPU reading taken before the benchmark's b.Loop) as
// cpu-ns/op: on a machine busy with other work the wall time counts the time the
// benchmark waited for a core, the CPU time mostly does not, so ratios of cpu-ns/op are
// steadier there. Call it once b.Loop has returned false, when b.N is the iterations'
// count.
func reportCPU(b *testing.B, start time.Duration) {
	if b.N > 0 {
		b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
	}
}
