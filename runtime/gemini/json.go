package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/toolgen/toolgen/runtime/internal/wire"
)

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
	if wire.IsNull(raw) {
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
