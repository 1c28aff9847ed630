package toolmcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/jsonread"
)

// maxMessageDepth is the deepest nesting of objects and arrays the SDK reads in a
// message (its internal/json limit); a deeper message would end its session.
const maxMessageDepth = 1000

// IOTransport is an mcp.Transport that speaks newline-delimited JSON-RPC over a reader
// and a writer, as mcp.IOTransport does, with one difference: a line the SDK cannot
// read is answered with a JSON-RPC error (parse error -32700 or invalid request -32600,
// with the request's id when it can be found) and skipped, and the session goes on. On
// such a line the SDK ends the session, and with it a stdio server: text that is not
// JSON, a message nested deeper than 1,000 levels or longer than the size limit, a JSON
// value that is not a JSON-RPC 2.0 message, or a batch (batches left MCP in revision
// 2025-06-18). A message with a key twice in any object ("params" twice, or a property
// of the arguments) is answered with invalid request too, with its id unless "id" is
// the key repeated: the SDK would act on the last of the two, where a proxy or a log
// may read the first. So is one with two keys that differ only in case (under Unicode
// case folding, as bytes.EqualFold compares them) in an object of the protocol's,
// which the SDK decodes into a Go struct: "params" and "Params", or "name" and "Name"
// in the params. The SDK matches such keys exactly and takes "params", where a reader
// that decodes with encoding/json, case-insensitively, takes the last. A tool's
// arguments and _meta are the client's own maps: their keys are compared exactly, so
// "a" and "A" are two arguments.
//
// Every other line reaches the SDK unchanged. MCP's stdio transport puts one message
// on each line; a message spread over several lines is answered as invalid.
//
// At the end of the input, the session ends once the requests already read are
// answered (or after 5 seconds), where the SDK would drop their answers: requests piped
// into a server all get their answers.
type IOTransport struct {
	// Reader is read for the client's messages; closing the connection closes it.
	Reader io.ReadCloser
	// Writer receives the server's messages; closing the connection closes it.
	Writer io.WriteCloser
	// MaxMessageBytes is the longest line read; longer ones are answered with an
	// error. Zero means mcp.DefaultMaxLineLength.
	MaxMessageBytes int
}

