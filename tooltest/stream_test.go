package tooltest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime/loop"
)

// TestStreamConversation runs the conversation of TestConversation streamed, for every
// provider: the Loop passes the model's text on as it comes (word by word; Gemini's part
// by part), the calls run once each stream is complete, and the final answer is the
// one Send gives.
func TestStreamConversation(t *testing.T) {
	for _, provider := range Formats() {
		t.Run(string(provider), func(t *testing.T) {
			p, err := provider.Provider()
			if err != nil {
				t.Fatal(err)
			}
			stream, err := Stream(provider, script())
			if err != nil {
				t.Fatal(err)
			}
			req, err := provider.NewRequest("test-model", question)
			if err != nil {
				t.Fatal(err)
			}
			var deltas []string
			var rounds []loop.Round
			l := loop.Loop{Provider: p, Tools: forecast.Tools(), Stream: stream,
				OnText:  func(d string) { deltas = append(deltas, d) },
				OnRound: func(r loop.Round) { rounds = append(rounds, r) }}
			final, _, err := l.Run(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if len(rounds) != 2 || len(rounds[0].Calls) != 2 || len(rounds[1].Calls) != 1 {
				t.Fatalf("rounds: %+v", rounds)
			}
			text, err := provider.Text(final)
			if err != nil {
				t.Fatal(err)
			}
			streamed := strings.Join(deltas, "")
			pieces := strings.Count(text, " ")
			if provider == "gemini" {
				pieces = 2 // the turn's text, then the answer
			}
			if !strings.HasSuffix(streamed, text) || len(deltas) < pieces {
				t.Errorf("streamed %d deltas %q, want the answer %q word by word at the end", len(deltas), streamed, text)
			}

			// The same model, whole, gives the same answer.
			wl, wreq := newLoop(t, provider, script())
			whole, _, err := wl.Run(context.Background(), wreq)
			if err != nil {
				t.Fatal(err)
			}
			if want, _ := provider.Text(whole); want != text {
				t.Errorf("streamed answer %q, whole answer %q", text, want)
			}
		})
	}
}

// TestStreamAsks: a request sent to Stream that does not ask for a stream is rejected.
func TestStreamAsks(t *testing.T) {
	for _, provider := range []Format{Chat, Responses, Messages} {
		stream, err := Stream(provider, script())
		if err != nil {
			t.Fatal(err)
		}
		req, _ := provider.NewRequest("test-model", question)
		err = stream(context.Background(), req, func(_, _ []byte) error { return nil })
		if !errors.Is(err, ErrRejected) || !strings.Contains(err.Error(), "does not ask for a stream") {
			t.Errorf("%s: err = %v", provider, err)
		}
	}
}
