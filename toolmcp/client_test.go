package toolmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/toolmcp"
)

// askTool is a tool that runs ask with its context and answers with what it returns,
// or with the error's text (IsError) when it fails.
func askTool(t *testing.T, ask func(ctx context.Context) (string, error)) *runtime.Toolset {
	t.Helper()
	ts, err := runtime.NewTool(runtime.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
			s, err := ask(ctx)
			if err != nil {
				return nil, runtime.ToolErrorf("%v", err)
			}
			return runtime.TextResult(s), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// clientOf connects a go-sdk client with opts, speaking version, to a server of ts.
func clientOf(t *testing.T, ts *runtime.Toolset, version string, opts *mcp.ClientOptions, serverOpts ...toolmcp.Option) *mcp.ClientSession {
	t.Helper()
	s := newServer()
	toolmcp.Register(s, ts, serverOpts...)
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

const classic = "2025-11-25" // the protocol under which a server asks the client mid-call

func TestSample(t *testing.T) {
	var got *mcp.CreateMessageParams
	ts := askTool(t, func(ctx context.Context) (string, error) {
		temp := 0.5
		res, err := runtime.Sample(ctx, &runtime.SampleRequest{
			Messages:      []runtime.SampleMessage{runtime.UserMessage("Name a colour.")},
			SystemPrompt:  "Answer in one word.",
			MaxTokens:     100,
			Temperature:   &temp,
			StopSequences: []string{"\n"},
		})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s said %q (%s, %s)", res.Model, res.Text(), res.Role, res.StopReason), nil
	})
	cs := clientOf(t, ts, classic, &mcp.ClientOptions{
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			got = req.Params
			return &mcp.CreateMessageResult{Role: "assistant", Content: &mcp.TextContent{Text: "Teal"}, Model: "m1", StopReason: "endTurn"}, nil
		},
	})
	res := call(t, cs, "ask", map[string]any{})
	if res.IsError || text(res) != `m1 said "Teal" (assistant, endTurn)` {
		t.Fatalf("result %s: %s", jsonOf(t, res), text(res))
	}
	if got == nil || got.MaxTokens != 100 || got.SystemPrompt != "Answer in one word." || got.Temperature != 0.5 ||
		len(got.StopSequences) != 1 || len(got.Messages) != 1 || got.Messages[0].Role != "user" {
		t.Fatalf("the client got %s", jsonOf(t, got))
	}
	if tc, ok := got.Messages[0].Content.(*mcp.TextContent); !ok || tc.Text != "Name a colour." {
		t.Errorf("message %s", jsonOf(t, got.Messages[0]))
	}
}

func TestSampleDefaultMaxTokensAndImages(t *testing.T) {
	var got *mcp.CreateMessageParams
	ts := askTool(t, func(ctx context.Context) (string, error) {
		res, err := runtime.Sample(ctx, &runtime.SampleRequest{Messages: []runtime.SampleMessage{
			{Role: runtime.RoleUser, Content: runtime.ImageContent([]byte{1, 2, 3}, "image/png")},
		}})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s %s %v", res.Content.Type, res.Content.MIMEType, res.Content.Data), nil
	})
	cs := clientOf(t, ts, classic, &mcp.ClientOptions{
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			got = req.Params
			return &mcp.CreateMessageResult{Role: "assistant", Content: &mcp.AudioContent{Data: []byte{9}, MIMEType: "audio/wav"}, Model: "m"}, nil
		},
	})
	if res := call(t, cs, "ask", map[string]any{}); res.IsError || text(res) != "audio audio/wav [9]" {
		t.Fatalf("result: %s", text(res))
	}
	if got.MaxTokens != runtime.DefaultSampleMaxTokens {
		t.Errorf("maxTokens %d, want DefaultSampleMaxTokens", got.MaxTokens)
	}
	if ic, ok := got.Messages[0].Content.(*mcp.ImageContent); !ok || ic.MIMEType != "image/png" || len(ic.Data) != 3 {
		t.Errorf("message %s", jsonOf(t, got.Messages[0]))
	}
}

// TestSampleUnsupported: a client without the sampling capability, or one of MCP
// 2026-07-28, cannot be asked; the tool gets errors.ErrUnsupported and says why.
func TestSampleUnsupported(t *testing.T) {
	for _, version := range []string{classic, "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			var unsupported bool
			ts := askTool(t, func(ctx context.Context) (string, error) {
				_, err := runtime.Sample(ctx, &runtime.SampleRequest{Messages: []runtime.SampleMessage{runtime.UserMessage("hi")}})
				unsupported = errors.Is(err, errors.ErrUnsupported)
				return "", err
			})
			opts := &mcp.ClientOptions{}
			want := "does not declare the sampling capability"
			if version != classic {
				opts.CreateMessageHandler = func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
					t.Error("asked under 2026-07-28")
					return nil, errors.New("no")
				}
				want = "2026-07-28"
			}
			res := call(t, clientOf(t, ts, version, opts), "ask", map[string]any{})
			if !res.IsError || !unsupported || !strings.Contains(text(res), want) {
				t.Fatalf("unsupported=%v, result %q, want an error saying %q", unsupported, text(res), want)
			}
		})
	}
}

const formSchema = `{"type":"object","properties":{` +
	`"name":{"type":"string","description":"Your name"},` +
	`"age":{"type":"integer","minimum":0,"default":30}},"required":["name"]}`

