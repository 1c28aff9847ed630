package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
)

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
