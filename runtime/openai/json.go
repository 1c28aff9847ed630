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
// JSON string holding the arguments, which is unquoted (blank arguments are {});
// absent or null arguments are {}. Any other value, an object as some compatible
// servers send or a value no tool takes (a number, an array), goes to the Toolset as
// it is: the decoder reads an object, and answers anything else with an argument
// error for that call alone.
func rawArguments(raw json.RawMessage) []byte {
	s := bytes.TrimSpace(raw)
	if wire.IsNull(s) {
		return []byte("{}")
	}
	var text string
	if s[0] != '"' || json.Unmarshal(s, &text) != nil {
		return bytes.Clone(s)
	}
	return arguments(text)
}

// customArguments returns the arguments a custom tool call's free-text input is read
// as: {"input": <the input>}; absent or null input is "".
func customArguments(input json.RawMessage) []byte {
	input = bytes.TrimSpace(input)
	if wire.IsNull(input) {
		input = json.RawMessage(`""`)
	}
	return append(append([]byte(`{"input":`), input...), '}')
}
