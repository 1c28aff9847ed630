package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/examples/conformance/suite"
)

// required are the scenarios of the pinned suite that the server must pass: every
// tools-*, json-schema-* and elicitation-* one, and four of the protocol's own. The
// test runs every scenario of the suite's list with those prefixes or names, and
// checks that the list still has all of these.
var required = []string{
	"server-initialize", "ping", "logging-set-level", "dns-rebinding-protection",
	"tools-list", "tools-call-simple-text", "tools-call-image", "tools-call-audio",
	"tools-call-embedded-resource", "tools-call-mixed-content", "tools-call-with-logging",
	"tools-call-error", "tools-call-with-progress", "tools-call-sampling",
	"tools-call-elicitation", "json-schema-2020-12", "elicitation-sep1034-defaults",
	"elicitation-sep1330-enums",
}

func wanted(scenario string) bool {
	for _, p := range []string{"tools-", "json-schema-", "elicitation-"} {
		if strings.HasPrefix(scenario, p) {
			return true
		}
	}
	return slices.Contains(required, scenario)
}

// suiteCLI returns node and the pinned suite's command (npm ci --prefix
// e2e/conformance). It skips when either is missing, except under CI (.ci/run installs
// both), where it fails.
func suiteCLI(t *testing.T) (node, cli string) {
	t.Helper()
	missing := func(msg string) {
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip("skipping the MCP conformance suite: " + msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed (.ci/run installs it)")
	}
	cli = filepath.Join("..", "..", "e2e", "conformance", "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	if _, err := os.Stat(cli); err != nil {
		missing("e2e/conformance/node_modules is missing; run npm ci --prefix e2e/conformance")
	}
	return node, cli
}

// startServer builds the command, starts it with -http on a free loopback port, and
// returns its URL. Its log goes to the test's log when the test fails.
func startServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "conformance")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var log strings.Builder
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			mu.Lock()
			log.WriteString(line + "\n")
			mu.Unlock()
			if _, url, ok := strings.Cut(line, " url="); ok {
				select {
				case urls <- url:
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
		if t.Failed() {
			mu.Lock()
			t.Logf("the server's log:\n%s", log.String())
			mu.Unlock()
		}
	})
	select {
	case url := <-urls:
		return url
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not say where it listens")
	}
	return ""
}

// TestConformanceSuite runs the official MCP conformance suite, at the version
// e2e/conformance pins, against the server: every scenario of the tools, JSON Schema and
// elicitation groups, and the protocol's initialize, ping, logging/setLevel and DNS
// rebinding protection. Each must pass every check.
func TestConformanceSuite(t *testing.T) {
	node, cli := suiteCLI(t)
	url := startServer(t)

	out, err := exec.Command(node, cli, "list", "--server").CombinedOutput()
	if err != nil {
		t.Fatalf("conformance list: %v\n%s", err, out)
	}
	var scenarios []string
	for _, line := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok && wanted(name) {
			scenarios = append(scenarios, name)
		}
	}
	for _, name := range required {
		if !slices.Contains(scenarios, name) {
			t.Errorf("the suite has no scenario %s; its list:\n%s", name, out)
		}
	}
	for _, scenario := range scenarios {
		t.Run(scenario, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			out, err := exec.CommandContext(ctx, node, cli, "server", "--url", url, "--scenario", scenario, "-o", dir).CombinedOutput()
			if err != nil {
				t.Errorf("conformance server --scenario %s: %v\n%s", scenario, err, out)
			}
			checks, _ := filepath.Glob(filepath.Join(dir, "*", "checks.json"))
			if len(checks) != 1 {
				t.Fatalf("%d checks.json files in %s\n%s", len(checks), dir, out)
			}
			data, err := os.ReadFile(checks[0])
			if err != nil {
				t.Fatal(err)
			}
			var results []struct {
				ID           string `json:"id"`
				Status       string `json:"status"`
				ErrorMessage string `json:"errorMessage"`
			}
			if err := json.Unmarshal(data, &results); err != nil {
				t.Fatalf("checks.json: %v", err)
			}
			passed := 0
			for _, r := range results {
				switch r.Status {
				case "SUCCESS":
					passed++
				case "INFO":
				default:
					t.Errorf("%s: %s: %s", r.ID, r.Status, r.ErrorMessage)
				}
			}
			if passed == 0 {
				t.Errorf("no check passed:\n%s", data)
			}
		})
	}
}

// TestOutsideMCP calls the tools that ask the client with no client: each fails with a
// message saying why, and the others work as they do over MCP.
func TestOutsideMCP(t *testing.T) {
	ts := suite.Tools()
	ctx := context.Background()
	for _, c := range []struct{ tool, args, want string }{
		{"test_sampling", `{"prompt":"hi"}`, "sampling failed: sampling: no client serves this call"},
		{"test_elicitation", `{"message":"hi"}`, "elicitation failed: elicitation: no client serves this call"},
		{"test_elicitation_sep1034_defaults", `{}`, "elicitation failed"},
	} {
		res := ts.Call(ctx, c.tool, []byte(c.args))
		if !res.IsError || !strings.HasPrefix(res.Text(), c.want) {
			t.Errorf("%s: %q, want an error starting %q", c.tool, res.Text(), c.want)
		}
	}
	if res := ts.Call(ctx, "test_tool_with_logging", []byte(`{}`)); res.IsError || res.Text() != "Tool with logging executed successfully" {
		t.Errorf("test_tool_with_logging: %q", res.Text())
	}
	if res := ts.Call(ctx, "test_sampling", []byte(`{"prompt":""}`)); !res.IsError || !strings.Contains(res.Text(), "/prompt") {
		t.Errorf("an empty prompt: %q", res.Text())
	}
}

// TestGoClient calls the tools that ask the client with the official Go SDK's client,
// under MCP 2026-07-28 (its default, where the answers come with the call sent again)
// and 2025-11-25 (where the server asks while the call waits): both get the answers.
func TestGoClient(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("version="+version, func(t *testing.T) {
			s := newServer(slog.New(slog.DiscardHandler))
			ct, st := mcp.NewInMemoryTransports()
			ctx := context.Background()
			ss, err := s.Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
				CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
					return &mcp.CreateMessageResult{Role: "assistant", Content: &mcp.TextContent{Text: "blue"}, Model: "m"}, nil
				},
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"username": "ada", "email": "ada@example.com"}}, nil
				},
			})
			cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			for _, c := range []struct{ tool, args, want string }{
				{"test_sampling", `{"prompt":"colour?"}`, "LLM response: blue"},
				{"test_elicitation", `{"message":"who?"}`, `User response: action=accept, content={"email":"ada@example.com","username":"ada"}`},
			} {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: json.RawMessage(c.args)})
				if err != nil {
					t.Fatalf("%s: %v", c.tool, err)
				}
				var got string
				if len(res.Content) == 1 {
					if tc, ok := res.Content[0].(*mcp.TextContent); ok {
						got = tc.Text
					}
				}
				if res.IsError || got != c.want {
					t.Errorf("%s: %q, want %q", c.tool, got, c.want)
				}
			}
		})
	}
}
