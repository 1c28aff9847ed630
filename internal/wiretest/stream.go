package wiretest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/loop"
)

// ReadFunc is a provider package's ReadSSE.
type ReadFunc func(io.Reader, func(event, data []byte) error) error

// Streamed returns a loop.StreamFunc that answers the requests of a Loop with the
// SSE bodies, in order, each read with read as a StreamFunc over HTTP reads a response
// body, and records the requests in sent. A request beyond the bodies is an error.
func Streamed(read ReadFunc, sent *[][]byte, bodies ...[]byte) loop.StreamFunc {
	return func(ctx context.Context, req []byte, events func(event, data []byte) error) error {
		*sent = append(*sent, req)
		if len(*sent) > len(bodies) {
			return fmt.Errorf("request %d was not expected: %s", len(*sent), req)
		}
		return read(bytes.NewReader(bodies[len(*sent)-1]), events)
	}
}

// StreamCase is one provider's recorded streams, for CheckLoopStreams.
type StreamCase struct {
	// Provider is the wire format.
	Provider loop.StreamProvider
	// Read is the provider package's ReadSSE.
	Read ReadFunc
	// Request starts the conversation.
	Request []byte
	// Calls is the SSE body of a turn that calls tools of Toolset, recorded.
	Calls []byte
	// WantCalls is CallsText of the calls of Calls.
	WantCalls string
	// Answer is the SSE body of a turn that answers in text, without calls.
	Answer []byte
	// BodyStream is set when PrepareStream asks for the stream in the body
	// ("stream": true); Gemini asks in the URL.
	BodyStream bool
}

