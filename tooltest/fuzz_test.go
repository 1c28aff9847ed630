package tooltest

import (
	"errors"
	"testing"
)

// FuzzRead: Read takes any bytes in every wire format without panicking, refuses them
// with an error wrapping ErrRejected or ErrUnsupported, or returns a request whose
// every turn has one answer per call, in the calls' order (Results[i] answers
// Calls[i]): the rule every double relies on.
func FuzzRead(f *testing.F) {
	for _, body := range valid {
		f.Add(uint8(0), []byte(body))
	}
	for i, body := range []string{`{}`, `null`, `{"model":"m","messages":[]}`, `{"contents":[{"parts":[{"functionCall":{"name":"f"}}]}]}`} {
		f.Add(uint8(i), []byte(body))
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		for k := range Formats() {
			format := Formats()[(int(which)+k)%len(Formats())]
			req, err := Read(format, body)
			if err != nil {
				if !errors.Is(err, ErrRejected) && !errors.Is(err, ErrUnsupported) {
					t.Fatalf("%s: an error that wraps neither ErrRejected nor ErrUnsupported: %v", format, err)
				}
				continue
			}
			for n, turn := range req.Turns {
				if len(turn.Results) != len(turn.Calls) {
					t.Fatalf("%s: turn %d has %d calls and %d results", format, n, len(turn.Calls), len(turn.Results))
				}
				for i, r := range turn.Results {
					if r.Call.ID != turn.Calls[i].ID || r.Call.Name != turn.Calls[i].Name {
						t.Fatalf("%s: turn %d: result %d answers %+v, call %d is %+v", format, n, i, r.Call, i, turn.Calls[i])
					}
				}
			}
		}
	})
}
