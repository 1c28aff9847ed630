// Package openai adapts a runtime.Toolset to OpenAI's two tool-calling wire formats: Chat
// Completions (POST /v1/chat/completions) and Responses (POST /v1/responses).
//
// It offers the tools (ChatTools, ResponsesTools and the tool choice helpers), reads the
// calls a model asks for from a whole response body (ChatCalls, ResponsesCalls) or a
// stream (ChatStream, ResponsesStream, fed by ReadSSE), and builds the items that answer
// them (ChatToolMessages, ResponsesOutputs, ResponsesOutputsFor). Running the calls is
// runtime.Toolset.RunCalls, which answers every call exactly once, in order. Chat and
// Responses implement loop.Provider over raw JSON bodies, for loop.Loop.
//
// The package reads and writes JSON bodies and depends on the standard library only, so
// it fits any HTTP client; the official SDK's types marshal to and from its bodies.
//
// What a model sends is untrusted, and a reader never takes half a call for a whole
// one: a turn cut short (finish_reason "length" or "content_filter", a Responses
// status "incomplete") with calls in it, two calls with one id, or a stream that did
// not finish is an error. Every call the conversation echoes is answered: a custom
// tool call is read as a call with the arguments {"input": <its text>}, and a call
// whose arguments are malformed gets its own argument error while the others run. A
// stream is bounded by Limits: the line and the event ReadSSE holds
// (DefaultMaxLineBytes, DefaultMaxEventBytes, 16 MiB each) and each call's arguments
// a ChatStream or ResponsesStream joins (runtime.DefaultMaxArgumentBytes, 1 MiB).
//
// A whole conversation, with the tools of a generated package weather and a send
// function that posts a body to /v1/chat/completions and returns the response body:
//
//	loop := loop.Loop{Provider: openai.Chat{}, Tools: weather.Tools(), Send: send}
//	final, _, err := loop.Run(ctx, []byte(`{"model":"gpt-5","messages":[{"role":"user","content":"Rain in Paris?"}]}`))
//
// The same conversation streamed, the model's text printed as it comes: stream posts
// the body (which PrepareStream gave "stream": true) and reads the response with ReadSSE.
//
//	stream := func(ctx context.Context, req []byte, events func(event, data []byte) error) error {
//		resp, err := post(ctx, "/v1/chat/completions", req)
//		if err != nil {
//			return err
//		}
//		defer resp.Body.Close()
//		return openai.ReadSSE(resp.Body, events)
//	}
//	loop := loop.Loop{Provider: openai.Chat{}, Tools: weather.Tools(), Stream: stream,
//		OnText: func(delta string) { fmt.Print(delta) }}
//
// One round by hand:
//
//	calls, err := openai.ChatCalls(body) // body: a chat completion
//	results := tools.RunCalls(ctx, calls, 0)
//	answers := openai.ChatToolMessages(results) // append after the assistant message
package openai
