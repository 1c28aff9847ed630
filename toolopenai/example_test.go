package toolopenai_test

import (
	"context"
	"fmt"
	"log"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/toolopenai"
)

// One round trip of Chat Completions with the tools of examples/weather. docs/providers.md's
// section "Using the official SDKs" shows this function's body.
func ExampleRunChat() {
	ctx := context.Background()
	client := openai.NewClient() // the key from OPENAI_API_KEY
	tools := forecast.Tools()

	params := openai.ChatCompletionNewParams{
		Model:    openai.ChatModelGPT5,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Rain in Paris tomorrow?")},
		Tools:    toolopenai.ChatTools(tools),
	}
	completion, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		log.Fatal(err)
	}
	// Run the turn's calls: one answer per call id, in order. A turn cut short is an error.
	answers, err := toolopenai.RunChat(ctx, tools, completion)
	if err != nil {
		log.Fatal(err)
	}
	if len(answers) > 0 {
		params.Messages = append(params.Messages, completion.Choices[0].Message.ToParam())
		params.Messages = append(params.Messages, answers...)
		if completion, err = client.Chat.Completions.New(ctx, params); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(completion.Choices[0].Message.Content)
}

// A streamed turn goes through the SDK's accumulator; RunAccumulator refuses a
// stream that did not finish.
func ExampleRunAccumulator() {
	ctx := context.Background()
	client := openai.NewClient()
	tools := forecast.Tools()

	params := openai.ChatCompletionNewParams{
		Model:    openai.ChatModelGPT5,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Rain in Paris tomorrow?")},
		Tools:    toolopenai.ChatTools(tools),
	}
	var acc openai.ChatCompletionAccumulator
	stream := client.Chat.Completions.NewStreaming(ctx, params)
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	if err := stream.Err(); err != nil {
		log.Fatal(err)
	}
	answers, err := toolopenai.RunAccumulator(ctx, tools, &acc)
	if err != nil {
		log.Fatal(err)
	}
	if len(answers) > 0 {
		params.Messages = append(params.Messages, acc.Choices[0].Message.ToParam())
		params.Messages = append(params.Messages, answers...)
		// ... and stream the next turn.
	}
}

// One round trip of the Responses API, continuing the stored response by its id.
func ExampleRunResponses() {
	ctx := context.Background()
	client := openai.NewClient()
	tools := forecast.Tools()

	params := responses.ResponseNewParams{
		Model: openai.ChatModelGPT5,
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Rain in Paris tomorrow?")},
		Tools: toolopenai.ResponsesTools(tools),
	}
	resp, err := client.Responses.New(ctx, params)
	if err != nil {
		log.Fatal(err)
	}
	answers, err := toolopenai.RunResponses(ctx, tools, resp)
	if err != nil {
		log.Fatal(err)
	}
	if len(answers) > 0 {
		params.PreviousResponseID = openai.String(resp.ID)
		params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: answers}
		if resp, err = client.Responses.New(ctx, params); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(resp.OutputText())
}