// StdioTransport returns an IOTransport over standard input and output. Closing its
// connection closes standard input but not standard output, as with mcp.StdioTransport.
func StdioTransport() *IOTransport {
	return &IOTransport{Reader: os.Stdin, Writer: nopCloser{os.Stdout}}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// Connect starts screening the reader's lines and connects the SDK's newline-delimited
// transport to the screened stream.
func (t *IOTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	limit := t.MaxMessageBytes
	if limit <= 0 {
		limit = mcp.DefaultMaxLineLength
	}
	pr, pw := io.Pipe()
	flight := &inflight{ids: map[string]int{}}
	w := &lockedWriter{w: t.Writer, flight: flight}
	go screen(t.Reader, pw, w, limit, flight)
	inner := &mcp.IOTransport{
		Reader:        readCloser{pr, t.Reader},
		Writer:        w,
		MaxLineLength: -1, // screen enforces the limit, and answers what exceeds it
	}
	return inner.Connect(ctx)
}

// readCloser is the screened stream; closing it closes the source too, which ends
// screen's read.
type readCloser struct {
	*io.PipeReader
	src io.Closer
}

func (r readCloser) Close() error {
	return errors.Join(r.PipeReader.Close(), r.src.Close())
}

// lockedWriter serializes the SDK's writes and screen's answers: each Write is one
// whole message line. It tells flight of each response written.
type lockedWriter struct {
	mu     sync.Mutex
	w      io.WriteCloser
	flight *inflight
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	n, err := l.w.Write(p)
	l.mu.Unlock()
	if id, isRequest := topLevel(p); id != nil && !isRequest {
		l.flight.done(normalizeID(id))
	}
	return n, err
}

func (l *lockedWriter) Close() error { return l.w.Close() }

// drainTimeout bounds how long the end of the input waits for the answers to the
// requests already read.
const drainTimeout = 5 * time.Second

// screen copies src to dst line by line, passing on the lines the SDK can read and
// answering the others on w. At the end of src it waits, up to drainTimeout, for the
// answers to the requests passed on before ending dst (and so the session), so that
// piping requests into a server gets every answer.
func screen(src io.Reader, dst *io.PipeWriter, w io.Writer, limit int, flight *inflight) {
	r := bufio.NewReaderSize(src, 64<<10)
	var line []byte
	for {
		line = line[:0]
		tooLong := false
		var err error
		for {
			var chunk []byte
			chunk, err = r.ReadSlice('\n')
			if !tooLong {
				if len(line)+len(chunk) > limit+1 { // +1: the newline
					tooLong = true
					line = append(line, chunk[:limit+1-len(line)]...)
				} else {
					line = append(line, chunk...)
				}
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if len(line) > 0 || tooLong {
			var msg []byte
			var call string
			if tooLong {
				msg = answer(topLevelID(line), jsonrpc.CodeInvalidRequest, "Invalid request: the message is longer than "+strconv.Itoa(limit)+" bytes")
			} else {
				msg, call = check(line)
			}
			if call != "" {
				flight.add(call)
			}
			if msg != nil {
				if _, werr := w.Write(msg); werr != nil {
					dst.CloseWithError(werr)
					return
				}
			} else if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
				// The SDK rejects white space after a message, before its newline.
				if _, werr := dst.Write(append(trimmed, '\n')); werr != nil {
					return // the connection was closed
				}
			}
		}
		if err != nil {
			if err == io.EOF {
				err = nil
				flight.wait(drainTimeout)
			}
			dst.CloseWithError(err)
			return
		}
	}
}

// check returns the error answer to line, or nil when the SDK can read it; then, when
// line is a request expecting an answer, call is its id, normalized.
func check(line []byte) (msg []byte, call string) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil, ""
	}
	if jsonread.DepthOver(line, maxMessageDepth) {
		return answer(topLevelID(line), jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid request: the message is nested deeper than %d levels", maxMessageDepth)), ""
	}
	if r := checkKeys(line, maxMessageDepth); r.problem != keysOK {
		return keysAnswer(line, r, "Parse error: the message is not valid JSON (MCP's stdio transport sends one message per line)"), ""
	}
	if line[0] == '[' {
		return answer(nil, jsonrpc.CodeInvalidRequest, "Invalid request: JSON-RPC batches are not supported"), ""
	}
	if line[0] != '{' {
		return answer(nil, jsonrpc.CodeInvalidRequest, "Invalid request: a message must be a JSON-RPC 2.0 object"), ""
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		return answer(nil, jsonrpc.CodeInvalidRequest, "Invalid request: "+err.Error()), ""
	}
	id, hasID := fields["id"]
	if hasID && !validID(id) {
		return answer(nil, jsonrpc.CodeInvalidRequest, "Invalid request: the id must be a string or a number"), ""
	}
	var version string
	if err := json.Unmarshal(fields["jsonrpc"], &version); err != nil || version != "2.0" {
		return answer(id, jsonrpc.CodeInvalidRequest, `Invalid request: the message must have "jsonrpc": "2.0"`), ""
	}
	if e, ok := fields["error"]; ok && string(e) != "null" {
		var we struct {
			Code    int64           `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(e, &we); err != nil {
			return answer(id, jsonrpc.CodeInvalidRequest, "Invalid request: the error of a response must be a JSON-RPC error object"), ""
		}
	}
	if method, ok := fields["method"]; ok {
		var s string
		if err := json.Unmarshal(method, &s); err != nil {
			return answer(id, jsonrpc.CodeInvalidRequest, "Invalid request: the method must be a string"), ""
		}
		if hasID && string(id) != "null" {
			return nil, normalizeID(id)
		}
		return nil, ""
	}
	// A response to a request of the server's.
	if !hasID || string(id) == "null" {
		return answer(nil, jsonrpc.CodeInvalidRequest, "Invalid request: a message must have a method, or an id when it is a response"), ""
	}
	return nil, ""
}

// validID reports whether raw, valid JSON, is an id the SDK accepts: null, a string or
// a number.
func validID(raw json.RawMessage) bool {
	switch raw[0] {
	case 'n', '"':
		return raw[0] == '"' || string(raw) == "null"
	}
	_, err := strconv.ParseFloat(string(raw), 64)
	return err == nil
}

// answer returns a JSON-RPC error response line; id is nil when unknown.
func answer(id json.RawMessage, code int64, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	type wireError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}{"2.0", id, wireError{code, message}})
	return append(b, '\n')
}

// topLevelID finds the "id" member of the object that b starts, without parsing the
// other members (they may be too deep, invalid or cut short), and returns it when it is
// a string or a number; otherwise nil.
func topLevelID(b []byte) json.RawMessage {
	id, _ := topLevel(b)
	return id
}

// topLevel reads the members of the object that b starts as topLevelID does (with
// jsonread's loose skips, which count brackets and check nothing else), and
// reports its id and whether it has a method (a request or notification, not a
// response). Of an object cut short, it reports what comes before the cut.
func topLevel(b []byte) (id json.RawMessage, hasMethod bool) {
	i := jsonread.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i++
	for {
		i = jsonread.SkipSpace(b, i)
		if i >= len(b) || b[i] != '"' {
			return id, hasMethod
		}
		start := i
		if i = jsonread.SkipLooseString(b, i); i < 0 {
			return id, hasMethod
		}
		key := b[start:i]
		if i = jsonread.SkipSpace(b, i); i >= len(b) || b[i] != ':' {
			return id, hasMethod
		}
		i = jsonread.SkipSpace(b, i+1)
		start = i
		if i = jsonread.SkipLoose(b, i); i < 0 {
			return id, hasMethod
		}
		switch string(key) {
		case `"id"`:
			if v := b[start:i]; jsonread.Valid(v, 1) && validID(v) && string(v) != "null" {
				id = json.RawMessage(bytes.Clone(v))
			}
		case `"method"`:
			hasMethod = true
		}
		if i = jsonread.SkipSpace(b, i); i >= len(b) || b[i] != ',' {
			return id, hasMethod
		}
		i++
	}
}

// normalizeID returns an id, a JSON string or number, as the SDK writes it back: a
// number as an integer, a string with its escapes undone.
func normalizeID(raw json.RawMessage) string {
	if raw[0] == '"' {
		var s string
		json.Unmarshal(raw, &s)
		return strconv.Quote(s)
	}
	f, _ := strconv.ParseFloat(string(raw), 64)
	return strconv.FormatInt(int64(f), 10)
}

// inflight counts the requests passed on to the SDK and not answered yet.
type inflight struct {
	mu      sync.Mutex
	ids     map[string]int
	drained chan struct{} // closed when ids empties while wait waits
}

func (f *inflight) add(id string) {
	f.mu.Lock()
	f.ids[id]++
	f.mu.Unlock()
}

func (f *inflight) done(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ids[id] == 0 {
		return // not a request of the client's: screen answered it, or unknown
	}
	if f.ids[id]--; f.ids[id] == 0 {
		delete(f.ids, id)
	}
	if len(f.ids) == 0 && f.drained != nil {
		close(f.drained)
		f.drained = nil
	}
}

// wait returns once every request passed on is answered, or after timeout.
func (f *inflight) wait(timeout time.Duration) {
	f.mu.Lock()
	if len(f.ids) == 0 {
		f.mu.Unlock()
		return
	}
	drained := make(chan struct{})
	f.drained = drained
	f.mu.Unlock()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-drained:
	case <-t.C:
	}
}
