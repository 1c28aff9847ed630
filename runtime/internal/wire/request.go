package wire

import (
	"encoding/json"
)

// The helpers below rewrite requests the way the providers' Prepare and Continue do:
// decode the request object, change the fields they own, and encode it again with
// every other field as it came.

// DecodeRequest decodes a request body and the array in its field, as Prepare (for
// the request's "tools") and Continue (for its conversation) begin. array is
// DecodeArray, or RequireArray for a field the request must have.
func DecodeRequest(request []byte, field string, array func(obj map[string]json.RawMessage, field, what string) ([]json.RawMessage, error)) (map[string]json.RawMessage, []json.RawMessage, error) {
	req, err := DecodeObject(request, "the request")
	if err != nil {
		return nil, nil, err
	}
	list, err := array(req, field, "the request")
	if err != nil {
		return nil, nil, err
	}
	return req, list, nil
}

// AppendJSON appends the JSON encoding (Marshal) of each v to list, and returns list
// as it is when there is no v.
func AppendJSON[T any](list []json.RawMessage, vs ...T) ([]json.RawMessage, error) {
	for _, v := range vs {
		raw, err := Marshal(v)
		if err != nil {
			return nil, err
		}
		list = append(list, raw)
	}
	return list, nil
}

// With sets field of obj to the JSON encoding of v and returns obj encoded.
func With(obj map[string]json.RawMessage, field string, v any) ([]byte, error) {
	raw, err := Marshal(v)
	if err != nil {
		return nil, err
	}
	obj[field] = raw
	return Marshal(obj)
}

// NameOf returns the "name" field of a JSON object, or "" when it has none.
func NameOf(raw json.RawMessage) string {
	var v struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(raw, &v)
	return v.Name
}

// WithTools sets the "tools" of a request to tools and its "tool_choice" to the JSON
// encoding of choice, and returns the request encoded. Without tools it removes both
// fields instead, since the APIs reject an empty list of tools.
func WithTools(req map[string]json.RawMessage, tools []json.RawMessage, choice any) ([]byte, error) {
	if len(tools) == 0 {
		delete(req, "tools")
		delete(req, "tool_choice")
		return Marshal(req)
	}
	raw, err := Marshal(tools)
	if err != nil {
		return nil, err
	}
	req["tools"] = raw
	return With(req, "tool_choice", choice)
}

// WithStream returns request, a JSON object, with "stream": true, its other fields
// kept.
func WithStream(request []byte) ([]byte, error) {
	obj, err := DecodeObject(request, "the request")
	if err != nil {
		return nil, err
	}
	return With(obj, "stream", true)
}
