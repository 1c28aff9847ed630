package tooltest

import (
	"encoding/json"
)

// created is the fixed creation time of every response (2025-12-01T00:00:00Z).
const created = 1764547200

// OpenAI Chat Completions: POST /v1/chat/completions.

var chatFormat = format{
	name:   Chat,
	write:  writeChat,
	callID: func(seed string, t, j int) string { return "call_" + token(24, "chat", seed, t, j) },
}

func writeChat(ex *Request, r *reply) ([]byte, error) {
	type function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	type toolCall struct {
		ID       string   `json:"id"`
		Type     string   `json:"type"`
		Function function `json:"function"`
	}
	type message struct {
		Role        string     `json:"role"`
		Content     *string    `json:"content"`
		Refusal     *string    `json:"refusal"`
		ToolCalls   []toolCall `json:"tool_calls,omitempty"`
		Annotations []any      `json:"annotations"`
	}
	type choice struct {
		Index        int     `json:"index"`
		Message      message `json:"message"`
		Logprobs     any     `json:"logprobs"`
		FinishReason string  `json:"finish_reason"`
	}
	msg := message{Role: "assistant", Annotations: []any{}}
	finish := "stop"
	out := r.text
	if len(r.calls) > 0 {
		finish = "tool_calls"
		if r.say != "" {
			msg.Content = &r.say
		}
		out = r.say
		for _, c := range r.calls {
			msg.ToolCalls = append(msg.ToolCalls, toolCall{ID: c.ID, Type: "function", Function: function{Name: c.Name, Arguments: c.Args}})
			out += c.Name + c.Args
		}
	} else {
		msg.Content = &r.text
	}
	in, completion := tokens(ex.Size), tokens(len(out))
	return marshal(struct {
		ID                string   `json:"id"`
		Object            string   `json:"object"`
		Created           int64    `json:"created"`
		Model             string   `json:"model"`
		Choices           []choice `json:"choices"`
		Usage             any      `json:"usage"`
		ServiceTier       string   `json:"service_tier"`
		SystemFingerprint any      `json:"system_fingerprint"`
	}{
		ID:      "chatcmpl-" + token(29, "chatcmpl", r.seed, len(ex.Turns), len(r.calls)),
		Object:  "chat.completion",
		Created: created,
		Model:   ex.Model,
		Choices: []choice{{Message: msg, FinishReason: finish}},
		Usage: map[string]int{
			"prompt_tokens": in, "completion_tokens": completion, "total_tokens": in + completion,
		},
		ServiceTier: "default",
	})
}

// OpenAI Responses: POST /v1/responses.

var responsesFormat = format{
	name:     Responses,
	write:    writeResponses,
	callID:   func(seed string, t, j int) string { return "call_" + token(24, "responses", seed, t, j) },
	mark:     reasoningID,
	markName: "reasoning item",
}

// reasoningID is the id of the reasoning item of turn t, which the API wants back
// with the turn's function calls.
func reasoningID(seed string, t int) string { return "rs_" + token(48, "reasoning", seed, t) }

func writeResponses(ex *Request, r *reply) ([]byte, error) {
	type text struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Annotations []any  `json:"annotations"`
		Logprobs    []any  `json:"logprobs"`
	}
	type message struct {
		ID      string `json:"id"`
		Type    string `json:"type"`
		Status  string `json:"status"`
		Content []text `json:"content"`
		Role    string `json:"role"`
	}
	type functionCall struct {
		ID        string `json:"id"`
		Type      string `json:"type"`
		Status    string `json:"status"`
		Arguments string `json:"arguments"`
		CallID    string `json:"call_id"`
		Name      string `json:"name"`
		Namespace string `json:"namespace,omitempty"`
	}
	type reasoning struct {
		ID      string `json:"id"`
		Type    string `json:"type"`
		Summary []any  `json:"summary"`
	}
	n := len(ex.Turns)
	say := func(s string) message {
		return message{
			ID: "msg_" + token(48, "message", r.seed, n), Type: "message", Status: "completed", Role: "assistant",
			Content: []text{{Type: "output_text", Text: s, Annotations: []any{}, Logprobs: []any{}}},
		}
	}
	var output []any
	out := r.text
	if len(r.calls) > 0 {
		output = append(output, reasoning{ID: reasoningID(r.seed, r.turn), Type: "reasoning", Summary: []any{}})
		if r.say != "" {
			output = append(output, say(r.say))
		}
		out = r.say
		if names := unloaded(ex, r.calls); len(names) > 0 {
			output = append(output, responsesSearch(ex, r.seed, names)...)
		}
		for j, c := range r.calls {
			output = append(output, functionCall{
				ID: "fc_" + token(48, "fc", r.seed, r.turn, j), Type: "function_call", Status: "completed",
				Arguments: c.Args, CallID: c.ID, Name: c.Name, Namespace: ex.Namespaces[c.Name],
			})
			out += c.Name + c.Args
		}
	} else {
		output = append(output, say(r.text))
	}
	tools, choice := ex.Fields["tools"], ex.Fields["tool_choice"]
	if tools == nil || string(tools) == "null" {
		tools = json.RawMessage(`[]`)
	}
	if choice == nil || string(choice) == "null" {
		choice = json.RawMessage(`"auto"`)
	}
	in, completion := tokens(ex.Size), tokens(len(out))
	return marshal(struct {
		ID                string          `json:"id"`
		Object            string          `json:"object"`
		CreatedAt         int64           `json:"created_at"`
		Status            string          `json:"status"`
		Error             any             `json:"error"`
		IncompleteDetails any             `json:"incomplete_details"`
		Model             string          `json:"model"`
		Output            []any           `json:"output"`
		ParallelToolCalls bool            `json:"parallel_tool_calls"`
		ToolChoice        json.RawMessage `json:"tool_choice"`
		Tools             json.RawMessage `json:"tools"`
		Usage             any             `json:"usage"`
	}{
		ID:     "resp_" + token(48, "resp", r.seed, n, len(r.calls)),
		Object: "response", CreatedAt: created, Status: "completed",
		Model: ex.Model, Output: output, ParallelToolCalls: !ex.Single,
		ToolChoice: choice, Tools: tools,
		Usage: map[string]int{"input_tokens": in, "output_tokens": completion, "total_tokens": in + completion},
	})
}