// CheckLoopStreams checks a provider's Stream and a loop.Loop that streams with it
// over recorded streams: the Stream's text only grows and its calls are those recorded;
// the Loop passes every piece of text on to OnText, in order, runs the calls once the
// stream is complete, answers every call once, in order, and asks for the stream in
// every request; a stream cut off before it is complete, at any event or inside the
// event that completes it, is an error of Run, and no call runs; MaxRounds holds.
func CheckLoopStreams(t *testing.T, c StreamCase) {
	t.Helper()
	ts := Toolset()
	name := c.Provider.Name()

	// The Stream alone, event by event.
	var events [][2][]byte
	if err := c.Read(bytes.NewReader(c.Calls), func(event, data []byte) error {
		events = append(events, [2][]byte{event, data})
		return nil
	}); err != nil {
		t.Fatalf("%s: ReadSSE: %v", name, err)
	}
	s := c.Provider.Stream()
	doneAt := -1 // the event that completes the stream
	text := ""
	for i, ev := range events {
		if err := s.Add(ev[0], ev[1]); err != nil {
			t.Fatalf("%s: event %d: %v", name, i, err)
		}
		if !strings.HasPrefix(s.Text(), text) {
			t.Fatalf("%s: event %d: Text went from %q to %q: it must only grow", name, i, text, s.Text())
		}
		text = s.Text()
		if s.Done() && doneAt < 0 {
			doneAt = i
		}
	}
	if doneAt < 0 || !s.Done() {
		t.Fatalf("%s: the recorded stream is not Done", name)
	}
	calls, err := s.Calls()
	if err != nil || CallsText(calls) != c.WantCalls {
		t.Fatalf("%s: Calls = %q, %v; want %q", name, CallsText(calls), err, c.WantCalls)
	}
	resp, err := s.Response()
	if err != nil {
		t.Fatalf("%s: Response: %v", name, err)
	}
	if again, err := c.Provider.Calls(resp); err != nil || CallsText(again) != c.WantCalls {
		t.Errorf("%s: the Provider's Calls of Response = %q, %v; want %q", name, CallsText(again), err, c.WantCalls)
	}
	answer := c.Provider.Stream()
	if err := c.Read(bytes.NewReader(c.Answer), answer.Add); err != nil {
		t.Fatalf("%s: the answer stream: %v", name, err)
	}
	if got, err := answer.Calls(); err != nil || len(got) != 0 || answer.Text() == "" {
		t.Fatalf("%s: the answer stream: text %q, calls %q, %v", name, answer.Text(), CallsText(got), err)
	}

	// The Loop, streaming.
	var sent [][]byte
	var deltas []string
	var rounds []loop.Round
	l := loop.Loop{Provider: c.Provider, Tools: ts, Stream: Streamed(c.Read, &sent, c.Calls, c.Answer),
		OnText: func(d string) {
			if d == "" {
				t.Errorf("%s: OnText told an empty delta", name)
			}
			deltas = append(deltas, d)
		},
		OnRound: func(r loop.Round) { rounds = append(rounds, r) }}
	final, conv, err := l.Run(context.Background(), c.Request)
	if err != nil {
		t.Fatalf("%s: Run: %v", name, err)
	}
	if got, want := strings.Join(deltas, ""), text+answer.Text(); got != want {
		t.Errorf("%s: OnText got %q, want %q", name, got, want)
	}
	if len(rounds) != 1 || len(sent) != 2 {
		t.Fatalf("%s: %d rounds, %d requests; want 1 and 2", name, len(rounds), len(sent))
	}
	answered := make([]runtime.ToolCall, len(rounds[0].Calls))
	for i, r := range rounds[0].Calls {
		answered[i] = r.Call
		if r.Result == nil {
			t.Errorf("%s: call %d has no result", name, i)
		}
	}
	if CallsText(answered) != c.WantCalls {
		t.Errorf("%s: answered %q, want %q, in order", name, CallsText(answered), c.WantCalls)
	}
	if got, err := c.Provider.Calls(final); err != nil || len(got) != 0 {
		t.Errorf("%s: the final response has calls %q, %v", name, CallsText(got), err)
	}
	if !bytes.Equal(conv, sent[1]) {
		t.Errorf("%s: the conversation Run returns is not the last request", name)
	}
	for i, req := range sent {
		var r struct {
			Stream *bool `json:"stream"`
		}
		if err := json.Unmarshal(req, &r); err != nil {
			t.Fatalf("%s: request %d: %v", name, i+1, err)
		}
		if got := r.Stream != nil && *r.Stream; got != c.BodyStream {
			t.Errorf("%s: request %d has stream %v, want %v", name, i+1, got, c.BodyStream)
		}
	}

	// Cut streams: at every event before the stream is complete, and inside the event
	// that completes it.
	cuts := make([][]byte, 0, doneAt+1)
	for n := range doneAt + 1 {
		cuts = append(cuts, sseOf(events[:n]))
	}
	last := sseOf(events[:doneAt+1])
	cuts = append(cuts, last[:len(last)-len(events[doneAt][1])/2-2])
	for i, cut := range cuts {
		ran := false
		sent = nil
		l := loop.Loop{Provider: c.Provider, Tools: ts, Stream: Streamed(c.Read, &sent, cut, c.Answer),
			OnRound: func(loop.Round) { ran = true }}
		if _, _, err := l.Run(context.Background(), c.Request); err == nil || !strings.Contains(err.Error(), name+": read the stream of round 1: ") {
			t.Errorf("%s: cut %d of %d: err = %v, want an error reading the stream", name, i, len(cuts), err)
		}
		if ran || len(sent) != 1 {
			t.Errorf("%s: cut %d: calls ran (%v), %d requests sent", name, i, ran, len(sent))
		}
	}

	// MaxRounds holds.
	sent = nil
	l = loop.Loop{Provider: c.Provider, Tools: ts, MaxRounds: 1, Stream: Streamed(c.Read, &sent, c.Calls, c.Calls)}
	if _, _, err := l.Run(context.Background(), c.Request); !errors.Is(err, runtime.ErrMaxRounds) || len(sent) != 2 {
		t.Errorf("%s: MaxRounds 1 with a model that keeps calling: err = %v after %d requests, want ErrMaxRounds after 2", name, err, len(sent))
	}
}

// sseOf writes events as an SSE body, each data line by line.
func sseOf(events [][2][]byte) []byte {
	var b bytes.Buffer
	for _, ev := range events {
		if len(ev[0]) > 0 {
			fmt.Fprintf(&b, "event: %s\n", ev[0])
		}
		for line := range strings.SplitSeq(string(ev[1]), "\n") {
			fmt.Fprintf(&b, "data: %s\n", line)
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}
