package runtime

import (
	"github.com/toolgen/toolgen/runtime/internal/engine"
	prog "github.com/toolgen/toolgen/runtime/invalid/message"
)

// The text helpers runtime shares with the decoder (runtime/internal/engine), so
// that tool names, results and violations are cut and cleaned alike.

// cutName cuts a name for a message, keeping it valid UTF-8 (engine.CutName).
func cutName(s string) string { return engine.CutName(s) }

// cutText returns the longest prefix of s of at most n bytes that does not split a
// UTF-8 sequence (message.CutText).
func cutText(s string, n int) string { return prog.CutText(s, n) }

// validText returns s with each run of invalid UTF-8 bytes replaced by U+FFFD.
func validText(s string) string { return engine.ValidText(s) }

// nearest returns the name of known the model most likely meant by name, or "".
func nearest(name string, known []string) string { return engine.Nearest(name, known) }

// canonicalArgs returns the canonical form of a call's arguments, which Digest hashes.
func canonicalArgs(args []byte) []byte { return engine.CanonicalArgs(args) }
