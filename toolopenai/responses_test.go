package toolopenai_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen/toolgen/runtime"
	rtopenai "github.com/toolgen/toolgen/runtime/openai"
	"github.com/toolgen/toolgen/toolopenai"
	"github.com/toolgen/toolgen/tooltest"
)

const responsesPath = "/v1/responses"

// reasoningItem is the reasoning output item of the turn with calls, which a
// conversation that is not stored must send back, encrypted content and all.
var reasoningItem = map[string]any{"type": "reasoning", "id": "rs_01", "summary": []any{},
	"encrypted_content": "gAAAAABpZ2VuY3J5cHRlZC1yZWFzb25pbmc="}

// functionCall returns a function_call output item.
func functionCall(n int, name, args, status string) map[string]any {
	return map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%02d", n), "call_id": fmt.Sprintf("call_%02d", n),
		"name": name, "arguments": args, "status": status}
}

// responsesTurn is the output of the fake model's turn: reasoning, a valid call, one
// whose arguments break the schema, one whose arguments are not JSON, and a custom
// tool call to echo, answered with a custom_tool_call_output.
var responsesTurn = []any{
	reasoningItem,
	functionCall(1, "get_weather", `{"city":"Paris","days":2}`, "completed"),
	functionCall(2, "get_weather", `{"city":"Oslo","days":30}`, "completed"),
	functionCall(3, "get_weather", `{"city":`, "completed"),
	map[string]any{"type": "custom_tool_call", "id": "ctc_04", "call_id": "call_04", "name": "echo", "input": "hi"},
}

// responseObject returns a response with the given status and output items.
func responseObject(status string, output []any) map[string]any {
	return map[string]any{
		"id": "resp_01", "object": "response", "created_at": 1767225600, "status": status, "error": nil,
		"incomplete_details": nil, "model": "gpt-5-2025-08-07", "output": output, "parallel_tool_calls": true,
		"tool_choice": "auto", "tools": []any{}, "store": false,
		"usage": map[string]any{"input_tokens": 120, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 60, "output_tokens_details": map[string]any{"reasoning_tokens": 20}, "total_tokens": 180},
	}
}

