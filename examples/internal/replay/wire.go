package replay

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/runtime/openai"
)

// Providers names the wire formats, as their runtime.Provider's Name says.
var Providers = []string{"openai", "openai-responses", "anthropic", "gemini"}

var formats = map[string]format{
	"openai":           chatFormat,
	"openai-responses": responsesFormat,
	"anthropic":        messagesFormat,
	"gemini":           generateContentFormat,
}

// Provider returns the runtime.Provider of a wire format named as in Providers.
func Provider(name string) (runtime.Provider, error) {
	switch name {
	case "openai":
		return openai.Chat{}, nil
	case "openai-responses":
		return openai.Responses{}, nil
	case "anthropic":
		return anthropic.Messages{}, nil
	case "gemini":
		return gemini.GenerateContent{}, nil
	}
	return nil, fmt.Errorf("unknown provider %q (want one of %s)", name, strings.Join(Providers, ", "))
}

// Request returns the request body that opens a conversation with a question, in a
// provider's format: the same body works against the real API. Gemini's model goes in
// the URL, not the body.
func Request(provider, model, question string) ([]byte, error) {
	var req any
	switch provider {
	case "openai":
		req = map[string]any{"model": model, "messages": []any{map[string]string{"role": "user", "content": question}}}
	case "openai-responses":
		req = map[string]any{"model": model, "input": question}
	case "anthropic":
		req = map[string]any{"model": model, "max_tokens": 1024, "messages": []any{map[string]string{"role": "user", "content": question}}}
	case "gemini":
		req = map[string]any{"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]string{"text": question}}}}}
	default:
		return nil, fmt.Errorf("unknown provider %q (want one of %s)", provider, strings.Join(Providers, ", "))
	}
	return marshal(req)
}

// Text returns the text of a model's answer, a response body in a provider's format.
func Text(provider string, response []byte) (string, error) {
	var texts []string
	switch provider {
	case "openai":
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
	case "openai-responses":
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
	case "anthropic":
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
	case "gemini":
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
		return "", fmt.Errorf("unknown provider %q (want one of %s)", provider, strings.Join(Providers, ", "))
	}
	return strings.Join(texts, "\n"), nil
}
