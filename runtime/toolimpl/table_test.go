package toolimpl

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/toolgen/toolgen/runtime/invalid"
)

// stringsTables describes an object of n required string properties p0, p1, ...
// stored in a [maxStackFields + 1]string.
func stringsTables(n int) *Tables {
	t := &Tables{Objects: []Object{{First: 0, Len: n}}, Values: []Value{{Kind: KString, MaxLength: 3, HasMaxLength: true}}}
	for i := range n {
		t.Fields = append(t.Fields, Field{
			Name:   fmt.Sprintf("p%d", i),
			Offset: uintptr(i) * unsafe.Sizeof(""),
			Value:  0,
		})
	}
	return t
}

// TestDecodeStackFields decodes objects of maxStackFields properties, whose presence
// Decode keeps on the stack, and of one more, for which it allocates: both read every
// property, report the missing ones and the violations at their paths, and reject
// repeats.
func TestDecodeStackFields(t *testing.T) {
	for _, n := range []int{maxStackFields, maxStackFields + 1} {
		tables := stringsTables(n)
		var all []string
		for i := range n {
			all = append(all, fmt.Sprintf(`"p%d":"v%d"`, i, i%10))
		}
		var v [maxStackFields + 1]string
		d := NewDecoder([]byte("{"+strings.Join(all, ",")+"}"), Limits{})
		Decode(d, tables, 0, unsafe.Pointer(&v))
		if !d.Finish() {
			t.Fatalf("%d properties: %v", n, d.Violations())
		}
		for i := range n {
			if want := fmt.Sprintf("v%d", i%10); v[i] != want {
				t.Errorf("%d properties: p%d = %q, want %q", n, i, v[i], want)
			}
		}
		last := fmt.Sprintf("p%d", n-1)
		d = NewDecoder([]byte(`{"p0":"toolong","p0":"x","zz":1}`), Limits{MaxViolations: 100})
		Decode(d, tables, 0, unsafe.Pointer(&v))
		if d.Finish() {
			t.Fatalf("%d properties: accepted", n)
		}
		text := (&invalid.ArgumentError{Tool: "t", Violations: d.Violations()}).Error()
		for _, want := range []string{"/p0: ", "/zz: ", "/p1: ", "/" + last + ": "} {
			if !strings.Contains(text, want) {
				t.Errorf("%d properties: %q does not report %q", n, text, want)
			}
		}
	}
}
