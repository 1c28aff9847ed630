//go:build !unix

package toolmcp_test

import (
	"testing"
	"time"
)

// processCPU is 0 where getrusage is not at hand.
func processCPU() time.Duration { return 0 }

// reportCPU reports cpu-ns/op on unix alone.
func reportCPU(*testing.B, time.Duration) {}
