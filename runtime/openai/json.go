package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// marshal encodes v as compact JSON without escaping <, > and &, so that text the
// model wrote or reads goes through unchanged.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// decodeObject decodes a JSON object into its fields, raw, so that the fields a
// function does not own go back out unchanged.
func decodeObject(body []byte, what string) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		return nil, fmt.Errorf("%s is not a JSON object: %w", what, err)
	}
	if obj == nil {
		return nil, fmt.Errorf("%s is null, not a JSON object", what)
	}
	return obj, nil
}

// isNull reports whether raw is absent or JSON null.
func isNull(raw json.RawMessage) bool {
	s := bytes.TrimSpace(raw)
	return len(s) == 0 || string(s) == "null"
}

// decodeArray decodes field as an array of raw items; an absent or null field is an
// empty array.
func decodeArray(obj map[string]json.RawMessage, field string) ([]json.RawMessage, error) {
	raw := obj[field]
	if isNull(raw) {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("%q is not an array: %w", field, err)
	}
	return items, nil
}

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
	if isNull(raw) {
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
	if isNull(s) {
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
