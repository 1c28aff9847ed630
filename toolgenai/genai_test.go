package toolgenai_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"google.golang.org/genai"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	rtgemini "github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/toolgenai"
	"github.com/toolgen/toolgen/tooltest"
)

const (
	prompt = "What is the weather in Paris and in Oslo?"
	final  = "Paris will be mild; I could not get Oslo's forecast for 30 days."
	// signature is the thought signature on the first call, base64 as the API sends
	// it; it must come back on the same part.
	signature = "c2lnbmF0dXJlLW9mLXRoZS1maXJzdC1jYWxs"
)

// fcall is one functionCall part the fake model writes.
type fcall struct{ id, name, args string }

// turn are the calls of the fake model's turn: a valid call (with the thought
// signature), one whose args break a bound, one whose args have the wrong type, one
// to a tool that does not exist, without an id (as the API often sends them), and one
// to the hand-written echo tool.
var turn = []fcall{
	{"fc_01", "get_weather", `{"city":"Paris","days":2}`},
	{"fc_02", "get_weather", `{"city":"Oslo","days":30}`},
	{"fc_03", "get_weather", `{"city":5}`},
	{"", "get_stock_price", `{"symbol":"ACME"}`},
	{"fc_05", "echo", `{"input":"hi"}`},
}

// turnSays is a piece of what the answer to each call of turn says, and whether it is
// an error.
var turnSays = []struct {
	text  string
	fails bool
}{
	{`"city":"Paris"`, false},
	{"invalid arguments for get_weather: /days: must be at most 14 (got 30)", true},
	{"invalid arguments for get_weather: /city", true},
	{`unknown tool "get_stock_price"`, true},
	{"hi", false},
}

// parts returns the parts of the model turn with the calls, the first one signed.
func parts(calls []fcall) []map[string]any {
	var out []map[string]any
	for i, c := range calls {
		fc := map[string]any{"name": c.name, "args": json.RawMessage(c.args)}
		if c.id != "" {
			fc["id"] = c.id
		}
		part := map[string]any{"functionCall": fc}
		if i == 0 {
			part["thoughtSignature"] = signature
		}
		out = append(out, part)
	}
	return out
}

// response returns a generateContent response whose candidate has the given parts
// and finish reason.
func response(parts any, finish string) map[string]any {
	candidate := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
	if finish != "" {
		candidate["finishReason"] = finish
	}
	return map[string]any{"candidates": []any{candidate}, "modelVersion": model, "responseId": "resp-01",
		"usageMetadata": map[string]any{"promptTokenCount": 120, "candidatesTokenCount": 60, "totalTokenCount": 180}}
}

func callsReply(calls []fcall, finish string) string { return mustJSON(response(parts(calls), finish)) }

var textReply = mustJSON(response([]any{map[string]any{"text": final}}, "STOP"))