func TestElicit(t *testing.T) {
	var got *mcp.ElicitParams
	answer := &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}
	ts := askTool(t, func(ctx context.Context) (string, error) {
		res, err := runtime.Elicit(ctx, &runtime.ElicitRequest{Message: "Who are you?", Schema: json.RawMessage(formSchema)})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s %s", res.Action, res.Content), nil
	})
	cs := clientOf(t, ts, classic, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			got = req.Params
			return answer, nil
		},
	})
	// The answer is checked against the schema, with its defaults filled in.
	if res := call(t, cs, "ask", map[string]any{}); res.IsError || text(res) != `accept {"age":30,"name":"Ada"}` {
		t.Fatalf("result: %s", text(res))
	}
	if got.Message != "Who are you?" || got.Mode != "form" || canonical(t, []byte(jsonOf(t, got.RequestedSchema))) != canonical(t, []byte(formSchema)) {
		t.Errorf("the client got %s", jsonOf(t, got))
	}
	for _, a := range []string{"decline", "cancel"} {
		answer = &mcp.ElicitResult{Action: a}
		if res := call(t, cs, "ask", map[string]any{}); res.IsError || text(res) != a+" " {
			t.Errorf("%s: %s", a, text(res))
		}
	}
	// An answer the schema refuses is an error, never content for the tool.
	answer = &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "age": -1}}
	if res := call(t, cs, "ask", map[string]any{}); !res.IsError || !strings.Contains(text(res), "does not match") {
		t.Errorf("an answer off the schema: %s", text(res))
	}
}

func TestElicitUnsupported(t *testing.T) {
	var unsupported bool
	ts := askTool(t, func(ctx context.Context) (string, error) {
		_, err := runtime.Elicit(ctx, &runtime.ElicitRequest{Message: "?"})
		unsupported = errors.Is(err, errors.ErrUnsupported)
		return "", err
	})
	res := call(t, clientOf(t, ts, classic, nil), "ask", map[string]any{})
	if !res.IsError || !unsupported || !strings.Contains(text(res), "does not declare the elicitation capability") {
		t.Fatalf("unsupported=%v: %s", unsupported, text(res))
	}
}

// TestClientTimeout: a client that does not answer within WithClientTimeout fails
// the request with context.DeadlineExceeded; the call goes on and answers.
func TestClientTimeout(t *testing.T) {
	const limit = 50 * time.Millisecond
	var late bool
	ts := askTool(t, func(ctx context.Context) (string, error) {
		start := time.Now()
		_, err := runtime.Elicit(ctx, &runtime.ElicitRequest{Message: "?"})
		late = errors.Is(err, context.DeadlineExceeded) && time.Since(start) >= limit
		return "", err
	})
	release := make(chan struct{})
	defer close(release)
	cs := clientOf(t, ts, classic, &mcp.ClientOptions{
		ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			select {
			case <-release:
			case <-ctx.Done():
			}
			return &mcp.ElicitResult{Action: "cancel"}, nil
		},
	}, toolmcp.WithClientTimeout(limit))
	res := call(t, cs, "ask", map[string]any{})
	if !res.IsError || !late || !strings.Contains(text(res), "did not answer within 50ms") {
		t.Fatalf("late=%v: %s", late, text(res))
	}
}

// TestLogger: the tool's log records reach the client at the level it set, and none
// before it sets one.
func TestLogger(t *testing.T) {
	var mu sync.Mutex
	var got []*mcp.LoggingMessageParams
	ts := askTool(t, func(ctx context.Context) (string, error) {
		log := runtime.Logger(ctx).With("order", "A-1")
		log.Debug("looking")
		log.Info("found", "items", 2)
		log.WarnContext(context.Background(), "slow") // bound to the call all the same
		return "done", nil
	})
	cs := clientOf(t, ts, classic, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			mu.Lock()
			got = append(got, req.Params)
			mu.Unlock()
		},
	})
	call(t, cs, "ask", map[string]any{})
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	call(t, cs, "ask", map[string]any{})
	// Notifications arrive apart from the result: wait for the two expected.
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || got[0].Level != "info" || got[1].Level != "warning" || got[0].Logger != "ask" {
		t.Fatalf("got %s, want info and warning from the logger ask", jsonOf(t, got))
	}
	if data := jsonOf(t, got[0].Data); !strings.Contains(data, `"found"`) || !strings.Contains(data, `"A-1"`) || !strings.Contains(data, `"items":2`) {
		t.Errorf("data %s", data)
	}
}

// TestEmbeddedResourceAndAudio: the blocks reach the client as MCP's resource and audio
// content.
func TestEmbeddedResourceAndAudio(t *testing.T) {
	ts, err := runtime.NewTool(runtime.Tool{Name: "blocks", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, json.RawMessage) (*runtime.Result, error) {
			return &runtime.Result{Content: []runtime.Content{
				runtime.TextResource("test://a", "text/plain", "hello"),
				runtime.BlobResource("test://b", "application/octet-stream", []byte{0, 1}),
				runtime.AudioContent([]byte("RIFF"), "audio/wav"),
			}}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, serve(t, ts), "blocks", map[string]any{})
	want := `[{"type":"resource","resource":{"uri":"test://a","mimeType":"text/plain","text":"hello"}},` +
		`{"type":"resource","resource":{"uri":"test://b","mimeType":"application/octet-stream","blob":"AAE="}},` +
		`{"type":"audio","mimeType":"audio/wav","data":"UklGRg=="}]`
	if got := jsonOf(t, res.Content); canonical(t, []byte(got)) != canonical(t, []byte(want)) {
		t.Errorf("content\n%s\nwant\n%s", got, want)
	}
}
