package tooltest

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// valid are a request per format that answers a turn of two calls, as the APIs take it.
var valid = map[Format]string{
	Chat: `{"model":"m","messages":[{"role":"user","content":"hi"},
		{"role":"assistant","content":null,"tool_calls":[
			{"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}},
			{"id":"call_2","type":"function","function":{"name":"g","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"call_2","content":"two"},
		{"role":"tool","tool_call_id":"call_1","content":[{"type":"text","text":"one"}]}],
		"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}},
			{"type":"function","function":{"name":"g","strict":true,"parameters":{"type":"object","properties":{},"additionalProperties":false}}}]}`,
	Responses: `{"model":"m","input":[{"role":"user","content":"hi"},
		{"type":"reasoning","id":"rs_1","summary":[]},
		{"type":"function_call","call_id":"call_1","name":"f","arguments":"{\"a\":1}"},
		{"type":"function_call","call_id":"call_2","name":"g","arguments":"{}"},
		{"type":"function_call_output","call_id":"call_2","output":"two"},
		{"type":"function_call_output","call_id":"call_1","output":"one"}],
		"tools":[{"type":"function","name":"f","strict":false,"parameters":{"type":"object"}},
			{"type":"function","name":"g","parameters":{"type":"object","properties":{},"additionalProperties":false,"required":[]}}]}`,
	Messages: `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"},
		{"role":"assistant","content":[{"type":"text","text":"Let me see."},
			{"type":"tool_use","id":"toolu_1","name":"f","input":{"a":1}},
			{"type":"tool_use","id":"toolu_2","name":"g","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2","content":"two","is_error":true},
			{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"one"}]},
			{"type":"text","text":"thanks"}]}],
		"tools":[{"name":"f","input_schema":{"type":"object"}},{"name":"g","input_schema":{"type":"object"}}]}`,
	GenerateContent: `{"contents":[{"role":"user","parts":[{"text":"hi"}]},
		{"role":"model","parts":[{"functionCall":{"id":"a1","name":"f","args":{"a":1}},"thoughtSignature":"c2ln"},
			{"functionCall":{"id":"a2","name":"g"}}]},
		{"role":"user","parts":[{"functionResponse":{"id":"a1","name":"f","response":{"output":"one"}}},
			{"functionResponse":{"id":"a2","name":"g","response":{"error":"two"}}}]}],
		"tools":[{"functionDeclarations":[{"name":"f","parameters":{"type":"OBJECT"}},{"name":"g"}]}]}`,
}

func TestReadValid(t *testing.T) {
	for _, f := range Formats() {
		req, err := Read(f, []byte(valid[f]))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if req.Question != "hi" || len(req.Turns) != 1 || len(req.Tools) != 2 || req.Choice != ChoiceAuto {
			t.Fatalf("%s: %+v", f, req)
		}
		turn := req.Turns[0]
		if len(turn.Calls) != 2 || turn.Calls[0].Name != "f" || turn.Calls[0].Args != `{"a":1}` {
			t.Errorf("%s: calls %+v", f, turn.Calls)
		}
		if turn.Results[0].Text != "one" || turn.Results[1].Text != "two" || turn.Results[0].Call != turn.Calls[0] {
			t.Errorf("%s: results %+v", f, turn.Results)
		}
		wantErr := f == Messages || f == GenerateContent
		if turn.Results[0].IsError || turn.Results[1].IsError != wantErr {
			t.Errorf("%s: error marks %+v", f, turn.Results)
		}
	}
}

