package tooltest

import (
	"encoding/json"
)

// Anthropic Messages: POST /v1/messages.

var messagesFormat = format{
	name:   Messages,
	write:  writeMessages,
	callID: func(seed string, t, j int) string { return "toolu_01" + token(22, "toolu", seed, t, j) },
}

func writeMessages(ex *Request, r *reply) ([]byte, error) {
	type content struct {
		Type  string          `json:"type"`
		Text  string          `json:"text,omitempty"`
		ID    string          `json:"id,omitempty"`
		Name  string          `json:"name,omitempty"`
		Input json.RawMessage `json:"input,omitempty"`
	}
	var blocks []any
	stop, out := "end_turn", r.text
	if len(r.calls) > 0 {
		stop, out = "tool_use", r.say
		if r.say != "" {
			blocks = append(blocks, content{Type: "text", Text: r.say})
		}
		if names := unloaded(ex, r.calls); len(names) > 0 {
			blocks = append(blocks, messagesSearch(ex, r.seed, names)...)
		}
		for _, c := range r.calls {
			blocks = append(blocks, content{Type: "tool_use", ID: c.ID, Name: c.Name, Input: json.RawMessage(c.Args)})
			out += c.Name + c.Args
		}
	} else {
		blocks = append(blocks, content{Type: "text", Text: r.text})
	}
	return marshal(struct {
		ID           string `json:"id"`
		Type         string `json:"type"`
		Role         string `json:"role"`
		Model        string `json:"model"`
		Content      []any  `json:"content"`
		StopReason   string `json:"stop_reason"`
		StopSequence any    `json:"stop_sequence"`
		Usage        any    `json:"usage"`
	}{
		ID:   "msg_01" + token(22, "msg", r.seed, len(ex.Turns), len(r.calls)),
		Type: "message", Role: "assistant", Model: ex.Model,
		Content: blocks, StopReason: stop,
		Usage: map[string]int{"input_tokens": tokens(ex.Size), "output_tokens": tokens(len(out))},
	})
}
