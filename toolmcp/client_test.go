package toolmcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/client"
	"github.com/toolgen/toolgen/runtime/progress"
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
				return nil, runtime.ToolErrorf("%w", err)
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
	return connectWith(t, s, version, opts)
}

const classic = "2025-11-25" // the protocol under which a server asks the client mid-call

// versions are the two ways of asking: a request while the call waits (2025-11-25), and
// an input-required result answered with the call sent again (2026-07-28, rounds.go).
var versions = []string{classic, "2026-07-28"}

func TestSample(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) { testSample(t, version) })
	}
}

func testSample(t *testing.T, version string) {
	var got *mcp.CreateMessageParams
	ts := askTool(t, func(ctx context.Context) (string, error) {
		temp := 0.5
		res, err := client.Sample(ctx, &client.SampleRequest{
			Messages:      []client.SampleMessage{client.UserMessage("Name a colour.")},
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
	cs := clientOf(t, ts, version, &mcp.ClientOptions{
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
		res, err := client.Sample(ctx, &client.SampleRequest{Messages: []client.SampleMessage{
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
	if got.MaxTokens != client.DefaultSampleMaxTokens {
		t.Errorf("maxTokens %d, want DefaultSampleMaxTokens", got.MaxTokens)
	}
	if ic, ok := got.Messages[0].Content.(*mcp.ImageContent); !ok || ic.MIMEType != "image/png" || len(ic.Data) != 3 {
		t.Errorf("message %s", jsonOf(t, got.Messages[0]))
	}
}

// TestSampleUnsupported: a client without the sampling capability cannot be asked;
// the tool gets errors.ErrUnsupported and says why. (Under MCP 2026-07-28 the tool
// gets it too, and the call that then fails is answered with -32021:
// TestMissingCapability.)
func TestSampleUnsupported(t *testing.T) {
	for _, version := range []string{classic} {
		t.Run(version, func(t *testing.T) {
			var unsupported bool
			ts := askTool(t, func(ctx context.Context) (string, error) {
				_, err := client.Sample(ctx, &client.SampleRequest{Messages: []client.SampleMessage{client.UserMessage("hi")}})
				unsupported = errors.Is(err, errors.ErrUnsupported)
				return "", err
			})
			res := call(t, clientOf(t, ts, version, &mcp.ClientOptions{}), "ask", map[string]any{})
			if want := "does not declare the sampling capability"; !res.IsError || !unsupported || !strings.Contains(text(res), want) {
				t.Fatalf("unsupported=%v, result %q, want an error saying %q", unsupported, text(res), want)
			}
		})
	}
}

const formSchema = `{"type":"object","properties":{` +
	`"name":{"type":"string","description":"Your name"},` +
	`"age":{"type":"integer","minimum":0,"default":30}},"required":["name"]}`

func TestElicit(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) { testElicit(t, version) })
	}
}

func testElicit(t *testing.T, version string) {
	var got *mcp.ElicitParams
	answer := &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}
	ts := askTool(t, func(ctx context.Context) (string, error) {
		res, err := client.Elicit(ctx, &client.ElicitRequest{Message: "Who are you?", Schema: json.RawMessage(formSchema)})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s %s", res.Action, res.Content), nil
	})
	cs := clientOf(t, ts, version, &mcp.ClientOptions{
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
	if version != classic {
		return // the SDK's client refuses to send such an answer: TestAnswersComeBackChecked
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
		_, err := client.Elicit(ctx, &client.ElicitRequest{Message: "?"})
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
		_, err := client.Elicit(ctx, &client.ElicitRequest{Message: "?"})
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
		log := client.Logger(ctx).With("order", "A-1")
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
	waitFor(func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) >= 2
	})
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
				runtime.TextResource("test://c", "text/plain", ""), // MCP has no empty text resource
			}}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, serve(t, ts), "blocks", map[string]any{})
	want := `[{"type":"resource","resource":{"uri":"test://a","mimeType":"text/plain","text":"hello"}},` +
		`{"type":"resource","resource":{"uri":"test://b","mimeType":"application/octet-stream","blob":"AAE="}},` +
		`{"type":"audio","mimeType":"audio/wav","data":"UklGRg=="},` +
		`{"type":"resource","resource":{"uri":"test://c","mimeType":"text/plain","blob":""}}]`
	if got := jsonOf(t, res.Content); canonical(t, []byte(got)) != canonical(t, []byte(want)) {
		t.Errorf("content\n%s\nwant\n%s", got, want)
	}
}

// httpClientOf connects a go-sdk client with opts, speaking version, to a server of ts
// over streamable HTTP, stateless or not, served by httptest.
func httpClientOf(t *testing.T, ts *runtime.Toolset, stateless bool, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	s := newServer()
	toolmcp.Register(s, ts)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: stateless})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, opts).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: srv.URL}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// askBoth is a tool that samples and elicits, and answers with both errors and
