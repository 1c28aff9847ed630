package toolmcp

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPScreen is an http.Handler in front of the SDK's streamable HTTP handler (Next,
// from mcp.NewStreamableHTTPHandler) that screens the JSON-RPC messages POSTed to it,
// as IOTransport screens the lines of stdio. It reads each POST body, up to
// MaxMessageBytes, and answers a body that is not one valid JSON value with a parse
// error (-32700), and one nested deeper than 1,000 levels, longer than the limit, or
// with a key twice in any object ("params" twice, or a property of the arguments), or
// with two keys that differ only in case in an object of the protocol's ("params" and
// "Params", "name" and "Name" in the params), with invalid request (-32600), as a
// JSON-RPC error response: HTTP 400, or 413 when too long. The response has the
// message's id when it can be read unambiguously, else null. Every other request
// reaches Next unchanged, the body as it came.
//
// The SDK acts on the last of two keys, where a proxy or a log may read the first; it
// matches the protocol's keys exactly, where a reader decoding with encoding/json
// matches them case-insensitively and takes the last; and it reads the first of two
// JSON values in a body. So a request screened is one that every reader sees the same.
// A tool's arguments are compared exactly: "a" and "A" are two arguments. Serve it as
// the MCP endpoint:
//
//	mux.Handle("/mcp", &toolmcp.HTTPScreen{Next: mcp.NewStreamableHTTPHandler(getServer, opts)})
type HTTPScreen struct {
	// Next serves the requests that pass.
	Next http.Handler
	// MaxMessageBytes is the longest body read; a longer one is answered with HTTP 413
	// and a JSON-RPC error. Zero means mcp.DefaultMaxRequestBodyBytes, the SDK
	// handler's default limit; the handler's own StreamableHTTPOptions.MaxRequestBodyBytes
	// applies too, so raise both.
	MaxMessageBytes int64
}

// ServeHTTP screens a POST's body and passes on what the SDK reads as every reader does.
func (s *HTTPScreen) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
		s.Next.ServeHTTP(w, r)
		return
	}
	limit := s.MaxMessageBytes
	if limit <= 0 {
		limit = mcp.DefaultMaxRequestBodyBytes
	}
	tooLong := func() {
		writeAnswer(w, http.StatusRequestEntityTooLarge, answer(nil, jsonrpc.CodeInvalidRequest, "Invalid request: the message is longer than "+strconv.FormatInt(limit, 10)+" bytes"))
	}
	if r.ContentLength > limit {
		tooLong()
		return
	}
	body, err := readBody(r.Body, r.ContentLength, limit)
	if errors.Is(err, errBodyTooLong) {
		tooLong()
		return
	}
	if err != nil {
		http.Error(w, "failed to read the request body", http.StatusBadRequest)
		return
	}
	if msg := keysAnswer(body, checkKeys(body, maxMessageDepth), "Parse error: the body is not one valid JSON value"); msg != nil {
		writeAnswer(w, http.StatusBadRequest, msg)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	s.Next.ServeHTTP(w, r)
}

func writeAnswer(w http.ResponseWriter, status int, msg []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(msg)
}

var errBodyTooLong = errors.New("toolmcp: request body too long")

// readBody reads r to its end, when that comes within limit bytes; size is the body's
// length when known, else -1. It returns errBodyTooLong on a body longer than limit.
func readBody(r io.Reader, size, limit int64) ([]byte, error) {
	n := int64(bytes.MinRead)
	if size >= 0 {
		n = size + 1 // room to read the end without growing
	}
	buf := make([]byte, 0, min(n, limit+1))
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, int(min(int64(cap(buf)), limit+1-int64(len(buf)))))
		}
		m, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if int64(len(buf)) > limit {
			return nil, errBodyTooLong
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
