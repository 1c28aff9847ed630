// Package tooltest gives a team's own tests a model and the providers' APIs without a
// key or a network: a scripted model for loop.Loop, and httptest servers that
// speak OpenAI Chat Completions and Responses, Anthropic Messages and Gemini
// generateContent (streamed too) as strictly as the real APIs, so tests run through
// the official SDK clients and toolgen's bridges (toolopenai, toolanthropic,
// toolgenai).
//
// A Script says what the model does: the question it expects, the tool calls it makes
// turn after turn (several in one turn are parallel calls; a turn may be planned from
// the results of the one before, as a model corrects a call it got wrong), and the
// final answer it composes from the tool results it finds in the request. Send and
// Stream give the scripted model to loop.Loop in a wire format; NewServer serves it
// over HTTP at every format's path, for an SDK client. NewRoundServer serves answers
// written by hand instead (a turn cut short, a refusal), round after round.
//
// The model keeps no state: like the real APIs, it reads the whole conversation from
// each request. And it reads it as strictly as they do. Read, which every double uses,
// holds the rules, written once:
//
//   - every call id is answered exactly once, and nothing else is answered: Chat tool
//     messages right after the assistant message, Responses function_call_output (and
//     custom_tool_call_output) items by call_id, Anthropic tool_result blocks first in
//     the one user message after the tool_use blocks, Gemini functionResponse parts in
//     the next content, matching the calls by id (when the calls have ids) and by
//     position;
//   - call ids are unique, arguments are JSON objects, roles are the API's;
//   - the model's turns come back as they were sent (the Responses reasoning item
//     before the calls, Gemini's thought signature);
//   - the tools are well formed: valid unique names, object schemas within the
//     subsets the APIs take (OpenAI's and Anthropic's strict tools, Gemini's
//     "parameters"); a tool choice names offered tools; a model and Anthropic's
//     max_tokens are set.
//
// A request that breaks a rule is an error wrapping ErrRejected, whose text is the
// API's message, so a test fails as soon as code writes a request the API would
// reject. One the script cannot answer (a question it was not written for, a call to
// a tool the request does not offer) wraps ErrScript. CheckTools checks that the tools
// a request carries are the definitions it should send, their properties in order.
//
// The package uses the standard library and toolgen's runtime alone, so a module that
// imports it carries nothing more.
package tooltest
