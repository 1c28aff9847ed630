// Package toolopenai connects a runtime.Toolset to the official OpenAI Go SDK,
// github.com/openai/openai-go/v3, for Chat Completions and the Responses API.
//
// It is a thin layer over runtime/openai, which does all the work on JSON:
//
//   - ChatTools and ResponsesTools give the SDK's tool params for the tools
//     runtime/openai offers, strict where a tool's schema allows, each schema
//     sent as runtime/openai sends it (its properties in their order);
//   - ChatCalls, AccumulatorCalls and ResponsesCalls read the calls of an SDK
//     response by handing its JSON to runtime/openai's readers, so every one of
//     their refusals holds: a turn cut short with calls in it (finish_reason
//     "length" or "content_filter", a Responses status "incomplete"), two calls
//     with one id, a call without an id or a name, a call of a type that cannot
//     be answered and an error body are errors, never half a call taken, while a
//     call whose arguments are malformed gets its own argument error as the
//     others run;
//   - ChatAnswers and ResponsesAnswers turn the results of runtime.Toolset.RunCalls
//     into the SDK's message params and input items: one tool message per call,
//     one function_call_output item per function call and a custom_tool_call_output
//     per custom tool call, in the calls' order;
//   - RunChat, RunAccumulator and RunResponses do a whole turn: read the calls,
//     run them (in parallel, bounded, every call answered exactly once, in order,
//     observers told they come from provider "openai" or "openai-responses") and
//     return the answers to append.
//
// One round trip of Chat Completions, with the tools of a generated package
// forecast:
//
//	tools := forecast.Tools()
//	params := openai.ChatCompletionNewParams{
//		Model:    openai.ChatModelGPT5,
//		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Rain in Paris tomorrow?")},
//		Tools:    toolopenai.ChatTools(tools),
//	}
//	completion, err := client.Chat.Completions.New(ctx, params)
//	if err != nil {
//		log.Fatal(err)
//	}
//	answers, err := toolopenai.RunChat(ctx, tools, completion)
//	if err != nil {
//		log.Fatal(err)
//	}
//	if len(answers) > 0 { // the model called tools: send their answers back
//		params.Messages = append(params.Messages, completion.Choices[0].Message.ToParam())
//		params.Messages = append(params.Messages, answers...)
//		completion, err = client.Chat.Completions.New(ctx, params)
//	}
//
// A streamed completion goes through the SDK's openai.ChatCompletionAccumulator:
// RunAccumulator (or AccumulatorCalls) reads it once the stream has ended, and
// refuses a stream that did not finish. For the Responses API, ResponsesTools,
// RunResponses and, for a conversation that is not stored, ResponsesTurn, which
// sends the response's output items back as input items.
package toolopenai
