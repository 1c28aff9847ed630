package interop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"google.golang.org/genai"

	"github.com/toolgen/toolgen/examples/payments/checkout"
	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/dialect"
	rtgemini "github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/tooltest"
)

const (
	geminiModel = "gemini-2.5-flash"
	// The SDK's base URL is the host alone; it adds the API version (v1beta by default).
	generatePath = "/v1beta/models/" + geminiModel + ":generateContent"
	streamPath   = "/v1beta/models/" + geminiModel + ":streamGenerateContent?alt=sse"
	// thoughtSignature is the signature the model puts on its first call, base64 as the
	// API sends it; it must come back on the same part.
	thoughtSignature = "c2lnbmF0dXJlLW9mLXRoZS1maXJzdC1jYWxs"
	geminiIntro      = "Let me look that up."
)

// newGemini returns an SDK client of the fake API, for the Gemini API backend
// whatever the environment says.
func newGemini(t *testing.T, srv *httptest.Server) *genai.Client {
	t.Helper()
	client, err := genai.NewClient(t.Context(), &genai.ClientConfig{APIKey: apiKey, Backend: genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: srv.URL}})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// geminiParts returns the parts of the model turn with the scenario's calls: one
// functionCall part per call, the first carrying the thought signature. They are
// written in the API's order of keys (name, args, id; functionCall, thoughtSignature),
// which is not the order of the SDK's encoding, so that an echo can be told from a
// re-encoding.
func geminiParts(s scenario) []json.RawMessage {
	var parts []json.RawMessage
	for i, c := range s.calls {
		part := fmt.Sprintf(`{"functionCall":{"name":%q,"args":%s,"id":%q}`, c.name, c.args, callID("fc_", i))
		if i == 0 {
			part += fmt.Sprintf(`,"thoughtSignature":%q`, thoughtSignature)
		}
		parts = append(parts, json.RawMessage(part+"}"))
	}
	return parts
}

// geminiContent returns a model turn of the given parts, as the API writes it.
func geminiContent(parts ...json.RawMessage) json.RawMessage {
	b := []byte(`{"parts":[`)
	for i, p := range parts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, p...)
	}
	return append(b, `],"role":"model"}`...)
}

// geminiTurn is the model turn with the scenario's calls.
func geminiTurn(s scenario) json.RawMessage { return geminiContent(geminiParts(s)...) }

var geminiIntroPart = json.RawMessage(fmt.Sprintf(`{"text":%q}`, geminiIntro))

// geminiStreamedTurn is the model turn that geminiChunks stream: the text, then the
// calls.
func geminiStreamedTurn(s scenario) json.RawMessage {
	return geminiContent(append([]json.RawMessage{geminiIntroPart}, geminiParts(s)...)...)
}

// geminiResponse returns a generateContent response whose candidate has the content.
func geminiResponse(content any, finish string) map[string]any {
	candidate := map[string]any{"content": content, "index": 0}
	if finish != "" {
		candidate["finishReason"] = finish
	}
	return map[string]any{"candidates": []any{candidate}, "modelVersion": geminiModel, "responseId": "resp-01",
		"usageMetadata": map[string]any{"promptTokenCount": 120, "candidatesTokenCount": 60, "totalTokenCount": 180}}
}

func geminiTextContent(text string) json.RawMessage {
	return geminiContent(json.RawMessage(mustJSON(map[string]string{"text": text})))
}

func geminiCallsReply(s scenario) string { return mustJSON(geminiResponse(geminiTurn(s), "STOP")) }
func geminiTextReply(s scenario) string {
	return mustJSON(geminiResponse(geminiTextContent(s.final), "STOP"))
}

// geminiChunks returns the chunks that stream the scenario's turn, as the API sends
// them: some text, then the calls, whole, the last chunk with the finish reason.
func geminiChunks(s scenario) []tooltest.Event {
	parts := geminiParts(s)
	chunk := func(parts []json.RawMessage, finish string) tooltest.Event {
		return tooltest.Event{Data: mustJSON(geminiResponse(geminiContent(parts...), finish))}
	}
	return []tooltest.Event{
		chunk([]json.RawMessage{geminiIntroPart}, ""),
		chunk(parts[:len(parts)-1], ""),
		chunk(parts[len(parts)-1:], "STOP"),
	}
}

