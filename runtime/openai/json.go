package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime/internal/wire"
)

// arguments turns the arguments string a model wrote into the JSON text of the
// arguments; blank arguments (a tool without parameters) become {}.
func arguments(s string) []byte {
	if strings.TrimSpace(s) == "" {
		return []byte("{}")
	}
	return []byte(s)
}

// apiError is the error object of an OpenAI error body or stream event.
type apiError struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Code    any    `json:"code"`
}

// errorOf turns a non-null "error" field into an error, or returns nil.
func errorOf(raw json.RawMessage) error {
	if wire.IsNull(raw) {
		return nil
	}
	var e apiError
	if err := json.Unmarshal(raw, &e); err != nil {
		return fmt.Errorf("the API returned an error: %s", bytes.TrimSpace(raw))
	}
	if e.Message == "" {
		if e.Code == nil || e.Code == "" {
			return nil // an empty error object, as some serializers write for "no error"
		}
		return fmt.Errorf("the API returned an error: %s", bytes.TrimSpace(raw))
	}
	msg := e.Message
	if code, ok := e.Code.(string); ok && code != "" {
		msg = code + ": " + msg
	} else if e.Type != "" {
		msg = e.Type + ": " + msg
	}
	return errors.New("the API returned an error: " + msg)
}

// rawArguments returns the JSON text of a call's "arguments" field. OpenAI sends a
// JSON string holding the arguments, which is unquoted; an object (as some compatible
// servers send) is taken as is; absent or null arguments are {}.
func rawArguments(raw json.RawMessage) ([]byte, error) {
	s := bytes.TrimSpace(raw)
	if wire.IsNull(s) {
		return []byte("{}"), nil
	}
	if s[0] != '"' {
		if s[0] != '{' {
			return nil, fmt.Errorf("arguments are neither a JSON string nor an object: %.40s", s)
		}
		return bytes.Clone(s), nil
	}
	var text string
	if err := json.Unmarshal(s, &text); err != nil {
		return nil, fmt.Errorf("arguments: %w", err)
	}
	return arguments(text), nil
}
