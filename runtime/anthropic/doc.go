// Package anthropic adapts a runtime.Toolset to Anthropic's Messages API
// (POST /v1/messages).
//
// It offers the tools (Tools, ToolChoiceFor, ForceTool), reads the tool_use blocks a
// model writes from a whole response body (Calls) or a stream (Stream, fed by
// ReadSSE), and builds the user message that answers them (ToolResults). Running the
// calls is runtime.Toolset.RunCalls, which answers every call exactly once, in order.
// Messages implements loop.Provider over raw JSON bodies for loop.Loop.
//
// The package works on JSON bodies and depends on the standard library only: it fits
// any HTTP client, and the official SDK's param and response types marshal to and from
// the bodies it reads and writes.
//
// What a model sends is untrusted, and a reader never takes half a call for a whole
// one: tool_use blocks in a turn cut short (stop_reason max_tokens,
// model_context_window_exceeded or refusal), two blocks with one id, or a stream that
// did not finish are an error. A tool_use whose input is malformed gets its own
// argument error while the others run. A stream is bounded by Limits: the line and the
// event ReadSSE holds (DefaultMaxLineBytes, DefaultMaxEventBytes, 16 MiB each) and
// each block's input a Stream joins (runtime.DefaultMaxArgumentBytes, 1 MiB).
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
// loop.Loop with Messages{} does all of that, round after round.
package anthropic
