package engine

import (
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/internal/argcheck"
)

// readUnions reads a union told by "op" ("a" or "b"), whose properties "l" and "r"
// hold unions told by "op" or, for "b", by "t", and "v" a list of unions told by
// "op", writing what it read to out. With forget, the look-aheads made so far are
// forgotten before each union: every union is looked ahead at afresh, the reading
// the cache must not change.
func readUnions(d *Decoder, forget bool, tag string, out *strings.Builder) {
	if forget {
		d.unions.scans = d.unions.scans[:0]
		clear(d.unions.latest)
	}
	i := d.BeginUnion(tag, "a", "b")
	out.WriteString(strconv.Itoa(i))
	if i < 0 {
		return
	}
	out.WriteByte('{')
	var seen [4]argcheck.Presence
	for d.NextField() {
		switch name := string(d.FieldName()); name {
		case tag:
			if d.Property(&seen[0], tag, argcheck.Required) {
				d.Skip()
				d.Leave()
			}
		case "l", "r":
			k, inner := 1, "op"
			if name == "r" {
				k = 2
				if i == 1 {
					inner = "t"
				}
			}
			if d.Property(&seen[k], name, argcheck.Optional) {
				out.WriteString(name)
				readUnions(d, forget, inner, out)
				d.Leave()
			}
		case "v":
			if d.Property(&seen[3], "v", argcheck.Optional) {
				if d.BeginArray() {
					out.WriteByte('[')
					for d.NextItem() {
						readUnions(d, forget, "op", out)
					}
					out.WriteByte(']')
				}
				d.Leave()
			}
		default:
			d.Unknown(tag, "l", "r", "v")
		}
	}
	out.WriteByte('}')
}

// FuzzUnionLookAhead: what BeginUnion's look-aheads remember (unionCache) never
// changes what a decoder reads: nested unions of two tag names, in lists and in
// strings that hold objects, read alike with the cache and with every union looked
// ahead at afresh, violations included.
func FuzzUnionLookAhead(f *testing.F) {
	for _, seed := range []string{
		nested(3),
		`{"v":[{"l":{},"op":"a"},{"op":"b","r":{"t":"a","l":{"op":"b"}}},"{\"x\":{},\"op\":\"a\"}"],"op":"a"}`,
		`{"l":{"op":"a","v":[{"l":{"op":"b"},"op":"a"}]},"r":{"op":"a"},"op":"b"}`,
		`{"r":{"l":{"op":"a","t":"b"},"t":"a"},"op":"b"}`,
		`{"v":["{\"l\":{\"op\":\"a\"},\"op\":\"b\"}",{"op":"a","op":"b"}],"op":"a"}`,
		`{"l":{"l":{"x":1,"op":"c"},"op":1},"op":"a"}`,
		`{"v":[{"l":{"op":"a"},"op":"a"},{"l":{"op":"a"}}],"op":"a"`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, args string) {
		var got [2]string
		var viols [2]string
		var ok [2]bool
		for k, forget := range []bool{false, true} {
			d := NewDecoder([]byte(args), Limits{MaxDepth: 16})
			var out strings.Builder
			readUnions(d, forget, "op", &out)
			ok[k] = d.Finish()
			got[k] = out.String()
			var vs []string
			for _, v := range d.Violations() {
				vs = append(vs, v.String())
			}
			viols[k] = strings.Join(vs, "; ")
		}
		if got[0] != got[1] || viols[0] != viols[1] || ok[0] != ok[1] {
			t.Fatalf("%s:\ncached:   %s %v %s\nafresh:   %s %v %s", args, got[0], ok[0], viols[0], got[1], ok[1], viols[1])
		}
	})
}
