package engine

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// simplePatterns are patterns compileSimple reads (the generator's list, which its
// generated functions check): each must decide exactly as regexp does.
var simplePatterns = []string{
	`^[A-Z]{3}-[0-9]{4}$`,
	`^[A-Z]{3}$`,
	`^\d+$`,
	`^[A-Z0-9]+$`,
	`^[A-Z]{2}[0-9]+$`,
	`^[a-z]+$`,
	`^[A-Z]{2}\d$`,
	`^a,b$`,
	`^$`,
	`^rec_[0-9a-f]{8}$`,
	`^[a-z]+_[0-9a-f]{8}$`,
	`^\+[1-9][0-9]{6,14}$`,
	`^[a-z]*[0-9]*$`,
	`^x?y?z$`,
	`^[A-Za-z_][A-Za-z0-9_]{0,63}$`,
	`^v[0-9]+\.[0-9]+\.[0-9]+$`,
	`^[^\x80-\x{10FFFF}]$`,
	`^a{2,}b$`,
	`^[\x00-\x1f]?-$`,
	`^(?:a)b$`,
	`^[[:alpha:]]+\s*$`,
	`^id-[0-9]+-abc$`,
	`^[a-z]+://x[0-9]?$`,
	`^a+a$`,
	`^[a-z]*[a-z0-9]$`,
	`^[a-z][a-z0-9-]*[a-z0-9]$`,
	`^[a-z0-9]+[a-z]{2}$`,
	`^x*$`,
	`^[0-9]{1,3}[0-9]$`,
	`^[a-z]?b$`,
	`^[ab]{2,4}[a-c]{2}-$`,
	`^[\x7f]+$`,
	`^[A-Z]{3}$`,
}

// notSimplePatterns are left to regexp.
var notSimplePatterns = []string{
	`[A-Z]{3}`,        // not anchored
	`^[A-Z]{3}`,       // not anchored at the end
	`^a+a?$`,          // the repeat overlaps what follows, of variable length
	`^a*a*$`,          // a repeat overlaps a later one
	`^[a-z]?[0-9]?a$`, // likewise, past an optional step
	`^(?i)abc$`,       // case folding
	`^é$`,             // not ASCII
	`^[^a]$`,          // a class reaching past ASCII
	`^.$`,             // any character
	`^(ab)+$`,         // a group
	`^(?:ab)+$`,       // a repeated sequence
	`^a|b$`,           // alternation
	`^\bword$`,        // word boundary
	`^(?m)a$`,         // multi-line anchors
	`^(?:ab){2}$`,     // a repeated literal of more than one byte
	`^[`,              // not a pattern
}

func TestCompileSimple(t *testing.T) {
	for _, p := range simplePatterns {
		if compileSimple(p) == nil {
			t.Errorf("compileSimple(%q) = nil, want a matcher", p)
		}
	}
	for _, p := range notSimplePatterns {
		if compileSimple(p) != nil {
			t.Errorf("compileSimple(%q) = a matcher, want nil", p)
		}
	}
}

// TestCompileSimpleSteps holds a pattern of maxSimpleSteps literal bytes and classes
// to a matcher, and one of a step more to regexp.
func TestCompileSimpleSteps(t *testing.T) {
	at := "^" + strings.Repeat("a", maxSimpleSteps-1) + "[0-9]$"
	if m := compileSimple(at); m == nil || len(m.steps) != maxSimpleSteps {
		t.Fatalf("a pattern of %d steps: no matcher", maxSimpleSteps)
	}
	if !compileSimple(at).MatchString(strings.Repeat("a", maxSimpleSteps-1) + "7") {
		t.Error("the pattern of maxSimpleSteps steps does not match its string")
	}
	past := "^" + strings.Repeat("a", maxSimpleSteps) + "[0-9]$"
	if compileSimple(past) != nil {
		t.Errorf("a pattern of %d steps: a matcher, want nil", maxSimpleSteps+1)
	}
	pastClass := "^" + strings.Repeat("a", maxSimpleSteps) + "[0-9]{2}$"
	if compileSimple(pastClass) != nil {
		t.Errorf("a pattern of %d steps ending in a class: a matcher, want nil", maxSimpleSteps+1)
	}
}

// patternInputs returns strings likely to sit near the boundaries of pattern: random
// strings over the bytes it names and a few others.
func patternInputs(pattern string, n int) []string {
	alphabet := []byte("aAzZ09_-+.,xyzb\x00\x1f\x7f")
	for _, c := range []byte(pattern) {
		if c >= 0x20 && c < 0x7f {
			alphabet = append(alphabet, c)
		}
	}
	r := rand.New(rand.NewPCG(1, uint64(len(pattern))))
	out := []string{"", "é", "aé", "\xff"}
	for range n {
		b := make([]byte, r.IntN(20))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		out = append(out, string(b))
	}
	return out
}

// matchingInputs returns strings built from the matcher's steps, and near misses.
func matchingInputs(m *simpleMatcher, n int) []string {
	r := rand.New(rand.NewPCG(2, uint64(len(m.steps))))
	var out []string
	for range n {
		var b []byte
		for _, st := range m.steps {
			count := st.min
			if st.max != st.min {
				hi := st.max
				if hi < 0 {
					hi = st.min + 5
				}
				count += r.IntN(hi - st.min + 1)
			}
			var members []byte
			for c := range 0x80 {
				if st.in(byte(c)) {
					members = append(members, byte(c))
				}
			}
			for range count {
				b = append(b, members[r.IntN(len(members))])
			}
		}
		out = append(out, string(b))
		if len(b) > 0 {
			i := r.IntN(len(b))
			out = append(out, string(b[:i])+string(b[i+1:]), string(b[:i])+"#"+string(b[i:]), string(b[:i])+"a"+string(b[i+1:]))
		}
	}
	return out
}

// TestSimpleMatchesAsRegexp checks the matchers against regexp.
func TestSimpleMatchesAsRegexp(t *testing.T) {
	for _, p := range simplePatterns {
		m := compileSimple(p)
		if m == nil {
			continue
		}
		re := regexp.MustCompile(p)
		for _, s := range append(patternInputs(p, 2000), matchingInputs(m, 300)...) {
			if got, want := m.MatchString(s), re.MatchString(s); got != want {
				t.Errorf("pattern %q, string %q: matcher %v, regexp %v", p, s, got, want)
			}
		}
	}
}

// FuzzSimplePattern holds every matcher compileSimple makes to regexp's verdict, on
// valid UTF-8 (what the decoder gives a pattern).
func FuzzSimplePattern(f *testing.F) {
	for i, p := range simplePatterns {
		f.Add(p, patternInputs(p, 3)[4+i%3])
	}
	for _, p := range notSimplePatterns {
		f.Add(p, "abc")
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		m := compileSimple(pattern)
		if m == nil {
			return
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			t.Fatalf("compileSimple read %q, which regexp refuses: %v", pattern, err)
		}
		s = strings.ToValidUTF8(s, "\uFFFD")
		if got, want := m.MatchString(s), re.MatchString(s); got != want {
			t.Fatalf("pattern %q, string %q: matcher %v, regexp %v", pattern, s, got, want)
		}
	})
}
