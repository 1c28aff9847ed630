package toolmcp

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

func testElicitor() *elicitor {
	return newElicitor(elicitConfig{timeout: time.Minute, key: []byte(strings.Repeat("k", 32))})
}

var testApproval = runtime.ApprovalRequest{
	Tool:      &runtime.Tool{Name: "wipe"},
	Arguments: json.RawMessage(`{"id":1}`),
}

// resigned returns a state for testApproval and binding with the given bytes of
// issued time and nonce, signed as sign signs.
func (e *elicitor) resigned(issued uint64, nonce []byte, binding []byte) string {
	s := binary.BigEndian.AppendUint64(nil, issued)
	s = append(s, nonce...)
	s = append(s, e.mac(s[:8], s[8:], testApproval, binding)...)
	return base64.RawURLEncoding.EncodeToString(s)
}

// TestApprovalStateIssued: the issued time a state carries holds for the timeout
// after it, and no longer; a state issued ahead of this clock by more than the
// timeout (no approver of this key wrote it now, a replica's clock that far ahead) is
// refused, as are the far past and the far future of its 64 bits.
func TestApprovalStateIssued(t *testing.T) {
	e := testElicitor()
	binding := []byte("b")
	nonce := make([]byte, 16)
	now := time.Now()
	for i, c := range []struct {
		issued int64
		ok     bool
		late   bool
	}{
		{now.UnixNano(), true, false},
		{now.Add(-time.Minute + 5*time.Second).UnixNano(), true, false},
		{now.Add(-time.Minute - time.Nanosecond).UnixNano(), false, true},
		{now.Add(-time.Minute - 5*time.Second).UnixNano(), false, true},
		{now.Add(time.Minute - 5*time.Second).UnixNano(), true, false},
		{now.Add(time.Minute + 5*time.Second).UnixNano(), false, false},
		{0, false, true},
		{-1, false, true},
		{math.MinInt64, false, true},
		{math.MaxInt64, false, false},
	} {
		nonce[0] = byte(i)
		err := e.check(context.Background(), e.resigned(uint64(c.issued), nonce, binding), testApproval, binding)
		if (err == nil) != c.ok || (err == errLate) != c.late {
			t.Errorf("issued %v (%d): %v", time.Unix(0, c.issued).Sub(now), c.issued, err)
		}
	}
}

// TestApprovalStateSize: a state is the issued time, a nonce of 16 bytes and the MAC:
// one of another size is refused, whatever else it holds, and one of the size but
// spelled otherwise than sign spells it.
func TestApprovalStateSize(t *testing.T) {
	e := testElicitor()
	binding := []byte("b")
	issued := uint64(time.Now().UnixNano())
	good := e.resigned(issued, make([]byte, 16), binding)
	if len(good) != stateChars {
		t.Fatalf("a state of %d characters, want %d", len(good), stateChars)
	}
	for _, n := range []int{0, 1, 15, 17, 32, 1 << 20} {
		if err := e.check(context.Background(), e.resigned(issued, make([]byte, n), binding), testApproval, binding); err == nil {
			t.Errorf("a nonce of %d bytes was accepted", n)
		}
	}
	raw, _ := base64.RawURLEncoding.DecodeString(good)
	for _, s := range []string{
		"",
		good[:len(good)-1],
		good + "A",
		good + "\n",
		good[:10] + "\r" + good[11:], // the length of a state: one character less of it
		base64.StdEncoding.EncodeToString(raw)[:stateChars],
		base64.RawURLEncoding.EncodeToString(append(raw, 0)),
		base64.RawURLEncoding.EncodeToString(raw[:stateSize-1]),
		strings.Repeat("A", 1<<20),
	} {
		if s == good {
			continue // the standard alphabet spells these bytes the same
		}
		if err := e.check(context.Background(), s, testApproval, binding); err == nil {
			t.Errorf("%q was accepted", s)
		}
	}
	if err := e.check(context.Background(), good, testApproval, binding); err != nil {
		t.Errorf("the state as signed: %v", err)
	}
	if err := e.check(context.Background(), good, testApproval, binding); err == nil {
		t.Error("the state as signed, again, was accepted")
	}
}

// TestSpendInMemoryKeysByNonce: the in-memory record of the states accepted holds
// their nonces: two states with the same nonce are one approval, whatever their other
// bytes.
func TestSpendInMemoryKeysByNonce(t *testing.T) {
	e := testElicitor()
	nonce := []byte("0123456789abcdef")
	now := time.Now()
	a := e.resigned(uint64(now.UnixNano()), nonce, []byte("a"))
	b := e.resigned(uint64(now.Add(time.Second).UnixNano()), nonce, []byte("b"))
	if err := e.check(context.Background(), a, testApproval, []byte("a")); err != nil {
		t.Fatal(err)
	}
	if err := e.check(context.Background(), b, testApproval, []byte("b")); err == nil {
		t.Error("a second state with the nonce of one spent was accepted")
	}
}

