package toolmcp

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
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
