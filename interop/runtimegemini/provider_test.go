package runtimegemini_test

// From runtime/gemini's tests: requests and answers the Loop's provider writes, as the SDK reads them.

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"google.golang.org/genai"

	"github.com/toolgen/toolgen/internal/wiretest"
	tgg "github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/runtime/loop"
)

// parallelCalls are the calls of one turn: a tool that works, an unknown tool, a tool
// that panics, one that fails and one with a structured result; Gemini gives ids to
// some calls only.
var parallelCalls = wiretest.ParallelCalls("", "fc-2", "", "", "fc-5")

// TestFunctionResponsesMatchSDK answers parallel calls, an unknown and a panicking
// tool among them: one user content, one functionResponse per call in order, as the
// SDK's Content reads it.
func TestFunctionResponsesMatchSDK(t *testing.T) {
	results := wiretest.Toolset().RunCalls(context.Background(), parallelCalls, 0)
	body := wiretest.MustMarshal(t, tgg.FunctionResponses(results))
	var c genai.Content
	if err := json.Unmarshal(body, &c); err != nil {
		t.Fatal(err)
	}
	if c.Role != genai.RoleUser || len(c.Parts) != len(parallelCalls) {
		t.Fatalf("the SDK reads %s as role %q with %d parts", body, c.Role, len(c.Parts))
	}
	want := []struct {
		key   string
		value any
	}{
		{"output", "Sunny in Paris"},
		{"error", `unknown tool "get_wether"; did you mean "get_weather"?; available tools: boom, fail, get_weather, report`},
		{"error", "boom failed with an internal error"},
		{"error", "city Atlantis not found"},
		{"output", map[string]any{"days": float64(3), "ok": true}},
	}
	for i, p := range c.Parts {
		fr := p.FunctionResponse
		if fr == nil {
			t.Fatalf("part %d is not a functionResponse: %s", i, body)
		}
		if fr.ID != parallelCalls[i].ID || fr.Name != parallelCalls[i].Name || len(fr.Response) != 1 {
			t.Errorf("part %d: id %q name %q response %v", i, fr.ID, fr.Name, fr.Response)
		}
		if got := wiretest.MustMarshal(t, fr.Response[want[i].key]); !wiretest.JSONEqual(t, got, wiretest.MustMarshal(t, want[i].value)) {
			t.Errorf("part %d: %s = %s, want %v", i, want[i].key, got, want[i].value)
		}
	}
	if strings.Contains(string(body), "secret") {
		t.Errorf("a panic's value reached the model: %s", body)
	}
	if back := wiretest.MustMarshal(t, &c); !wiretest.JSONEqual(t, body, back) {
		t.Errorf("the SDK's Content changes the answers:\nours %s\nSDK  %s", body, back)
	}
}

const request = `{"contents":[{"role":"user","parts":[{"text":"Weather in Paris & Tokyo?"}]}],
	"systemInstruction":{"parts":[{"text":"Be brief <and> exact."}]},
	"generationConfig":{"temperature":0,"thinkingConfig":{"includeThoughts":true}},"x_future":[1,{"a":null}],
	"tools":[{"googleSearch":{}},{"function_declarations":[{"name":"lookup"},{"name":"get_weather"}]}],
	"tool_config":{"function_calling_config":{"mode":"ANY","allowed_function_names":["lookup"]},"retrievalConfig":{"languageCode":"fr"}}}`

func TestPrepare(t *testing.T) {
	p := tgg.GenerateContent{}
	ts := wiretest.Toolset()
	out := wiretest.Prepare(t, p, ts, []byte(request), loop.ChoiceAuto, "tools", "tool_config")
	got := wiretest.Fields(t, out)
	if _, ok := got["tool_config"]; ok {
		t.Errorf("Prepare kept tool_config beside toolConfig")
	}
	if !strings.Contains(string(out), "<and>") {
		t.Errorf("Prepare escaped HTML characters: %s", got["systemInstruction"])
	}
	var tools []*genai.Tool
	if err := json.Unmarshal(got["tools"], &tools); err != nil {
		t.Fatal(err)
	}
	if len(tools) != 3 || tools[0].GoogleSearch == nil || len(tools[1].FunctionDeclarations) != 1 || tools[1].FunctionDeclarations[0].Name != "lookup" ||
		len(tools[2].FunctionDeclarations) != 4 {
		t.Errorf("tools = %s; want Google Search, the request's lookup, then the toolset", got["tools"])
	}
	var config genai.ToolConfig
	if err := json.Unmarshal(got["toolConfig"], &config); err != nil {
		t.Fatal(err)
	}
	if config.FunctionCallingConfig.Mode != genai.FunctionCallingConfigModeAuto || config.FunctionCallingConfig.AllowedFunctionNames != nil ||
		config.RetrievalConfig == nil || config.RetrievalConfig.LanguageCode != "fr" {
		t.Errorf("toolConfig = %s", got["toolConfig"])
	}
	// runtime/gemini's TestPrepare checks the other choices, an empty set and the
	// refusals.
}

