package toolmcp

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestScreenedBodyEndsWithTheHandler: the body HTTPScreen lends its handler reads as
// the request's, and once the handler returned it reads nothing, not even the bytes of
// a later request now in its buffer.
func TestScreenedBodyEndsWithTheHandler(t *testing.T) {
	var kept []io.Reader
	var read [][]byte
	screen := &HTTPScreen{Next: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			t.Error(err)
		}
		read = append(read, b)
		kept = append(kept, r.Body)
	})}
	first := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	second := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	for _, body := range []string{first, second} {
		screen.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body)))
	}
	if len(read) != 2 || string(read[0]) != first || string(read[1]) != second {
		t.Fatalf("the handler read %q", read)
	}
	for i, r := range kept {
		if n, err := r.Read(make([]byte, 64)); n != 0 || !errors.Is(err, errBodyDetached) {
			t.Errorf("body %d read after its handler returned: %d bytes, %v", i, n, err)
		}
	}
}

// TestBodyBufferRelease: a buffer of maxPooledBodyBytes is kept for the next request,
// one a byte larger is not.
func TestBodyBufferRelease(t *testing.T) {
	for _, c := range []struct {
		capacity int
		kept     bool
	}{{maxPooledBodyBytes, true}, {maxPooledBodyBytes + 1, false}} {
		bb := &bodyBuffer{}
		body := make([]byte, 10, c.capacity)
		bb.release(body)
		if kept := cap(bb.b) == c.capacity; kept != c.kept {
			t.Errorf("a buffer of %d bytes: kept %v, want %v", c.capacity, kept, c.kept)
		}
		if c.kept && len(bb.b) != 0 {
			t.Errorf("a buffer kept with %d bytes in it", len(bb.b))
		}
	}
}

// TestReadBodyIntoLargerBuffer: into a buffer larger than the limit, readBody still
// reads a body of the limit and refuses one a byte longer, reading no more than the
// limit and one byte of it.
func TestReadBodyIntoLargerBuffer(t *testing.T) {
	const limit = 100
	for _, size := range []int64{-1, limit, limit + 1} {
		for _, n := range []int{limit, limit + 1} {
			src := &countingReader{r: bytes.NewReader(bytes.Repeat([]byte("x"), n+50))}
			r := io.LimitReader(src, int64(n))
			got, err := readBody(r, min(size, int64(n)), limit, make([]byte, 0, 4*limit))
			if n <= limit && (err != nil || len(got) != n) {
				t.Errorf("size %d, %d bytes: %d bytes, %v", size, n, len(got), err)
			}
			if n > limit && !errors.Is(err, errBodyTooLong) {
				t.Errorf("size %d, %d bytes: %d bytes, %v; want errBodyTooLong", size, n, len(got), err)
			}
			if src.n > limit+1 {
				t.Errorf("size %d, %d bytes: read %d bytes", size, n, src.n)
			}
		}
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}