// checkGenerate returns the check of a generateContent request over ts, which
// tooltest.Read has found valid (every function call answered in the next content, in
// order) on the path of the model: the functions declared exactly as
// runtime/gemini.Tools declares them, and the contents: the prompt, then, when calls
// is not nil, the model's turn as it came (thought signature included) and one user
// content whose parts are want, exactly: every call answered once, in order, with its
// id and name, as runtime/gemini answers it.
func checkGenerate(ts *runtime.Toolset, calls []fcall, want []rtgemini.Part) func(*tooltest.Request) error {
	return func(r *tooltest.Request) error {
		var req struct {
			Contents []struct {
				Role  string            `json:"role"`
				Parts []json.RawMessage `json:"parts"`
			} `json:"contents"`
		}
		if err := json.Unmarshal(r.Body, &req); err != nil {
			return err
		}
		if err := tooltest.CheckTools(r, rtgemini.Tools(ts)); err != nil {
			return err
		}
		contents := req.Contents
		if len(contents) == 0 || contents[0].Role != "user" || len(contents[0].Parts) != 1 ||
			!sameJSON(contents[0].Parts[0], []byte(mustJSON(map[string]string{"text": prompt}))) {
			return errors.New("the contents do not start with the prompt")
		}
		if calls == nil {
			if len(contents) != 1 {
				return fmt.Errorf("%d contents, want the prompt alone", len(contents))
			}
			return nil
		}
		if len(contents) != 3 || contents[1].Role != "model" || contents[2].Role != "user" {
			return fmt.Errorf("%d contents, want the prompt, the model's turn and the user's answers", len(contents))
		}
		if !sameJSON([]byte(mustJSON(contents[1].Parts)), []byte(mustJSON(parts(calls)))) {
			return fmt.Errorf("the model turn is %s, want it as it came, thought signature included", mustJSON(contents[1].Parts))
		}
		if len(contents[2].Parts) != len(want) {
			return fmt.Errorf("%d parts in the answers, want %d", len(contents[2].Parts), len(want))
		}
		for i, w := range want {
			if !sameJSON(contents[2].Parts[i], []byte(mustJSON(w))) {
				return fmt.Errorf("answer %d is %s, want runtime/gemini's %s", i, contents[2].Parts[i], mustJSON(w))
			}
		}
		return nil
	}
}

// wantParts returns runtime/gemini's answers to the calls of a response body, over a
// fresh copy of the test tools.
func wantParts(t *testing.T, body string) []rtgemini.Part {
	t.Helper()
	calls, err := rtgemini.Calls([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return rtgemini.FunctionResponses(testTools(new([]string), new(int)).RunCalls(t.Context(), calls, 0)).Parts
}

// sameCall reports whether two calls are the same, arguments as JSON values.
func sameCall(a, b runtime.ToolCall) bool {
	return a.ID == b.ID && a.Name == b.Name && sameJSON(a.Arguments, b.Arguments)
}

// TestRoundTrip completes a tool round trip through the SDK's generateContent: the
// functions go as runtime/gemini declares them, and every call of the turn (a valid
// one, args that break the schema, an unknown tool without an id) is answered once,
// in order, with its id and name and runtime/gemini's response, after the model's
// turn with its thought signature.
func TestRoundTrip(t *testing.T) {
	var providers []string
	var echoed int
	ts := testTools(&providers, &echoed)
	reply := callsReply(turn, "STOP")
	want := wantParts(t, reply)
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: generatePath, Check: checkGenerate(ts, nil, nil), Reply: reply},
		tooltest.Round{Path: generatePath, Check: checkGenerate(ts, turn, want), Reply: textReply},
	)
	client, ctx := newClient(t, srv), t.Context()
	declared, err := toolgenai.Tools(ts)
	if err != nil {
		t.Fatal(err)
	}
	config := &genai.GenerateContentConfig{Tools: declared}
	contents := []*genai.Content{genai.NewContentFromText(prompt, genai.RoleUser)}
	resp, err := client.Models.GenerateContent(ctx, model, contents, config)
	if err != nil {
		t.Fatal(err)
	}
	calls, err := toolgenai.Calls(resp)
	wantCalls, _ := rtgemini.Calls([]byte(reply))
	if err != nil || !slices.EqualFunc(calls, wantCalls, sameCall) {
		t.Errorf("Calls = %q, %v; want runtime/gemini's %q", calls, err, wantCalls)
	}
	answers, err := toolgenai.Run(ctx, ts, resp)
	if err != nil {
		t.Fatal(err)
	}
	if len(answers) != len(turn) {
		t.Fatalf("%d answers for %d calls", len(answers), len(turn))
	}
	for i, s := range turnSays {
		fr := answers[i].FunctionResponse
		if fr == nil || fr.ID != turn[i].id || fr.Name != turn[i].name {
			t.Errorf("answer %d is %s, want a function response to %s %s", i, mustJSON(answers[i]), turn[i].id, turn[i].name)
			continue
		}
		key := "output"
		if s.fails {
			key = "error"
		}
		v, ok := fr.Response[key]
		text, isText := v.(string)
		if !isText {
			text = mustJSON(v)
		}
		if !ok || len(fr.Response) != 1 || !strings.Contains(text, s.text) {
			t.Errorf("answer %d responds %s, want %q saying %q", i, mustJSON(fr.Response), key, s.text)
		}
	}
	if echoed != 1 || len(providers) != len(turn) || slices.ContainsFunc(providers, func(p string) bool { return p != "gemini" }) {
		t.Errorf("echo ran %d times, observers saw %q: want 1, and %d calls from gemini", echoed, providers, len(turn))
	}

	contents = append(contents, resp.Candidates[0].Content, genai.NewContentFromParts(answers, genai.RoleUser))
	resp, err = client.Models.GenerateContent(ctx, model, contents, config)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Text(); got != final {
		t.Errorf("final text %q, want %q", got, final)
	}
}

