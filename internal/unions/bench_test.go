package unions

import (
	"testing"

	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// BenchmarkDecode compares the decoder of a union (Shape) on one of its variants, with
// the discriminator first and last, with the decoder of the same variant's struct
// (Rect) alone, on the same object without the discriminator.
func BenchmarkDecode(b *testing.B) {
	for _, c := range []struct {
		name, args string
		union      bool
	}{
		{"struct", `{"width":2,"height":3,"label":"door","unit":"cm"}`, false},
		{"union/tag=first", `{"type":"rectangle","width":2,"height":3,"label":"door","unit":"cm"}`, true},
		{"union/tag=last", `{"width":2,"height":3,"label":"door","unit":"cm","type":"rectangle"}`, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			data := []byte(c.args)
			d := toolimpl.NewDecoder(nil, toolimpl.Limits{})
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				d.Reset(data, toolimpl.Limits{})
				if c.union {
					var s Shape
					toolgenDecodeShape(d, &s)
				} else {
					var r Rect
					toolgenDecodeRect(d, &r)
				}
				if !d.Finish() {
					b.Fatal(d.Violations())
				}
			}
		})
	}
}
