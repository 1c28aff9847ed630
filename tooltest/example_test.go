package tooltest_test

import (
	"context"
	"fmt"
	"log"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/openai"
	"github.com/toolgen/toolgen/tooltest"
)

// A scripted model for loop.Loop: it calls get_weather once, then answers with
// what the tool said. The Loop runs the call; the model reads the result from the
// request, as a real one would.
func ExampleSend() {
	script := &tooltest.Script{
		Question: "Rain in Paris tomorrow?",
		Turns: []tooltest.Turn{{Calls: []tooltest.Call{
			{Name: "get_weather", Args: `{"city":"Paris","days":30}`},
		}}},
	}
	send, err := tooltest.Send(tooltest.Chat, script)
	if err != nil {
		log.Fatal(err)
	}
	lp := loop.Loop{Provider: openai.Chat{}, Tools: forecast.Tools(), Send: send}
	request, err := tooltest.Chat.NewRequest("gpt-5", script.Question)
	if err != nil {
		log.Fatal(err)
	}
	final, _, err := lp.Run(context.Background(), request)
	if err != nil {
		log.Fatal(err)
	}
	answer, err := tooltest.Chat.Text(final)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(answer)
	// Output:
	// Here is what the tools said:
	// - get_weather {"city":"Paris","days":30}: invalid arguments for get_weather: /days: must be at most 14 (got 30)
}

// A model that reads what its tools said: the second turn is planned from the
// results of the first, as a model corrects a call it got wrong. Answer writes the
// final text from every result.
func ExampleTurn_plan() {
	script := &tooltest.Script{
		Turns: []tooltest.Turn{
			{Calls: []tooltest.Call{{Name: "get_weather", Args: `{"city":"Paris","days":30}`}}},
			{Plan: func(last []tooltest.Result) []tooltest.Call {
				if len(last) == 1 && last[0].IsError {
					return []tooltest.Call{{Name: "get_weather", Args: `{"city":"Paris","days":14}`}}
				}
				return nil
			}},
		},
		Answer: func(results []tooltest.Result) string {
			return fmt.Sprintf("%d calls, the last one ok: %v", len(results), results[len(results)-1].Text[0] == '{')
		},
	}
	send, err := tooltest.Send(tooltest.Messages, script)
	if err != nil {
		log.Fatal(err)
	}
	lp := loop.Loop{Provider: must(tooltest.Messages.Provider()), Tools: forecast.Tools(), Send: send}
	final, _, err := lp.Run(context.Background(), must(tooltest.Messages.NewRequest("claude-sonnet-4-5", "Paris for a month?")))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(must(tooltest.Messages.Text(final)))
	// Output:
	// 2 calls, the last one ok: true
}

func must[T any](v T, err error) T {
	if err != nil {
		log.Fatal(err)
	}
	return v
}