// responsesText returns a completed response saying text.
func responsesText(text string) string {
	return mustJSON(responseObject("completed", []any{map[string]any{"type": "message", "id": "msg_01", "status": "completed",
		"role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}}))
}

// checkResponses returns the check of a Responses request over ts: a model, the tools
// exactly as runtime/openai.ResponsesTools lowers them (strict always sent), and the
// input: the prompt alone, or, with echo, the prompt, the echoed output items exactly
// and the answers want exactly; with previous set, the request continues that
// response and its input is the answers alone.
func checkResponses(ts *runtime.Toolset, previous string, echo []any, want []rtopenai.FunctionCallOutput) func(*tooltest.Request) error {
	return func(r *tooltest.Request) error {
		body := r.Body
		var req struct {
			Input              []json.RawMessage `json:"input"`
			PreviousResponseID string            `json:"previous_response_id"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return err
		}
		if req.PreviousResponseID != previous {
			return fmt.Errorf("previous_response_id %q, want %q", req.PreviousResponseID, previous)
		}
		if err := tooltest.CheckTools(r, rtopenai.ResponsesTools(ts)); err != nil {
			return err
		}
		var items []json.RawMessage
		if previous == "" {
			user := mustJSON(map[string]any{"role": "user", "content": prompt})
			if len(req.Input) == 0 || !sameJSON(req.Input[0], []byte(user)) {
				return errors.New("the input does not start with the prompt")
			}
			for i, it := range echo {
				if 1+i >= len(req.Input) || !sameJSON(req.Input[1+i], []byte(mustJSON(it))) {
					return fmt.Errorf("input item %d is not output item %d as it came: %s", 1+i, i, mustJSON(it))
				}
			}
			items = req.Input[1+len(echo):]
		} else {
			items = req.Input
		}
		if len(items) != len(want) {
			return fmt.Errorf("%d answers, want %d", len(items), len(want))
		}
		for i, w := range want {
			if !sameJSON(items[i], []byte(mustJSON(w))) {
				return fmt.Errorf("answer %d is %s, want %s", i, items[i], mustJSON(w))
			}
		}
		return nil
	}
}

// outputTexts returns the call_ids and output texts of answer items.
func outputTexts(t *testing.T, items responses.ResponseInputParam) (ids, texts, types []string) {
	t.Helper()
	for _, it := range items {
		switch {
		case it.OfFunctionCallOutput != nil:
			ids = append(ids, it.OfFunctionCallOutput.CallID.Value)
			texts = append(texts, it.OfFunctionCallOutput.Output.OfString.Value)
			types = append(types, "function_call_output")
		case it.OfCustomToolCallOutput != nil:
			ids = append(ids, it.OfCustomToolCallOutput.CallID)
			texts = append(texts, it.OfCustomToolCallOutput.Output.OfString.Value)
			types = append(types, "custom_tool_call_output")
		default:
			t.Fatalf("answer %s is not a call output", mustJSON(it))
		}
	}
	return ids, texts, types
}

// TestResponsesRoundTrip completes a tool round trip through the SDK's Responses
// client in a conversation that is not stored: the tools go as runtime/openai lowers
// them, the output items go back as they came (ResponsesTurn), and every call is
// answered once, in order, with runtime/openai's item: function_call_output, or
// custom_tool_call_output for the custom tool call.
func TestResponsesRoundTrip(t *testing.T) {
	var providers []string
	var echoed int
	ts := testTools(&providers, &echoed)
	reply := mustJSON(responseObject("completed", responsesTurn))
	want, err := rtopenai.RunResponses(t.Context(), testTools(new([]string), new(int)), []byte(reply))
	if err != nil {
		t.Fatal(err)
	}
	srv := startAPI(t,
		round{path: responsesPath, check: checkResponses(ts, "", nil, nil), reply: reply},
		round{path: responsesPath, check: checkResponses(ts, "", responsesTurn, want), reply: responsesText(final)},
	)
	client, ctx := newClient(srv), t.Context()
	params := responses.ResponseNewParams{
		Model: openai.ChatModelGPT5,
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{
			responses.ResponseInputItemParamOfMessage(prompt, responses.EasyInputMessageRoleUser)}},
		Tools: toolopenai.ResponsesTools(ts),
		Store: openai.Bool(false),
	}
	resp, err := client.Responses.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	calls, err := toolopenai.ResponsesCalls(resp)
	wantCalls, _ := rtopenai.ResponsesCalls([]byte(reply))
	if err != nil || !slices.EqualFunc(calls, wantCalls, sameCall) {
		t.Errorf("ResponsesCalls = %q, %v; want runtime/openai's %q", calls, err, wantCalls)
	}
	answers, err := toolopenai.RunResponses(ctx, ts, resp)
	if err != nil {
		t.Fatal(err)
	}
	ids, texts, types := outputTexts(t, answers)
	if !slices.Equal(ids, []string{"call_01", "call_02", "call_03", "call_04"}) ||
		!slices.Equal(types, []string{"function_call_output", "function_call_output", "function_call_output", "custom_tool_call_output"}) {
		t.Errorf("answers to %q of types %q, want the four calls in order, the last a custom_tool_call_output", ids, types)
	}
	checkSaid(t, texts, []string{`"city":"Paris"`, "/days: must be at most 14 (got 30)", "invalid arguments for get_weather", "hi"})
	if echoed != 1 || len(providers) != 4 || slices.ContainsFunc(providers, func(p string) bool { return p != "openai-responses" }) {
		t.Errorf("echo ran %d times, observers saw %q: want 1, and 4 calls from openai-responses", echoed, providers)
	}

	turn, err := toolopenai.ResponsesTurn(resp)
	if err != nil {
		t.Fatal(err)
	}
	params.Input.OfInputItemList = append(params.Input.OfInputItemList, turn...)
	params.Input.OfInputItemList = append(params.Input.OfInputItemList, answers...)
	resp, err = client.Responses.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.OutputText(); got != final {
		t.Errorf("final text %q, want %q", got, final)
	}
}

// TestResponsesStored completes a round trip of a stored conversation: the answers,
// built by ResponsesAnswers from RunCalls' results, continue the response by its id.
// Results that do not answer every call once, in order, are refused.
func TestResponsesStored(t *testing.T) {
	var providers []string
	var echoed int
	ts := testTools(&providers, &echoed)
	output := []any{functionCall(1, "get_weather", `{"city":"Paris"}`, "completed"), functionCall(2, "echo", `{"input":"hi"}`, "completed")}
	reply := mustJSON(responseObject("completed", output))
	calls, err := rtopenai.ResponsesCalls([]byte(reply))
	if err != nil {
		t.Fatal(err)
	}
	want, err := rtopenai.ResponsesOutputsFor([]byte(reply), testTools(new([]string), new(int)).RunCalls(t.Context(), calls, 0))
	if err != nil {
		t.Fatal(err)
	}
	srv := startAPI(t,
		round{path: responsesPath, check: checkResponses(ts, "", nil, nil), reply: reply},
		round{path: responsesPath, check: checkResponses(ts, "resp_01", nil, want), reply: responsesText(final)},
	)
	client, ctx := newClient(srv), t.Context()
	params := responses.ResponseNewParams{
		Model: openai.ChatModelGPT5,
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{
			responses.ResponseInputItemParamOfMessage(prompt, responses.EasyInputMessageRoleUser)}},
		Tools: toolopenai.ResponsesTools(ts),
	}
	resp, err := client.Responses.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	calls, err = toolopenai.ResponsesCalls(resp)
	if err != nil {
		t.Fatal(err)
	}
	results := ts.RunCalls(ctx, calls, 0)
	for _, bad := range [][]runtime.CallResult{results[:1], append(slices.Clone(results), results[0]), nil} {
		if items, err := toolopenai.ResponsesAnswers(resp, bad); err == nil {
			t.Errorf("ResponsesAnswers of %d results to 2 calls = %s, want an error", len(bad), mustJSON(items))
		}
	}
	// Results are matched to the calls by call_id: out of order, they are answered in
	// the calls' order.
	if items, err := toolopenai.ResponsesAnswers(resp, []runtime.CallResult{results[1], results[0]}); err != nil {
		t.Error(err)
	} else if ids, _, _ := outputTexts(t, items); !slices.Equal(ids, []string{"call_01", "call_02"}) {
		t.Errorf("ResponsesAnswers of results out of order answers %q, want call_01 then call_02", ids)
	}
	answers, err := toolopenai.ResponsesAnswers(resp, results)
	if err != nil {
		t.Fatal(err)
	}
	params.PreviousResponseID = openai.String(resp.ID)
	params.Input.OfInputItemList = answers
	resp, err = client.Responses.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.OutputText(); got != final {
		t.Errorf("final text %q, want %q", got, final)
	}
}

// TestResponsesRefusals: every response runtime/openai.ResponsesCalls refuses,
// ResponsesCalls, ResponsesAnswers and RunResponses refuse with the same error, and no
// call runs.
func TestResponsesRefusals(t *testing.T) {
	echo := functionCall(1, "echo", `{"input":"hi"}`, "completed")
	incomplete := responseObject("incomplete", []any{echo, functionCall(2, "echo", `{"input":"th`, "completed")})
	incomplete["incomplete_details"] = map[string]any{"reason": "max_output_tokens"}
	failed := responseObject("failed", []any{})
	failed["error"] = map[string]any{"code": "server_error", "message": "the server had an error"}
	tests := []struct {
		name string
		body string
	}{
		{"an incomplete response with calls", mustJSON(incomplete)},
		{"an incomplete call", mustJSON(responseObject("completed", []any{functionCall(1, "echo", `{"input":"h`, "incomplete")}))},
		{"two calls with one call_id", mustJSON(responseObject("completed", []any{echo, echo}))},
		{"a call without its call_id", strings.Replace(mustJSON(responseObject("completed", []any{echo})), `"call_id":"call_01"`, `"call_id":""`, 1)},
		{"a call without a name", mustJSON(responseObject("completed", []any{functionCall(1, "", `{}`, "completed")}))},
		{"a failed response", mustJSON(failed)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r responses.Response
			if err := json.Unmarshal([]byte(tt.body), &r); err != nil {
				t.Fatal(err)
			}
			_, want := rtopenai.ResponsesCalls([]byte(tt.body))
			if want == nil {
				t.Fatalf("runtime/openai takes %s", tt.body)
			}
			if calls, err := toolopenai.ResponsesCalls(&r); err == nil || err.Error() != want.Error() {
				t.Errorf("ResponsesCalls = %q, %v; want runtime/openai's error %v", calls, err, want)
			}
			if items, err := toolopenai.ResponsesAnswers(&r, nil); err == nil || err.Error() != want.Error() {
				t.Errorf("ResponsesAnswers = %s, %v; want runtime/openai's error %v", mustJSON(items), err, want)
			}
			var providers []string
			var echoed int
			if items, err := toolopenai.RunResponses(t.Context(), testTools(&providers, &echoed), &r); err == nil || items != nil || len(providers) != 0 {
				t.Errorf("RunResponses = %s, %v, calls run %q; want an error and no call run", mustJSON(items), err, providers)
			}
		})
	}
	// A response the SDK did not decode from a body holds its items' values in no
	// JSON: it is refused rather than misread.
	var built responses.Response
	built.Status = responses.ResponseStatusCompleted
	for _, f := range []func() error{
		func() error { _, err := toolopenai.ResponsesCalls(&built); return err },
		func() error { _, err := toolopenai.ResponsesTurn(&built); return err },
		func() error { _, err := toolopenai.ResponsesCalls(nil); return err },
	} {
		if err := f(); err == nil {
			t.Error("a response without JSON is read")
		}
	}
}
