package anthropic

import (
	"strings"

	"github.com/toolgen/toolgen/runtime"
)

// ToolResultMessage is the user message that answers the tool calls of one assistant
// turn: {"role":"user","content":[tool_result blocks]}. The API wants every tool_use of
// the turn answered in this one message, the tool_result blocks first; text for the
// model, if any, may follow them.
type ToolResultMessage struct {
	Role    string       `json:"role"`
	Content []ToolResult `json:"content"`
}

// ToolResult is a tool_result content block: the answer to the tool_use block whose
// id is ToolUseID.
type ToolResult struct {
	// Type is "tool_result".
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
	// Content is the text the model reads, a string, or, when the result holds images
	// for the model, a []ResultBlock of its text and image blocks in order; nil when
	// the result has nothing for the model.
	Content any `json:"content,omitempty"`
	// IsError marks a failed call.
	IsError bool `json:"is_error,omitempty"`
}

// ResultBlock is a text or image block of a tool_result's content.
type ResultBlock struct {
	// Type is "text" or "image".
	Type   string       `json:"type"`
	Text   string       `json:"text,omitempty"`
	Source *ImageSource `json:"source,omitempty"`
}

// ImageSource is the base64 source of an image block.
type ImageSource struct {
	// Type is "base64".
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	// Data is the image's bytes, base64 in JSON.
	Data []byte `json:"data"`
}

// ToolResults returns the user message that answers results, one tool_result block
// per result, in order. results are the answers to every tool_use of the turn, as
// runtime.Toolset.RunCalls returns them.
func ToolResults(results []runtime.CallResult) ToolResultMessage {
	blocks := make([]ToolResult, len(results))
	for i, r := range results {
		blocks[i] = Result(r)
	}
	return ToolResultMessage{Role: "user", Content: blocks}
}

// Result returns the tool_result block that answers one call: the result's text for
// the model (blocks meant for the user alone are left out), with is_error when the
// call failed.
func Result(r runtime.CallResult) ToolResult {
	out := ToolResult{Type: "tool_result", ToolUseID: r.Call.ID}
	res := r.Result
	if res == nil {
		res = runtime.ErrorResult(r.Call.Name+" returned no result", nil)
	}
	out.IsError = res.IsError
	if blocks := resultBlocks(res); blocks != nil {
		out.Content = blocks
	} else if text := res.Text(); text != "" {
		out.Content = text
	}
	return out
}

// resultBlocks returns the content of a result that holds images for the model as
// blocks, or nil for a result of text alone.
func resultBlocks(res *runtime.Result) []ResultBlock {
	hasImage := false
	for _, c := range res.Content {
		hasImage = hasImage || isImageForModel(c)
	}
	if !hasImage {
		return nil
	}
	var blocks []ResultBlock
	for _, c := range res.Content {
		switch {
		case c.Type == runtime.ContentText && c.Text != "" && c.ForModel():
			blocks = append(blocks, ResultBlock{Type: "text", Text: c.Text})
		case isImageForModel(c):
			blocks = append(blocks, ResultBlock{Type: "image", Source: &ImageSource{Type: "base64", MediaType: c.MIMEType, Data: c.Data}})
		}
	}
	return blocks
}

// isImageForModel reports whether c is an image the model should see.
func isImageForModel(c runtime.Content) bool {
	return c.Type == runtime.ContentImage && c.ForModel() && strings.HasPrefix(c.MIMEType, "image/")
}
