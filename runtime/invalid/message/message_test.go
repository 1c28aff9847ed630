package message

import (
	"strings"
	"testing"
)

func TestOneOf(t *testing.T) {
	for _, tc := range []struct {
		vals []string
		want string
	}{
		{[]string{`"a"`}, `must be "a"`},
		{[]string{`"a"`, `1`, `null`}, `must be one of "a", 1, null`},
	} {
		if got := OneOf(tc.vals); got != tc.want {
			t.Errorf("OneOf(%q) = %q, want %q", tc.vals, got, tc.want)
		}
	}
}

// TestCutListAtTheLimit: a list of MaxListedBytes bytes is written whole; one more
// byte cuts it, saying how many items are left out; one item past the limit is cut
// at a rune's start.
func TestCutListAtTheLimit(t *testing.T) {
	item := strings.Repeat("x", 98) // with ", ": 100 bytes an item after the first
	four := []string{item + "xx", item, item, item}
	if got := CutList(four); len(got) != MaxListedBytes || strings.Contains(got, "more") {
		t.Errorf("at the limit: %d bytes %q", len(got), got)
	}
	five := append(four, item)
	if got := CutList(five); !strings.HasSuffix(got, ", … (1 more)") {
		t.Errorf("past the limit: %q", got)
	}
	long := strings.Repeat("é", MaxListedBytes) // 2 bytes a rune
	if got := CutList([]string{long}); got != strings.Repeat("é", MaxListedBytes/2)+"…" {
		t.Errorf("one long item: %q", got)
	}
	if got := CutText("aé", 2); got != "a" {
		t.Errorf("CutText inside a rune: %q", got)
	}
}

func TestBound(t *testing.T) {
	for kw, want := range map[string]string{
		"minimum": "must be at least 1", "maximum": "must be at most 1", "exclusiveMinimum": "must be greater than 1",
		"exclusiveMaximum": "must be less than 1", "multipleOf": "must be a multiple of 1", "minLength": "",
	} {
		if got := Bound(kw, "1"); got != want {
			t.Errorf("Bound(%s) = %q, want %q", kw, got, want)
		}
	}
}

func TestLength(t *testing.T) {
	for _, tc := range []struct {
		kw   string
		n    int
		want string
	}{
		{"minLength", 1, "must be at least 1 character long"},
		{"minLength", 0, "must be at least 0 characters long"},
		{"maxLength", 2, "must be at most 2 characters long"},
		{"pattern", 2, ""},
	} {
		if got := Length(tc.kw, tc.n); got != tc.want {
			t.Errorf("Length(%s, %d) = %q, want %q", tc.kw, tc.n, got, tc.want)
		}
	}
}

func TestPattern(t *testing.T) {
	if got := Pattern(`^\d+$`); got != `must match the pattern ^\d+$` {
		t.Errorf("Pattern of a printable pattern: %q", got)
	}
	if got := Pattern("a\nb"); strings.Contains(got, "\n") {
		t.Errorf("Pattern keeps a newline: %q", got)
	}
}
