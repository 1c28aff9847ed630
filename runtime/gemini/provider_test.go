package gemini_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/wiretest"
	"github.com/toolgen/toolgen/runtime"
	tgg "github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/runtime/loop"
)

// parallelCalls are the calls of one turn: a tool that works, an unknown tool, a tool
// that panics, one that fails and one with a structured result; Gemini gives ids to
// some calls only.
var parallelCalls = wiretest.ParallelCalls("", "fc-2", "", "", "fc-5")

// TestFunctionResponses answers parallel calls, an unknown and a panicking tool among
// them: one user content, one functionResponse per call in order (interop/runtimegemini
// checks that the SDK's Content reads it so, and writes it back alike).
func TestFunctionResponses(t *testing.T) {
	results := wiretest.Toolset().RunCalls(context.Background(), parallelCalls, 0)
	body := wiretest.MustMarshal(t, tgg.FunctionResponses(results))
	var c struct {
		Role  string `json:"role"`
		Parts []struct {
			FunctionResponse *struct {
				ID       string         `json:"id"`
				Name     string         `json:"name"`
				Response map[string]any `json:"response"`
			} `json:"functionResponse"`
		} `json:"parts"`
	}
	if err := json.Unmarshal(body, &c); err != nil {
		t.Fatal(err)
	}
	if c.Role != "user" || len(c.Parts) != len(parallelCalls) {
		t.Fatalf("%s: role %q with %d parts", body, c.Role, len(c.Parts))
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
	var tools []struct {
		GoogleSearch         json.RawMessage `json:"googleSearch"`
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	}
	if err := json.Unmarshal(got["tools"], &tools); err != nil {
		t.Fatal(err)
	}
	if len(tools) != 3 || tools[0].GoogleSearch == nil || len(tools[1].FunctionDeclarations) != 1 || tools[1].FunctionDeclarations[0].Name != "lookup" ||
		len(tools[2].FunctionDeclarations) != 4 {
		t.Errorf("tools = %s; want Google Search, the request's lookup, then the toolset", got["tools"])
	}
	// (interop/runtimegemini reads tools and toolConfig with the SDK's types.)
	if !wiretest.JSONEqual(t, got["toolConfig"], []byte(`{"functionCallingConfig":{"mode":"AUTO"},"retrievalConfig":{"languageCode":"fr"}}`)) {
		t.Errorf("toolConfig = %s", got["toolConfig"])
	}
	none, err := p.Prepare(out, ts, loop.ChoiceNone)
	if err != nil || !wiretest.JSONEqual(t, wiretest.Fields(t, none)["toolConfig"], []byte(`{"functionCallingConfig":{"mode":"NONE"},"retrievalConfig":{"languageCode":"fr"}}`)) {
		t.Errorf("ChoiceNone: %s, %v", none, err)
	}
	req, err := p.Prepare(out, ts, loop.ChoiceRequired)
	if err != nil || !wiretest.JSONEqual(t, wiretest.Fields(t, req)["toolConfig"], []byte(`{"functionCallingConfig":{"mode":"ANY"},"retrievalConfig":{"languageCode":"fr"}}`)) {
		t.Errorf("ChoiceRequired: %s, %v", req, err)
	}
	// An empty set keeps the request's own declarations; without any tool, neither
	// tools nor a function calling config remain.
	empty := runtime.NewToolset(nil, nil)
	foreign, err := p.Prepare([]byte(`{"contents":[],"tools":[{"functionDeclarations":[{"name":"lookup"}]}],"toolConfig":{"functionCallingConfig":{"mode":"ANY"}}}`), empty, loop.ChoiceAuto)
	if err != nil || string(foreign) != `{"contents":[],"toolConfig":{"functionCallingConfig":{"mode":"AUTO"}},"tools":[{"functionDeclarations":[{"name":"lookup"}]}]}` {
		t.Errorf("Prepare with an empty set = %s, %v", foreign, err)
	}
	if out, err := p.Prepare([]byte(`{"contents":[],"toolConfig":{"functionCallingConfig":{"mode":"ANY"}}}`), empty, loop.ChoiceAuto); err != nil || string(out) != `{"contents":[]}` {
		t.Errorf("Prepare without tools = %s, %v", out, err)
	}
	for _, bad := range []string{`[]`, `{"tools":{}}`, `{"tools":[1]}`, `{"tools":[{"functionDeclarations":{}}]}`, `{"toolConfig":[]}`} {
		if _, err := p.Prepare([]byte(bad), ts, loop.ChoiceAuto); err == nil {
			t.Errorf("Prepare(%s) succeeded", bad)
		}
	}
	if _, err := p.Prepare([]byte(request), ts, "maybe"); err == nil {
		t.Errorf("Prepare accepted an unknown choice")
	}
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
	p := tgg.GenerateContent{}
	out, results := wiretest.Round(t, p, wiretest.Toolset(), []byte(request), []byte(response), "contents")
	got := wiretest.Fields(t, out)
	var contents []json.RawMessage
	if err := json.Unmarshal(got["contents"], &contents); err != nil || len(contents) != 3 {
		t.Fatalf("contents = %s", got["contents"])
	}
	var resp struct {
		Candidates []struct {
			Content json.RawMessage `json:"content"`
		} `json:"candidates"`
	}
	_ = json.Unmarshal([]byte(response), &resp)
	if !wiretest.JSONEqual(t, contents[1], resp.Candidates[0].Content) {
		t.Errorf("the model turn is not candidates[0].content: %s", contents[1])
	}
	if !strings.Contains(string(contents[1]), `"thoughtSignature":"CiQBjz1rX+/9Zx0AAAA="`) || !strings.Contains(string(contents[1]), "<both>") {
		t.Errorf("the model turn changed: %s", contents[1])
	}
	if want := wiretest.MustMarshal(t, tgg.FunctionResponses(results)); !wiretest.JSONEqual(t, contents[2], want) {
		t.Errorf("the answers = %s, want %s", contents[2], want)
	}
	// FC1, FC2 -> FR1, FR2, the id echoed where the call had one (interop/runtimegemini
	// reads both contents with the SDK's types).
	if !wiretest.JSONEqual(t, contents[2], []byte(`{"role":"user","parts":[
		{"functionResponse":{"name":"get_weather","response":{"output":"Sunny in Paris"}}},
		{"functionResponse":{"id":"fc-2","name":"get_weather","response":{"output":"Sunny in Tokyo"}}}]}`)) {
		t.Errorf("the answers = %s", contents[2])
	}

	if _, err := p.Continue([]byte(request), []byte(response), []runtime.CallResult{results[1], results[0]}); err == nil {
		t.Errorf("Continue accepted results out of the calls' order")
	}
	for _, tc := range [][2]string{
		{`{"model":"m"}`, response},
		{`{"contents":{}}`, response},
		{request, `{"error":{"code":500,"message":"x","status":"INTERNAL"}}`},
		{request, `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":"x"}}]}}]}`},
	} {
		if _, err := p.Continue([]byte(tc[0]), []byte(tc[1]), results); err == nil {
			t.Errorf("Continue(%s, %s) succeeded", tc[0], tc[1])
		}
	}
	// A turn without calls goes back alone; a content without a role gets "model".
	text := `{"candidates":[{"content":{"parts":[{"text":"Sunny.","thoughtSignature":"c2ln"}]},"finishReason":"STOP"}]}`
	out, err := p.Continue([]byte(`{"contents":[]}`), []byte(text), nil)
	if err != nil || string(out) != `{"contents":[{"parts":[{"text":"Sunny.","thoughtSignature":"c2ln"}],"role":"model"}]}` {
		t.Errorf("Continue without calls = %s, %v", out, err)
	}
}

func TestModelContent(t *testing.T) {
	turn, err := tgg.ModelContent([]byte(response))
	if err != nil {
		t.Fatal(err)
	}
	if !wiretest.JSONEqual(t, turn, []byte(`{"role":"model","parts":[
		{"text":"Two cities <both>.","thought":true},
		{"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"CiQBjz1rX+/9Zx0AAAA="},
		{"functionCall":{"id":"fc-2","name":"get_weather","args":{"city":"Tokyo"}}}]}`)) {
		t.Errorf("ModelContent = %s", turn) // interop/runtimegemini reads it with the SDK's Content
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
	// interop/runtimegemini reads the conversation with the SDK's Content.
	var req struct {
		Contents []struct {
			Parts []struct {
				ThoughtSignature string `json:"thoughtSignature"`
				FunctionResponse *struct {
					ID       string         `json:"id"`
					Name     string         `json:"name"`
					Response map[string]any `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(conv, &req); err != nil {
		t.Fatal(err)
	}
	if len(req.Contents) != 3 || req.Contents[1].Parts[0].ThoughtSignature != "c2lnLTE=" {
		t.Fatalf("the conversation: %s", conv)
	}
	answers := req.Contents[2].Parts
	if len(answers) != len(parallelCalls) {
		t.Fatalf("%d answers for %d calls", len(answers), len(parallelCalls))
	}
	for i, a := range answers {
		fr := a.FunctionResponse
		if fr == nil || fr.Name != parallelCalls[i].Name || fr.ID != parallelCalls[i].ID {
			t.Errorf("answer %d = %+v, want the answer to %s", i, a, parallelCalls[i].Name)
			continue
		}
		_, isErr := fr.Response["error"]
		if wantErr := i == 1 || i == 2 || i == 3; isErr != wantErr {
			t.Errorf("answer %d: %v", i, fr.Response)
		}
	}
}
