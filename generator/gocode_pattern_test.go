package generator

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
)

// simplePatterns are patterns a generated function checks; each must decide exactly
// as regexp does.
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
}

func TestSimplePattern(t *testing.T) {
	for _, p := range simplePatterns {
		if _, ok := simplePattern(p); !ok {
			t.Errorf("simplePattern(%q) = false, want true", p)
		}
	}
	for _, p := range notSimplePatterns {
		if _, ok := simplePattern(p); ok {
			t.Errorf("simplePattern(%q) = true, want false", p)
		}
	}
}

// patternInputs returns strings likely to sit near the boundaries of pattern: random
// strings over the bytes it names and a few others, and mutations of its matches.
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

// matchingInputs returns strings that match the steps, built from them.
func matchingInputs(steps []patternStep, n int) []string {
	r := rand.New(rand.NewPCG(2, uint64(len(steps))))
	var out []string
	for range n {
		var b []byte
		for _, st := range steps {
			count := st.min
			if st.max != st.min {
				hi := st.max
				if hi < 0 {
					hi = st.min + 5
				}
				count += r.IntN(hi - st.min + 1)
			}
			for range count {
				cr := st.class[r.IntN(len(st.class))]
				b = append(b, cr.lo+byte(r.IntN(int(cr.hi-cr.lo)+1)))
			}
		}
		out = append(out, string(b))
		// And near misses: one byte changed, dropped or added.
		if len(b) > 0 {
			i := r.IntN(len(b))
			out = append(out, string(b[:i])+string(b[i+1:]), string(b[:i])+"#"+string(b[i:]), string(b[:i])+"a"+string(b[i+1:]))
		}
	}
	return out
}

// TestGeneratedMatchers compiles the generated matcher functions and checks them
// against regexp on inputs near the patterns' boundaries (how the steps themselves
// match is runtime/internal/argcheck's TestSimpleMatchesAsRegexp and FuzzSimplePattern).
func TestGeneratedMatchers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	g := &goGen{matchers: map[string]string{}}
	f := jen.NewFile("main")
	var cases bytes.Buffer
	for _, p := range simplePatterns {
		name, ok := g.matcher(p)
		if !ok {
			t.Fatalf("%q is not simple", p)
		}
		steps, _ := simplePattern(p)
		inputs := append(patternInputs(p, 2000), matchingInputs(steps, 300)...)
		fmt.Fprintf(&cases, "{%s, %s, []string{", strconv.Quote(p), name)
		for _, s := range inputs {
			cases.WriteString(strconv.Quote(s) + ",")
		}
		cases.WriteString("}},\n")
	}
	g.emitMatchers(f)
	var src bytes.Buffer
	if err := f.Render(&src); err != nil {
		t.Fatal(err)
	}
	src.WriteString(`
var cases = []struct {
	pattern string
	match   func(string) bool
	inputs  []string
}{
` + cases.String() + `}

func main() {
	bad := 0
	for _, c := range cases {
		re := regexp.MustCompile(c.pattern)
		for _, s := range c.inputs {
			if got, want := c.match(s), re.MatchString(s); got != want {
				fmt.Printf("pattern %q, string %q: generated %v, regexp %v\n", c.pattern, s, got, want)
				bad++
			}
		}
	}
	if bad > 0 {
		os.Exit(1)
	}
}
`)
	program := strings.Replace(src.String(), "package main\n", "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"regexp\"\n)\n", 1)
	dir := t.TempDir()
	file := filepath.Join(dir, "main.go")
	if err := os.WriteFile(file, []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", file)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GO111MODULE=off", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
}
