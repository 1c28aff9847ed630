package tooltest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/openai"
)

// formats are the writers of the wire formats' responses.
var formats = map[Format]format{
	Chat:            chatFormat,
	Responses:       responsesFormat,
	Messages:        messagesFormat,
	GenerateContent: generateContentFormat,
}

// Provider returns the loop.Provider that speaks the wire format, for
// loop.Loop's Provider: openai.Chat, openai.Responses, anthropic.Messages or
// gemini.GenerateContent.
func (f Format) Provider() (loop.Provider, error) {
	switch f {
	case Chat:
		return openai.Chat{}, nil
	case Responses:
		return openai.Responses{}, nil
	case Messages:
		return anthropic.Messages{}, nil
	case GenerateContent:
		return gemini.GenerateContent{}, nil
	}
	_, err := f.wire()
	return nil, err
}

// NewRequest returns the request body that opens a conversation with a question, in
// the wire format: the same body works against the real API. Gemini's model goes in
// the URL, not the body, so model is not used there.
func (f Format) NewRequest(model, question string) ([]byte, error) {
	var req any
	switch f {
	case Chat:
		req = map[string]any{"model": model, "messages": []any{map[string]string{"role": "user", "content": question}}}
	case Responses:
		req = map[string]any{"model": model, "input": question}
	case Messages:
		req = map[string]any{"model": model, "max_tokens": 1024, "messages": []any{map[string]string{"role": "user", "content": question}}}
	case GenerateContent:
		req = map[string]any{"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]string{"text": question}}}}}
	default:
		_, err := f.wire()
		return nil, err
	}
	return marshal(req)
}

// Text returns the text of a model's answer, a response body in the wire format: the
// message's content (a refusal as "(refused) " and its text), the text of every
// output message, text block or part, thoughts left out, joined by new lines.
func (f Format) Text(response []byte) (string, error) {
	var texts []string
	switch f {
	case Chat:
		var r struct {
			Choices []struct {
				Message struct {
					Content *string `json:"content"`
					Refusal *string `json:"refusal"`
				} `json:"message"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(response, &r); err != nil || len(r.Choices) == 0 {
			return "", fmt.Errorf("openai: a response without choices")
		}
		m := r.Choices[0].Message
		switch {
		case m.Content != nil:
			texts = append(texts, *m.Content)
		case m.Refusal != nil:
			texts = append(texts, "(refused) "+*m.Refusal)
		}
	case Responses:
		var r struct {
			Output []struct {
				Type    string `json:"type"`
				Content []struct {
					Type    string `json:"type"`
					Text    string `json:"text"`
					Refusal string `json:"refusal"`
				} `json:"content"`
			} `json:"output"`
		}
		if err := json.Unmarshal(response, &r); err != nil {
			return "", fmt.Errorf("openai-responses: %w", err)
		}
		for _, o := range r.Output {
			for _, c := range o.Content {
				if o.Type == "message" && c.Type == "output_text" {
					texts = append(texts, c.Text)
				} else if c.Type == "refusal" {
					texts = append(texts, "(refused) "+c.Refusal)
				}
			}
		}
	case Messages:
		var r struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.Unmarshal(response, &r); err != nil {
			return "", fmt.Errorf("anthropic: %w", err)
		}
		for _, c := range r.Content {
			if c.Type == "text" {
				texts = append(texts, c.Text)
			}
		}
	case GenerateContent:
		var r struct {
			Candidates []struct {
				Content struct {
					Parts []struct {
						Text    string `json:"text"`
						Thought bool   `json:"thought"`
					} `json:"parts"`
				} `json:"content"`
			} `json:"candidates"`
		}
		if err := json.Unmarshal(response, &r); err != nil || len(r.Candidates) == 0 {
			return "", fmt.Errorf("gemini: a response without candidates")
		}
		for _, p := range r.Candidates[0].Content.Parts {
			if p.Text != "" && !p.Thought {
				texts = append(texts, p.Text)
			}
		}
	default:
		_, err := f.wire()
		return "", err
	}
	return strings.Join(texts, "\n"), nil
}