func TestReadRejects(t *testing.T) {
	for _, tc := range []struct {
		f         Format
		old, new  string
		says      string
		supported bool
	}{
		{Chat, `{"role":"tool","tool_call_id":"call_1","content":[{"type":"text","text":"one"}]}`, `{"role":"user","content":"?"}`, "did not have response messages: call_1", true},
		{Chat, `"tool_call_id":"call_1"`, `"tool_call_id":"call_2"`, "must be a response to a preceding message with 'tool_calls'", true},
		{Chat, `"id":"call_2"`, `"id":"call_1"`, "duplicate tool call id call_1", true},
		{Chat, `"model":"m",`, ``, "model parameter", true},
		{Chat, `"additionalProperties":false`, `"additionalProperties":true`, "'additionalProperties' is required to be supplied and to be false", true},
		{Chat, `"tools":[`, `"tool_choice":{"type":"custom","custom":{"name":"x"}},"tools":[`, "tool_choice of type", false},
		{Responses, `{"type":"function_call_output","call_id":"call_1","output":"one"}`, `{"type":"function_call_output","call_id":"call_2","output":"one"}`, "duplicate function call output for call_id call_2", true},
		{Responses, `{"type":"function_call_output","call_id":"call_1","output":"one"}`, `{"type":"function_call_output","call_id":"call_9","output":"one"}`, "no tool call found for function call output with call_id call_9", true},
		{Responses, `,
		{"type":"function_call_output","call_id":"call_1","output":"one"}`, ``, "no tool output found for function call call_1", true},
		{Responses, `"required":[]`, `"required":["x"]`, `required "x" is no property`, true},
		{Responses, `"additionalProperties":false,"required":[]`, `"additionalProperties":false,"required":[],"minProperties":1`, `keyword "minProperties" is not supported`, true},
		{Messages, `{"name":"g","input_schema":{"type":"object"}}`, `{"name":"g","strict":true,"input_schema":{"type":"object","properties":{"a":{"type":"array","minItems":2}},"additionalProperties":false}}`, "minItems 2: strict tools take 0 or 1 only", true},
		{GenerateContent, `"parameters":{"type":"OBJECT"}`, `"parameters":{"type":"OBJECT","properties":{"a":{"type":"INTEGER","enum":[1,2]}}}`, "enum value 1 is not a string", true},
		{Messages, `{"type":"text","text":"thanks"}`, `{"type":"text","text":"thanks"},{"type":"tool_result","tool_use_id":"toolu_1","content":"again"}`, "tool_result blocks must come first", true},
		{Messages, `"tool_use_id":"toolu_2"`, `"tool_use_id":"toolu_1"`, "answered twice", true},
		{Messages, `"tool_use_id":"toolu_2"`, `"tool_use_id":"toolu_9"`, "unexpected tool_use_id found in tool_result blocks: toolu_9", true},
		{Messages, `"max_tokens":10,`, ``, "max_tokens", true},
		{Messages, `"tools":[{"name":"f","input_schema":{"type":"object"}},{"name":"g","input_schema":{"type":"object"}}]`, `"metadata":{}`, "must define tools", true},
		{GenerateContent, `{"functionResponse":{"id":"a1","name":"f","response":{"output":"one"}}},
			{"functionResponse":{"id":"a2","name":"g","response":{"error":"two"}}}`, `{"functionResponse":{"id":"a2","name":"g","response":{"error":"two"}}},
			{"functionResponse":{"id":"a1","name":"f","response":{"output":"one"}}}`, "answer the calls in their order", true},
		{GenerateContent, `,
			{"functionResponse":{"id":"a2","name":"g","response":{"error":"two"}}}`, ``, "number of function response parts", true},
		{GenerateContent, `{"functionResponse":{"id":"a1","name":"f","response":{"output":"one"}}}`, `{"functionResponse":{"id":"a9","name":"f","response":{"output":"one"}}}`, "answer the calls in their order", true},
	} {
		body := strings.Replace(valid[tc.f], tc.old, tc.new, 1)
		if body == valid[tc.f] {
			t.Fatalf("%s: %q is not in the valid request", tc.f, tc.old)
		}
		_, err := Read(tc.f, []byte(body))
		switch {
		case tc.says == "" && err != nil:
			t.Errorf("%s: %v, want it valid", tc.f, err)
		case tc.says == "":
		case err == nil || !strings.Contains(err.Error(), tc.says):
			t.Errorf("%s: %v, want an error saying %q", tc.f, err, tc.says)
		case errors.Is(err, ErrRejected) != tc.supported || errors.Is(err, ErrUnsupported) == tc.supported:
			t.Errorf("%s: %v: wraps ErrRejected %v, want %v", tc.f, err, errors.Is(err, ErrRejected), tc.supported)
		}
	}
}