// TestCutTurn: calls in a candidate that stopped at the token limit, as the SDK
// client returns it, are an error, runtime/gemini's, and no call runs.
func TestCutTurn(t *testing.T) {
	var providers []string
	var echoed int
	ts := testTools(&providers, &echoed)
	reply := callsReply([]fcall{{"fc_01", "echo", `{"input":"hi"}`}, {"fc_02", "echo", `{"input":"th"}`}}, "MAX_TOKENS")
	srv := tooltest.NewRoundServer(t, tooltest.Round{Path: generatePath, Check: checkGenerate(ts, nil, nil), Reply: reply})
	client, ctx := newClient(t, srv), t.Context()
	declared, err := toolgenai.Tools(ts)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.Models.GenerateContent(ctx, model,
		[]*genai.Content{genai.NewContentFromText(prompt, genai.RoleUser)}, &genai.GenerateContentConfig{Tools: declared})
	if err != nil {
		t.Fatal(err)
	}
	answers, err := toolgenai.Run(ctx, ts, resp)
	_, want := rtgemini.Calls([]byte(reply))
	if err == nil || want == nil || err.Error() != want.Error() || answers != nil {
		t.Errorf("Run = %v, %v; want no answers and runtime/gemini's error %v", answers, err, want)
	}
	if echoed != 0 || len(providers) != 0 {
		t.Errorf("echo ran %d times, observers saw %q: want no call run", echoed, providers)
	}
}

// TestRefusals: every response runtime/gemini.Calls refuses, Calls and Run refuse with
// the same error, and no call runs.
func TestRefusals(t *testing.T) {
	echo := []fcall{{"fc_01", "echo", `{"input":"a"}`}, {"fc_02", "echo", `{"input":"b"}`}}
	blocked := response([]any{}, "")
	delete(blocked, "candidates")
	blocked["promptFeedback"] = map[string]any{"blockReason": "SAFETY"}
	tests := []struct{ name, body string }{
		{"cut by the token limit", callsReply(echo, "MAX_TOKENS")},
		{"stopped for safety", callsReply(echo, "SAFETY")},
		{"a malformed function call", mustJSON(response([]any{}, "MALFORMED_FUNCTION_CALL"))},
		{"two calls with one id", callsReply([]fcall{echo[0], {"fc_01", "echo", `{"input":"b"}`}}, "STOP")},
		{"a call without a name", callsReply([]fcall{echo[0], {"fc_02", "", `{"input":"b"}`}}, "STOP")},
		{"a blocked prompt", mustJSON(blocked)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var resp genai.GenerateContentResponse
			if err := json.Unmarshal([]byte(tt.body), &resp); err != nil {
				t.Fatal(err)
			}
			_, want := rtgemini.Calls([]byte(tt.body))
			if want == nil {
				t.Fatalf("runtime/gemini takes %s", tt.body)
			}
			if calls, err := toolgenai.Calls(&resp); err == nil || err.Error() != want.Error() {
				t.Errorf("Calls = %q, %v; want runtime/gemini's error %v", calls, err, want)
			}
			var providers []string
			var echoed int
			if answers, err := toolgenai.Run(t.Context(), testTools(&providers, &echoed), &resp); err == nil || answers != nil || len(providers) != 0 {
				t.Errorf("Run = %v, %v, calls run %q; want an error and no call run", answers, err, providers)
			}
		})
	}
	if _, err := toolgenai.Calls(nil); err == nil {
		t.Error("Calls(nil) takes no response for a turn without calls")
	}
}