// whether each is errors.ErrUnsupported.
func askBoth(t *testing.T) *runtime.Toolset {
	return askTool(t, func(ctx context.Context) (string, error) {
		_, serr := client.Sample(ctx, &client.SampleRequest{Messages: []client.SampleMessage{client.UserMessage("hi")}})
		_, eerr := client.Elicit(ctx, &client.ElicitRequest{Message: "?"})
		return fmt.Sprintf("%v %v\n%v %v", errors.Is(serr, errors.ErrUnsupported), serr, errors.Is(eerr, errors.ErrUnsupported), eerr), nil
	})
}

// answering answers every sampling and elicitation request.
var answering = &mcp.ClientOptions{
	CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		return &mcp.CreateMessageResult{Role: "assistant", Content: &mcp.TextContent{Text: "x"}, Model: "m"}, nil
	},
	ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "cancel"}, nil
	},
}

// TestClientOverHTTP: over streamable HTTP, a stateful server asks a 2025-11-25 client;
// a stateless one cannot (its session lives for the request, knowing nothing of the
// client's initialize): Sample and Elicit fail with errors.ErrUnsupported at once,
// saying why, and never that the client did not declare a capability it declared.
// Under 2026-07-28 every server asks, the answers coming with the call sent again.
func TestClientOverHTTP(t *testing.T) {
	for _, tc := range []struct {
		stateless bool
		version   string
		want      string
	}{
		{false, classic, "<nil>"},
		{true, classic, "a stateless server keeps no session"},
		// Under 2026-07-28 the answers come with the call sent again: a stateless
		// server asks as well as one with sessions.
		{false, "2026-07-28", "<nil>"},
		{true, "2026-07-28", "<nil>"},
		{true, "", "<nil>"}, // the go-sdk client's default
	} {
		t.Run(fmt.Sprintf("stateless=%v,%s", tc.stateless, tc.version), func(t *testing.T) {
			res := call(t, httpClientOf(t, askBoth(t), tc.stateless, tc.version, answering), "ask", map[string]any{})
			lines := strings.Split(text(res), "\n")
			if res.IsError || len(lines) != 2 {
				t.Fatalf("result %q", text(res))
			}
			for _, l := range lines {
				unsupported := tc.want != "<nil>"
				if !strings.HasPrefix(l, fmt.Sprint(unsupported)) || !strings.Contains(l, tc.want) || strings.Contains(l, "does not declare") {
					t.Errorf("%q, want errors.ErrUnsupported=%v saying %q", l, unsupported, tc.want)
				}
			}
		})
	}
}

// TestElicitAcceptedWithoutContent: a client that accepts a form without its values
// does not give the tool an accepted answer that skipped the schema (its required
// properties, its defaults).
func TestElicitAcceptedWithoutContent(t *testing.T) {
	ts := askTool(t, func(ctx context.Context) (string, error) {
		res, err := client.Elicit(ctx, &client.ElicitRequest{Message: "Who are you?", Schema: json.RawMessage(formSchema)})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s %s", res.Action, res.Content), nil
	})
	cs := clientOf(t, ts, classic, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	})
	if res := call(t, cs, "ask", map[string]any{}); !res.IsError || !strings.Contains(text(res), "sent none of its values") {
		t.Fatalf("result %q, want an error", text(res))
	}
}

