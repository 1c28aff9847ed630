// Package toolanthropic connects a runtime.Toolset to the official Anthropic Go SDK,
// github.com/anthropics/anthropic-sdk-go/v2, for the Messages API.
//
// It is a thin layer over runtime/anthropic, which does all the work on JSON:
//
//   - Tools gives the SDK's tool params for the tools runtime/anthropic offers,
//     strict where toolgen found a tool's schema fit, each schema sent as
//     runtime/anthropic sends it (its properties in their order);
//   - Calls reads the tool_use blocks of an anthropic.Message by handing its JSON to
//     runtime/anthropic.Calls, so every one of its refusals holds: tool_use blocks
//     in a turn cut short (stop_reason max_tokens, model_context_window_exceeded or
//     refusal), two blocks with one id, a block without an id or a name and an error
//     body are errors, never half a call taken, while a call whose input is
//     malformed gets its own argument error as the others run;
//   - ToolResults and Answers turn the results of runtime.Toolset.RunCalls into
//     tool_result blocks, one per call, in the calls' order, with is_error for a
//     failed call, and the user message that carries them first;
//   - Run does a whole turn: read the calls, run them (in parallel, bounded, every
//     call answered exactly once, in order, observers told they come from provider
//     "anthropic") and return the tool_result blocks to send back.
//
// One round trip, with the tools of a generated package forecast:
//
//	tools := forecast.Tools()
//	params := anthropic.MessageNewParams{
//		Model:     anthropic.ModelClaudeSonnet4_5,
//		MaxTokens: 1024,
//		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Rain in Paris tomorrow?"))},
//		Tools:     toolanthropic.Tools(tools),
//	}
//	msg, err := client.Messages.New(ctx, params)
//	if err != nil {
//		log.Fatal(err)
//	}
//	results, err := toolanthropic.Run(ctx, tools, msg)
//	if err != nil {
//		log.Fatal(err)
//	}
//	if len(results) > 0 { // the model called tools: send their results back
//		params.Messages = append(params.Messages, msg.ToParam(), anthropic.NewUserMessage(results...))
//		msg, err = client.Messages.New(ctx, params)
//	}
//
// A streamed message accumulated with the SDK's Message.Accumulate is read the same
// way once its stream has ended; before its message_stop, Calls and Run refuse it.
package toolanthropic
