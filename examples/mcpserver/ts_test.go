package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestTypeScriptClient runs e2e/mcp-ts/check.mjs: the official MCP TypeScript SDK's
// client starts the server binary over stdio, lists its tools and calls them. It skips
// only when node or the SDK (npm ci --prefix e2e/mcp-ts) is missing; .ci/run installs
// both, so CI never skips it.
func TestTypeScriptClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("skipping the TypeScript SDK check: node is not installed (.ci/run installs it)")
	}
	dir := filepath.Join("..", "..", "e2e", "mcp-ts")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Skip("skipping the TypeScript SDK check: e2e/mcp-ts/node_modules is missing; run npm ci --prefix e2e/mcp-ts")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, filepath.Join(dir, "check.mjs"), binary(t)).CombinedOutput()
	if err != nil {
		t.Fatalf("node e2e/mcp-ts/check.mjs: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
