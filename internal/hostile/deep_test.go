package hostile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/toolmcp"
)

// tree is a random put_tree argument: its JSON value, with the secrets (pins and lock
// codes) it holds at every depth.
type tree struct {
	root    map[string]any
	secrets []string
}

// randomTree builds an entry of depth levels at most: each holds a pin and a lock
// (with locks behind it), and entries below it as a child, kids or by name. asString
// writes some entries (and locks) as JSON strings holding them, which the decoder
// reads as the object (the double-encoding leniency).
func randomTree(rng *rand.Rand, depth int, asString bool, n *int, secrets *[]string) any {
	*n++
	e := map[string]any{"name": fmt.Sprintf("entry %d", *n)}
	if rng.IntN(4) > 0 {
		pin := fmt.Sprintf("PIN-%d-%x", *n, rng.Uint32())
		*secrets = append(*secrets, pin)
		e["pin"] = pin
	}
	lock := e
	for range rng.IntN(3) {
		code := fmt.Sprintf("CODE-%d-%x", *n, rng.Uint32())
		*secrets = append(*secrets, code)
		lock["code"] = code
		next := map[string]any{}
		if rng.IntN(2) == 0 {
			lock["behind"] = next
		}
		lock = next
	}
	if depth > 0 {
		switch rng.IntN(4) {
		case 0:
			e["child"] = maybeString(rng, asString, randomTree(rng, depth-1, asString, n, secrets))
		case 1:
			var kids []any
			for range 1 + rng.IntN(2) {
				kids = append(kids, randomTree(rng, depth-1, asString, n, secrets))
			}
			e["kids"] = kids
		case 2:
			e["byName"] = map[string]any{fmt.Sprintf("k%d", *n): randomTree(rng, depth-1, asString, n, secrets)}
		}
	}
	return e
}

