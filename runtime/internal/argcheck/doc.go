// Package argcheck holds what the decoder of tool call arguments shares with the code
// toolgen generates and with dynamic tools, besides the decoder itself: the formats,
// the patterns, the presences and the property flags. Package runtime/toolimpl exports
// it to generated code; package runtime uses it. It is not under runtime's
// compatibility promise.
package argcheck
