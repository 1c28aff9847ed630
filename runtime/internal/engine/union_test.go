package engine

import (
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/internal/argcheck"
	"github.com/toolgen/toolgen/runtime/invalid"
)

// decodeExpr reads an expression as generated code would: a union told by "op", of
// {"op":"num","value":N} and {"op":"add","left":E,"right":E}. It returns the sum.
func decodeExpr(d *Decoder) int {
	switch d.BeginUnion("op", "num", "add") {
	case 0:
		n := 0
		var seen [2]argcheck.Presence
		for d.NextField() {
			switch string(d.FieldName()) {
			case "op":
				if d.Property(&seen[0], "op", argcheck.Required) {
					d.Skip()
					d.Leave()
				}
			case "value":
				if d.Property(&seen[1], "value", argcheck.Required) {
					if v, ok := d.Int(-1<<62, 1<<62); ok {
						n = int(v)
					}
					d.Leave()
				}
			default:
				d.Unknown("op", "value")
			}
		}
		return n
	case 1:
		n := 0
		var seen [3]argcheck.Presence
		for d.NextField() {
			switch name := string(d.FieldName()); name {
			case "op":
				if d.Property(&seen[0], "op", argcheck.Required) {
					d.Skip()
					d.Leave()
				}
			case "left", "right":
				i := 1
				if name == "right" {
					i = 2
				}
				if d.Property(&seen[i], name, argcheck.Required) {
					n += decodeExpr(d)
					d.Leave()
				}
			default:
				d.Unknown("op", "left", "right")
			}
		}
		return n
	}
	return 0
}

// nested writes an expression of depth additions, each with its "op" last, so that
// the look-ahead of each union passes over all the unions nested in it.
func nested(depth int) string {
	if depth == 0 {
		return `{"value":1,"op":"num"}`
	}
	return `{"left":` + nested(depth-1) + `,"right":{"value":1,"op":"num"},"op":"add"}`
}

// TestUnionLookAheadIsLinear decodes unions nested as deep as the limits allow, each
// with its discriminator last: without the look-ahead's memory of the objects it
// passed over, each level would read all those below it again (quadratic in the
// depth); with it, every byte is looked ahead at once at most.
func TestUnionLookAheadIsLinear(t *testing.T) {
	for _, depth := range []int{1, 2, 10, DefaultMaxDepth - 2} {
		args := nested(depth)
		d := NewDecoder([]byte(args), Limits{})
		sum := decodeExpr(d)
		if !d.Finish() {
			t.Fatalf("depth %d: %v", depth, d.Violations())
		}
		if sum != depth+1 {
			t.Errorf("depth %d: sum %d, want %d", depth, sum, depth+1)
		}
		if d.unions.looked > len(args) {
			t.Errorf("depth %d: looked ahead at %d bytes of %d", depth, d.unions.looked, len(args))
		}
	}
}

// TestUnionTagValues: the tag's value may be escaped, and a tag that is missing, not a
// string or none of the values is reported at the tag's path, naming them.
func TestUnionTagValues(t *testing.T) {
	for _, c := range []struct{ args, want string }{
		{`{"op":"n\u0075m","value":2}`, ""},
		{`{"value":2,"\u006fp":"num"}`, ""},
		{`{"value":2}`, `/op: missing required property: it says which kind of object this is, one of "num", "add"`},
		{`{"op":["num"]}`, `/op: must be a string: one of "num", "add" (got an array)`},
		{`{"op":"sub","value":2}`, `/op: must be one of "num", "add" (got "sub")`},
		{`{"left":{"value":2},"op":"add"}`, `/left/op: missing required property`},
		{`{"value":2,"op":"num","op":"add"}`, "/op: duplicate property"}, // the first one counts
		{`{"value":[1,{"op":"x"}],"op":"num"}`, "/value: must be an integer (got an array)"},
		{`{"value":2,"x":{"op":"x"},"op":"num"}`, `/x: unknown property`},
		{`{"op":"add","left":{"op":"num","value":1},"right":{"value":2,"op":"num"}}`, ""},
		{`{"value":2,"op":"num"`, `malformed JSON`},
		{`{"value":2,`, `malformed JSON`},
		{`{"value":[}`, `malformed JSON`},
	} {
		d := NewDecoder([]byte(c.args), Limits{})
		decodeExpr(d)
		d.Finish()
		var got []string
		for _, v := range d.Violations() {
			got = append(got, v.String())
		}
		text := strings.Join(got, "; ")
		if c.want == "" && text != "" || !strings.Contains(text, c.want) {
			t.Errorf("%s: got %q, want %q", c.args, text, c.want)
		}
	}
}

// TestUnionDepthLimit: the look-ahead stops where the decoder would, at the depth
// limit, which the decoder then reports.
func TestUnionDepthLimit(t *testing.T) {
	for _, extra := range []int{0, 1} {
		limit := 8
		inner := strings.Repeat("[", limit-1+extra) + strings.Repeat("]", limit-1+extra)
		args := `{"value":` + inner + `,"op":"num"}`
		d := NewDecoder([]byte(args), Limits{MaxDepth: limit})
		decodeExpr(d)
		d.Finish()
		tooDeep := false
		for _, v := range d.Violations() {
			tooDeep = tooDeep || v.Code == invalid.TooDeep
		}
		if tooDeep != (extra == 1) {
			t.Errorf("%d levels with a limit of %d: violations %v", limit+extra, limit, d.Violations())
		}
	}
}

// TestUnionLookupsAreLinear decodes lists of unions whose items each hold an object
// before their tag, so that each item's look-ahead is remembered: a lookup asks only
// the latest look-ahead of its text and tag, not every one made so far (quadratic in
// the items: 40,000 such items, 680 KB, took 7.9 s), in the arguments' text and in
// strings that hold objects, each a text of its own.
func TestUnionLookupsAreLinear(t *testing.T) {
	for _, item := range []string{`{"left":{},"op":"num"}`, `"{\"left\":{},\"op\":\"num\"}"`} {
		for _, n := range []int{1, 2, 100, 2000} {
			args := "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
			d := NewDecoder([]byte(args), Limits{})
			unions := 0
			if d.BeginArray() {
				for d.NextItem() {
					unions++
					if d.BeginUnion("op", "num") == 0 {
						d.skipObject()
					}
				}
			}
			if unions != n {
				t.Fatalf("%s ×%d: %d unions read: %v", item, n, unions, d.Violations())
			}
			if d.unions.probed > unions {
				t.Errorf("%s ×%d: %d look-aheads asked for %d unions", item, n, d.unions.probed, unions)
			}
			if d.unions.looked > len(args) {
				t.Errorf("%s ×%d: looked ahead at %d bytes of %d", item, n, d.unions.looked, len(args))
			}
		}
	}
}