// TestElicitWithoutSchema: a request with no schema sends the empty form MCP requires
// (requestedSchema is not optional in form mode), and content the client sends anyway,
// checked against nothing, does not reach the tool.
func TestElicitWithoutSchema(t *testing.T) {
	var got *mcp.ElicitParams
	ts := askTool(t, func(ctx context.Context) (string, error) {
		res, err := client.Elicit(ctx, &client.ElicitRequest{Message: "Go on?"})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s %v", res.Action, res.Content == nil), nil
	})
	cs := clientOf(t, ts, classic, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			got = req.Params
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"admin": true}}, nil
		},
	})
	if res := call(t, cs, "ask", map[string]any{}); res.IsError || text(res) != "accept true" {
		t.Fatalf("result %q, want accept with no content", text(res))
	}
	if got == nil || canonical(t, []byte(jsonOf(t, got.RequestedSchema))) != `{"properties":{},"type":"object"}` {
		t.Errorf("the client got %s", jsonOf(t, got))
	}
}

// TestSampleRoles: a sampling message is the user's or the assistant's, as MCP has it;
// another role fails before the client is asked.
func TestSampleRoles(t *testing.T) {
	var asked bool
	ts := askTool(t, func(ctx context.Context) (string, error) {
		_, err := client.Sample(ctx, &client.SampleRequest{Messages: []client.SampleMessage{
			client.UserMessage("hi"), {Role: "system", Content: runtime.TextContent("be brief")},
		}})
		return "", err
	})
	cs := clientOf(t, ts, classic, &mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			asked = true
			return &mcp.CreateMessageResult{Role: "assistant", Content: &mcp.TextContent{Text: "x"}}, nil
		},
	})
	if res := call(t, cs, "ask", map[string]any{}); !res.IsError || asked || !strings.Contains(text(res), `message 1 has the role "system"`) {
		t.Fatalf("asked=%v, result %q", asked, text(res))
	}
}

// TestClientDisconnects: a client that goes away while the tool waits for its answer
// ends the wait at once with the call's context's error, saying so; the session ends.
func TestClientDisconnects(t *testing.T) {
	got := make(chan error, 1)
	ts := askTool(t, func(ctx context.Context) (string, error) {
		_, err := client.Sample(ctx, &client.SampleRequest{Messages: []client.SampleMessage{client.UserMessage("hi")}})
		got <- err
		return "", err
	})
	s := newServer()
	toolmcp.Register(s, ts)
	c1, c2 := net.Pipe()
	ss, err := s.Connect(context.Background(), &mcp.IOTransport{Reader: c2, Writer: c2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	asked := make(chan struct{})
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
		CreateMessageHandler: func(ctx context.Context, _ *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			close(asked)
			<-ctx.Done()
			return nil, ctx.Err()
		},
	}).Connect(context.Background(), &mcp.IOTransport{Reader: c1, Writer: c1}, &mcp.ClientSessionOptions{ProtocolVersion: classic})
	if err != nil {
		t.Fatal(err)
	}
	go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{}})
	<-asked
	c1.Close() // the client's end of the connection goes away
	err = <-got
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "sampling: the call's context ended before the client answered") {
		t.Errorf("err %v", err)
	}
	ss.Wait()
	cs.Close()
}

// TestLoggerAfterTheCall: a record logged once the call has returned is dropped: nothing
// of the call follows its result.
func TestLoggerAfterTheCall(t *testing.T) {
	logged := make(chan bool, 1)
	var calls atomic.Int32
	ts := askTool(t, func(ctx context.Context) (string, error) {
		log := client.Logger(ctx)
		log.Info("during")
		if calls.Add(1) == 1 {
			go func() {
				<-ctx.Done()
				log.Info("after")
				logged <- log.Enabled(context.Background(), slog.LevelError)
			}()
		}
		return "done", nil
	})
	var mu sync.Mutex
	var got []string
	cs := clientOf(t, ts, classic, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			mu.Lock()
			got = append(got, jsonOf(t, req.Params.Data))
			mu.Unlock()
		},
	})
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	call(t, cs, "ask", map[string]any{})
	if <-logged {
		t.Error("the logger of a finished call is enabled")
	}
	// The second call's record comes after anything the first sent: the client
	// handles notifications in order.
	call(t, cs, "ask", map[string]any{})
	waitFor(func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) >= 2
	})
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || !strings.Contains(got[0], `"during"`) || !strings.Contains(got[1], `"during"`) {
		t.Errorf("got %v, want only the records logged during the calls", got)
	}
}

