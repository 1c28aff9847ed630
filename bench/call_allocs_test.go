package bench

import (
	"context"
	"testing"
)

// TestCallInlineAllocations checks issue 24's allocation bound on every payload, two
// objects more than the bare generated decode of the same arguments, with room to
// spare: a Call with WithInlineCalls, where no deadline applies, allocates no more than
// the decode. The generated dispatch runs the tool at once, its decoded value in the
// dispatch's frame (the bare decode returns it on the heap), and the "ok" result of
// these tools, which return nothing, comes 16 to an allocation.
func TestCallInlineAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ctx := context.Background()
	for _, p := range payloads {
		name, tool, args := p.id()
		ts := p.toolset().WithInlineCalls(true)
		decode := p.bareDecode()
		decodeAllocs := testing.AllocsPerRun(100, func() {
			if err := decode(args); err != nil {
				t.Fatal(err)
			}
		})
		callAllocs := testing.AllocsPerRun(100, func() {
			if r := ts.Call(ctx, tool, args); r.IsError {
				t.Fatal(r.Text())
			}
		})
		if callAllocs > decodeAllocs {
			t.Errorf("%s: Call allocates %v, the decode %v: more", name, callAllocs, decodeAllocs)
		}
	}
}