// checkGemini returns the check of a generateContent request in scenario s over ts,
// which tooltest has found valid: the functions declared as the adapter lowers them,
// and the contents so far, which after the calls (followUp) must hold the model turn
// as it came, thought signature and all (and, when exact, byte for byte), then the
// user content of functionResponse parts answering the calls, each with an error or
// an output.
func checkGemini(ts *runtime.Toolset, s scenario, turn json.RawMessage, followUp, exact bool) func(*tooltest.Request) error {
	return func(r *tooltest.Request) error {
		body := r.Body
		var req struct {
			Contents []struct {
				Role  string            `json:"role"`
				Parts []json.RawMessage `json:"parts"`
			} `json:"contents"`
			Tools []struct {
				FunctionDeclarations []struct {
					Name                 string          `json:"name"`
					Description          string          `json:"description"`
					Parameters           json.RawMessage `json:"parameters"`
					ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
				} `json:"functionDeclarations"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return err
		}
		var sent []sentTool
		for _, t := range req.Tools {
			for _, d := range t.FunctionDeclarations {
				sent = append(sent, sentTool{d.Name, d.Description, false, d.Parameters})
			}
		}
		if err := checkTools(ts, sent, func(t *runtime.Tool) dialect.Lowered { l, _ := dialect.Gemini(t.InputSchema); return l }); err != nil {
			return err
		}
		contents := req.Contents
		if len(contents) == 0 || contents[0].Role != "user" || len(contents[0].Parts) != 1 ||
			!jsonEqual(contents[0].Parts[0], []byte(mustJSON(map[string]string{"text": s.prompt}))) {
			return errors.New("the contents do not start with the user's prompt")
		}
		if !followUp {
			if len(contents) != 1 {
				return fmt.Errorf("%d contents, want the prompt alone", len(contents))
			}
			return nil
		}
		if len(contents) != 3 || contents[1].Role != "model" || contents[2].Role != "user" {
			return fmt.Errorf("%d contents, want the prompt, the model's turn and the user's answers", len(contents))
		}
		if !jsonEqual([]byte(mustJSON(contents[1])), turn) {
			return fmt.Errorf("the model turn is %s, want it as it came, thought signature included: %s", mustJSON(contents[1]), turn)
		}
		if exact && !bytes.Contains(body, turn) {
			return fmt.Errorf("the model turn is not the bytes that came: %s", turn)
		}
		for i, p := range contents[2].Parts {
			var part struct {
				FunctionResponse *struct {
					Response map[string]json.RawMessage `json:"response"`
				} `json:"functionResponse"`
			}
			if err := json.Unmarshal(p, &part); err != nil || part.FunctionResponse == nil {
				return fmt.Errorf("part %d of the answers is %s, want a functionResponse", i, p)
			}
			_, isError := part.FunctionResponse.Response["error"]
			if _, hasOutput := part.FunctionResponse.Response["output"]; isError == hasOutput || len(part.FunctionResponse.Response) != 1 {
				return fmt.Errorf("functionResponse %d: response %s, want either output or error", i, p)
			}
		}
		return s.checkTurn(r, "fc_", true)
	}
}

// sdkGeminiCalls returns the function calls of SDK responses, as the SDK parsed them.
func sdkGeminiCalls(t *testing.T, resps ...*genai.GenerateContentResponse) []runtime.ToolCall {
	var out []runtime.ToolCall
	for _, r := range resps {
		for _, c := range r.FunctionCalls() {
			args, err := json.Marshal(c.Args)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, runtime.ToolCall{ID: c.ID, Name: c.Name, Arguments: args})
		}
	}
	return out
}

// geminiConfig returns the config that offers the tools of ts, converted into the
// SDK's types by a JSON round trip, with function calling mode AUTO.
func geminiConfig(t *testing.T, ts *runtime.Toolset) *genai.GenerateContentConfig {
	var tools []*genai.Tool
	roundTrip(t, rtgemini.Tools(ts), &tools)
	auto, err := rtgemini.ToolConfigFor(loop.ChoiceAuto)
	if err != nil {
		t.Fatal(err)
	}
	var toolConfig genai.ToolConfig
	roundTrip(t, auto, &toolConfig)
	return &genai.GenerateContentConfig{Tools: tools, ToolConfig: &toolConfig}
}

// TestGeminiSDK runs the weather scenario through the SDK's generateContent.
func TestGeminiSDK(t *testing.T) {
	t.Run("weather", func(t *testing.T) { sdkGeminiSDK(t, forecast.Tools(), weather) })
	t.Run("payments", func(t *testing.T) { sdkGeminiSDK(t, checkout.ShopTools(checkout.New()), payments) })
}

// sdkGeminiSDK runs scenario s over ts through the SDK.
func sdkGeminiSDK(t *testing.T, ts *runtime.Toolset, s scenario) {
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: generatePath, Check: checkGemini(ts, s, nil, false, false), Reply: geminiCallsReply(s)},
		tooltest.Round{Path: generatePath, Check: checkGemini(ts, s, geminiTurn(s), true, false), Reply: geminiTextReply(s)},
	)
	client, ctx := newGemini(t, srv), t.Context()
	config := geminiConfig(t, ts)
	contents := []*genai.Content{genai.NewContentFromText(s.prompt, genai.RoleUser)}
	resp, err := client.Models.GenerateContent(ctx, geminiModel, contents, config)
	if err != nil {
		t.Fatal(err)
	}

	// The SDK keeps no response body (SDKHTTPResponse holds the headers alone), but its
	// types marshal to the API's JSON, thought signatures in base64: the adapter reads
	// the marshalled response.
	body, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	calls, err := rtgemini.Calls(body)
	if err != nil {
		t.Fatal(err)
	}
	sameCalls(t, "adapter", calls, s.toolCalls("fc_"))
	sameCalls(t, "SDK", sdkGeminiCalls(t, resp), calls)
	results := ts.RunCalls(ctx, calls, 0)

	// The model turn goes back as the SDK holds it, its thought signature on the part
	// it came with; the answers are the adapter's, round-tripped into a genai.Content.
	// The SDK re-encodes the turn (its keys sorted), so the fake API holds it to the
	// same parts and signature, not to the same bytes: TestGeminiLoop checks those.
	var answers genai.Content
	roundTrip(t, rtgemini.FunctionResponses(results), &answers)
	contents = append(contents, resp.Candidates[0].Content, &answers)
	final, err := client.Models.GenerateContent(ctx, geminiModel, contents, config)
	if err != nil {
		t.Fatal(err)
	}
	if got := final.Text(); got != s.final {
		t.Errorf("final text %q, want %q", got, s.final)
	}
}

// TestGeminiSDKStream runs the weather scenario through the SDK's
// GenerateContentStream. The SDK yields each chunk as a typed response and keeps no
// raw events, and it has no accumulator: each chunk, marshalled back to JSON, feeds
// the adapter's Stream, and the calls are compared with those of every chunk.
func TestGeminiSDKStream(t *testing.T) {
	ts, s := forecast.Tools(), weather
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: streamPath, Check: checkGemini(ts, s, nil, false, false), Events: geminiChunks(s)},
		tooltest.Round{Path: generatePath, Check: checkGemini(ts, s, geminiStreamedTurn(s), true, false), Reply: geminiTextReply(s)},
	)
	client, ctx := newGemini(t, srv), t.Context()
	config := geminiConfig(t, ts)
	contents := []*genai.Content{genai.NewContentFromText(s.prompt, genai.RoleUser)}
	var ours rtgemini.Stream
	var chunks []*genai.GenerateContentResponse
	for chunk, err := range client.Models.GenerateContentStream(ctx, geminiModel, contents, config) {
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, chunk)
		data, err := json.Marshal(chunk)
		if err != nil {
			t.Fatal(err)
		}
		if err := ours.Add(nil, data); err != nil {
			t.Fatal(err)
		}
	}
	if !ours.Done() {
		t.Fatal("the adapter's stream is not done")
	}
	calls, err := ours.Calls()
	if err != nil {
		t.Fatal(err)
	}
	sameCalls(t, "adapter", calls, s.toolCalls("fc_"))
	sameCalls(t, "SDK", sdkGeminiCalls(t, chunks...), calls)
	results := ts.RunCalls(ctx, calls, 0)

	// The model turn is the adapter's, assembled from the chunks (Stream.Response, then
	// ModelContent): the text part and the calls, signature included.
	body, err := ours.Response()
	if err != nil {
		t.Fatal(err)
	}
	turnJSON, err := rtgemini.ModelContent(body)
	if err != nil {
		t.Fatal(err)
	}
	var turn, answers genai.Content
	roundTrip(t, turnJSON, &turn)
	roundTrip(t, rtgemini.FunctionResponses(results), &answers)
	contents = append(contents, &turn, &answers)
	final, err := client.Models.GenerateContent(ctx, geminiModel, contents, config)
	if err != nil {
		t.Fatal(err)
	}
	if got := final.Text(); got != s.final {
		t.Errorf("final text %q, want %q", got, s.final)
	}
}

// TestGeminiLoop runs the banking scenario in a loop.Loop. The SDK has no supported
// raw request facility (its SendRequest takes an internal client and a map, which
// would reorder the model turn's keys), so the SendFunc posts the body with net/http,
// and the fake API checks that the model turn comes back byte for byte.
func TestGeminiLoop(t *testing.T) {
	ts, s := bankTools(), banking
	srv := tooltest.NewRoundServer(t,
		tooltest.Round{Path: generatePath, Check: checkGemini(ts, s, nil, false, true), Reply: geminiCallsReply(s)},
		tooltest.Round{Path: generatePath, Check: checkGemini(ts, s, geminiTurn(s), true, true), Reply: geminiTextReply(s)},
	)
	send := func(ctx context.Context, body []byte) ([]byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+generatePath, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("x-goog-api-key", apiKey)
		resp, err := srv.Client().Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("%s: %s", resp.Status, out)
		}
		return out, err
	}
	final := runLoop(t, rtgemini.GenerateContent{}, send, mustJSON(map[string]any{
		"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": s.prompt}}}}}))
	var resp genai.GenerateContentResponse
	if err := json.Unmarshal(final, &resp); err != nil || resp.Text() != s.final {
		t.Errorf("final response %s (%v), want the text %q", final, err, s.final)
	}
}