// TestElicitKeepsTheFormsProperties: the tool gets the values of the form's properties
// alone: a key the client adds (an "admin": true, an object MCP does not allow in a
// form), which JSON Schema lets through, does not reach it.
func TestElicitKeepsTheFormsProperties(t *testing.T) {
	ts := askTool(t, func(ctx context.Context) (string, error) {
		res, err := client.Elicit(ctx, &client.ElicitRequest{Message: "Who are you?", Schema: json.RawMessage(formSchema)})
		if err != nil {
			return "", err
		}
		return string(res.Content), nil
	})
	cs := clientOf(t, ts, classic, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{
				"name": "Ada", "admin": true, "nested": map[string]any{"x": []any{1, 2}},
			}}, nil
		},
	})
	if res := call(t, cs, "ask", map[string]any{}); res.IsError || text(res) != `{"age":30,"name":"Ada"}` {
		t.Fatalf("result %q", text(res))
	}
}

// TestClientMethodsDirectly: a tool may call its client.Client itself, past
// client.Sample and client.Elicit and their checks: a nil request or a schema that
// is no object is an error, never a panic; an answer of another role than the
// assistant's or the user's is refused.
func TestClientMethodsDirectly(t *testing.T) {
	ts := askTool(t, func(ctx context.Context) (string, error) {
		c, ok := client.FromContext(ctx)
		if !ok {
			return "", errors.New("no client")
		}
		var errs []string
		_, err := c.Sample(ctx, nil)
		errs = append(errs, fmt.Sprint(err))
		_, err = c.Elicit(ctx, nil)
		errs = append(errs, fmt.Sprint(err))
		_, err = c.Elicit(ctx, &client.ElicitRequest{Message: "?", Schema: json.RawMessage(`null`)})
		errs = append(errs, fmt.Sprint(err))
		_, err = c.Sample(ctx, &client.SampleRequest{Messages: []client.SampleMessage{client.UserMessage("hi")}})
		errs = append(errs, fmt.Sprint(err))
		return strings.Join(errs, "\n"), nil
	})
	var asked int
	cs := clientOf(t, ts, classic, &mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			asked++
			return &mcp.CreateMessageResult{Role: "system", Content: &mcp.TextContent{Text: "obey"}}, nil
		},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked++
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"x": 1}}, nil
		},
	})
	res := call(t, cs, "ask", map[string]any{})
	want := "sampling: the request has no message\n" +
		"elicitation: the request is nil\n" +
		"elicitation: the schema is not a JSON object\n" +
		`sampling: the client answered with the role "system", not the assistant's or the user's`
	if res.IsError || text(res) != want || asked != 1 {
		t.Fatalf("asked %d times, result\n%s\nwant\n%s", asked, text(res), want)
	}
}

// TestElicitURLOnlyClient: a client that declares elicitation in URL mode alone cannot
// fill in a form; the tool is told so, not that the client declares no elicitation.
func TestElicitURLOnlyClient(t *testing.T) {
	var unsupported bool
	ts := askTool(t, func(ctx context.Context) (string, error) {
		_, err := client.Elicit(ctx, &client.ElicitRequest{Message: "?"})
		unsupported = errors.Is(err, errors.ErrUnsupported)
		return "", err
	})
	cs := clientOf(t, ts, classic, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			t.Error("a URL-only client was asked to fill in a form")
			return &mcp.ElicitResult{Action: "cancel"}, nil
		},
	})
	res := call(t, cs, "ask", map[string]any{})
	if !res.IsError || !unsupported || !strings.Contains(text(res), "does not declare the elicitation capability in form mode") {
		t.Fatalf("unsupported=%v: %s", unsupported, text(res))
	}
}

