package toolopenai_test

import (
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/toolopenai"
	"github.com/toolgen/toolgen/tooltest"
)

// scripted is the script of the tooltest servers' conversations: two calls to
// get_weather in one turn, the second out of bounds, then the answer quoting both.
func scripted() *tooltest.Script {
	return &tooltest.Script{
		Question: prompt,
		Turns: []tooltest.Turn{{Calls: []tooltest.Call{
			{Name: "get_weather", Args: `{"city":"Paris","days":2}`},
			{Name: "get_weather", Args: `{"city":"Oslo","days":30}`},
		}}},
	}
}

// checkQuoted checks the scripted model's answer: it quotes the results of both
// calls, as it read them in the request.
func checkQuoted(t *testing.T, answer string) {
	t.Helper()
	for _, want := range []string{`"city":"Paris"`, "/days: must be at most 14 (got 30)"} {
		if !strings.Contains(answer, want) {
			t.Errorf("the answer does not say %q:\n%s", want, answer)
		}
	}
}

// TestScriptedServerChat runs tooltest.NewServer's Chat Completions through the SDK
// client and the bridge, whole and streamed: the calls arrive as the script makes
// them, the answers go back as the bridge writes them, and the server, which checks
// every request as the API does, answers with the results quoted.
func TestScriptedServerChat(t *testing.T) {
	for _, stream := range []bool{false, true} {
		srv := tooltest.NewServer(t, scripted())
		client := openai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey(tooltest.APIKey), option.WithMaxRetries(0))
		ctx, tools := t.Context(), forecast.Tools()
		params := openai.ChatCompletionNewParams{
			Model:    openai.ChatModelGPT5,
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(prompt)},
			Tools:    toolopenai.ChatTools(tools),
		}
		var (
			turn    openai.ChatCompletionMessage
			answers []openai.ChatCompletionMessageParamUnion
		)
		if stream {
			var acc openai.ChatCompletionAccumulator
			s := client.Chat.Completions.NewStreaming(ctx, params)
			for s.Next() {
				if !acc.AddChunk(s.Current()) {
					t.Fatalf("the SDK's accumulator rejects %s", s.Current().RawJSON())
				}
			}
			if err := s.Err(); err != nil {
				t.Fatal(err)
			}
			var err error
			if answers, err = toolopenai.RunAccumulator(ctx, tools, &acc); err != nil {
				t.Fatal(err)
			}
			turn = acc.Choices[0].Message
		} else {
			completion, err := client.Chat.Completions.New(ctx, params)
			if err != nil {
				t.Fatal(err)
			}
			if answers, err = toolopenai.RunChat(ctx, tools, completion); err != nil {
				t.Fatal(err)
			}
			turn = completion.Choices[0].Message
		}
		if len(answers) != 2 {
			t.Fatalf("stream %v: %d answers, want 2", stream, len(answers))
		}
		params.Messages = append(params.Messages, turn.ToParam())
		params.Messages = append(params.Messages, answers...)
		final, err := client.Chat.Completions.New(ctx, params)
		if err != nil {
			t.Fatal(err)
		}
		checkQuoted(t, final.Choices[0].Message.Content)
	}
}

// TestScriptedServerResponses runs tooltest.NewServer's Responses API through the SDK
// client and the bridge, in a conversation that is not stored: the turn goes back as
// it came (its reasoning item too, which the server insists on), then the answers.
func TestScriptedServerResponses(t *testing.T) {
	srv := tooltest.NewServer(t, scripted())
	client := openai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey(tooltest.APIKey), option.WithMaxRetries(0))
	ctx, tools := t.Context(), forecast.Tools()
	input := responses.ResponseInputParam{responses.ResponseInputItemParamOfMessage(prompt, responses.EasyInputMessageRoleUser)}
	params := responses.ResponseNewParams{
		Model: openai.ChatModelGPT5,
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input},
		Tools: toolopenai.ResponsesTools(tools),
		Store: openai.Bool(false),
	}
	resp, err := client.Responses.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	answers, err := toolopenai.RunResponses(ctx, tools, resp)
	if err != nil {
		t.Fatal(err)
	}
	turn, err := toolopenai.ResponsesTurn(resp)
	if err != nil {
		t.Fatal(err)
	}
	input = append(append(input, turn...), answers...)
	params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: input}
	if resp, err = client.Responses.New(ctx, params); err != nil {
		t.Fatal(err)
	}
	checkQuoted(t, resp.OutputText())
}
