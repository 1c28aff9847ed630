package runtime

import "github.com/toolgen/toolgen/runtime/mcpheader"

// HeaderParams returns the properties of the tool's arguments that its input schema
// mirrors into HTTP headers (MCP SEP-2243's x-mcp-header), sorted by path, or an error
// naming an annotation SEP-2243 refuses, as mcpheader.Params reads them. A client must
// drop a tool with such an annotation, so NewTool refuses it.
func (t *Tool) HeaderParams() ([]mcpheader.Param, error) { return mcpheader.Params(t.InputSchema) }