// TestStored: a Responses request may answer the calls of a stored conversation.
func TestStored(t *testing.T) {
	req, err := Read(Responses, []byte(`{"model":"m","previous_response_id":"resp_1","input":[{"type":"function_call_output","call_id":"call_1","output":"one"}]}`))
	if err != nil || !req.Stored || len(req.StoredResults) != 1 || req.StoredResults[0].Call.ID != "call_1" || req.StoredResults[0].Text != "one" {
		t.Fatalf("%+v, %v", req, err)
	}
}

// recorder is a testing.TB that records the errors Start reports.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, format)
}

func TestNewRoundServer(t *testing.T) {
	rec := &recorder{TB: t}
	srv := NewRoundServer(rec,
		Round{Path: "/v1/messages", Reply: `{"ok":true}`},
		Round{Path: "/v1beta/models/gm:generateContent", Check: func(req *Request) error {
			if req.Model != "gm" || req.Stream {
				t.Errorf("model %q, stream %v", req.Model, req.Stream)
			}
			return nil
		}, Reply: `{}`},
		Round{Path: "/v1/chat/completions", Reply: `{}`},
	)
	post := func(path, body string, headers ...string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post("/v1/messages", valid[Messages], "X-Api-Key", APIKey, "Anthropic-Version", "2023-06-01"); code != 200 || body != `{"ok":true}` {
		t.Errorf("messages: %d %s", code, body)
	}
	if code, body := post("/v1beta/models/gm:generateContent", valid[GenerateContent], "X-Goog-Api-Key", APIKey); code != 200 {
		t.Errorf("gemini: %d %s", code, body)
	}
	if len(rec.errs) != 0 {
		t.Fatalf("errors for valid requests: %q", rec.errs)
	}
	// An unanswered call: a 400 in OpenAI's error shape, and a test error.
	body := strings.Replace(valid[Chat], `"tool_call_id":"call_1"`, `"tool_call_id":"call_9"`, 1)
	if code, got := post("/v1/chat/completions", body, "Authorization", "Bearer "+APIKey); code != 400 ||
		!strings.Contains(got, `"type":"invalid_request_error"`) || !strings.Contains(got, "call_9") {
		t.Errorf("chat: %d %s", code, got)
	}
	if len(rec.errs) != 1 {
		t.Errorf("%d errors, want one", len(rec.errs))
	}
}

func TestFormatOf(t *testing.T) {
	for path, want := range map[string]Format{
		"/v1/chat/completions": Chat, "/v1/responses": Responses, "/v1/messages": Messages,
		"/v1beta/models/g:streamGenerateContent?alt=sse": GenerateContent,
	} {
		if got, err := FormatOf(path); got != want || err != nil {
			t.Errorf("FormatOf(%s) = %s, %v; want %s", path, got, err, want)
		}
	}
	if _, err := FormatOf("/v1/embeddings"); err == nil {
		t.Error("FormatOf(/v1/embeddings): no error")
	}
}

// TestCustomCalls: a Responses custom tool call is answered by a
// custom_tool_call_output, not by a function_call_output.
func TestCustomCalls(t *testing.T) {
	body := `{"model":"m","input":[{"role":"user","content":"hi"},
		{"type":"custom_tool_call","call_id":"call_1","name":"echo","input":"hi there"},
		{"type":"custom_tool_call_output","call_id":"call_1","output":"hi there"}]}`
	req, err := Read(Responses, []byte(body))
	if err != nil || len(req.Turns) != 1 || req.Turns[0].Calls[0] != (Call{ID: "call_1", Name: "echo", Args: "hi there", Custom: true}) ||
		req.Turns[0].Results[0].Text != "hi there" {
		t.Fatalf("%+v, %v", req, err)
	}
	body = strings.Replace(body, `"type":"custom_tool_call_output"`, `"type":"function_call_output"`, 1)
	if _, err := Read(Responses, []byte(body)); !errors.Is(err, ErrRejected) || !strings.Contains(err.Error(), "not its kind of call") {
		t.Errorf("a function_call_output for a custom call: %v", err)
	}
}
