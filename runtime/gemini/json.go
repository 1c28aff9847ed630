package gemini

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

// field returns the field of obj spelled camel (as this package writes it) or snake
// (which the API accepts too), moving a snake_case field to its camelCase name so that
// the object never ends up with both.
func field(obj map[string]json.RawMessage, camel, snake string) json.RawMessage {
	if raw, ok := obj[snake]; ok {
		delete(obj, snake)
		if _, has := obj[camel]; !has {
			obj[camel] = raw
		}
	}
	return obj[camel]
}

// apiError is the error object of an error body or stream chunk:
// {"error":{"code":400,"message":"...","status":"INVALID_ARGUMENT"}}.
type apiError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Status  string `json:"status"`
}

// errorOf turns a non-null "error" field into an error, or returns nil.
func errorOf(raw json.RawMessage) error {
	if isNull(raw) {
		return nil
	}
	var e apiError
	if err := json.Unmarshal(raw, &e); err != nil || e.Message == "" {
		return fmt.Errorf("the API returned an error: %s", bytes.TrimSpace(raw))
	}
	if e.Status != "" {
		return fmt.Errorf("the API returned an error: %s (%d): %s", e.Status, e.Code, e.Message)
	}
	return fmt.Errorf("the API returned an error: %s", e.Message)
}