// TestTools: the SDK's tools declare what runtime/gemini declares: the generated
// and the hand-written tools' schemas lowered to Gemini's dialect, as parameters; a
// Gemini schema genai.Schema cannot hold is an error.
func TestTools(t *testing.T) {
	ts := runtime.Join(forecast.Tools(), handTools(new(int)))
	got, err := toolgenai.Tools(ts)
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON([]byte(mustJSON(got)), []byte(mustJSON(rtgemini.Tools(ts)))) {
		t.Errorf("Tools = %s\nwant %s", mustJSON(got), mustJSON(rtgemini.Tools(ts)))
	}
	if len(got) != 1 || len(got[0].FunctionDeclarations) != 4 || got[0].FunctionDeclarations[1].Parameters == nil ||
		got[0].FunctionDeclarations[0].Parameters == nil {
		t.Errorf("Tools = %s, want one tool of four declarations, echo's and get_weather's as Gemini schemas", mustJSON(got))
	}
	if got, err := toolgenai.Tools(nil); got != nil || err != nil {
		t.Errorf("Tools(nil) = %v, %v; want none", got, err)
	}
	for _, bad := range []string{
		`{"type":"OBJECT","properties":{"a":{"type":"STRING","const":"x"}}}`, // a keyword genai.Schema has no field for
		`{"type":"OBJECT","properties":{"a":{"type":"INTEGER","minimum":"1"}}}`,
	} {
		if got, err := toolgenai.Schema(json.RawMessage(bad)); err == nil {
			t.Errorf("a Gemini schema %s = %s; want an error", bad, mustJSON(got))
		}
	}
}

// TestAnswers: the parts say what runtime/gemini's say, ids and names kept, a
// structured output as its JSON value, text and errors as strings.
func TestAnswers(t *testing.T) {
	ts := testTools(new([]string), new(int))
	calls := []runtime.ToolCall{
		{ID: "fc_01", Name: "get_weather", Arguments: []byte(`{"city":"Paris"}`)},
		{Name: "echo", Arguments: []byte(`{"input":"no id"}`)},
		{ID: "fc_03", Name: "picture", Arguments: []byte(`{}`)},
		{ID: "fc_04", Name: "nope", Arguments: []byte(`{}`)},
	}
	results := ts.RunCalls(t.Context(), calls, 0)
	got := toolgenai.Answers(results)
	want := rtgemini.FunctionResponses(results).Parts
	if len(got) != len(want) {
		t.Fatalf("%d parts, want %d", len(got), len(want))
	}
	for i := range want {
		if !sameJSON([]byte(mustJSON(got[i])), []byte(mustJSON(want[i]))) {
			t.Errorf("part %d is %s, want %s", i, mustJSON(got[i]), mustJSON(want[i]))
		}
	}
	if s, ok := got[1].FunctionResponse.Response["output"].(string); !ok || s != "no id" || got[1].FunctionResponse.ID != "" {
		t.Errorf("echo's part is %s, want the output \"no id\" as a string and no id", mustJSON(got[1]))
	}
	if _, ok := got[3].FunctionResponse.Response["error"].(string); !ok {
		t.Errorf("the unknown tool's part is %s, want an error string", mustJSON(got[3]))
	}
}
