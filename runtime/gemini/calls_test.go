package gemini_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
	tgg "github.com/toolgen/toolgen/runtime/gemini"
)

// TestCallsFromSDKResponse reads a turn of parallel calls as the SDK's types encode it
// (testdata/sdk_response.json): a thought, the first call with the thought signature,
// a second call, and a call with an id.
func TestCallsFromSDKResponse(t *testing.T) {
	body := wiretest.ReadFile(t, "testdata/sdk_response.json")
	calls, err := tgg.Calls(body)
	if err != nil {
		t.Fatal(err)
	}
	want := " get_weather {\"city\":\"Paris\"}\n get_weather {\"city\":\"Tokyo\"}\nfc-3 report {}\n"
	if got := wiretest.CallsText(calls); got != want {
		t.Errorf("Calls = \n%s\nwant\n%s", got, want)
	}
	if !tgg.HasToolCalls(body) {
		t.Errorf("HasToolCalls = false")
	}
	if city, ok := tgg.Argument(calls[1], "city"); !ok || city != "Tokyo" {
		t.Errorf("Argument(city) = %q, %v", city, ok)
	}
	if m, err := tgg.ArgumentsMap(calls[2]); err != nil || len(m) != 0 {
		t.Errorf("ArgumentsMap = %v, %v", m, err)
	}
	body = []byte(`{"candidates":[{"content":{"parts":[{"text":"Sunny."}],"role":"model"},"finishReason":"STOP"}]}`)
	if calls, err := tgg.Calls(body); err != nil || len(calls) != 0 || tgg.HasToolCalls(body) {
		t.Errorf("Calls of a text answer = %v, %v", calls, err)
	}
}

// TestCallsRecorded reads a response recorded in the SDK's examples.
func TestCallsRecorded(t *testing.T) {
	body := wiretest.ReadFile(t, "testdata/function_declaration_json_schema.json")
	calls, err := tgg.Calls(body)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0].ID != "" || calls[0].Name != "controlLight" ||
		!wiretest.JSONEqual(t, calls[0].Arguments, []byte(`{"brightness":50,"colorTemperature":"warm"}`)) {
		t.Fatalf("Calls = %q", wiretest.CallsText(calls))
	}
	// interop/runtimegemini checks that the SDK reads the same calls.
}

func TestCallsErrors(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"error":{"code":429,"message":"Resource exhausted","status":"RESOURCE_EXHAUSTED"}}`, "RESOURCE_EXHAUSTED (429): Resource exhausted"},
		{`[]`, "the response is not a JSON object"},
		{`{"candidates":{}}`, `"candidates" is not an array`},
		{`{"promptFeedback":{"blockReason":"SAFETY"}}`, "the prompt was blocked: SAFETY"},
		{`{"candidates":[{"finishReason":"MALFORMED_FUNCTION_CALL","finishMessage":"Malformed function call: print(x"}]}`, "MALFORMED_FUNCTION_CALL: Malformed function call: print(x"},
		{`{"candidates":[{"finishReason":"UNEXPECTED_TOOL_CALL"}]}`, "UNEXPECTED_TOOL_CALL"},
		{`{"candidates":[{"content":{"parts":{}}}]}`, `"parts" is not an array`},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"args":{}}}]}}]}`, "part 0: functionCall without a name"},
		// Two calls with one id cannot both be answered; calls without ids can.
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"id":"a","name":"f","args":{}}},{"functionCall":{"name":"f","args":{}}},{"functionCall":{"id":"a","name":"g","args":{}}}]}}]}`,
			`calls 0 (f) and 2 (g) have the same id "a"`},
		// Calls in a candidate cut short are never taken, even when their args are whole.
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{}}},{"functionCall":{"name":"g","args":{"city":"Pa"}}}]},"finishReason":"MAX_TOKENS"}]}`,
			"the response was cut short (finishReason MAX_TOKENS: it reached maxOutputTokens; raise it) with 2 function call(s), the last g maybe incomplete: none is taken"},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{}}}]},"finishReason":"SAFETY"}]}`, "finishReason SAFETY: the candidate stopped short"},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{}}}]},"finishReason":"CONTINUATION"}]}`, "finishReason CONTINUATION"},
		{`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","partialArgs":[{"jsonPath":"$.city","stringValue":"Pa","willContinue":true}],"willContinue":true}}]}}]}`, "streams its arguments"},
	} {
		calls, err := tgg.Calls([]byte(tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Calls(%s) = %v, %v; want an error containing %q", tc.body, calls, err, tc.want)
		}
		if tgg.HasToolCalls([]byte(tc.body)) {
			t.Errorf("HasToolCalls(%s) = true", tc.body)
		}
	}
	// No candidates, a candidate without content, or a text cut short, is an answer
	// without calls.
	for _, body := range []string{`{}`, `{"candidates":[]}`, `{"candidates":[{"finishReason":"SAFETY"}]}`,
		`{"candidates":[{"content":{"parts":[{"text":"Once upon a"}]},"finishReason":"MAX_TOKENS"}]}`} {
		if calls, err := tgg.Calls([]byte(body)); err != nil || calls != nil {
			t.Errorf("Calls(%s) = %v, %v", body, calls, err)
		}
	}
}

