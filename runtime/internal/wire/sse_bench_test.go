package wire_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime/internal/wire"
)

// BenchmarkReadSSEAdversarial reads hostile streams of 1 KiB, 64 KiB and 1 MiB, with
// limits wide enough to read them whole: one data line that never ends, a comment
// line that never ends, one event of many one-byte data lines, and many tiny events.
// ns/byte and B/byte stay flat across the sizes: the cost is linear in the input.
func BenchmarkReadSSEAdversarial(b *testing.B) {
	shapes := []struct {
		name string
		make func(n int) []byte
	}{
		{"long-data-line", func(n int) []byte { return []byte("data: " + strings.Repeat("x", n-6)) }},
		{"long-comment", func(n int) []byte { return []byte(":" + strings.Repeat("x", n-1)) }},
		{"many-data-lines", func(n int) []byte { return []byte(strings.Repeat("data:x\n", n/7)) }},
		{"many-events", func(n int) []byte { return []byte(strings.Repeat("data:x\n\n", n/8)) }},
	}
	lim := wire.SSELimits{MaxLineBytes: 2 << 20, MaxEventBytes: 2 << 20}
	for _, shape := range shapes {
		for _, size := range wiretest.Sizes {
			input := shape.make(size)
			b.Run(shape.name+"/"+wiretest.SizeName(size), func(b *testing.B) {
				wiretest.PerByte(b, len(input), func() {
					err := wire.ReadSSE(bytes.NewReader(input), wire.DeliverTail, lim, func(_, _ []byte) error { return nil })
					if err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}
