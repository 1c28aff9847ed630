package safetext

import (
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain text, with ^\\d+$ and \"quotes\"", "plain text, with ^\\d+$ and \"quotes\""},
		{"a\n::error::x", `a\n::error::x`},
		{"a\r\nb\tc", `a\r\nb\tc`},
		{"\x1b[31mred", `\x1b[31mred`},
		{"a\u2028b\u202ec\ufeffd", `a\u2028b\u202ec\ufeffd`},
		{"bad \xff byte", `bad \xff byte`},
		{"é 😀", "é 😀"},
		{"", ""},
	} {
		if got := Line(tt.in); got != tt.want {
			t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestField(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"/properties/city", "/properties/city"},
		{"", `""`},
		{"two words", `"two words"`},
		{"a\nb", `"a\nb"`},
		{`a\nb`, `"a\\nb"`},
		{`say "x"`, `"say \"x\""`},
	} {
		if got := Field(tt.in); got != tt.want {
			t.Errorf("Field(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzLine checks that Line and Field never leave a character that is not printable
// and that Field's quoting reads back as the string.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"a\nb", "\x1b[2J", "\xff\xfe", "\u2028", "x y", `"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Line(s), Field(s)} {
			if !utf8.ValidString(out) || strings.ContainsFunc(out, func(r rune) bool { return r != ' ' && !unicode.IsPrint(r) }) {
				t.Fatalf("%q gives %q", s, out)
			}
		}
		f := Field(s)
		if strings.HasPrefix(f, `"`) {
			if back, err := strconv.Unquote(f); err != nil || back != s {
				t.Fatalf("Field(%q) = %s reads back as %q, %v", s, f, back, err)
			}
		} else if f != s || strings.Contains(f, " ") {
			t.Fatalf("Field(%q) = %q", s, f)
		}
	})
}
