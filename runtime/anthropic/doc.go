// Package anthropic adapts a runtime.Toolset to Anthropic's Messages API
// (POST /v1/messages).
//
// It offers the tools (Tools, ToolChoiceFor, ForceTool), reads the tool_use blocks a
// model writes from a whole response body (Calls) or a stream (Stream, fed by
// ReadSSE), and builds the user message that answers them (ToolResults). Running the
// calls is runtime.Toolset.RunCalls, which answers every call exactly once, in order.
// Messages implements runtime.Provider over raw JSON bodies for runtime.Loop.
//
// The package works on JSON bodies and depends on the standard library only: it fits
// any HTTP client, and the official SDK's param and response types marshal to and from
// the bodies it reads and writes.
//
// One round by hand, with the tools of a generated package weather:
//
//	tools := weather.Tools()
//	req := map[string]any{"model": model, "max_tokens": 1024, "messages": msgs,
//		"tools": anthropic.Tools(tools)}
//	body := send(req) // the response body
//	calls, err := anthropic.Calls(body)
//	if err != nil || len(calls) == 0 {
//		return body, err
//	}
//	turn, err := anthropic.AssistantMessage(body) // {"role":"assistant","content": ...}
//	msgs = append(msgs, turn, anthropic.ToolResults(tools.RunCalls(ctx, calls, 0)))
//
// runtime.Loop with Messages{} does all of that, round after round.
package anthropic
