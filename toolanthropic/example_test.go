package toolanthropic_test

import (
	"context"
	"fmt"
	"log"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/toolanthropic"
)

// One round trip of the Messages API with the tools of examples/weather. docs/providers.md's
// section "Using the official SDKs" shows this function's body.
func ExampleRun() {
	ctx := context.Background()
	client := anthropic.NewClient() // the key from ANTHROPIC_API_KEY
	tools := forecast.Tools()

	params := anthropic.MessageNewParams{
		Model:     anthropic.ModelClaudeSonnet4_5,
		MaxTokens: 1024,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Rain in Paris tomorrow?"))},
		Tools:     toolanthropic.Tools(tools),
	}
	msg, err := client.Messages.New(ctx, params)
	if err != nil {
		log.Fatal(err)
	}
	// Run the turn's calls: one tool_result per tool_use, in order. A turn cut short is an error.
	results, err := toolanthropic.Run(ctx, tools, msg)
	if err != nil {
		log.Fatal(err)
	}
	if len(results) > 0 {
		params.Messages = append(params.Messages, msg.ToParam(), anthropic.NewUserMessage(results...))
		if msg, err = client.Messages.New(ctx, params); err != nil {
			log.Fatal(err)
		}
	}
	for _, block := range msg.Content {
		fmt.Print(block.Text)
	}
}
