package conformance

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgen/toolgen/internal/difftest"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/invalid"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// The cost tests of the generated decoders: whatever a model sends, decoding it costs
// in proportion to its size, with a small constant, and the text the model gets back
// stays within the violation budget. BenchmarkAdversarial measures the constant on the
// inputs that cost the most for their size; FuzzCost looks for others.

// decodeTool decodes args with the generated decoder of one of the two tools that
// between them hold every type and keyword, and renders what the model would read.
func decodeTool(which int, args []byte) (text string, d *toolimpl.Decoder) {
	d = toolimpl.NewDecoder(args, toolimpl.Limits{})
	if which == 0 {
		var v Kinds
		toolgenDecodeKinds(d, &v)
	} else {
		var v Constrained
		toolgenDecodeConstrained(d, &v)
	}
	if d.Finish() {
		return "", d
	}
	err := &invalid.ArgumentError{Tool: "t", Violations: d.Violations(), Omitted: d.Omitted()}
	return err.Error(), d
}

// adversarial is one family of costly arguments, made to a size.
type adversarial struct {
	name string
	tool int // 0: echo_kinds, 1: echo_constrained
	make func(size int) []byte
}

var adversarials = []adversarial{
	{"unknown keys", 0, func(n int) []byte { return difftest.Fill(`{`, `"k%d":0`, `}`, n) }},
	{"type errors", 0, func(n int) []byte { return difftest.Fill(`{"list":[`, `1`, `]}`, n) }},
	{"deep nesting", 0, func(n int) []byte {
		deep := strings.Repeat("[", 60) + strings.Repeat("]", 60)
		return difftest.Fill(`{"any":[`, deep, `]}`, n)
	}},
	{"too deep", 0, func(n int) []byte { return []byte(`{"any":` + strings.Repeat("[", n-8) + `}`) }},
	{"long string", 0, func(n int) []byte { return []byte(`{"str":"` + strings.Repeat("a", n-10) + `"}`) }},
	{"escaped string", 0, func(n int) []byte {
		return []byte(`{"str":"` + strings.Repeat(`\u00e9`, (n-10)/6) + `"}`)
	}},
	{"long pattern string", 1, func(n int) []byte {
		return []byte(`{"pattern":"` + strings.Repeat("A", n-14) + `"}`)
	}},
	{"extreme exponents", 1, func(n int) []byte { return difftest.Fill(`{"unique":[`, `"x%d"`, `],"multFloat":1e-999999}`, n) }},
	{"long number", 1, func(n int) []byte {
		return []byte(`{"multFloat":1` + strings.Repeat("0", n-20) + `.5}`)
	}},
	{"long exponent", 1, func(n int) []byte {
		return []byte(`{"multFloat":1e-` + strings.Repeat("9", n-20) + `}`)
	}},
	{"long integer", 0, func(n int) []byte {
		return []byte(`{"int":1` + strings.Repeat("0", n-20) + `e-` + fmt.Sprint(n-21) + `}`)
	}},
	{"free-form objects", 0, func(n int) []byte { return difftest.Fill(`{"any":[`, `{}`, `]}`, n) }},
	{"duplicate keys", 0, func(n int) []byte { return difftest.Fill(`{"counts":{`, `"a":1`, `}}`, n) }},
	{"double encoded", 0, func(n int) []byte {
		inner := difftest.Fill(`{"list":[`, `"s"`, `]}`, n/2)
		return []byte(fmt.Sprintf("%q", inner))
	}},
	{"unique strings", 1, func(n int) []byte { return difftest.Fill(`{"unique":[`, `"%d"`, `]}`, n) }},
	{"formats", 1, func(n int) []byte {
		host := strings.Repeat("a.", (n-20)/2)
		return []byte(`{"hostname":"` + host + `a"}`)
	}},
}

// BenchmarkAdversarial decodes each family of costly arguments at 1 KB, 64 KB and
// 1 MiB, reporting ns/byte and B/byte: linear cost shows as flat figures across sizes.
func BenchmarkAdversarial(b *testing.B) {
	for _, a := range adversarials {
		for _, size := range []int{1 << 10, 64 << 10, runtime.DefaultMaxArgumentBytes} {
			args := a.make(size)
			b.Run(fmt.Sprintf("%s/%dKB", a.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(args)))
				b.ReportAllocs()
				for b.Loop() {
					decodeTool(a.tool, args)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(args)), "ns/byte")
			})
		}
	}
}

// TestAdversarialCost checks the cost property on every family at every size, and that
// the text the model reads stays within the violation budget, valid UTF-8.
func TestAdversarialCost(t *testing.T) {
	for _, a := range adversarials {
		for _, size := range []int{1 << 10, 64 << 10, runtime.DefaultMaxArgumentBytes} {
			args := a.make(size)
			if len(args) > runtime.DefaultMaxArgumentBytes {
				t.Fatalf("%s: %d bytes, over the limit", a.name, len(args))
			}
			var text string
			var d *toolimpl.Decoder
			c := difftest.CheckCost(t, a.name, args, func() { text, d = decodeTool(a.tool, args) })
			t.Logf("%-20s %7d bytes: %5.2f B/byte, %d violations (%d omitted)", a.name, len(args), float64(c.Bytes)/float64(len(args)), len(d.Violations()), d.Omitted())
			checkText(t, a.name, text, d)
		}
	}
}

// checkText checks what the model reads about rejected arguments.
func checkText(t *testing.T, what, text string, d *toolimpl.Decoder) {
	t.Helper()
	if len(d.Violations()) > runtime.DefaultMaxViolations+1 { // the budget, and a syntax error or limit that stopped decoding
		t.Errorf("%s: %d violations listed", what, len(d.Violations()))
	}
	if len(text) > 2*runtime.DefaultMaxViolationBytes {
		t.Errorf("%s: the model's text is %d bytes", what, len(text))
	}
	if !utf8.ValidString(text) {
		t.Errorf("%s: the model's text is not valid UTF-8: %q", what, text)
	}
}

// FuzzCost decodes anything with the generated decoders of both tools, checking the
// cost property of difftest.CheckCost and the bounds of the model's text.
func FuzzCost(f *testing.F) {
	for _, a := range adversarials {
		f.Add(a.tool == 1, a.make(300))
	}
	f.Add(false, []byte(`{`+kindsRequired+`}`))
	f.Add(true, []byte(`{"multFloat":0.30000000000000004,"multInt":1e1,"stamp":"2026-01-01t00:00:00z"}`))
	f.Fuzz(func(t *testing.T, constrained bool, args []byte) {
		which := 0
		if constrained {
			which = 1
		}
		var text string
		var d *toolimpl.Decoder
		difftest.CheckCost(t, "decode", args, func() { text, d = decodeTool(which, args) })
		checkText(t, "decode", text, d)
	})
}
