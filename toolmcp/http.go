package toolmcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

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
// message's id when it can be read unambiguously, else null. A request of MCP
// 2026-07-28 (Revision2026) whose MCP headers are not each sent once, in visible
// ASCII, within MaxMCPHeaderBytes, with at most MaxParamHeaders Mcp-Param headers, is
// answered with header mismatch (-32020, HTTP 400); the SDK then matches their values
// to the body. Every other request reaches Next (or Stateless) unchanged, the body as
// it came, readable until Next's ServeHTTP returns, as the http.Handler contract has
// it: a read after that fails, since the screen's buffer then serves a later request.
//
// The SDK acts on the last of two keys, where a proxy or a log may read the first; it
// matches the protocol's keys exactly, where a reader decoding with encoding/json
// matches them case-insensitively and takes the last; and it reads the first of two
// JSON values in a body. So a request screened is one that every reader sees the same.
// A tool's arguments are compared exactly: "a" and "A" are two arguments. Serve it as
// the MCP endpoint:
//
//	mux.Handle("/mcp", &toolmcp.HTTPScreen{Next: mcp.NewStreamableHTTPHandler(getServer, opts)})
//
// or, to serve clients of MCP 2026-07-28 beside older ones with sessions, as
// NewHTTPHandler builds it.
type HTTPScreen struct {
	// Next serves the requests that pass.
	Next http.Handler
	// Stateless, when set, serves instead of Next the requests of MCP 2026-07-28 and
	// later (Revision2026): the SDK's streamable HTTP handler serves that revision
	// only when stateless, and older ones with sessions only when not, so a server
	// for both has two handlers. NewHTTPHandler sets it.
	Stateless http.Handler
	// MaxMessageBytes is the longest body read; a longer one is answered with HTTP 413
	// and a JSON-RPC error. Zero means mcp.DefaultMaxRequestBodyBytes, the SDK
	// handler's default limit; the handler's own StreamableHTTPOptions.MaxRequestBodyBytes
	// applies too, so raise both.
	MaxMessageBytes int64
	// Listen, when set, serves the subscriptions/listen requests of MCP 2026-07-28
	// and later (notifications/tasks); without it they go on like any request.
	Listen *TaskListener
}

// ServeHTTP screens a POST's body and passes on what the SDK reads as every reader does.
func (s *HTTPScreen) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
		s.next(r, nil).ServeHTTP(w, r)
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
	bb := bodyBuffers.Get().(*bodyBuffer)
	body, err := readBody(r.Body, r.ContentLength, limit, bb.b[:0])
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
		bb.release(body)
		return
	}
	modern := Revision2026(r, body)
	if modern {
		if msg := checkMCPHeaders(r.Header); msg != "" {
			writeAnswer(w, http.StatusBadRequest, answer(topLevelID(body), mcp.CodeHeaderMismatch, "Header mismatch: "+msg))
			bb.release(body)
			return
		}
	}
	if s.Listen != nil && modern && isListen(body) {
		// A stream: its body is not lent, so it is not kept for the next request.
		s.Listen.serve(w, r, body)
		return
	}
	next := s.Next
	if s.Stateless != nil && modern {
		next = s.Stateless
	}
	// The body is lent to next until it returns: the http.Handler contract forbids
	// reading a request's body once ServeHTTP returned, and screenedBody enforces it,
	// so the buffer serves the next request.
	sb := &screenedBody{data: body}
	r.Body = sb
	next.ServeHTTP(w, r)
	sb.detach()
	bb.release(body)
}

// next returns the handler of r, whose body (nil when it has none) was screened.
func (s *HTTPScreen) next(r *http.Request, body []byte) http.Handler {
	if s.Stateless != nil && Revision2026(r, body) {
		return s.Stateless
	}
	return s.Next
}

// MaxMCPHeaderBytes is the longest value an MCP header of a request (Mcp-Method,
// Mcp-Name, MCP-Protocol-Version, an Mcp-Param-{Name} of SEP-2243) may have;
// HTTPScreen refuses a longer one before anything decodes it, as SEP-2243 asks of
// oversized headers. A tool's arguments belong in the body: a header mirrors a short
// value for routing.
const MaxMCPHeaderBytes = 8 << 10

// MaxParamHeaders is the most Mcp-Param-{Name} headers a request may carry.
const MaxParamHeaders = 64

// checkMCPHeaders reports what is wrong with the MCP headers of a request of MCP
// 2026-07-28, whose values the server checks against the body (the SDK matches
// Mcp-Method, Mcp-Name and each Mcp-Param-{Name} of the tool to the body): a header
// sent twice (the SDK reads the first, a proxy may read the last, as with keys twice
// in the body), a value past MaxMCPHeaderBytes, more than MaxParamHeaders
// Mcp-Param-{Name} headers, or a value with a character SEP-2243 prohibits (any
// outside visible ASCII, space and tab: the client Base64-encodes such a value).
// Header names are matched case-insensitively, as HTTP does.
func checkMCPHeaders(h http.Header) string {
	if mcpHeadersFine(h) {
		return ""
	}
	return mcpHeadersProblem(h)
}

