// Package runtime is what toolgen's generated code and its users import at run time: the
// Toolset that dispatches a model's tool calls to Go functions, the results and errors
// those calls produce, and the single-pass Decoder that generated argument decoders
// drive.
//
// It depends on the standard library only, so every program that uses generated tools
// can afford it. The provider packages below it (runtime/openai, runtime/anthropic,
// runtime/gemini) translate between a provider's wire format and a Toolset;
// runtime/dialect lowers a tool's schema to each provider's subset. Beside them:
// runtime/loop runs a conversation with a model over any of them; runtime/client lets a
// tool ask the client that called it (a model's message, the user's input, roots, a
// log); runtime/progress carries a call's progress reports; runtime/searchtool makes
// the tool a model finds deferred tools with, and runtime/search ranks them;
// runtime/invalid says what is wrong with a call's arguments. What only generated code
// calls is in runtime/toolimpl.
//
// A typical use, with the tools of a generated package weather:
//
//	tools := weather.Tools()
//	res := tools.Call(ctx, "get_weather", []byte(`{"city":"Paris"}`))
//	if res.IsError {
//		// res.Text() tells the model what went wrong, so it can try again.
//	}
//	send(res.Text())
package runtime
