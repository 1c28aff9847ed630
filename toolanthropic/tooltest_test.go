package toolanthropic_test

import (
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/toolanthropic"
	"github.com/toolgen/toolgen/tooltest"
)

// TestScriptedServer runs tooltest.NewServer's Messages API through the SDK client
// and the bridge, whole and streamed: two calls to get_weather in one turn, the
// second out of bounds, the tool_result blocks back as the bridge writes them, and
// the scripted model's answer quoting both, marked as the error it is.
func TestScriptedServer(t *testing.T) {
	for _, stream := range []bool{false, true} {
		srv := tooltest.NewServer(t, &tooltest.Script{
			Question: prompt,
			Turns: []tooltest.Turn{{Calls: []tooltest.Call{
				{Name: "get_weather", Args: `{"city":"Paris","days":2}`},
				{Name: "get_weather", Args: `{"city":"Oslo","days":30}`},
			}}},
		})
		client, ctx, tools := newClient(srv), t.Context(), forecast.Tools()
		params := anthropic.MessageNewParams{
			Model:     anthropic.ModelClaudeSonnet4_5,
			MaxTokens: 1024,
			Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(prompt))},
			Tools:     toolanthropic.Tools(tools),
		}
		var msg anthropic.Message
		if stream {
			s := client.Messages.NewStreaming(ctx, params)
			for s.Next() {
				if err := msg.Accumulate(s.Current()); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Err(); err != nil {
				t.Fatal(err)
			}
		} else {
			m, err := client.Messages.New(ctx, params)
			if err != nil {
				t.Fatal(err)
			}
			msg = *m
		}
		results, err := toolanthropic.Run(ctx, tools, &msg)
		if err != nil {
			t.Fatal(err)
		}
		if len(results) != 2 {
			t.Fatalf("stream %v: %d results, want 2", stream, len(results))
		}
		params.Messages = append(params.Messages, msg.ToParam(), anthropic.NewUserMessage(results...))
		final, err := client.Messages.New(ctx, params)
		if err != nil {
			t.Fatal(err)
		}
		var answer string
		for _, b := range final.Content {
			answer += b.Text
		}
		for _, want := range []string{`"city":"Paris"`, "(error): invalid arguments for get_weather: /days: must be at most 14 (got 30)"} {
			if !strings.Contains(answer, want) {
				t.Errorf("stream %v: the answer does not say %q:\n%s", stream, want, answer)
			}
		}
	}
}
