package contractdiff

import (
	"regexp"
	"testing"
)

func TestMatchesAll(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		want    bool
	}{
		{".*", true},
		{"", true},
		{"^", true},
		{"^.*", true},
		{"a*", true},
		{"(x)?", true},
		{"(?s).*", true},
		{"^(?s).*$", true},
		{`^[\s\S]*$`, true},
		{`\A(?s:.)*\z`, true},
		{"(?m)^.*", true},
		{".+", false},
		{"^.*$", false}, // not "a\nb"
		{"$", false},    // not "a"
		{"^$", false},
		{"a", false},
		{`\b`, false},
		{`a*\b`, false},
		{"^[a-z]*$", false},
		{"(?m)^.*$", false},
		{"(", false}, // not RE2
	} {
		if got := matchesAll(tc.pattern); got != tc.want {
			t.Errorf("matchesAll(%q) = %t, want %t", tc.pattern, got, tc.want)
		}
	}
	if matchesAll(1) {
		t.Error("matchesAll(1) = true")
	}
}

// FuzzMatchesAll checks that matchesAll is sound: a pattern it says matches every
// string matches the fuzzer's strings, empty, multi-line and invalid UTF-8 ones
// included.
func FuzzMatchesAll(f *testing.F) {
	for _, p := range []string{".*", "^(?s).*$", "a*", "^.*$", `\b`, "(?m)^.*$", "x|", "[^a]*|a*"} {
		f.Add(p, "a\nb")
	}
	f.Add(".*", "")
	f.Add("^", "\xff")
	f.Fuzz(func(t *testing.T, pattern, s string) {
		if !matchesAll(pattern) {
			return
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			t.Fatalf("matchesAll(%q) is true, but it does not compile: %v", pattern, err)
		}
		if !re.MatchString(s) {
			t.Fatalf("matchesAll(%q) is true, but it does not match %q", pattern, s)
		}
	})
}
