package toolmcp_test

import (
	"testing"

	"github.com/toolgen/toolgen/internal/storetest"
	"github.com/toolgen/toolgen/toolmcp"
)

// A MemoryStore keeps deferred approvals: one saved is taken once, whoever takes it
// at once, and resumed.
func TestMemoryStorePending(t *testing.T) {
	s := toolmcp.NewMemoryStore()
	storetest.Pending(t, s, s)
}
