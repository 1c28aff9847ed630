package wire_test

import (
	"testing"

	"github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/runtime/openai"
)

// TestNilToolsetOffersNothing checks that every adapter offers no tools for a nil
// Toolset, without a panic.
func TestNilToolsetOffersNothing(t *testing.T) {
	if n := len(anthropic.Tools(nil)); n != 0 {
		t.Errorf("anthropic: %d tools", n)
	}
	if d := gemini.Tools(nil); len(d) != 0 && len(d[0].FunctionDeclarations) != 0 {
		t.Errorf("gemini: %v", d)
	}
	if n := len(openai.ChatTools(nil)) + len(openai.ResponsesTools(nil)); n != 0 {
		t.Errorf("openai: %d tools", n)
	}
}
