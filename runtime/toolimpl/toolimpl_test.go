package toolimpl_test

import (
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime/invalid"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// TestVersionRange checks that this module's toolgen generates code its runtime supports.
func TestVersionRange(t *testing.T) {
	if toolimpl.GenVersion < toolimpl.MinVersion || toolimpl.GenVersion > toolimpl.MaxVersion {
		t.Fatalf("GenVersion %d is outside [%d, %d]", toolimpl.GenVersion, toolimpl.MinVersion, toolimpl.MaxVersion)
	}
}

// readInts decodes args, a list of integers in [0, 9], as generated code does.
func readInts(args string, max int) ([]int64, *toolimpl.Decoder) {
	d := toolimpl.NewDecoder([]byte(args), toolimpl.Limits{})
	var s []int64
	if d.BeginArray() {
		toolimpl.MakeSlice(&s)
		for d.NextItem() {
			e := toolimpl.Item(d, &s, max)
			if n, ok := d.Int(0, 9); ok {
				*e = n
			}
		}
	}
	d.Finish()
	return s, d
}

// TestItem checks that Item keeps every item of valid arguments, and none past the
// one with the first violation: the items after it go to one spare place.
func TestItem(t *testing.T) {
	s, d := readInts("[1,2,3,4,5,6,7,8,9]", 0)
	if d.Failed() || len(s) != 9 || s[8] != 9 {
		t.Fatalf("valid list: got %v, violations %v", s, d.Violations())
	}
	bad := "[1,2,30" + strings.Repeat(",40", 10000) + "]"
	s, d = readInts(bad, 0)
	if !d.Failed() {
		t.Fatal("invalid list accepted")
	}
	if len(s) != 3 || cap(s) > 4 {
		t.Errorf("after the first violation: len %d, cap %d; want the three items up to it, cap at most 4", len(s), cap(s))
	}
}

// TestUnique checks the uniqueItems check: the first pair of equal items is named once.
func TestUnique(t *testing.T) {
	for _, c := range []struct {
		items []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, ""},
		{[]string{"a", "b", "c"}, ""},
		{[]string{"a", "b", "a", "b"}, "must not hold equal items (items 0 and 2 are equal)"},
	} {
		d := toolimpl.NewDecoder([]byte(`[]`), toolimpl.Limits{})
		toolimpl.Unique(d, c.items)
		var got string
		if v := d.Violations(); len(v) > 0 {
			got = v[0].Message
			if len(v) > 1 || v[0].Code != invalid.UniqueItems {
				t.Errorf("%q: violations %v", c.items, v)
			}
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.items, got, c.want)
		}
	}
}

// TestUniqueValues checks validate's unique on a map: distinct values, the first pair
// in the keys' order reported, whatever the map's order.
func TestUniqueValues(t *testing.T) {
	for _, c := range []struct {
		m    map[string]int
		want string
	}{
		{nil, ""},
		{map[string]int{"a": 1}, ""},
		{map[string]int{"a": 1, "b": 2, "c": 3}, ""},
		{map[string]int{"d": 1, "c": 2, "b": 1, "a": 2}, `must not hold equal values (properties "a" and "c" are equal)`},
	} {
		for range 5 { // a map's order changes from one range to the next
			d := toolimpl.NewDecoder([]byte(`{}`), toolimpl.Limits{})
			toolimpl.UniqueValues(d, c.m)
			var got string
			if v := d.Violations(); len(v) > 0 {
				got = v[0].Message
				if len(v) > 1 || v[0].Code != invalid.UniqueItems {
					t.Errorf("%v: violations %v", c.m, v)
				}
			}
			if got != c.want {
				t.Errorf("%v: got %q, want %q", c.m, got, c.want)
			}
		}
	}
}

// TestNotZeroTime checks validate's required on a time.Time: the zero instant is
// refused in any zone, any other time taken.
func TestNotZeroTime(t *testing.T) {
	zero := time.Time{}
	for _, c := range []struct {
		t    time.Time
		want bool
	}{
		{zero, false},
		{zero.In(time.FixedZone("x", 3600)), false},
		{zero.Add(time.Nanosecond), true},
		{time.Date(2024, 1, 31, 9, 30, 0, 0, time.UTC), true},
	} {
		d := toolimpl.NewDecoder([]byte(`""`), toolimpl.Limits{})
		toolimpl.NotZeroTime(d, c.t)
		v := d.Violations()
		if ok := len(v) == 0; ok != c.want {
			t.Errorf("%v: accepted %v, want %v (%v)", c.t, ok, c.want, v)
		}
		if len(v) > 0 && v[0].Code != invalid.NotZero {
			t.Errorf("%v: code %s", c.t, v[0].Code)
		}
	}
}

// TestMatch checks a pattern's verdict and message, and that a pattern that does not
// compile matches nothing.
func TestMatch(t *testing.T) {
	p := toolimpl.NewPattern(`^[a-z]+(?:-[a-z]+)*$`)
	bad := toolimpl.NewPattern(`(`)
	for _, c := range []struct {
		p    *toolimpl.Pattern
		s    string
		want string
	}{
		{p, "kebab-case", ""},
		{p, "Kebab", "must match the pattern ^[a-z]+(?:-[a-z]+)*$"},
		{bad, "", "must match the pattern ("},
	} {
		d := toolimpl.NewDecoder([]byte(`""`), toolimpl.Limits{})
		toolimpl.Match(d, c.s, c.p)
		var got string
		if v := d.Violations(); len(v) > 0 {
			got = v[0].Message
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.s, got, c.want)
		}
	}
}

// TestHelpers checks the helpers that build values in place.
func TestHelpers(t *testing.T) {
	var m map[string]int
	toolimpl.MakeMap(&m)
	if m == nil || len(m) != 0 || toolimpl.ZeroValue(m) != 0 {
		t.Errorf("MakeMap: %v", m)
	}
	var p *struct{ N int }
	q := toolimpl.Ensure(&p)
	if p == nil || q != p || toolimpl.Ensure(&p) != q {
		t.Error("Ensure allocates once")
	}
	if r := toolimpl.New(&p); r == q || p != r {
		t.Error("New allocates every time")
	}
	var s []int
	toolimpl.MakeSlice(&s)
	if s == nil || len(s) != 0 {
		t.Errorf("MakeSlice: %v", s)
	}
}
