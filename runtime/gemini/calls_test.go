package gemini_test

import (
	"encoding/json"
	"strings"
	"testing"

	"google.golang.org/genai"

	tgg "github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/runtime/internal/wiretest"
)

// sdkResponse is a turn of parallel calls, as the SDK's types encode it: a thought,
// the first call with the thought signature, a second call, and a call with an id.
func sdkResponse() *genai.GenerateContentResponse {
	return &genai.GenerateContentResponse{
		ModelVersion: "gemini-3-pro",
		ResponseID:   "resp-1",
		Candidates: []*genai.Candidate{{
			FinishReason: genai.FinishReasonStop,
			Content: &genai.Content{Role: genai.RoleModel, Parts: []*genai.Part{
				{Text: "Two cities.", Thought: true},
				{FunctionCall: &genai.FunctionCall{Name: "get_weather", Args: map[string]any{"city": "Paris"}}, ThoughtSignature: []byte("sig-1\x00\xff")},
				{FunctionCall: &genai.FunctionCall{Name: "get_weather", Args: map[string]any{"city": "Tokyo"}}},
				{FunctionCall: &genai.FunctionCall{ID: "fc-3", Name: "report"}},
			}},
		}},
	}
}

func TestCallsFromSDKResponse(t *testing.T) {
	body := wiretest.MustMarshal(t, sdkResponse())
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
	text := &genai.GenerateContentResponse{Candidates: []*genai.Candidate{{
		FinishReason: genai.FinishReasonStop,
		Content:      genai.NewContentFromText("Sunny.", genai.RoleModel),
	}}}
	body = wiretest.MustMarshal(t, text)
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
	var sdk genai.GenerateContentResponse
	if err := json.Unmarshal(body, &sdk); err != nil {
		t.Fatal(err)
	}
	fc := sdk.FunctionCalls()
	if len(fc) != 1 || fc[0].Name != calls[0].Name || !wiretest.JSONEqual(t, wiretest.MustMarshal(t, fc[0].Args), calls[0].Arguments) {
		t.Errorf("the SDK reads the calls as %s", wiretest.MustMarshal(t, fc))
	}
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
		{`{"candidates":[{"content":{"parts":[{"text":"x"},{"functionCall":{"name":"f","args":[1]}}]}}]}`, "part 1: the args of functionCall f are not a JSON object"},
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
	// No candidates, or a candidate without content, is an answer without calls.
	for _, body := range []string{`{}`, `{"candidates":[]}`, `{"candidates":[{"finishReason":"SAFETY"}]}`} {
		if calls, err := tgg.Calls([]byte(body)); err != nil || calls != nil {
			t.Errorf("Calls(%s) = %v, %v", body, calls, err)
		}
	}
}
