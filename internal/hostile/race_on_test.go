//go:build race

package hostile

// raceEnabled reports a build with the race detector, whose instrumentation allocates:
// the bounds on allocated bytes are not asserted under it.
const raceEnabled = true
