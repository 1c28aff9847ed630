// Package runtime is what toolgen's generated code and its users import at run time: the
// Toolset that dispatches a model's tool calls to Go functions, the results and errors
// those calls produce, and the single-pass Decoder that generated argument decoders
// drive.
//
// It depends on the standard library only, so every program that uses generated tools
// can afford it. The provider packages below it (runtime/openai, runtime/anthropic,
// runtime/gemini) translate between a provider's wire format and a Toolset;
// runtime/dialect lowers a tool's schema to each provider's subset. What only generated
// code calls is in runtime/toolimpl.
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