// TestLoggerUnder2026: under MCP 2026-07-28 the level is the call's own (its _meta),
// not one set with logging/setLevel: a call that asks for none gets no records.
func TestLoggerUnder2026(t *testing.T) {
	ts := askTool(t, func(ctx context.Context) (string, error) {
		client.Logger(ctx).Info("hello")
		return "ok", nil
	})
	var mu sync.Mutex
	var got []string
	cs := clientOf(t, ts, "2026-07-28", &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			mu.Lock()
			got = append(got, jsonOf(t, r.Params.Data))
			mu.Unlock()
		},
	})
	call(t, cs, "ask", map[string]any{})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{},
		Meta: mcp.Meta{mcp.MetaKeyLogLevel: "info"}})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %v", err, res)
	}
	waitFor(func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) >= 1
	})
	// The record of the second call follows any of the first.
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || !strings.Contains(got[0], `"hello"`) {
		t.Errorf("got %v, want the second call's record alone", got)
	}
}

// TestLoggerStateless: a stateless server's session lives for one request: under
// 2025-11-25 the SDK sends info and above, whatever the client set, and never debug.
func TestLoggerStateless(t *testing.T) {
	ts := askTool(t, func(ctx context.Context) (string, error) {
		client.Logger(ctx).Debug("looking")
		client.Logger(ctx).Info("found")
		return "ok", nil
	})
	var mu sync.Mutex
	var got []string
	cs := httpClientOf(t, ts, true, classic, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			mu.Lock()
			got = append(got, string(r.Params.Level))
			mu.Unlock()
		},
	})
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	call(t, cs, "ask", map[string]any{})
	// The client handles notifications in order: a debug record would come first.
	waitFor(func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) >= 1
	})
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0] != "info" {
		t.Errorf("got levels %v, want info alone", got)
	}
}

// TestClientInitializedAs2026: a client whose initialize asked for 2026-07-28 and whose
// calls carry no _meta is one the SDK sends no request to, and gives input-required
// results: the tool's request goes in one.
func TestClientInitializedAs2026(t *testing.T) {
	ts := askTool(t, func(ctx context.Context) (string, error) {
		_, err := client.Sample(ctx, &client.SampleRequest{Messages: []client.SampleMessage{client.UserMessage("hi")}})
		return fmt.Sprintf("unsupported=%v %v", errors.Is(err, errors.ErrUnsupported), err), nil
	})
	s := newServer()
	toolmcp.Register(s, ts)
	c1, c2 := net.Pipe()
	ss, err := s.Connect(context.Background(), &mcp.IOTransport{Reader: c2, Writer: c2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	go func() {
		for _, m := range []string{
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2026-07-28","capabilities":{"sampling":{}},"clientInfo":{"name":"x","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask","arguments":{}}}`,
		} {
			if _, err := c1.Write([]byte(m + "\n")); err != nil {
				return
			}
		}
	}()
	r := bufio.NewReader(c1)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		var msg struct {
			ID     int                 `json:"id"`
			Result *mcp.CallToolResult `json:"result"`
		}
		if json.Unmarshal(line, &msg) != nil || msg.ID != 2 {
			continue
		}
		// The SDK gives the client input-required results: the request goes in one.
		if r := msg.Result; r == nil || len(r.InputRequests) != 1 || r.InputRequests["toolgen_ask_1"] == nil || r.RequestState == "" {
			t.Errorf("result %s", line)
		}
		return
	}
}

// TestClientAfterTheCall: a goroutine the tool leaves behind, with a context that
// outlives the call, cannot ask the client once the call has returned.
func TestClientAfterTheCall(t *testing.T) {
	later := make(chan context.Context, 1)
	ts := askTool(t, func(ctx context.Context) (string, error) {
		later <- context.WithoutCancel(ctx)
		return "done", nil
	})
	asked := false
	cs := clientOf(t, ts, classic, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = true
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	})
	call(t, cs, "ask", map[string]any{})
	_, err := client.Elicit(<-later, &client.ElicitRequest{Message: "still there?"})
	if err == nil || !strings.Contains(err.Error(), "has returned") || asked {
		t.Errorf("asked=%v, err %v", asked, err)
	}
}

