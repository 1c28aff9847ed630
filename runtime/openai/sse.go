package openai

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// ReadSSE reads a server-sent event stream, such as the body of a streaming OpenAI
// response, and calls fn with each event's name ("" when the event has none) and data
// (its "data:" lines joined by newlines), in order. Comments and the id and retry
// fields are skipped; an event cut off by the end of the stream is not delivered, as
// the SSE specification asks. fn owns the slices it is given. ReadSSE returns fn's
// first error, or the reader's, and nil at the end of the stream.
//
// To accumulate a stream:
//
//	var s openai.ChatStream
//	err := openai.ReadSSE(resp.Body, func(_, data []byte) error { return s.Add(data) })
//	calls, err := s.Calls()
func ReadSSE(r io.Reader, fn func(event, data []byte) error) error {
	br := bufio.NewReader(r)
	var event, data []byte
	var hasData bool
	for {
		chunk, err := br.ReadBytes('\n')
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil // a line without its end cannot end an event
			}
			return err
		}
		chunk = bytes.TrimSuffix(bytes.TrimSuffix(chunk, []byte("\n")), []byte("\r"))
		// A lone \r also ends a line.
		for line := range bytes.SplitSeq(chunk, []byte("\r")) {
			if len(line) == 0 { // the blank line that ends an event
				if hasData {
					if err := fn(event, data); err != nil {
						return err
					}
				}
				event, data, hasData = nil, nil, false
				continue
			}
			if line[0] == ':' {
				continue // a comment
			}
			field, value, _ := bytes.Cut(line, []byte(":"))
			value = bytes.TrimPrefix(value, []byte(" "))
			switch string(field) {
			case "event":
				event = bytes.Clone(value)
			case "data":
				if hasData {
					data = append(data, '\n')
				}
				data = append(data, value...)
				hasData = true
			}
		}
	}
}
