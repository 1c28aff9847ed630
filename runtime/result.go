package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Result is the outcome of one tool call: what the model reads, what the application
// keeps, and whether it failed. Call always returns one.
type Result struct {
	// IsError reports a failed call: unknown tool, invalid arguments, a denied, timed
	// out or canceled call, or an error returned by the tool.
	IsError bool
	// Content holds the result's blocks: text for the model, and any blocks meant for
	// the user (see Audience).
	Content []Content
	// Structured is the structured result as JSON (MCP structuredContent), conforming
	// to the tool's output schema; nil for text results.
	Structured json.RawMessage
	// Err is the underlying error of a failed call, complete, for logs and observers.
	// It is never sent to the model: an internal error reaches the model only as a
	// generic message.
	Err error
	// Outcome classifies how the call ended; Toolset.Call always sets it.
	Outcome Outcome

	reason    string // why a denied call was denied, or what an input_required one waits for
	textBytes int    // the model-facing text's length before the budget cut it, or 0
}

// Text returns the text the model reads: the text blocks meant for it, joined by
// newlines. For structured results that is the JSON of the structured value. Call
// bounds it, with the result's other blocks, by the tool's result budget (see
// Toolset.WithResultBudget).
func (r *Result) Text() string {
	var parts []string
	for _, c := range r.Content {
		if c.Type == ContentText && c.ForModel() {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// ContentType is the kind of a content block, named as in MCP.
type ContentType string

// The content block types.
const (
	ContentText         ContentType = "text"
	ContentImage        ContentType = "image"
	ContentAudio        ContentType = "audio"
	ContentResourceLink ContentType = "resource_link"
	// ContentResource is an embedded resource: its contents (Text, or Data for a
	// binary one) with its URI and MIMEType.
	ContentResource ContentType = "resource"
)

// Role is who a content block is meant for.
type Role string

// The roles of MCP's audience annotation.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Content is one block of a result.
type Content struct {
	Type ContentType
	// Text is a text block's text, or a text resource's contents.
	Text string
	// Data is an image or audio block's bytes, or a binary resource's contents.
	Data []byte
	// MIMEType is the media type of Data, of an embedded resource, or of the resource
	// a link points to.
	MIMEType string
	// URI identifies a linked or embedded resource, and Name a linked one.
	URI  string
	Name string
	// Audience lists who the block is for; empty means everyone. A block for the user
	// alone is shown to the user but not sent to the model by provider adapters.
	Audience []Role
}

// ForModel reports whether the block is meant for the model (the assistant).
func (c Content) ForModel() bool {
	return len(c.Audience) == 0 || slices.Contains(c.Audience, RoleAssistant)
}

// TextContent returns a text block for everyone.
func TextContent(text string) Content { return Content{Type: ContentText, Text: text} }

// UserText returns a text block shown to the user and not to the model.
func UserText(text string) Content {
	return Content{Type: ContentText, Text: text, Audience: []Role{RoleUser}}
}

// ImageContent returns an image block for everyone.
func ImageContent(data []byte, mimeType string) Content {
	return Content{Type: ContentImage, Data: data, MIMEType: mimeType}
}

// AudioContent returns an audio block for everyone.
func AudioContent(data []byte, mimeType string) Content {
	return Content{Type: ContentAudio, Data: data, MIMEType: mimeType}
}

// TextResource returns an embedded resource block for everyone holding text, the
// contents of the resource at uri. Provider adapters send the model only text blocks
// (Text), and Anthropic's images: an embedded resource reaches the model through MCP
// alone. The result budget counts it all the same, URI, MIME type and text.
func TextResource(uri, mimeType, text string) Content {
	return Content{Type: ContentResource, URI: uri, MIMEType: mimeType, Text: text}
}

// BlobResource returns an embedded resource block for everyone holding data, the
// binary contents of the resource at uri (see TextResource).
func BlobResource(uri, mimeType string, data []byte) Content {
	if data == nil {
		data = []byte{}
	}
	return Content{Type: ContentResource, URI: uri, MIMEType: mimeType, Data: data}
}

// TextResult returns a successful result holding text.
func TextResult(text string) *Result {
	return &Result{Content: []Content{TextContent(text)}, Outcome: OutcomeOK}
}

// ErrorResult returns a failed result whose text, msg, the model reads; err is kept for
// logs (it may be nil). A tool that returns it has the outcome tool_error.
func ErrorResult(msg string, err error) *Result {
	return errorResult(OutcomeToolError, msg, err)
}

func errorResult(o Outcome, msg string, err error) *Result {
	return &Result{IsError: true, Content: []Content{TextContent(msg)}, Err: err, Outcome: o}
}

// StructuredResult encodes v as the structured result, with its JSON as the text the
// model reads. With wrap, v is sent as {"result": v}, for output schemas whose root is
// not an object. The content blocks, if any, follow the JSON's text block: blocks for
// the user alone (UserText) are shown to the user and never sent to the model, so
// Text stays the JSON; blocks for the model add to what it reads. A tool of the shape
// (R, []runtime.Content, error) gets its result from it.
func StructuredResult(v any, wrap bool, content ...Content) (*Result, error) {
	if wrap {
		v = struct {
			Result any `json:"result"`
		}{v}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode the result: %w", err)
	}
	data := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	blocks := make([]Content, 0, 1+len(content))
	blocks = append(blocks, TextContent(string(data)))
	blocks = append(blocks, content...)
	return &Result{Content: blocks, Structured: data, Outcome: OutcomeOK}, nil
}

// okText is what the model reads after a tool that returns nothing succeeded, so that
// success never reads like a failure.
const okText = "ok"
