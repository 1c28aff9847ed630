package toolgenai_test

import (
	"strings"
	"testing"

	"google.golang.org/genai"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/toolgenai"
	"github.com/toolgen/toolgen/tooltest"
)

// TestScriptedServer runs tooltest.NewServer's generateContent through the SDK client
// and the bridge, whole and streamed (streamGenerateContent?alt=sse): two calls to
// get_weather in one turn, the second out of bounds, the model's content back as it
// came (its thought signature too, which the server insists on), the function
// responses as the bridge writes them, and the scripted model's answer quoting both.
func TestScriptedServer(t *testing.T) {
	for _, stream := range []bool{false, true} {
		srv := tooltest.NewServer(t, &tooltest.Script{
			Question: prompt,
			Turns: []tooltest.Turn{{Calls: []tooltest.Call{
				{Name: "get_weather", Args: `{"city":"Paris","days":2}`},
				{Name: "get_weather", Args: `{"city":"Oslo","days":30}`},
			}}},
		})
		client, ctx, tools := newClient(t, srv), t.Context(), forecast.Tools()
		declared, err := toolgenai.Tools(tools)
		if err != nil {
			t.Fatal(err)
		}
		config := &genai.GenerateContentConfig{Tools: declared}
		contents := []*genai.Content{genai.NewContentFromText(prompt, genai.RoleUser)}
		var turn *genai.Content
		var parts []*genai.Part
		if stream {
			// The stream's chunks, joined into one content as the model wrote it.
			turn = &genai.Content{Role: genai.RoleModel}
			var last *genai.GenerateContentResponse
			for resp, err := range client.Models.GenerateContentStream(ctx, model, contents, config) {
				if err != nil {
					t.Fatal(err)
				}
				if len(resp.Candidates) > 0 && resp.Candidates[0].Content != nil {
					turn.Parts = append(turn.Parts, resp.Candidates[0].Content.Parts...)
				}
				last = resp
			}
			whole := &genai.GenerateContentResponse{Candidates: []*genai.Candidate{{Content: turn, FinishReason: last.Candidates[0].FinishReason}}}
			if parts, err = toolgenai.Run(ctx, tools, whole); err != nil {
				t.Fatal(err)
			}
		} else {
			resp, err := client.Models.GenerateContent(ctx, model, contents, config)
			if err != nil {
				t.Fatal(err)
			}
			if parts, err = toolgenai.Run(ctx, tools, resp); err != nil {
				t.Fatal(err)
			}
			turn = resp.Candidates[0].Content
		}
		if len(parts) != 2 {
			t.Fatalf("stream %v: %d function responses, want 2", stream, len(parts))
		}
		contents = append(contents, turn, genai.NewContentFromParts(parts, genai.RoleUser))
		final, err := client.Models.GenerateContent(ctx, model, contents, config)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`"city":"Paris"`, "invalid arguments for get_weather: /days: must be at most 14 (got 30)"} {
			if !strings.Contains(final.Text(), want) {
				t.Errorf("stream %v: the answer does not say %q:\n%s", stream, want, final.Text())
			}
		}
	}
}
