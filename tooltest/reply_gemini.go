package tooltest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// Gemini generateContent: POST /v1beta/models/{model}:generateContent.

var generateContentFormat = format{
	name:     GenerateContent,
	write:    writeGenerateContent,
	callID:   func(seed string, t, j int) string { return strings.ToLower(token(8, "gemini", seed, t, j)) },
	mark:     thoughtSignature,
	markName: "thought signature",
}

// thoughtSignature is the signature of turn t's first function call, which the API
// wants back as it came.
func thoughtSignature(seed string, t int) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%#v", []any{"signature", seed, t}))
	return base64.StdEncoding.EncodeToString(sum[:])
}

func writeGenerateContent(ex *Request, r *reply) ([]byte, error) {
	type functionCall struct {
		ID   string          `json:"id,omitempty"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	}
	type part struct {
		Text             string        `json:"text,omitempty"`
		FunctionCall     *functionCall `json:"functionCall,omitempty"`
		ThoughtSignature string        `json:"thoughtSignature,omitempty"`
	}
	var parts []part
	out := r.text
	if len(r.calls) > 0 {
		out = r.say
		if r.say != "" {
			parts = append(parts, part{Text: r.say})
		}
		for j, c := range r.calls {
			p := part{FunctionCall: &functionCall{ID: c.ID, Name: c.Name, Args: json.RawMessage(c.Args)}}
			if j == 0 {
				p.ThoughtSignature = thoughtSignature(r.seed, r.turn)
			}
			parts = append(parts, p)
			out += c.Name + c.Args
		}
	} else {
		parts = append(parts, part{Text: r.text})
	}
	type content struct {
		Parts []part `json:"parts"`
		Role  string `json:"role"`
	}
	type candidate struct {
		Content      content `json:"content"`
		FinishReason string  `json:"finishReason"`
		Index        int     `json:"index"`
	}
	in, completion := tokens(ex.Size), tokens(len(out))
	return marshal(struct {
		Candidates    []candidate `json:"candidates"`
		UsageMetadata any         `json:"usageMetadata"`
		ModelVersion  string      `json:"modelVersion"`
		ResponseID    string      `json:"responseId"`
	}{
		Candidates: []candidate{{Content: content{Parts: parts, Role: "model"}, FinishReason: "STOP"}},
		UsageMetadata: map[string]int{
			"promptTokenCount": in, "candidatesTokenCount": completion, "totalTokenCount": in + completion,
		},
		ModelVersion: "replay",
		ResponseID:   token(22, "gemini-response", r.seed, len(ex.Turns), len(r.calls)),
	})
}
