package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// isObject reports whether raw is a JSON object (assuming it is valid JSON).
func isObject(raw json.RawMessage) bool {
	s := bytes.TrimSpace(raw)
	return len(s) > 0 && s[0] == '{'
}

// decodeArray decodes field of obj as an array of raw items; an absent or null field
// is an empty array.
func decodeArray(obj map[string]json.RawMessage, field, what string) ([]json.RawMessage, error) {
	raw := obj[field]
	if isNull(raw) {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("%s: %q is not an array: %w", what, field, err)
	}
	return items, nil
}

// apiError is the error object of an error body or an error stream event:
// {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}.
type apiError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// errorOf turns the "error" field of an error body or event into an error.
func errorOf(raw json.RawMessage) error {
	var e apiError
	if err := json.Unmarshal(raw, &e); err != nil || e.Message == "" {
		return fmt.Errorf("the API returned an error: %s", bytes.TrimSpace(raw))
	}
	if e.Type != "" {
		return fmt.Errorf("the API returned an error: %s: %s", e.Type, e.Message)
	}
	return fmt.Errorf("the API returned an error: %s", e.Message)
}

// typeOf returns the "type" field of an object's fields, or "".
func typeOf(obj map[string]json.RawMessage) string {
	var t string
	_ = json.Unmarshal(obj["type"], &t)
	return t
}
