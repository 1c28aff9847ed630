package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Marshal encodes v as compact JSON without escaping <, > and &, so that text the
// model wrote or reads goes through unchanged. A json.RawMessage in v is compacted.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// DecodeObject decodes a JSON object into its fields, raw, so that the fields a
// function does not own go back out unchanged. what names the object in errors ("the
// request"); JSON that is not an object, null included, is an error.
func DecodeObject(body []byte, what string) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		return nil, fmt.Errorf("%s is not a JSON object: %w", what, err)
	}
	if obj == nil {
		return nil, fmt.Errorf("%s is null, not a JSON object", what)
	}
	return obj, nil
}

// IsNull reports whether raw is absent (empty or blank) or JSON null.
func IsNull(raw json.RawMessage) bool {
	s := bytes.TrimSpace(raw)
	return len(s) == 0 || string(s) == "null"
}

// IsObject reports whether raw is a JSON object, assuming it is valid JSON.
func IsObject(raw json.RawMessage) bool {
	s := bytes.TrimSpace(raw)
	return len(s) > 0 && s[0] == '{'
}

// DecodeArray decodes field of obj as an array of raw items; an absent or null field
// is an empty array (nil). what names obj in errors ("the request").
func DecodeArray(obj map[string]json.RawMessage, field, what string) ([]json.RawMessage, error) {
	raw := obj[field]
	if IsNull(raw) {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("%s: %q is not an array: %w", what, field, err)
	}
	return items, nil
}

// RequireArray is DecodeArray for a field obj must have: an absent field is an error,
// while a null one is an empty array.
func RequireArray(obj map[string]json.RawMessage, field, what string) ([]json.RawMessage, error) {
	if _, ok := obj[field]; !ok {
		return nil, fmt.Errorf("%s has no %q", what, field)
	}
	return DecodeArray(obj, field, what)
}

// Merge sets the fields of src that are not null in dst, as streamed deltas that send
// null for the values they do not update need.
func Merge(dst, src map[string]json.RawMessage) {
	for k, v := range src {
		if !IsNull(v) {
			dst[k] = v
		}
	}
}