func maybeString(rng *rand.Rand, asString bool, v any) any {
	if !asString || rng.IntN(2) == 0 {
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// treeArgs returns put_tree arguments for root.
func treeArgs(root any) string {
	b, err := json.Marshal(map[string]any{"label": "codes", "root": root})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestSensitiveAtEveryDepth (issue 19, item 3): over random trees of a recursive type
// (pins and lock codes in entries below entries, in lists, in maps, in an embedded
// struct with locks behind locks, some entries sent as JSON strings, the arguments
// encoded twice), no secret reaches the model's text, the events, the slog lines, the
// approval prompt, Redact or the Pending a deferred turn returns; and where a secret
// breaks its schema at depth, the violation does not echo it either.
func TestSensitiveAtEveryDepth(t *testing.T) {
	tool, _ := VaultTools(NewVault()).Lookup("put_tree")
	for _, want := range []string{"/root/**/pin", "/root/**/code"} {
		if !strings.Contains(strings.Join(tool.Sensitive, " "), want) {
			t.Fatalf("Sensitive %q does not reach %s at every depth", tool.Sensitive, want)
		}
	}
	rng := rand.New(rand.NewPCG(19, 3))
	for i := range 200 {
		var secrets []string
		n := 0
		root := randomTree(rng, 1+rng.IntN(5), i%2 == 1, &n, &secrets)
		args := treeArgs(root)
		if i%5 == 4 {
			args = jsonString(args)
		}
		c := newCapture(t, true)
		res := callDone(t, c.tools, context.Background(), "put_tree", []byte(args))
		if res.IsError {
			t.Fatalf("valid arguments refused: %s\nargs: %s", res.Text(), args)
		}
		if trees := c.vault.Trees(); len(trees) != 1 {
			t.Fatalf("the tool stored %d trees", len(trees))
		}
		surfaces := c.surfaces(t, "put_tree", []byte(args), res, false)
		surfaces = append(surfaces, surface{"Pending.Calls[0].Redacted", string(pendingRedacted(t, args))})
		assertNoLeak(t, surfaces, secrets...)
		if t.Failed() {
			t.Fatalf("args: %s", args)
		}
	}
}

// TestSensitiveInvalidAtDepth: a pin or a lock code that breaks its schema deep in a
// tree (too short, a number, an object, a duplicate) is refused without its value in
// the error, the events or the logs; one of invalid UTF-8, which the decoder reads,
// is not shown either.
func TestSensitiveInvalidAtDepth(t *testing.T) {
	deep := func(leaf string) string {
		return `{"label":"codes","root":{"name":"a","child":{"name":"b","kids":[{"name":"c","byName":{"x":{"name":"d",` + leaf + `}}}]}}}`
	}
	for _, tc := range []struct {
		leaf, secret string
		valid        bool // the decoder reads it (invalid UTF-8 as U+FFFD)
	}{
		{`"pin":"Zq9"`, "Zq9", false},
		{`"pin":31415926535`, "31415926535", false},
		{`"pin":{"k":"S3CR3T-obj"}`, "S3CR3T-obj", false},
		{`"pin":["S3CR3T-arr"]`, "S3CR3T-arr", false},
		{`"code":2718281828`, "2718281828", false},
		{`"behind":{"behind":{"code":true,"x":1}}`, "(got true)", false},
		{`"behind":{"behind":{"code":"S3CR3T-late","code":"S3CR3T-twice"}}`, "S3CR3T-twice", false},
		{`"behind":"{\"code\":161803398}"`, "161803398", false},
		{"\"pin\":\"S3\xffCR3T\"", "CR3T", true},
	} {
		args := deep(tc.leaf)
		c := newCapture(t, true)
		res := callDone(t, c.tools, context.Background(), "put_tree", []byte(args))
		if res.IsError == tc.valid {
			t.Errorf("%s: refused %v: %s", tc.leaf, res.IsError, res.Text())
		}
		assertNoLeak(t, c.surfaces(t, "put_tree", []byte(args), res, false), tc.secret)
	}
}

// pendingRedacted runs a turn calling put_tree with args through a Loop that defers
// approvals, and returns the Redacted arguments of its Pending.
func pendingRedacted(t *testing.T, args string) json.RawMessage {
	t.Helper()
	send, _ := script(wires[0].calls([3]string{"c1", "put_tree", args}), wires[0].answer)
	lp := loop.Loop{Provider: wires[0].provider, Tools: VaultTools(NewVault()), Send: send, DeferApprovals: true}
	_, _, err := lp.Run(context.Background(), []byte(wires[0].request))
	var p *loop.Pending
	if !errors.As(err, &p) || len(p.Calls) != 1 || !p.Calls[0].NeedsApproval {
		t.Fatalf("Run: %v", err)
	}
	return p.Calls[0].Redacted
}

// TestSensitiveAtDepthElicited: the message toolmcp.ElicitApprover shows the user,
// through the MCP Go SDK's client, holds no secret of a deep tree.
func TestSensitiveAtDepthElicited(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	server := mcp.NewServer(&mcp.Implementation{Name: "hostile", Version: "v0.0.1"}, nil)
	toolmcp.Register(server, VaultTools(NewVault()).WithApprover(toolmcp.ElicitApprover()))
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v0.0.1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			asked = append(asked, req.Params.Message)
			mu.Unlock()
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
		},
	})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	rng := rand.New(rand.NewPCG(19, 4))
	for i := range 20 {
		var secrets []string
		n := 0
		args := treeArgs(randomTree(rng, 2+rng.IntN(4), i%2 == 1, &n, &secrets))
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "put_tree", Arguments: json.RawMessage(args)})
		if err != nil || res.IsError {
			t.Fatalf("call: %v %+v", err, res)
		}
		mu.Lock()
		if len(asked) != i+1 || !strings.Contains(asked[i], runtime.Redacted) {
			t.Fatalf("the user was asked %q", asked)
		}
		assertNoLeak(t, []surface{{"elicitation message", asked[i]}}, secrets...)
		mu.Unlock()
	}
}