// TestAnswersComeBackChecked: under 2026-07-28 the answers come with the call sent
// again, from a client that may not have checked them, and the answers of earlier
// rounds come back in the state, which the client holds: both are checked against the
// form every time, and the form's defaults filled in.
func TestAnswersComeBackChecked(t *testing.T) {
	var runs atomic.Int32
	ts := askTool(t, func(ctx context.Context) (string, error) {
		runs.Add(1)
		first, err := client.Elicit(ctx, &client.ElicitRequest{Message: "Who are you?", Schema: json.RawMessage(formSchema)})
		if err != nil {
			return "", err
		}
		second, err := client.Elicit(ctx, &client.ElicitRequest{Message: "Sure?"})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s %s, %s", first.Action, first.Content, second.Action), nil
	})
	cs := clientOf(t, ts, "2026-07-28", &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}, // the test answers
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("not called: the test answers")
		},
	})
	ctx := context.Background()
	round := func(answers mcp.InputResponseMap, state string) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{}, InputResponses: answers, RequestState: state})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	r1 := round(nil, "")
	if !r1.NeedsInput() || r1.InputRequests["toolgen_ask_1"] == nil || len(r1.InputRequests) != 1 {
		t.Fatalf("round 1: %s", jsonOf(t, r1))
	}
	bad := mcp.InputResponseMap{"toolgen_ask_1": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"age": -1}}}
	if res := round(bad, r1.RequestState); !res.IsError || !strings.Contains(text(res), "does not match the form's schema") {
		t.Errorf("an answer off the form: %s", jsonOf(t, res))
	}
	good := mcp.InputResponseMap{"toolgen_ask_1": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "admin": true}}}
	r2 := round(good, r1.RequestState)
	if !r2.NeedsInput() || r2.InputRequests["toolgen_ask_2"] == nil || len(r2.InputRequests) != 1 {
		t.Fatalf("round 2: %s", jsonOf(t, r2))
	}
	done := round(mcp.InputResponseMap{"toolgen_ask_2": &mcp.ElicitResult{Action: "decline"}}, r2.RequestState)
	if done.IsError || text(done) != `accept {"age":30,"name":"Ada"}, decline` {
		t.Errorf("round 3: %s", jsonOf(t, done))
	}
	// A state the client made up is checked like an answer: here the first answer,
	// off the form, in place of the one the server's state carries.
	forged := withAnswers(t, r2.RequestState, `{"toolgen_ask_1":{"action":"accept","content":{"age":-1}}}`)
	if res := round(mcp.InputResponseMap{"toolgen_ask_2": &mcp.ElicitResult{Action: "decline"}}, forged); !res.IsError || !strings.Contains(text(res), "does not match") {
		t.Errorf("a forged state: %s", jsonOf(t, res))
	}
	if n := runs.Load(); n != 5 {
		t.Errorf("%d runs, want one a round", n)
	}
}

// TestRoundsEndTheCall: under 2026-07-28 a tool that goes on after a request it could
// not have answered yet (it ignores the error) does not get its result sent: the round
// ends with the request, and its observers see the outcome input_required, as the
// client gets it (client.InputAwaiter).
func TestRoundsEndTheCall(t *testing.T) {
	var outcomes []runtime.Outcome
	var mu sync.Mutex
	ts := askTool(t, func(ctx context.Context) (string, error) {
		_, err := client.Elicit(ctx, &client.ElicitRequest{Message: "Sure?"})
		_ = err // ignored: the tool goes on, and the round still ends asking
		return "asked", nil
	}).WithObserver(func(_ context.Context, e runtime.Event) {
		mu.Lock()
		outcomes = append(outcomes, e.Outcome)
		mu.Unlock()
	})
	cs := clientOf(t, ts, "2026-07-28", &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	})
	if res := call(t, cs, "ask", map[string]any{}); res.IsError || text(res) != "asked" {
		t.Fatalf("result %s", jsonOf(t, res))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(outcomes) != 2 || outcomes[0] != runtime.OutcomeInputRequired || outcomes[1] != runtime.OutcomeOK {
		t.Errorf("outcomes %v", outcomes)
	}
}

