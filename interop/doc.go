// Package interop holds toolgen's official-SDK interop suite, in test files only: it
// shows that the provider adapters (runtime/openai, runtime/anthropic, runtime/gemini)
// work with the official Go SDKs as a user would combine them.
//
// For each provider (OpenAI Chat Completions and Responses, Anthropic Messages, Gemini
// generateContent) a test drives the official SDK client against an httptest server
// that answers as the provider's HTTP API does, on the API's paths and in its response
// shapes, and that checks every request as strictly as the API would. The server and
// the API's rules (headers, models, tools, tool choices, every call id answered exactly
// once and in the API's order and form, error bodies) are internal/fakeapi's, which
// the examples' replay model shares; these tests add the scenario's checks:
//
//   - the generated tools (of examples/weather and examples/bank) go through the SDK's
//     own request types, converted from the adapter's definitions by a JSON round trip,
//     and must arrive well formed for the dialect: names, strict flags, schemas;
//   - the fake model answers with several calls in one turn: a valid one, one with
//     invalid arguments and one to an unknown tool;
//   - the test reads the calls from the SDK's response with the adapter, runs them with
//     Toolset.RunCalls and sends the adapter's follow-up back through the SDK; the
//     server then checks that every call is answered exactly once, in the provider's
//     form (tool messages, function_call_output items, tool_result blocks first with
//     is_error, functionResponse parts in call order with the model turn and its thought
//     signature echoed), and that the invalid call's answer carries its JSON Pointer
//     message, before it answers with a final text.
//
// Each provider also runs a whole runtime.Loop whose SendFunc goes through the SDK's
// raw request facility (plain net/http for Gemini, whose SDK has no supported one), and
// the streaming variants feed the events the SDK's streaming API yields to the
// adapter's stream accumulators and compare the calls with those the SDK produced: its
// accumulator for Chat Completions and Anthropic, which have one, its
// response.completed event for Responses and its typed chunks for Gemini.
//
// runtimeopenai, runtimeanthropic and runtimegemini hold the adapters' unit tests that
// compare with the SDKs' types (moved from the adapters' own tests, which keep every
// check that needs no SDK), and TestGenaiSchemaKeys checks the Gemini keywords the
// generator's dialect rules allow against genai.Schema.
//
// The SDKs are imported by these tests alone, in this nested module (interop/go.mod,
// with a replace of toolgen by the checkout): the runtime stays standard-library only,
// and the root module, which users require, does not carry the SDKs.
package interop
