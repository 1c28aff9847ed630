package toolmcp

import (
	"strings"
	"testing"
)

func TestTopLevelID(t *testing.T) {
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	for _, tc := range []struct{ in, want string }{
		{`{"jsonrpc":"2.0","id":7,"method":"x"}`, `7`},
		{` { "id" : "a\"b" , "x":1}`, `"a\"b"`},
		{`{"params":` + deep + `,"id":-1.5e3}`, `-1.5e3`},
		{`{"params":{"id":1},"id":2}`, `2`},
		{`{"params":"}\"{","id":3}`, `3`},
		{`{"id":4,"params":{"cut`, `4`},
		{`{"params":{"cut`, ``},
		{`{"id":null}`, ``},
		{`{"id":true}`, ``},
		{`{"id":{"a":1}}`, ``},
		{`{"id":1e400}`, ``},
		{`[{"id":1}]`, ``},
		{`{"id"`, ``},
		{``, ``},
	} {
		if got := string(topLevelID([]byte(tc.in))); got != tc.want {
			t.Errorf("topLevelID(%.60q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTopLevel(t *testing.T) {
	for _, tc := range []struct {
		in     string
		id     string
		method bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{"method":"x"}}`, `1`, false},
		{`{"jsonrpc":"2.0","id":"s","method":"ping"}`, `"s"`, true},
		{`{"method":"notifications/x","params":{}}`, ``, true},
		{`{"id":1,"result":{"cut`, `1`, false},
	} {
		id, method := topLevel([]byte(tc.in))
		if string(id) != tc.id || method != tc.method {
			t.Errorf("topLevel(%s) = %s, %v; want %s, %v", tc.in, id, method, tc.id, tc.method)
		}
	}
	for in, want := range map[string]string{`1`: `1`, `2.0`: `2`, `-3e2`: `-300`, `"a"`: `"a"`, `"\u0061"`: `"a"`} {
		if got := normalizeID([]byte(in)); got != want {
			t.Errorf("normalizeID(%s) = %s, want %s", in, got, want)
		}
	}
}
