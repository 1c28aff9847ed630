package gemini

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// ReadSSE reads a stream of server-sent events from r and calls fn with each event's
// name (empty when the event has none) and data (its data lines joined by newlines),
// until r ends or fn returns an error, which ReadSSE returns. Comments, ids and retry
// fields are skipped. An event cut off by the end of r without its blank line is still
// passed to fn, which finds out whether its data is complete.
func ReadSSE(r io.Reader, fn func(event, data []byte) error) error {
	br := bufio.NewReader(r)
	var event, data []byte
	hasData, first := false, true
	dispatch := func() error {
		if !hasData {
			event = event[:0]
			return nil
		}
		ev, d := bytes.Clone(event), bytes.Clone(data)
		event, data, hasData = event[:0], data[:0], false
		return fn(ev, d)
	}
	for {
		line, err := br.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if len(line) == 0 && err != nil {
			return dispatch()
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if first {
			line, first = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")), false
		}
		if len(line) == 0 {
			if derr := dispatch(); derr != nil {
				return derr
			}
		} else {
			name, value, _ := bytes.Cut(line, []byte(":"))
			value = bytes.TrimPrefix(value, []byte(" "))
			switch string(name) {
			case "event":
				event = append(event[:0], value...)
			case "data":
				if hasData {
					data = append(data, '\n')
				}
				data, hasData = append(data, value...), true
			}
		}
		if err != nil {
			return dispatch()
		}
	}
}
