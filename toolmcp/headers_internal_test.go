package toolmcp

import (
	"net/http"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
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

// TestMCPHeadersFine: the one pass without allocations that lets most requests through
// agrees with the sorted reading that names the wrong header, at each limit and one
// past it, and allocates nothing on the headers of a request of MCP 2026-07-28.
func TestMCPHeadersFine(t *testing.T) {
	params := func(n int) http.Header {
		h := http.Header{"Mcp-Method": {"tools/call"}, "Content-Type": {"application/json"}}
		for i := range n {
			h["Mcp-Param-P"+strings.Repeat("x", i)] = []string{"v"}
		}
		return h
	}
	cases := []struct {
		name string
		h    http.Header
		fine bool
	}{
		{"none", http.Header{}, true},
		{"a request", http.Header{"Mcp-Method": {"tools/call"}, "Mcp-Name": {"get_weather"}, "Mcp-Protocol-Version": {"2026-07-28"}, "Accept": {"*/*"}}, true},
		{"other headers twice", http.Header{"Accept": {"a", "b"}, "X-Bad": {"\x00"}}, true},
		{"MaxParamHeaders", params(MaxParamHeaders), true},
		{"one Mcp-Param past", params(MaxParamHeaders + 1), false},
		{"twice", http.Header{"Mcp-Name": {"a", "b"}}, false},
		{"twice, in lower case", http.Header{"mcp-param-x": {"a", "b"}}, false},
		{"MaxMCPHeaderBytes", http.Header{"Mcp-Name": {strings.Repeat("n", MaxMCPHeaderBytes)}}, true},
		{"one byte past", http.Header{"Mcp-Name": {strings.Repeat("n", MaxMCPHeaderBytes+1)}}, false},
		{"a tab", http.Header{"Mcp-Name": {"a\tb"}}, true},
		{"a control byte", http.Header{"MCP-PROTOCOL-VERSION": {"2026\x01"}}, false},
		{"not ASCII", http.Header{"Mcp-Param-R": {"Région"}}, false},
		{"a name not in ASCII", http.Header{"Mcp-Protocol-Vers\u0130on": {"\x7f"}}, false},
		{"a name not MCP's", http.Header{"Mcp-Nam\u212a": {"\x7f"}}, true},
	}
	for _, c := range cases {
		if got := mcpHeadersFine(c.h); got != c.fine {
			t.Errorf("%s: mcpHeadersFine %v, want %v", c.name, got, c.fine)
		}
		if problem := mcpHeadersProblem(c.h); (problem == "") != c.fine {
			t.Errorf("%s: mcpHeadersProblem %q, want fine %v", c.name, problem, c.fine)
		}
	}
	h := cases[1].h
	if n := testing.AllocsPerRun(100, func() { checkMCPHeaders(h) }); n != 0 {
		t.Errorf("checkMCPHeaders allocates %v times on fine headers", n)
	}
}

// TestMCPHeaderNameFirstByte checks mcpHeaderName's shortcuts against strings.ToLower's
// reading: its exact comparisons of the canonical names (and their neighbours), and
// that a name is not one of MCP's unless it starts with m or M, for every rune before
// the rest of each name, in several cases.
func TestMCPHeaderNameFirstByte(t *testing.T) {
	slow := func(name string) (bool, bool) {
		lower := strings.ToLower(name)
		param := strings.HasPrefix(lower, "mcp-param-")
		return param || lower == "mcp-method" || lower == "mcp-name" || lower == "mcp-protocol-version", param
	}
	// The canonical names, compared exactly first, and their neighbours.
	for _, name := range []string{"Mcp-Method", "Mcp-Name", "Mcp-Protocol-Version", "Mcp-Session-Id",
		"Mcp-Param-", "Mcp-Param-Region", "Mcp-Param", "Mcp-Methods", "Mcp-Nam", "MCP-PROTOCOL-VERSION",
		"mcp-param-x", "Mcp-Param\u00e9-", "Mcp-Protocol-Versio", "M", "Mcp-"} {
		h, p := mcpHeaderName(name)
		if wh, wp := slow(name); h != wh || p != wp {
			t.Fatalf("mcpHeaderName(%q) = %v, %v; strings.ToLower reads %v, %v", name, h, p, wh, wp)
		}
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		for _, rest := range []string{"cp-method", "CP-NAME", "cp-protocol-version", "Cp-Param-X", "cp-Method", "cp-Name", "cp-Session-Id", "cp-Param-"} {
			name := string(r) + rest
			h, p := mcpHeaderName(name)
			if wh, wp := slow(name); h != wh || p != wp {
				t.Fatalf("mcpHeaderName(%q) = %v, %v; strings.ToLower reads %v, %v", name, h, p, wh, wp)
			}
		}
	}
}
