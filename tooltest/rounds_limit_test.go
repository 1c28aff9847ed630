package tooltest

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestReadHTTPMaxRequestBytes reads a valid Chat Completions body padded with
// whitespace to exactly MaxRequestBytes, which the fake API reads, and one byte more,
// which it rejects without reading the body whole.
func TestReadHTTPMaxRequestBytes(t *testing.T) {
	valid := []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	for _, tc := range []struct {
		size   int
		reject bool
	}{{MaxRequestBytes, false}, {MaxRequestBytes + 1, true}} {
		body := append(bytes.Clone(valid), bytes.Repeat([]byte(" "), tc.size-len(valid))...)
		r := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+APIKey)
		req, err := readHTTP(r, "")
		switch {
		case tc.reject && !errors.Is(err, ErrRejected):
			t.Errorf("%d bytes: err = %v, want the body rejected", tc.size, err)
		case !tc.reject && err != nil:
			t.Errorf("%d bytes: %v, want the body read", tc.size, err)
		case !tc.reject && len(req.Body) != tc.size:
			t.Errorf("%d bytes: read %d", tc.size, len(req.Body))
		}
	}
}
