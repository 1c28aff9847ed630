package loop

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// fakeStreamProvider is fakeProvider streaming: PrepareStream appends " stream" to the
// prepared request, and its Stream reads events "text" (a piece of text), "calls" (the
// number of calls the turn makes) and "end" (the turn is complete).
type fakeStreamProvider struct{ fakeProvider }

func (p fakeStreamProvider) PrepareStream(request []byte, ts *runtime.Toolset, choice Choice) ([]byte, error) {
	req, err := p.Prepare(request, ts, choice)
	return append(req, " stream"...), err
}

func (fakeStreamProvider) Stream() Stream { return &fakeStream{} }

// fakeStream is the Stream of fakeStreamProvider.
type fakeStream struct {
	text  strings.Builder
	calls int
	done  bool
}

func (s *fakeStream) Add(event, data []byte) error {
	if s.done {
		return errors.New("an event after the end")
	}
	switch string(event) {
	case "text":
		s.text.Write(data)
	case "calls":
		n, err := strconv.Atoi(string(data))
		if err != nil {
			return err
		}
		s.calls = n
	case "end":
		s.done = true
	default:
		return fmt.Errorf("unknown event %q", event)
	}
	return nil
}

func (s *fakeStream) Text() string { return s.text.String() }
func (s *fakeStream) Done() bool   { return s.done }

func (s *fakeStream) Response() ([]byte, error) {
	if !s.done {
		return nil, errors.New("the stream ended before its end event")
	}
	if s.calls > 0 {
		return fmt.Appendf(nil, "calls:%d", s.calls), nil
	}
	return []byte("answer:" + s.text.String()), nil
}

func (s *fakeStream) Calls() ([]runtime.ToolCall, error) {
	body, err := s.Response()
	if err != nil {
		return nil, err
	}
	return fakeProvider{}.Calls(body)
}

// event is one event of a scripted stream.
type event struct{ name, data string }

// scriptedStream answers the requests with the streams in order, repeating the last
// one, and records the requests.
func scriptedStream(sent *[]string, streams ...[]event) StreamFunc {
	return func(ctx context.Context, request []byte, events func(event, data []byte) error) error {
		*sent = append(*sent, string(request))
		for _, e := range streams[min(len(*sent), len(streams))-1] {
			if err := events([]byte(e.name), []byte(e.data)); err != nil {
				return err
			}
		}
		return nil
	}
}

// TestLoopStreams: the text deltas of every round reach OnText in order while the
// events come; the calls run once the stream is complete, every call answered once, in
// order; every request asks for a stream.
func TestLoopStreams(t *testing.T) {
	var sent, deltas []string
	var rounds []Round
	l := Loop{
		Provider: fakeStreamProvider{}, Tools: newTestSet(),
		Stream: scriptedStream(&sent,
			[]event{{"text", "Let me "}, {"text", "check."}, {"calls", "2"}, {"end", ""}},
			[]event{{"text", "All "}, {"text", ""}, {"text", "done."}, {"end", ""}}),
		OnText:  func(d string) { deltas = append(deltas, d) },
		OnRound: func(r Round) { rounds = append(rounds, r) },
	}
	resp, conv, err := l.Run(context.Background(), []byte("ask"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Let me ", "check.", "All ", "done."}; !slices.Equal(deltas, want) {
		t.Errorf("OnText got %q, want %q", deltas, want)
	}
	if string(resp) != "answer:All done." {
		t.Errorf("response = %q", resp)
	}
	if want := "ask choice=auto stream answered=2 choice=auto stream"; string(conv) != want {
		t.Errorf("conversation = %q, want %q", conv, want)
	}
	if len(sent) != 2 || len(rounds) != 1 || len(rounds[0].Calls) != 2 {
		t.Fatalf("%d requests, rounds %+v", len(sent), rounds)
	}
	for i, r := range rounds[0].Calls {
		if r.Call.ID != "call_"+strconv.Itoa(i) || r.Result == nil || r.Result.Text() != "hi" {
			t.Errorf("answer %d = %+v", i, r)
		}
	}
}

// TestLoopStreamCut: a stream cut before its end is an error, and none of its calls
// runs.
func TestLoopStreamCut(t *testing.T) {
	var sent []string
	ran := false
	l := Loop{Provider: fakeStreamProvider{}, Tools: newTestSet(),
		Stream:  scriptedStream(&sent, []event{{"text", "Let me check."}, {"calls", "2"}}),
		OnRound: func(Round) { ran = true }}
	_, conv, err := l.Run(context.Background(), []byte("ask"))
	if err == nil || !strings.Contains(err.Error(), "fake: read the stream of round 1: the stream ended before its end event") {
		t.Fatalf("err = %v", err)
	}
	if ran || string(conv) != "ask choice=auto stream" {
		t.Errorf("ran = %v, conversation %q", ran, conv)
	}
}

// TestLoopStreamErrors: the Stream's error on an event and the StreamFunc's own error
// end Run, each named as such.
func TestLoopStreamErrors(t *testing.T) {
	var sent []string
	l := Loop{Provider: fakeStreamProvider{}, Tools: newTestSet(),
		Stream: scriptedStream(&sent, []event{{"text", "a"}, {"bogus", ""}})}
	if _, _, err := l.Run(context.Background(), []byte("ask")); err == nil || !strings.Contains(err.Error(), `fake: read the stream of round 1: unknown event "bogus"`) {
		t.Errorf("bad event: err = %v", err)
	}
	broken := errors.New("connection reset")
	l.Stream = func(context.Context, []byte, func(event, data []byte) error) error { return broken }
	if _, _, err := l.Run(context.Background(), []byte("ask")); !errors.Is(err, broken) || !strings.Contains(err.Error(), "fake: stream round 1") {
		t.Errorf("StreamFunc error: err = %v", err)
	}
	l.Provider = fakeProvider{}
	if _, _, err := l.Run(context.Background(), []byte("ask")); !errors.Is(err, ErrNoProvider) || !strings.Contains(err.Error(), "no StreamProvider") {
		t.Errorf("a Provider that cannot stream: err = %v", err)
	}
}

// TestLoopStreamMaxRounds: a streaming model that still calls tools once they are
// switched off gets no answers, as without streaming.
func TestLoopStreamMaxRounds(t *testing.T) {
	var sent []string
	rounds := 0
	l := Loop{Provider: fakeStreamProvider{}, Tools: newTestSet(), MaxRounds: 2,
		Stream:  scriptedStream(&sent, []event{{"calls", "1"}, {"end", ""}}),
		OnRound: func(Round) { rounds++ }}
	resp, conv, err := l.Run(context.Background(), []byte("ask"))
	if !errors.Is(err, runtime.ErrMaxRounds) || !strings.Contains(err.Error(), "1 call left unanswered") {
		t.Fatalf("err = %v, want ErrMaxRounds", err)
	}
	if rounds != 2 || len(sent) != 3 || string(resp) != "calls:1" || !strings.HasSuffix(string(conv), "choice=none stream") {
		t.Errorf("rounds %d, requests %d, response %q, conversation %q", rounds, len(sent), resp, conv)
	}
}
