package toolmcp

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
)

// Under MCP 2026-07-28 a tool's structured result may be any JSON value (SEP-2106);
// before, it is an object. A toolgen tool whose value is not an object (a list, a
// string) has its value wrapped as {"result": value} and an output schema of that
// wrapper (runtime.Tool.OutputWrapped): to a client of 2026-07-28 toolmcp sends the
// value and its schema as they are, to older ones the wrapper, as before.

// unwrappedSchema returns the schema of a wrapped tool's value: the wrapper's
// "result" property, with the wrapper root's "$schema" and "$defs" (which the value's
// references point into) at its root. It returns nil for a schema not of that shape.
func unwrappedSchema(wrapper json.RawMessage) json.RawMessage {
	var root map[string]json.RawMessage
	var props map[string]json.RawMessage
	if json.Unmarshal(wrapper, &root) != nil || json.Unmarshal(root["properties"], &props) != nil {
		return nil
	}
	inner := bytes.TrimSpace(props["result"])
	if len(inner) < 2 || inner[0] != '{' {
		return nil
	}
	body := bytes.TrimSpace(inner[1 : len(inner)-1])
	var b bytes.Buffer
	b.WriteByte('{')
	member := func(key string, v json.RawMessage) {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	if v, ok := root["$schema"]; ok {
		member("$schema", v)
	}
	if len(body) > 0 {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.Write(body)
	}
	if v, ok := root["$defs"]; ok {
		member("$defs", v)
	}
	b.WriteByte('}')
	if !json.Valid(b.Bytes()) {
		return nil
	}
	return bytes.Clone(b.Bytes())
}

// unwrappedValue returns the value of a wrapped structured result {"result": value},
// or nil when it is not one.
func unwrappedValue(structured json.RawMessage) json.RawMessage {
	var w map[string]json.RawMessage
	if json.Unmarshal(structured, &w) != nil || len(w) != 1 || w["result"] == nil {
		return nil
	}
	return w["result"]
}

// unwrapResult turns the result of a wrapped tool, as Result made it, into the one a
// client of 2026-07-28 gets: the value as the structured content, and as the text
// block that held the wrapper's JSON.
func unwrapResult(out *mcp.CallToolResult) {
	raw, ok := out.StructuredContent.(json.RawMessage)
	if !ok {
		return
	}
	v := unwrappedValue(raw)
	if v == nil {
		return
	}
	for _, c := range out.Content {
		if tc, ok := c.(*mcp.TextContent); ok && tc.Text == string(raw) {
			tc.Text = string(v)
			break
		}
	}
	out.StructuredContent = v
}

// wrappedSchemas are the output schemas of the wrapped tools of one Register, by tool
// name: the wrapper's, as registered, and the value's, as clients of 2026-07-28 get
// it.
type wrappedSchemas map[string]struct{ wrapper, value json.RawMessage }

// registerOutputs adds to s, when ts has wrapped tools, the middleware that sends
// their values' schemas to clients of 2026-07-28 in tools/list. Each Register adds its
// own, for its own tools: a tool that a later Register replaced has another schema,
// and is left as it is.
func registerOutputs(s *mcp.Server, ts *runtime.Toolset) {
	ws := wrappedSchemas{}
	for _, t := range ts.Tools() {
		if inner := unwrappedSchema(t.OutputSchema); t.OutputWrapped && inner != nil {
			ws[t.Name] = struct{ wrapper, value json.RawMessage }{t.OutputSchema, inner}
		}
	}
	if len(ws) > 0 {
		s.AddReceivingMiddleware(ws.middleware)
	}
}

// middleware sends, to a client of 2026-07-28, the tools/list whose wrapped tools
// have the output schemas of their values.
func (ws wrappedSchemas) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		list, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok || method != "tools/list" || !modernRequest(req) {
			return res, err
		}
		out := *list
		out.Tools = make([]*mcp.Tool, len(list.Tools))
		for i, t := range list.Tools {
			out.Tools[i] = t
			if t == nil {
				continue
			}
			w, ok := ws[t.Name]
			if got, isRaw := t.OutputSchema.(json.RawMessage); ok && isRaw && bytes.Equal(got, w.wrapper) {
				c := *t
				c.OutputSchema = w.value
				out.Tools[i] = &c
			}
		}
		return &out, nil
	}
}

// modernRequest reports whether req follows MCP 2026-07-28: its _meta says so, or the
// session's initialize did.
func modernRequest(req mcp.Request) bool {
	if p := req.GetParams(); p != nil {
		if v, _ := p.GetMeta()[mcp.MetaKeyProtocolVersion].(string); v != "" {
			return v >= Revision20260728
		}
	}
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
		if ip := ss.InitializeParams(); ip != nil {
			return ip.ProtocolVersion >= Revision20260728
		}
	}
	return false
}
