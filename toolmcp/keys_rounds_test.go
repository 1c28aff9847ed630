package toolmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/client"
	"github.com/toolgen/toolgen/toolmcp"
)

// TestRoots: client.Roots lists the go-sdk client's roots under MCP 2025-11-25 (a
// request while the call waits) and 2026-07-28 (an input-required round); a client
// that declares no roots gets errors.ErrUnsupported, and under 2026-07-28 the call
// that fails of it -32021.
func TestRoots(t *testing.T) {
	ts := askTool(t, func(ctx context.Context) (string, error) {
		roots, err := client.Roots(ctx, &client.RootsRequest{Key: "client_roots"})
		if err != nil {
			return "", err
		}
		var b strings.Builder
		for _, r := range roots {
			fmt.Fprintf(&b, "%s %s;", r.URI, r.Name)
		}
		return b.String(), nil
	})
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			s := newServer()
			toolmcp.Register(s, ts)
			ctx := context.Background()
			ct, st := mcp.NewInMemoryTransports()
			ss, err := s.Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{}}})
			c.AddRoots(&mcp.Root{URI: "file:///work", Name: "work"})
			cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res := call(t, cs, "ask", map[string]any{})
			if res.IsError || text(res) != "file:///work work;" {
				t.Errorf("roots: %s", text(res))
			}
		})
	}
	none := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}
	res := call(t, clientOf(t, ts, classic, none), "ask", map[string]any{})
	if !res.IsError || !strings.Contains(text(res), "does not declare the roots capability") {
		t.Errorf("%s, no roots: %s", classic, text(res))
	}
	_, err := clientOf(t, ts, "2026-07-28", none).CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{}})
	var jerr *jsonrpc.Error
	if !errors.As(err, &jerr) || jerr.Code != mcp.CodeMissingRequiredClientCapabilities || string(jerr.Data) != `{"requiredCapabilities":{"roots":{}}}` {
		t.Errorf("2026-07-28, no roots: %v", err)
	}
}