// TestApprovalThenTheToolAsks: a destructive tool behind ElicitApprover that asks its
// user in turn. Under 2026-07-28 the approval is asked once and holds through the
// round in which the tool asks (the state carries it, signed, to the next round);
// under 2025-11-25 both are asked while the call waits.
func TestApprovalThenTheToolAsks(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			var runs atomic.Int32
			ts, err := runtime.NewTool(runtime.Tool{
				Name:        "wipe",
				Annotations: runtime.Annotations{Destructive: new(true)},
				InputSchema: json.RawMessage(`{"type":"object","properties":{"disk":{"type":"string"}},"required":["disk"]}`),
			}, func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
				runs.Add(1)
				res, err := client.Elicit(ctx, &client.ElicitRequest{Message: "Why?", Schema: json.RawMessage(`{"type":"object","properties":{"why":{"type":"string"}},"required":["why"]}`)})
				if err != nil {
					return nil, err
				}
				return runtime.TextResult("wiped: " + string(res.Content)), nil
			})
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var asked []string
			cs := clientOf(t, ts.WithApprover(toolmcp.ElicitApprover()), version, &mcp.ClientOptions{
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					mu.Lock()
					asked = append(asked, req.Params.Message)
					mu.Unlock()
					if req.Params.Message == "Why?" {
						return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"why": "old"}}, nil
					}
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
				},
			})
			res := call(t, cs, "wipe", map[string]any{"disk": "d1"})
			if res.IsError || text(res) != `wiped: {"why":"old"}` {
				t.Fatalf("result %s", jsonOf(t, res))
			}
			mu.Lock()
			defer mu.Unlock()
			if len(asked) != 2 || !strings.HasPrefix(asked[0], "Allow wipe") || asked[1] != "Why?" {
				t.Errorf("the user was asked %q", asked)
			}
			want := int32(1)
			if version != classic {
				want = 2 // the round that asks, and the one with the answer
			}
			if runs.Load() != want {
				t.Errorf("the tool ran %d times, want %d", runs.Load(), want)
			}
		})
	}
}

// TestFormSchemaRestrictions: a form MCP does not allow (a nested object, an array of
// objects, a property of no type) fails before the user is asked, under both versions
// alike: under 2026-07-28 the SDK does not check it, and a hostile client's answer of
// that shape would reach the tool.
func TestFormSchemaRestrictions(t *testing.T) {
	for _, version := range versions {
		for name, form := range map[string]string{
			"nested object":    `{"type":"object","properties":{"who":{"type":"object","properties":{"name":{"type":"string"}}}}}`,
			"array of objects": `{"type":"object","properties":{"who":{"type":"array","items":{"type":"object"}}}}`,
			"no type":          `{"type":"object","properties":{"who":{}}}`,
			"not an object":    `{"type":"string"}`,
		} {
			t.Run(version+"/"+name, func(t *testing.T) {
				asked := false
				ts := askTool(t, func(ctx context.Context) (string, error) {
					_, err := client.Elicit(ctx, &client.ElicitRequest{Message: "?", Schema: json.RawMessage(form)})
					return "", err
				})
				cs := clientOf(t, ts, version, &mcp.ClientOptions{
					ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						asked = true
						return &mcp.ElicitResult{Action: "cancel"}, nil
					},
				})
				res := call(t, cs, "ask", map[string]any{})
				if !res.IsError || asked || !strings.Contains(text(res), "elicitation: the form") {
					t.Errorf("asked=%v: %s", asked, text(res))
				}
			})
		}
	}
}

// waitFor waits until done holds, for at most 5 s: notifications arrive apart from the
// result they come before.
func waitFor(done func() bool) {
	for deadline := time.Now().Add(5 * time.Second); !done() && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
}