// mcpHeadersProblem is checkMCPHeaders's message: the first header wrong, by name.
func mcpHeadersProblem(h http.Header) string {
	params := 0
	for _, name := range slices.Sorted(maps.Keys(h)) {
		mcpHeader, param := mcpHeaderName(name)
		if !mcpHeader {
			continue
		}
		if param {
			params++
			if params > MaxParamHeaders {
				return "more than " + strconv.Itoa(MaxParamHeaders) + " Mcp-Param headers"
			}
		}
		shown := strconv.QuoteToASCII(clip(name, 80))
		vals := h[name]
		if len(vals) > 1 {
			return "the header " + shown + " appears " + strconv.Itoa(len(vals)) + " times: a request sends each MCP header once"
		}
		for _, v := range vals {
			if len(v) > MaxMCPHeaderBytes {
				return "the header " + shown + " is longer than " + strconv.Itoa(MaxMCPHeaderBytes) + " bytes"
			}
			for i := 0; i < len(v); i++ {
				if c := v[i]; c != '\t' && (c < 0x20 || c > 0x7e) {
					return "the header " + shown + " holds the byte " + fmt.Sprintf("0x%02X", c) + ": a value outside visible ASCII is sent Base64-encoded (=?base64?...?=)"
				}
			}
		}
	}
	return ""
}

// mcpHeadersFine reports whether checkMCPHeaders finds nothing wrong with h, reading it
// in one pass, in the map's order, without allocating: checkMCPHeaders reads the
// headers sorted, to name the first wrong one the same way every time, only when one
// is.
func mcpHeadersFine(h http.Header) bool {
	params := 0
	for name, vals := range h {
		mcpHeader, param := mcpHeaderName(name)
		if !mcpHeader {
			continue
		}
		if param {
			if params++; params > MaxParamHeaders {
				return false
			}
		}
		if len(vals) > 1 {
			return false
		}
		for _, v := range vals {
			if len(v) > MaxMCPHeaderBytes {
				return false
			}
			for i := 0; i < len(v); i++ {
				if c := v[i]; c != '\t' && (c < 0x20 || c > 0x7e) {
					return false
				}
			}
		}
	}
	return true
}

// mcpHeaderName reports whether the header name is one of MCP's, as checkMCPHeaders
// matches them (its lower case is Mcp-Method, Mcp-Name, MCP-Protocol-Version, or starts
// with Mcp-Param-), and whether it is an Mcp-Param-{Name}. An ASCII name, as every
// name net/http reads is, is compared without allocating.
func mcpHeaderName(name string) (mcpHeader, param bool) {
	if name == "" || name[0]|0x20 != 'm' {
		// Each of MCP's names starts with an m, and no letter but M lowers to it: the
		// usual header (Accept, Content-Type, User-Agent) is told apart by its first byte.
		return false, false
	}
	// net/http reads header names into their canonical form: compared exactly first.
	switch name {
	case "Mcp-Method", "Mcp-Name", "Mcp-Protocol-Version":
		return true, false
	case "Mcp-Session-Id":
		return false, false
	}
	if len(name) >= len("Mcp-Param-") && name[:len("Mcp-Param-")] == "Mcp-Param-" {
		return true, true
	}
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			lower := strings.ToLower(name)
			param = strings.HasPrefix(lower, "mcp-param-")
			return param || lower == "mcp-method" || lower == "mcp-name" || lower == "mcp-protocol-version", param
		}
	}
	// For ASCII strings strings.EqualFold is ASCII's case folding, as ToLower's.
	param = len(name) >= len("mcp-param-") && strings.EqualFold(name[:len("mcp-param-")], "mcp-param-")
	return param || strings.EqualFold(name, "mcp-method") || strings.EqualFold(name, "mcp-name") ||
		strings.EqualFold(name, "mcp-protocol-version"), param
}

// Revision20260728 is the MCP revision that has no sessions (SEP-2575): each request
// carries its protocol version, the client's capabilities and identity in its _meta.
const Revision20260728 = "2026-07-28"

// metaProtocolVersion is the _meta key of a request's protocol version under
// Revision20260728.
const metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// Revision2026 reports whether r, whose body is body (nil for none, or one JSON value
// already screened), is a request of MCP 2026-07-28 or a later revision: one with no
// Mcp-Session-Id whose MCP-Protocol-Version header names such a revision, or whose
// message's params._meta carries a protocol version (which the 2026-07-28 revision
// alone defines; the handler then checks it against the header). Any other request,
// an initialize of an older revision or a request of a session, is not.
//
// Revisions are dates, compared as strings, as the SDK compares them: a version
// that is not a date and sorts after 2026-07-28 goes to the stateless handler too,
// which refuses a version it does not support.
func Revision2026(r *http.Request, body []byte) bool {
	// The names are canonical, as Header.Get would make them: looked up as they are.
	if v := r.Header["Mcp-Session-Id"]; len(v) > 0 && v[0] != "" {
		return false
	}
	if v := r.Header["Mcp-Protocol-Version"]; len(v) > 0 && v[0] >= Revision20260728 {
		return true
	}
	return len(body) > 0 && bodyCarriesVersion(body)
}

