package toolmcp

import (
	"net/http"
	"strings"
	"testing"
)

// FuzzCheckMCPHeaders: checkMCPHeaders never passes an MCP header sent twice, past
// MaxMCPHeaderBytes, or holding a byte outside visible ASCII, space and tab, and passes
// any other; headers that are not MCP's are not its business.
func FuzzCheckMCPHeaders(f *testing.F) {
	f.Add("Mcp-Param-Region", "us-west1", "")
	f.Add("mcp-param-region", "Région", "eu")
	f.Add("Mcp-Name", "a\tb", "")
	f.Add("X-Other", "\x00", "")
	f.Add("Mcp-Method", "=?base64?SGVsbG8=?=", "tools/call")
	f.Fuzz(func(t *testing.T, name, value, second string) {
		h := http.Header{}
		h.Add(name, value)
		if second != "" {
			h.Add(name, second)
		}
		msg := checkMCPHeaders(h)
		lower := strings.ToLower(http.CanonicalHeaderKey(name))
		mcpHeader := strings.HasPrefix(lower, "mcp-param-") || lower == "mcp-method" || lower == "mcp-name" || lower == "mcp-protocol-version"
		bad := second != "" || len(value) > MaxMCPHeaderBytes
		for _, v := range []string{value, second} {
			for i := 0; i < len(v); i++ {
				if c := v[i]; c != '\t' && (c < 0x20 || c > 0x7e) {
					bad = true
				}
			}
		}
		if !mcpHeader && msg != "" {
			t.Fatalf("%q: %q refused: %s", name, value, msg)
		}
		if mcpHeader && bad != (msg != "") {
			t.Fatalf("%q: %q, %q: refused %v (%s), want %v", name, value, second, msg != "", msg, bad)
		}
	})
}
