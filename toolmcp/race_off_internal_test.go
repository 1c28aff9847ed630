//go:build !race

package toolmcp

// raceEnabled reports a build with the race detector (see race_on_internal_test.go).
const raceEnabled = false