// TestMalformedArgsAnswered: a functionCall whose args are not an object is a call like
// the others, which the Toolset answers with an argument error, while the turn's other
// calls run.
func TestMalformedArgsAnswered(t *testing.T) {
	body := []byte(`{"candidates":[{"content":{"role":"model","parts":[
		{"functionCall":{"name":"get_weather","args":{"city":"Paris"}}},
		{"functionCall":{"id":"fc-2","name":"get_weather","args":[1]}},
		{"functionCall":{"name":"get_weather","args":"Paris"}}]},"finishReason":"STOP"}]}`)
	calls, err := tgg.Calls(body)
	if err != nil || len(calls) != 3 {
		t.Fatalf("Calls = %s, %v", wiretest.CallsText(calls), err)
	}
	results := wiretest.Toolset().RunCalls(context.Background(), calls, 0)
	c := tgg.FunctionResponses(results)
	if len(c.Parts) != 3 || string(c.Parts[0].FunctionResponse.Response["output"]) != `"Sunny in Paris"` ||
		c.Parts[1].FunctionResponse.ID != "fc-2" || c.Parts[1].FunctionResponse.Response["error"] == nil || c.Parts[2].FunctionResponse.Response["error"] == nil {
		t.Errorf("FunctionResponses = %s", wiretest.MustMarshal(t, c))
	}
	if _, err := (tgg.GenerateContent{}).Continue([]byte(`{"contents":[]}`), body, results); err != nil {
		t.Errorf("Continue: %v", err)
	}
}

// TestContinueOrderWithoutIDs: two calls of one tool without ids, answered in swapped
// order, are refused, though ids and names match position by position.
func TestContinueOrderWithoutIDs(t *testing.T) {
	body := []byte(`{"candidates":[{"content":{"role":"model","parts":[
		{"functionCall":{"name":"get_weather","args":{"city":"Paris"}}},
		{"functionCall":{"name":"get_weather","args":{"city":"Tokyo"}}}]},"finishReason":"STOP"}]}`)
	calls, err := tgg.Calls(body)
	if err != nil {
		t.Fatal(err)
	}
	results := wiretest.Toolset().RunCalls(context.Background(), calls, 0)
	p := tgg.GenerateContent{}
	if _, err := p.Continue([]byte(`{"contents":[]}`), body, results); err != nil {
		t.Fatalf("Continue in order: %v", err)
	}
	_, err = p.Continue([]byte(`{"contents":[]}`), body, []runtime.CallResult{results[1], results[0]})
	if err == nil || !strings.Contains(err.Error(), "result 0 answers a call of get_weather with other arguments than call 0") {
		t.Errorf("Continue with swapped answers = %v", err)
	}
}
