// Package toolotel reports the calls of a runtime.Toolset to OpenTelemetry, following
// the OpenTelemetry semantic conventions for generative AI tool execution
// (https://github.com/open-telemetry/semantic-conventions-genai, docs/gen-ai: the
// gen_ai.execute_tool span and the gen_ai.execute_tool.duration metric; Development
// status).
//
//	tools := weather.Tools().WithObserver(toolotel.Observer())
//
// Each call becomes one span of kind INTERNAL named "execute_tool {gen_ai.tool.name}",
// a child of the span in the call's context, starting and ending when the call did
// (Event.Start, Event.Duration), with these attributes:
//
//   - gen_ai.operation.name: "execute_tool"
//   - gen_ai.tool.name: the tool's name
//   - gen_ai.tool.type: "function" (the application runs the tool, not the model's
//     provider)
//   - gen_ai.tool.call.id: the provider's call id, when there is one
//   - gen_ai.tool.description: the tool's description, with WithDescriptions
//   - gen_ai.provider.name: the provider the call came from, in the conventions'
//     values: "openai" for runtime/openai's "openai" and "openai-responses",
//     "anthropic", and "gcp.gen_ai" for "gemini" (the same API serves the Gemini
//     API and Vertex AI, so the backend is unknown); not set for other providers
//     ("mcp" is a protocol, not a GenAI provider)
//   - error.type: the outcome, for every outcome but ok (and the span's status is
//     Error); the values are invalid_arguments, tool_error, internal_error, denied,
//     timeout, canceled and unknown_tool
//   - gen_ai.tool.call.arguments: the arguments as JSON, only when the Toolset logs
//     them (runtime.Toolset.WithArgumentLogging), and then with the values of
//     sensitive properties replaced by runtime.Redacted, as the runtime gives them
//   - toolgen.outcome: the outcome, ok included
//   - toolgen.provider: the runtime's name of the provider ("openai-responses",
//     "mcp", ...), when there is one
//   - toolgen.groups: the tool's groups, when it has any
//   - toolgen.result.bytes: the length of the result's text for the model, before
//     the result budget cut it; toolgen.result.truncated: true when the budget cut it
//
// The status description of a failed call says what went wrong without what the
// runtime keeps from the model: the violations of invalid arguments (paths and rules,
// never the values), the model-facing message of a tool error, the reason of a denied
// call, the context error of a timeout or cancellation. An internal error's text is
// never recorded: the runtime masks it from the model because it may hold anything.
//
// Each call is also recorded, in seconds, in the histogram gen_ai.execute_tool.duration
// (the conventions' bucket boundaries, 0.01 s to 81.92 s) with the attributes
// gen_ai.tool.name, gen_ai.tool.type, error.type (as on the span) and toolgen.outcome.
// A call to an unknown tool is recorded under the tool name "_OTHER", and its span is
// named "execute_tool": the name is the model's text, so it would let the model grow
// the metric's series and span names without bound.
package toolotel
