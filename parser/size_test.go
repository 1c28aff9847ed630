package parser

import (
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int{
		"256":        256,
		"256B":       256,
		"4096":       4096,
		"16KiB":      16 << 10,
		"16kib":      16 << 10,
		"64KB":       64000,
		"64kB":       64000,
		"1MiB":       1 << 20,
		"2MB":        2000000,
		"1GiB":       1 << 30,
		"1073741824": 1 << 30,
		"0016KiB":    16 << 10,
	} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"":                           "want a whole number",
		"KiB":                        "want a whole number",
		"16k":                        "want a whole number",
		"1.5MiB":                     "want a whole number",
		"-1KiB":                      "want a whole number",
		"+4096":                      "want a whole number",
		"16 KiB":                     "want a whole number",
		"0":                          "at least 256B",
		"255":                        "at least 256B",
		"255B":                       "at least 256B",
		"1073741825":                 "at most 1GiB",
		"2GiB":                       "at most 1GiB",
		"1025MiB":                    "at most 1GiB",
		"99999999999999999999999KiB": "at most 1GiB",
	} {
		if got, err := parseSize(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseSize(%q) = %d, %v; want an error saying %q", in, got, err, want)
		}
	}
}

// TestBudgetBoundsMatchRuntime keeps the option's smallest budget the runtime's.
func TestBudgetBoundsMatchRuntime(t *testing.T) {
	if minBudgetBytes != runtime.MinResultBytes {
		t.Errorf("budget= accepts budgets from %d bytes, the runtime from %d", minBudgetBytes, runtime.MinResultBytes)
	}
}
