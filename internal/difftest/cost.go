package difftest

import (
	"flag"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The cost property of a decoder: whatever the arguments, decoding them (and writing
// the model's text about them) allocates at most MaxBytesPerByte bytes for each byte
// of arguments, plus CostFloorBytes, and, while fuzzing, takes at most MaxNanosPerByte
// for each byte, plus CostFloorTime. The bounds are far above what the decoders need
// (docs/SECURITY.md has the measured figures), and the time floor above what a busy
// machine adds to a small input: they are there to catch a class of input whose cost
// grows faster than its size, which shows at any size past a few kilobytes.
const (
	MaxBytesPerByte = 64
	CostFloorBytes  = 64 << 10
	MaxNanosPerByte = 2000
	CostFloorTime   = 20 * time.Millisecond
)

// Cost is what one decoding cost.
type Cost struct {
	Bytes uint64        // allocated
	Time  time.Duration // the fastest of the runs timed, 0 when not timed
}

// CheckCost runs decode on args and reports on t when its cost breaks the bounds. The
// allocated bytes are always checked (they do not depend on the machine's load); the
// time is checked only while fuzzing (go test -fuzz), as the fastest of five runs, so
// that the fuzzer looks for slow inputs while ordinary test runs make no timed
// assertion.
func CheckCost(t testing.TB, what string, args []byte, decode func()) Cost {
	t.Helper()
	var c Cost
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	decode()
	runtime.ReadMemStats(&after)
	c.Bytes = after.TotalAlloc - before.TotalAlloc
	if limit := uint64(MaxBytesPerByte*len(args) + CostFloorBytes); c.Bytes > limit {
		t.Errorf("%s: decoding %d bytes allocated %d bytes (%.1f a byte), over the bound of %d: %s",
			what, len(args), c.Bytes, float64(c.Bytes)/float64(max(len(args), 1)), limit, Quote(args))
	}
	if !fuzzing() {
		return c
	}
	for i := range 5 {
		start := time.Now()
		decode()
		if d := time.Since(start); i == 0 || d < c.Time {
			c.Time = d
		}
	}
	if limit := time.Duration(MaxNanosPerByte*len(args)) + CostFloorTime; c.Time > limit {
		t.Errorf("%s: decoding %d bytes took %v (%.0f ns a byte), over the bound of %v: %s",
			what, len(args), c.Time, float64(c.Time)/float64(max(len(args), 1)), limit, Quote(args))
	}
	return c
}

// fuzzing reports whether the test binary runs with -test.fuzz.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// Fill repeats unit (each %d in it replaced by the unit's index), separated by commas,
// between open and close, to at most size bytes: the arguments of a cost family.
func Fill(open, unit, close string, size int) []byte {
	var b strings.Builder
	b.WriteString(open)
	for i := 0; ; i++ {
		u := strings.ReplaceAll(unit, "%d", strconv.Itoa(i))
		if b.Len()+1+len(u)+len(close) > size {
			break
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(u)
	}
	b.WriteString(close)
	return []byte(b.String())
}
