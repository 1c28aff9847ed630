package tooltest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ErrRejected is wrapped by the errors for requests the real API would reject.
var ErrRejected = errors.New("the API would reject this request")

// ErrUnsupported is wrapped by the errors for requests the fake does not read,
// although the API may take them (a tool choice of a type it does not know).
var ErrUnsupported = errors.New("the fake API does not read this request")

// Format is a wire format, named as its loop.Provider's Name.
type Format string

// The wire formats.
const (
	// Chat is OpenAI Chat Completions: POST /v1/chat/completions.
	Chat Format = "openai"
	// Responses is OpenAI Responses: POST /v1/responses.
	Responses Format = "openai-responses"
	// Messages is Anthropic Messages: POST /v1/messages.
	Messages Format = "anthropic"
	// GenerateContent is Gemini generateContent: POST
	// /v1beta/models/{model}:generateContent (or :streamGenerateContent).
	GenerateContent Format = "gemini"
)

// Formats returns the wire formats, in the order of their constants: a new slice each
// time, so that no caller's change is seen by another.
func Formats() []Format { return []Format{Chat, Responses, Messages, GenerateContent} }

// Choice is a request's tool choice, as loop.Choice names it.
type Choice string

// The tool choices.
const (
	// ChoiceAuto lets the model call tools or answer.
	ChoiceAuto Choice = "auto"
	// ChoiceNone tells the model to answer without calls.
	ChoiceNone Choice = "none"
	// ChoiceRequired makes the model call a tool.
	ChoiceRequired Choice = "required"
)

// Call is a tool call of the model, as a request holds it.
type Call struct {
	// ID is the call's id in the conversation ("" for a Gemini call without one).
	ID string
	// Name is the tool's name.
	Name string
	// Args is the JSON object of the arguments ("" means {}), or the free-form input
	// of a custom call.
	Args string
	// Custom is set for a Responses custom tool call (custom_tool_call), answered by
	// a custom_tool_call_output.
	Custom bool
}

// Result is the answer to a call, as a request holds it.
type Result struct {
	// Call is the call answered, as the conversation holds it.
	Call Call
	// Text is the result as a model reads it: the text of a tool message, a
	// function_call_output or a tool_result, or for Gemini the "output" or "error" of
	// the response (a string as is, anything else as JSON).
	Text string
	// IsError reports a result marked as failed: Anthropic's is_error, Gemini's
	// "error". OpenAI's formats have no mark (the error is the text): false there.
	IsError bool
}

// RequestTurn is one of the model's turns of tool calls in a request, with its answers.
type RequestTurn struct {
	// Calls are the turn's calls, in order.
	Calls []Call
	// Results are the answers, in the calls' order (Results[i] answers Calls[i]).
	Results []Result
	// Marks are what the turn carried besides its calls: the ids of the Responses
	// reasoning items before its calls, Gemini thought signatures.
	Marks []string
}

// Request is a valid request, as Read finds it.
type Request struct {
	// Format is the request's wire format.
	Format Format
	// Body is the request body.
	Body []byte
	// Fields are the body's top-level fields.
	Fields map[string]json.RawMessage
	// Model is the request's model ("" for Gemini, whose model is in the URL; the servers
	// set it from the path).
	Model string
	// Question is the text of the first user message.
	Question string
	// Turns are the model's turns of tool calls, each with its answers.
	Turns []RequestTurn
	// Tools are the names of the function tools the request offers.
	Tools []string
	// Deferred are the names of those of Tools sent with defer_loading, which the
	// API's tool search finds and loads (Anthropic, Responses).
	Deferred []string
	// Namespaces maps the names of the Responses functions sent in a namespace to it.
	Namespaces map[string]string
	// Choice is the tool choice.
	Choice Choice
	// Only, when not nil, lists the tools the model may call (a forced function,
	// allowed tools).
	Only []string
	// Single is set when the request allows at most one call per turn.
	Single bool
	// Stream is set when the request asks for a stream ("stream": true; Gemini
	// streams by its path).
	Stream bool
	// Size is the length of the body.
	Size int
	// Stored is set when a Responses request continues a conversation the API
	// stores (previous_response_id or conversation): its calls are not in the input.
	Stored bool
	// StoredResults holds the function_call_output items of such a request that answer
	// calls of the stored conversation, in their order.
	StoredResults []Result
	// Prefill is set when the conversation ends with a model turn without calls:
	// an Anthropic prefill, a Gemini model content.
	Prefill bool
}

// Read checks a request body in a wire format as the API would and returns what it
// holds. An error wraps ErrRejected (the API's message) or ErrUnsupported.
func Read(f Format, body []byte) (*Request, error) {
	var (
		req *Request
		err error
	)
	switch f {
	case Chat:
		req, err = readChat(body)
	case Responses:
		req, err = readResponses(body)
	case Messages:
		req, err = readMessages(body)
	case GenerateContent:
		req, err = readGenerateContent(body)
	default:
		return nil, fmt.Errorf("tooltest: unknown wire format %q", f)
	}
	if err != nil {
		return nil, err
	}
	req.Format, req.Body, req.Size = f, body, len(body)
	var stream bool
	_ = json.Unmarshal(req.Fields["stream"], &stream)
	req.Stream = stream
	return req, nil
}

// ErrorBody returns the body of a 400 response with message msg, in the format's
// error shape.
func ErrorBody(f Format, msg string) []byte {
	var v any
	switch f {
	case Messages:
		v = map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": msg}}
	case GenerateContent:
		v = map[string]any{"error": map[string]any{"code": 400, "message": msg, "status": "INVALID_ARGUMENT"}}
	default:
		v = map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "param": nil, "code": nil}}
	}
	b, _ := marshal(v)
	return b
}

// rejectf returns an error wrapping ErrRejected.
func rejectf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrRejected, fmt.Sprintf(format, args...))
}

// object decodes a JSON object, or says what is wrong, as the API would.
func object(raw json.RawMessage, what string) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, rejectf("%s is not a JSON object", what)
	}
	return obj, nil
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	var obj map[string]json.RawMessage
	return json.Unmarshal(raw, &obj) == nil && obj != nil
}

// isNull reports whether raw is absent or null.
func isNull(raw json.RawMessage) bool {
	s := bytes.TrimSpace(raw)
	return len(s) == 0 || string(s) == "null"
}

// stringOf decodes a JSON string field; absent gives "", false.
func stringOf(raw json.RawMessage) (string, bool) {
	var s string
	if isNull(raw) || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// compact returns raw without insignificant white space.
func compact(raw json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}

// marshal encodes v without escaping HTML characters, as the APIs do.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// validName reports whether name fits OpenAI's and Anthropic's tool names.
func validName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for _, r := range name {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