// response is a turn of two parallel calls, the thought signature on the first, after
// a thought summary.
const response = `{"candidates":[{"content":{"role":"model","parts":[
	{"text":"Two cities <both>.","thought":true},
	{"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"CiQBjz1rX+/9Zx0AAAA="},
	{"functionCall":{"id":"fc-2","name":"get_weather","args":{"city":"Tokyo"}}}]},
	"finishReason":"STOP","index":0}],
	"usageMetadata":{"promptTokenCount":10,"totalTokenCount":30},"modelVersion":"gemini-3-pro","responseId":"r1"}`

func TestContinue(t *testing.T) {
	out, _ := wiretest.Round(t, tgg.GenerateContent{}, wiretest.Toolset(), []byte(request), []byte(response), "contents")
	// runtime/gemini's TestContinue checks the turns' JSON and the refusals; here the SDK
	// reads both turns.
	var sdk []*genai.Content
	if err := json.Unmarshal(wiretest.Fields(t, out)["contents"], &sdk); err != nil {
		t.Fatal(err)
	}
	model, user := sdk[1], sdk[2]
	if model.Role != genai.RoleModel || len(model.Parts) != 3 || !model.Parts[0].Thought ||
		string(model.Parts[1].ThoughtSignature) != "\n$\x01\x8f=k_\xef\xfdg\x1d\x00\x00\x00" || model.Parts[2].ThoughtSignature != nil {
		t.Errorf("the SDK reads the model turn as %s", wiretest.MustMarshal(t, model))
	}
	// FC1, FC2 -> FR1, FR2, the id echoed where the call had one.
	if user.Role != genai.RoleUser || len(user.Parts) != 2 ||
		user.Parts[0].FunctionResponse.ID != "" || user.Parts[0].FunctionResponse.Response["output"] != "Sunny in Paris" ||
		user.Parts[1].FunctionResponse.ID != "fc-2" || user.Parts[1].FunctionResponse.Response["output"] != "Sunny in Tokyo" {
		t.Errorf("the SDK reads the answers as %s", wiretest.MustMarshal(t, user))
	}
}

func TestModelContent(t *testing.T) {
	turn, err := tgg.ModelContent([]byte(response))
	if err != nil {
		t.Fatal(err)
	}
	var c genai.Content
	if err := json.Unmarshal(turn, &c); err != nil || c.Role != genai.RoleModel || len(c.Parts) != 3 {
		t.Errorf("the SDK reads %s as %s (%v)", turn, wiretest.MustMarshal(t, &c), err)
	}
	if turn, err := tgg.ModelContent([]byte(`{"candidates":[]}`)); err != nil || turn != nil {
		t.Errorf("ModelContent without candidates = %s, %v", turn, err)
	}
	if _, err := tgg.ModelContent([]byte(`{"error":{"message":"x"}}`)); err == nil {
		t.Errorf("ModelContent of an error body succeeded")
	}
}

// TestLoopParallel runs a Loop whose model calls five tools at once, an unknown and a
// panicking one among them: every call is answered once, in order, and the lp ends
// with the model's answer.
func TestLoopParallel(t *testing.T) {
	var parts []map[string]any
	for i, c := range parallelCalls {
		fc := map[string]any{"name": c.Name, "args": json.RawMessage(c.Arguments)}
		if c.ID != "" {
			fc["id"] = c.ID
		}
		part := map[string]any{"functionCall": fc}
		if i == 0 {
			part["thoughtSignature"] = "c2lnLTE="
		}
		parts = append(parts, part)
	}
	turn := wiretest.MustMarshal(t, map[string]any{"candidates": []any{map[string]any{
		"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP"}}})
	final := []byte(`{"candidates":[{"content":{"role":"model","parts":[{"text":"Done."}]},"finishReason":"STOP"}]}`)
	var requests [][]byte
	lp := loop.Loop{
		Provider: tgg.GenerateContent{},
		Tools:    wiretest.Toolset(),
		Send:     wiretest.Scripted(t, &requests, turn, final),
	}
	resp, conv, err := lp.Run(context.Background(), []byte(`{"contents":[{"role":"user","parts":[{"text":"Go."}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(resp) != string(final) || len(requests) != 2 {
		t.Fatalf("Run: %s after %d requests", resp, len(requests))
	}
	var req struct {
		Contents []*genai.Content `json:"contents"`
	}
	if err := json.Unmarshal(conv, &req); err != nil {
		t.Fatal(err)
	}
	if len(req.Contents) != 3 || string(req.Contents[1].Parts[0].ThoughtSignature) != "sig-1" {
		t.Fatalf("the conversation: %s", conv)
	}
	answers := req.Contents[2].Parts
	if len(answers) != len(parallelCalls) {
		t.Fatalf("%d answers for %d calls", len(answers), len(parallelCalls))
	}
	for i, a := range answers {
		fr := a.FunctionResponse
		if fr == nil || fr.Name != parallelCalls[i].Name || fr.ID != parallelCalls[i].ID {
			t.Errorf("answer %d = %s, want the answer to %s", i, wiretest.MustMarshal(t, a), parallelCalls[i].Name)
			continue
		}
		_, isErr := fr.Response["error"]
		if wantErr := i == 1 || i == 2 || i == 3; isErr != wantErr {
			t.Errorf("answer %d: %v", i, fr.Response)
		}
	}
}