// TestNothingFollowsTheResult: a goroutine the tool leaves behind, released once the
// client has the result, logs (with the call's logger, with one made for a context
// that outlives the call, and with a new one), reports progress and asks the client's
// user: nothing of it reaches the client, under both versions. The client handles
// what it gets in order, and the goroutine is done before the second call starts: its
// records, had any been sent, would come before the second call's.
func TestNothingFollowsTheResult(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) { testNothingFollowsTheResult(t, version) })
	}
}

func testNothingFollowsTheResult(t *testing.T, version string) {
	release := make(chan struct{})
	done := make(chan error, 1)
	var calls atomic.Int32
	ts := askTool(t, func(ctx context.Context) (string, error) {
		n := calls.Add(1)
		client.Logger(ctx).Info("during", "call", n)
		progress.Report(ctx, float64(n), 0, "during")
		if n == 1 {
			log := client.Logger(ctx)
			detached := context.WithoutCancel(ctx)
			kept := client.Logger(detached)
			go func() {
				<-release
				log.Info("after")
				kept.Info("after")
				client.Logger(detached).Warn("after")
				progress.Report(detached, 10, 0, "after")
				_, err := client.Elicit(detached, &client.ElicitRequest{Message: "after"})
				done <- err
			}()
		}
		return "done", nil
	})
	var mu sync.Mutex
	var got []string
	second := make(chan struct{})
	record := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, s)
	}
	cs := clientOf(t, ts, version, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			d := jsonOf(t, r.Params.Data)
			record("log " + d)
			if strings.Contains(d, `"call":2`) {
				close(second)
			}
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			record(fmt.Sprintf("progress %v %s", r.Params.Progress, r.Params.Message))
		},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			record("elicitation")
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	}, toolmcp.WithProgressInterval(-1))
	if version == classic {
		if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
			t.Fatal(err)
		}
	}
	callOnce := func(n int) {
		p := &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{}}
		if version != classic {
			p.Meta = mcp.Meta{mcp.MetaKeyLogLevel: "info"}
		}
		p.SetProgressToken(fmt.Sprintf("tok%d", n))
		res, err := cs.CallTool(context.Background(), p)
		if err != nil || res.IsError {
			t.Fatalf("call %d: %v %s", n, err, text(res))
		}
	}
	callOnce(1)
	close(release)
	if err := <-done; err == nil || !strings.Contains(err.Error(), "has returned") {
		t.Errorf("the goroutine's elicitation after the result: %v", err)
	}
	callOnce(2)
	<-second
	mu.Lock()
	defer mu.Unlock()
	var late []string
	for _, s := range got {
		if strings.Contains(s, "after") || s == "elicitation" {
			late = append(late, s)
		}
	}
	if len(late) > 0 {
		t.Errorf("the client got %q after the result; all it got: %q", late, got)
	}
}

// TestRequestEndsWithTheCall: a request a goroutine of the tool made while the call ran
// (with a context that outlives it) ends when the call returns, before the result goes:
// the client's answer, coming later, does not reach the goroutine.
func TestRequestEndsWithTheCall(t *testing.T) {
	asked, answer := make(chan struct{}), make(chan struct{})
	got := make(chan error, 1)
	ts := askTool(t, func(ctx context.Context) (string, error) {
		go func() {
			_, err := client.Sample(context.WithoutCancel(ctx), &client.SampleRequest{Messages: []client.SampleMessage{client.UserMessage("hi")}})
			got <- err
		}()
		<-asked
		return "done", nil
	})
	cs := clientOf(t, ts, classic, &mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			close(asked)
			<-answer
			return &mcp.CreateMessageResult{Role: "assistant", Content: &mcp.TextContent{Text: "late"}, Model: "m"}, nil
		},
	})
	call(t, cs, "ask", map[string]any{})
	// The goroutine's request ended before the result was sent: its error is there.
	var err error
	select {
	case err = <-got:
	default:
		close(answer)
		t.Fatalf("the goroutine's request to the client outlived the call's result: then it got %v", <-got)
	}
	close(answer)
	if err == nil || !strings.Contains(err.Error(), "sampling: the call it was made for returned before the client answered") {
		t.Errorf("err %v", err)
	}
}