// TestNamedKeys: under MCP 2026-07-28 a request the tool names (Key) goes under that
// key in the input-required result; the client's answer under it is taken even
// before it is asked (no state), and extra answers are ignored; an answer under an
// auto-named key (toolgen_ask_1) is not, without the round that asked it. A key
// against client.InputKeyRules, or one key for two requests of a run, is the tool's
// error.
func TestNamedKeys(t *testing.T) {
	form := `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`
	named := askTool(t, func(ctx context.Context) (string, error) {
		r, err := client.Elicit(ctx, &client.ElicitRequest{Key: "user_name", Message: "Name?", Schema: json.RawMessage(form)})
		if err != nil {
			return "", err
		}
		return "hello " + string(r.Content), nil
	})
	cs := clientOf(t, named, "2026-07-28", hostile)
	first := roundOf(t, cs, "ask", map[string]any{}, nil, "")
	if _, ok := first.InputRequests["user_name"]; !ok || len(first.InputRequests) != 1 || first.RequestState == "" {
		t.Fatalf("round 1: %s", jsonOf(t, first))
	}
	alice := &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Alice"}}
	for _, state := range []string{first.RequestState, ""} {
		answers := mcp.InputResponseMap{"user_name": alice, "unknown_extra": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"x": 1}}}
		if res := roundOf(t, cs, "ask", map[string]any{}, answers, state); res.IsError || text(res) != `hello {"name":"Alice"}` {
			t.Errorf("state %q: %s", state, jsonOf(t, res))
		}
	}
	// An answer to an auto-named request needs the round that asked it.
	auto := askTool(t, func(ctx context.Context) (string, error) {
		r, err := client.Elicit(ctx, &client.ElicitRequest{Message: "Name?", Schema: json.RawMessage(form)})
		if err != nil {
			return "", err
		}
		return "hello " + string(r.Content), nil
	})
	res := roundOf(t, clientOf(t, auto, "2026-07-28", hostile), "ask", map[string]any{}, mcp.InputResponseMap{"toolgen_ask_1": alice}, "")
	if _, ok := res.InputRequests["toolgen_ask_1"]; !ok {
		t.Errorf("an unasked answer to an auto-named request was taken: %s", jsonOf(t, res))
	}
	for _, c := range []struct{ key, says string }{
		{"toolgen_ask_1", `the request's key "toolgen_ask_1" is not`},
		{"a b", `the request's key "a b" is not`},
		{"a\nb", `the request's key "a\nb" is not`},
		{strings.Repeat("k", client.MaxInputKeyBytes+1), "is not 1 to 64"},
	} {
		bad := askTool(t, func(ctx context.Context) (string, error) {
			_, err := client.Elicit(ctx, &client.ElicitRequest{Key: c.key, Message: "?"})
			return "", err
		})
		for _, version := range versions {
			if res := call(t, clientOf(t, bad, version, hostile), "ask", map[string]any{}); !res.IsError || !strings.Contains(text(res), c.says) {
				t.Errorf("%s, key %q: %s", version, c.key, text(res))
			}
		}
	}
	ok := askTool(t, func(ctx context.Context) (string, error) {
		_, err := client.Elicit(ctx, &client.ElicitRequest{Key: strings.Repeat("k", client.MaxInputKeyBytes), Message: "?"})
		return "", err
	})
	if res := roundOf(t, clientOf(t, ok, "2026-07-28", hostile), "ask", map[string]any{}, nil, ""); len(res.InputRequests) != 1 {
		t.Errorf("a key of %d bytes: %s", client.MaxInputKeyBytes, jsonOf(t, res))
	}
	twice := askTool(t, func(ctx context.Context) (string, error) {
		_, err1 := client.Elicit(ctx, &client.ElicitRequest{Key: "k", Message: "first?"})
		_, err2 := client.Elicit(ctx, &client.ElicitRequest{Key: "k", Message: "second?"})
		return "", errors.Join(err1, err2)
	})
	cs = clientOf(t, twice, "2026-07-28", hostile)
	r1 := roundOf(t, cs, "ask", map[string]any{}, nil, "")
	if r2 := roundOf(t, cs, "ask", map[string]any{}, mcp.InputResponseMap{"k": &mcp.ElicitResult{Action: "accept"}}, r1.RequestState); !r2.IsError || !strings.Contains(text(r2), `the key "k" names another request of this call already`) {
		t.Errorf("one key twice: %s", jsonOf(t, r2))
	}
}

// TestTamperedState: a requestState of toolmcp's prefix changed on its way back (a
// suffix, a cut, a respelling) is refused with invalid params before the tool runs;
// the state as written goes on.
func TestTamperedState(t *testing.T) {
	runs := 0
	ts := askTool(t, func(ctx context.Context) (string, error) {
		runs++
		r, err := client.Elicit(ctx, &client.ElicitRequest{Key: "confirm", Message: "Sure?"})
		if err != nil {
			return "", err
		}
		return string(r.Action), nil
	})
	cs := clientOf(t, ts, "2026-07-28", hostile)
	first := roundOf(t, cs, "ask", map[string]any{}, nil, "")
	yes := mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept"}}
	for _, bad := range []string{first.RequestState + "-TAMPERED", first.RequestState[:len(first.RequestState)-2], first.RequestState + "\n", "tg1."} {
		before := runs
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{}, InputResponses: yes, RequestState: bad})
		var jerr *jsonrpc.Error
		if !errors.As(err, &jerr) || jerr.Code != jsonrpc.CodeInvalidParams || runs != before {
			t.Errorf("state %q: %v (the tool ran %d times)", bad, err, runs-before)
		}
	}
	if res := roundOf(t, cs, "ask", map[string]any{}, yes, first.RequestState); text(res) != "accept" {
		t.Errorf("the state as written: %s", jsonOf(t, res))
	}
}
