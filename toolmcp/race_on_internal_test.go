//go:build race

package toolmcp

// raceEnabled reports a build with the race detector, whose instrumentation allocates:
// the tests that count allocations skip under it.
const raceEnabled = true
