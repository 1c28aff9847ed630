package toolmcp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/toolmcp"
)

// serveRegion serves a tool whose region and n arguments are mirrored into the
// headers Mcp-Param-Region and Mcp-Param-N (SEP-2243) with NewHTTPHandler.
func serveRegion(t *testing.T) string {
	t.Helper()
	ts, err := runtime.NewTool(runtime.Tool{Name: "sql", InputSchema: json.RawMessage(`{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer","x-mcp-header":"N"},"q":{"type":"string"}}}`)},
		func(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
			return runtime.TextResult(string(args)), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	s := newServer()
	toolmcp.Register(s, ts)
	srv := httptest.NewServer(toolmcp.NewHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestParamHeaders: over HTTP under MCP 2026-07-28, a header parameter's Mcp-Param
// header must say what the argument says: a value that differs, a header missing for
// an argument present, one for an argument absent, a header sent twice (the SDK reads
// the first, a proxy the last), a value with a byte outside visible ASCII, one past
// MaxMCPHeaderBytes, more than MaxParamHeaders, or Mcp-Name or Mcp-Method twice, is
// answered with header mismatch (-32020, HTTP 400) before the tool runs; header names
// match in any case, and Base64 values are decoded. The go-sdk client sends them
// itself. (Control bytes, CR and LF among them, never reach the screen: net/http
// refuses such a header, on either side.)
func TestParamHeaders(t *testing.T) {
	url := serveRegion(t)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(context.Background(), nil); err != nil { // the client learns the headers
		t.Fatal(err)
	}
	for _, region := range []string{"us-west1", "Région", " padded ", "=?base64?x?="} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "sql", Arguments: map[string]any{"region": region, "n": 7}})
		if err != nil || res.IsError {
			t.Errorf("the go-sdk client, region %q: %v %+v", region, err, res)
		}
	}

	long := strings.Repeat("r", toolmcp.MaxMCPHeaderBytes)
	b64 := func(s string) string { return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?=" }
	params := func(args string) string { return `{"name":"sql","arguments":` + args + `,"_meta":` + meta2026 + `}` }
	many := http.Header{"Mcp-Param-Region": {"us"}}
	for i := range toolmcp.MaxParamHeaders - 1 {
		many.Set("Mcp-Param-X"+strconv.Itoa(i), "x")
	}
	tooMany := http.Header{"Mcp-Param-Extra": {"x"}}
	for k, v := range many {
		tooMany[k] = v
	}
	for _, c := range []struct {
		name   string
		args   string
		header http.Header
		ok     bool
		says   string
	}{
		{"match", `{"region":"us","n":7}`, http.Header{"Mcp-Param-Region": {"us"}, "Mcp-Param-N": {"7"}}, true, ""},
		{"name in another case", `{"region":"us"}`, http.Header{"mcp-param-REGION": {"us"}}, true, ""},
		{"an integer as 7.0", `{"n":7}`, http.Header{"Mcp-Param-N": {"7.0"}}, true, ""},
		{"base64", `{"region":"Région"}`, http.Header{"Mcp-Param-Region": {b64("Région")}}, true, ""},
		{"at the length limit", `{"region":"` + long + `"}`, http.Header{"Mcp-Param-Region": {long}}, true, ""},
		{"at the count limit", `{"region":"us"}`, many, true, ""},
		{"another value", `{"region":"us"}`, http.Header{"Mcp-Param-Region": {"eu"}}, false, "does not match"},
		{"another number", `{"n":7}`, http.Header{"Mcp-Param-N": {"8"}}, false, "does not match"},
		{"missing", `{"region":"us"}`, nil, false, "missing Mcp-Param-Region"},
		{"for an absent argument", `{"q":"x"}`, http.Header{"Mcp-Param-Region": {"us"}}, false, "absent or null"},
		{"for a null argument", `{"region":null}`, http.Header{"Mcp-Param-Region": {"us"}}, false, "absent or null"},
		{"twice", `{"region":"us"}`, http.Header{"Mcp-Param-Region": {"us", "eu"}}, false, `"Mcp-Param-Region" appears 2 times`},
		{"twice in two cases", `{"region":"us"}`, http.Header{"Mcp-Param-Region": {"us"}, "mcp-param-region": {"eu"}}, false, "appears 2 times"},
		{"Mcp-Name twice", `{"region":"us"}`, http.Header{"Mcp-Param-Region": {"us"}, "Mcp-Name": {"sql", "other"}}, false, `"Mcp-Name" appears 2 times`},
		{"Mcp-Method twice", `{"region":"us"}`, http.Header{"Mcp-Param-Region": {"us"}, "Mcp-Method": {"tools/call", "tools/list"}}, false, `"Mcp-Method" appears 2 times`},
		{"raw UTF-8", `{"region":"Région"}`, http.Header{"Mcp-Param-Region": {"Région"}}, false, "holds the byte 0xC3"},
		{"raw UTF-8 in Mcp-Name", `{"region":"us"}`, http.Header{"Mcp-Param-Region": {"us"}, "Mcp-Name": {"sqlé"}}, false, "holds the byte 0xC3"},
		{"past the length limit", `{"region":"` + long + `r"}`, http.Header{"Mcp-Param-Region": {long + "r"}}, false, "longer than 8192 bytes"},
		{"past the count limit", `{"region":"us"}`, tooMany, false, "more than 64 Mcp-Param headers"},
		{"bad base64", `{"region":"Hello"}`, http.Header{"Mcp-Param-Region": {"=?base64?SGVsbG8?="}}, false, "invalid Base64"},
		{"hex float", `{"n":42}`, http.Header{"Mcp-Param-N": {"0x2Ap0"}}, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, m := post2026(t, url, "tools/call", "sql", params(c.args), c.header)
			if c.ok {
				if status != http.StatusOK || m.Error != nil {
					t.Errorf("HTTP %d, %+v; want the result", status, m)
				}
				return
			}
			if status != http.StatusBadRequest || m.Error == nil || m.Error.Code != mcp.CodeHeaderMismatch || !strings.Contains(m.Error.Message, c.says) || string(m.ID) != "1" {
				t.Errorf("HTTP %d, %+v; want 400, -32020 saying %q, id 1", status, m, c.says)
			}
		})
	}
}