// bodyCarriesVersion reports whether the JSON-RPC message body has a protocol version
// in its params._meta. Keys are matched exactly, as the SDK matches them.
func bodyCarriesVersion(body []byte) bool {
	var msg, params, meta map[string]json.RawMessage
	if json.Unmarshal(body, &msg) != nil || json.Unmarshal(msg["params"], &params) != nil ||
		json.Unmarshal(params["_meta"], &meta) != nil {
		return false
	}
	_, ok := meta[metaProtocolVersion]
	return ok
}

// NewHTTPHandler returns the MCP endpoint of the servers getServer returns, over
// streamable HTTP, for the clients of every revision the SDK speaks: an HTTPScreen
// whose Next is the SDK's handler with sessions, for clients of revisions before
// 2026-07-28 (which initialize a session), and whose Stateless is the SDK's
// stateless handler, for those of 2026-07-28, which have no sessions (the SDK serves
// each revision with one kind of handler only). Both share opts, but for Stateless;
// with opts.Stateless set every request goes to the stateless handler. MaxMessageBytes
// is opts.MaxRequestBodyBytes when that is positive.
//
//	mux.Handle("/mcp", toolmcp.NewHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
func NewHTTPHandler(getServer func(*http.Request) *mcp.Server, opts *mcp.StreamableHTTPOptions) *HTTPScreen {
	var o mcp.StreamableHTTPOptions
	if opts != nil {
		o = *opts
	}
	stateless := o
	stateless.Stateless = true
	screen := &HTTPScreen{Stateless: mcp.NewStreamableHTTPHandler(getServer, &stateless)}
	if o.Stateless {
		screen.Next = screen.Stateless
	} else {
		screen.Next = mcp.NewStreamableHTTPHandler(getServer, &o)
	}
	if o.MaxRequestBodyBytes > 0 {
		screen.MaxMessageBytes = o.MaxRequestBodyBytes
	}
	return screen
}

func writeAnswer(w http.ResponseWriter, status int, msg []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(msg)
}

var errBodyTooLong = errors.New("toolmcp: request body too long")

// readBody reads r to its end, when that comes within limit bytes, into buf (empty, of
// any capacity); size is the body's length when known, else -1. It returns
// errBodyTooLong on a body longer than limit, having read at most limit+1 bytes.
func readBody(r io.Reader, size, limit int64, buf []byte) ([]byte, error) {
	n := int64(bytes.MinRead)
	if size >= 0 {
		n = size + 1 // room to read the end without growing
	}
	if n = min(n, limit+1); int64(cap(buf)) < n {
		buf = slices.Grow(buf, int(n))
	}
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, int(min(int64(cap(buf)), limit+1-int64(len(buf)))))
		}
		m, err := r.Read(buf[len(buf):int(min(int64(cap(buf)), limit+1))])
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

// maxPooledBodyBytes is the capacity of the largest body buffer HTTPScreen keeps for a
// later request, once the handler it lent the body to returned; a larger one is left to
// the collector.
const maxPooledBodyBytes = 64 << 10

// bodyBuffer is a buffer HTTPScreen reads bodies into, kept in bodyBuffers between
// requests.
type bodyBuffer struct{ b []byte }

// bodyBuffers keeps HTTPScreen's body buffers from one request to the next.
var bodyBuffers = sync.Pool{New: func() any { return new(bodyBuffer) }}

// release gives back the buffer, whose latest bytes are body, once nothing reads body.
func (bb *bodyBuffer) release(body []byte) {
	if cap(body) > maxPooledBodyBytes {
		return
	}
	bb.b = body[:0]
	bodyBuffers.Put(bb)
}

// errBodyDetached is what a read of a screened body returns once HTTPScreen's
// ServeHTTP returned.
var errBodyDetached = errors.New("toolmcp: the request body was read after its handler returned")

// screenedBody is the body HTTPScreen passes on: the bytes it read, until detach. It
// has Read and Close only, so every reader copies its bytes (no WriteTo hands out the
// buffer, which serves the next request once detached).
type screenedBody struct {
	mu       sync.Mutex
	data     []byte
	off      int
	detached bool
}

// Read reads the body, as a bytes.Reader does; after detach it fails.
func (b *screenedBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.detached {
		return 0, errBodyDetached
	}
	if b.off >= len(b.data) {
		return 0, io.EOF
	}
	n := copy(p, b.data[b.off:])
	b.off += n
	return n, nil
}

// Close does nothing, as io.NopCloser's: the body is in memory.
func (b *screenedBody) Close() error { return nil }

// detach ends the body's reading: its buffer may serve another request.
func (b *screenedBody) detach() {
	b.mu.Lock()
	b.detached, b.data = true, nil
	b.mu.Unlock()
}
