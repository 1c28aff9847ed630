// Package taskclient is a client of MCP's tasks extension over streamable HTTP, for
// the tests of toolmcp and toolpostgres: raw JSON-RPC under MCP 2026-07-28 (each
// request carries its protocol version, client info and capabilities in _meta, and
// the Mcp-Method and Mcp-Name headers), since the Go SDK's client has no tasks.
package taskclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Extension is the tasks extension's identifier.
const Extension = "io.modelcontextprotocol/tasks"

// A Client sends requests to one MCP endpoint.
type Client struct {
	// URL is the endpoint, such as http://127.0.0.1:8080/mcp.
	URL string
	// Header is added to every request (an identity, a token).
	Header http.Header
	// Override replaces the headers the client sets, after it set them (a wrong
	// Mcp-Name, for a test of the server's check).
	Override http.Header
	// Capabilities are the client capabilities sent in each request's _meta; nil
	// sends the tasks extension, elicitation and sampling.
	Capabilities map[string]any

	id atomic.Int64
}

// Error is a JSON-RPC error response.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// Task is a task as tasks/get and a CreateTaskResult give it, with the rest of the
// result.
type Task struct {
	ResultType     string                     `json:"resultType"`
	TaskID         string                     `json:"taskId"`
	Status         string                     `json:"status"`
	StatusMessage  string                     `json:"statusMessage"`
	CreatedAt      string                     `json:"createdAt"`
	LastUpdatedAt  string                     `json:"lastUpdatedAt"`
	TTLMs          *int64                     `json:"ttlMs"`
	PollIntervalMs int64                      `json:"pollIntervalMs"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests"`
	Result         json.RawMessage            `json:"result"`
	Error          *Error                     `json:"error"`
	Raw            json.RawMessage            `json:"-"`
}

// Call sends method with params and returns the raw result, or the JSON-RPC error
// as an *Error.
func (c *Client) Call(ctx context.Context, method string, params map[string]any) (json.RawMessage, error) {
	if params == nil {
		params = map[string]any{}
	}
	caps := c.Capabilities
	if caps == nil {
		caps = map[string]any{"elicitation": map[string]any{}, "sampling": map[string]any{},
			"extensions": map[string]any{Extension: map[string]any{}}}
	}
	meta, _ := params["_meta"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	meta["io.modelcontextprotocol/protocolVersion"] = "2026-07-28"
	meta["io.modelcontextprotocol/clientInfo"] = map[string]any{"name": "taskclient", "version": "v0"}
	if _, ok := meta["io.modelcontextprotocol/clientCapabilities"]; !ok {
		meta["io.modelcontextprotocol/clientCapabilities"] = caps
	}
	params["_meta"] = meta
	id := c.id.Add(1)
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, v := range c.Header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	switch method {
	case "tools/call":
		req.Header.Set("Mcp-Name", fmt.Sprint(params["name"]))
	case "tasks/get", "tasks/update", "tasks/cancel":
		req.Header.Set("Mcp-Name", fmt.Sprint(params["taskId"]))
	}
	for k, v := range c.Override {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := readResponse(resp)
	if err != nil {
		return nil, fmt.Errorf("%s: HTTP %d: %w", method, resp.StatusCode, err)
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
		Error  *Error          `json:"error"`
	}
	if err := json.Unmarshal(raw, &msg); err != nil {
		return nil, fmt.Errorf("%s: HTTP %d: %w: %s", method, resp.StatusCode, err, raw)
	}
	if msg.Error != nil {
		return nil, msg.Error
	}
	return msg.Result, nil
}

// readResponse returns the JSON-RPC response of a body: JSON, or the last data line
// of an event stream.
func readResponse(resp *http.Response) ([]byte, error) {
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	}
	var last []byte
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:")); ok {
			d := bytes.TrimSpace(data)
			if bytes.Contains(d, []byte(`"result"`)) || bytes.Contains(d, []byte(`"error"`)) {
				last = bytes.Clone(d)
			}
		}
	}
	if last == nil {
		return nil, fmt.Errorf("no response in the event stream: %v", sc.Err())
	}
	return last, nil
}

// CallTool calls the tool name and returns its result as a Task: a task when
// ResultType is "task", else the tool's result in Raw.
func (c *Client) CallTool(ctx context.Context, name string, args any) (*Task, error) {
	return c.task(c.Call(ctx, "tools/call", map[string]any{"name": name, "arguments": args}))
}

// Get sends tasks/get.
func (c *Client) Get(ctx context.Context, id string) (*Task, error) {
	return c.task(c.Call(ctx, "tasks/get", map[string]any{"taskId": id}))
}

// Update sends tasks/update with the answers.
func (c *Client) Update(ctx context.Context, id string, answers map[string]any) (json.RawMessage, error) {
	return c.Call(ctx, "tasks/update", map[string]any{"taskId": id, "inputResponses": answers})
}

// Cancel sends tasks/cancel.
func (c *Client) Cancel(ctx context.Context, id string) (json.RawMessage, error) {
	return c.Call(ctx, "tasks/cancel", map[string]any{"taskId": id})
}

func (c *Client) task(raw json.RawMessage, err error) (*Task, error) {
	if err != nil {
		return nil, err
	}
	var t Task
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, err
	}
	t.Raw = raw
	return &t, nil
}

// Await polls tasks/get until the task's status is one of statuses (or terminal when
// none is given), or ctx ends.
func (c *Client) Await(ctx context.Context, id string, statuses ...string) (*Task, error) {
	for {
		t, err := c.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		for _, s := range statuses {
			if t.Status == s {
				return t, nil
			}
		}
		switch t.Status {
		case "completed", "failed", "cancelled":
			if len(statuses) == 0 {
				return t, nil
			}
			return t, fmt.Errorf("task %s ended %s, never %v", id, t.Status, statuses)
		}
		select {
		case <-ctx.Done():
			return t, fmt.Errorf("task %s still %s: %w", id, t.Status, ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}