// fuzzElicitor is an approver with a timeout long enough that a state issued at
// fuzzIssued holds while the fuzzer runs: its corpus stays good.
func fuzzElicitor() *elicitor {
	return newElicitor(elicitConfig{timeout: 100 * 365 * 24 * time.Hour, key: []byte(strings.Repeat("k", 32))})
}

var fuzzIssued = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// FuzzApprovalState: of all the strings a client may send as an approval's state, the
// approver accepts the one it signed and no other (no respelling of it).
func FuzzApprovalState(f *testing.F) {
	binding := []byte("b")
	good := fuzzElicitor().resigned(uint64(fuzzIssued.UnixNano()), []byte("0123456789abcdef"), binding)
	f.Add(good)
	f.Add(good + "\r")
	f.Add(good[:5] + "\n" + good[5:])
	f.Add(good[:len(good)-1] + "B")
	f.Add(strings.NewReplacer("-", "+", "_", "/").Replace(good))
	f.Fuzz(func(t *testing.T, s string) {
		e := fuzzElicitor()
		err := e.check(context.Background(), s, testApproval, binding)
		if err == nil && s != good {
			t.Fatalf("%q was accepted as well as %q", s, good)
		}
		if s == good && err != nil {
			t.Fatalf("the state signed: %v", err)
		}
	})
}

// FuzzRoundState: a requestState of toolmcp's format is read only in the spelling
// encode writes: whatever a client sends, what is read, written again, is what it sent
// (or nothing is read), and what encode writes reads back to itself.
func FuzzRoundState(f *testing.F) {
	rs := roundState{
		Approval: "a",
		Answers:  map[string]json.RawMessage{"toolgen_ask_1": json.RawMessage(`{"action":"accept","content":{"x":"<é>"}}`)},
		Asked:    map[string]string{"toolgen_ask_1": "d", "toolgen_approval": "e"},
	}
	f.Add(rs.encode())
	f.Add(rs.encode() + "\n")
	f.Add(roundState{Asked: map[string]string{"k": "v"}}.encode())
	f.Add(roundStatePrefix + base64.RawURLEncoding.EncodeToString([]byte(`{"asked":{"k":"v"},"answers":{"k":1}}`)))
	f.Add(roundStatePrefix + base64.RawURLEncoding.EncodeToString([]byte(`{"approval":"a","approval":"b"}`)))
	f.Add(roundStatePrefix + base64.RawURLEncoding.EncodeToString([]byte(`{"answers":{"k":"\u003c"}}`)))
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := readRoundState(s)
		if !strings.HasPrefix(s, roundStatePrefix) {
			if !ok || got.Approval != s || got.Answers != nil || got.Asked != nil {
				t.Fatalf("a state of no format read as %+v (ok %v)", got, ok)
			}
			return
		}
		empty := got.Approval == "" && got.Answers == nil && got.Asked == nil
		if !ok && !empty {
			t.Fatalf("%q refused, yet read as %+v", s, got)
		}
		if ok && got.encode() != s {
			t.Fatalf("%q read, and written again as %q", s, got.encode())
		}
		// Any body toolmcp may write reads back to itself.
		raw := strings.TrimPrefix(s, roundStatePrefix)
		var body roundState
		if b, err := base64.RawURLEncoding.DecodeString(raw); err == nil && json.Unmarshal(b, &body) == nil {
			if w := body.encode(); w != "" {
				if back, ok := readRoundState(w); !ok || back.encode() != w {
					t.Fatalf("%q, as written, does not read back", w)
				}
			}
		}
	})
}

// BenchmarkReadRoundState reads requestStates of 1 KB, 64 KB and 1 MiB of answers, as
// toolmcp writes them and with one line break inserted (refused): reading a state once
// in its one spelling costs a decode and an encode, linear in its size.
func BenchmarkReadRoundState(b *testing.B) {
	for _, size := range []int{1 << 10, 64 << 10, 1 << 20} {
		answer := json.RawMessage(`{"action":"accept","content":{"why":"` + strings.Repeat("x", size) + `"}}`)
		s := roundState{Answers: map[string]json.RawMessage{"toolgen_ask_1": answer}, Asked: map[string]string{"toolgen_ask_1": "d"}}.encode()
		for _, c := range []struct {
			name  string
			state string
		}{{"canonical", s}, {"respelled", s[:len(s)/2] + "\n" + s[len(s)/2:]}} {
			b.Run(fmt.Sprintf("%s/%d", c.name, size), func(b *testing.B) {
				b.SetBytes(int64(len(c.state)))
				b.ReportAllocs()
				for b.Loop() {
					readRoundState(c.state)
				}
			})
		}
	}
}
