package runtimegemini_test

// From runtime/gemini's tests: calls read from responses the SDK builds and reads.

import (
	"encoding/json"
	"testing"

	"google.golang.org/genai"

	"github.com/toolgen/toolgen/internal/wiretest"
	tgg "github.com/toolgen/toolgen/runtime/gemini"
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

// TestSDKFixtures checks that runtime/gemini's fixture sdk_response.json, which its
// tests read in place of sdkResponse, is what the SDK's types encode.
func TestSDKFixtures(t *testing.T) {
	fixture := wiretest.ReadFile(t, "../../runtime/gemini/testdata/sdk_response.json")
	if built := wiretest.MustMarshal(t, sdkResponse()); !wiretest.JSONEqual(t, fixture, built) {
		t.Errorf("runtime/gemini/testdata/sdk_response.json is not what the SDK builds:\n%s", built)
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
	body := wiretest.ReadFile(t, "../../runtime/gemini/testdata/function_declaration_json_schema.json")
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
