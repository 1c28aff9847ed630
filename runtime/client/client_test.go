package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/client"
)

// TestClientOutsideMCP: a call no Client serves cannot ask a model or a user, and says
// so with errors.ErrUnsupported; its log records go nowhere.
func TestClientOutsideMCP(t *testing.T) {
	ctx := context.Background()
	_, err := client.Sample(ctx, &client.SampleRequest{Messages: []client.SampleMessage{client.UserMessage("hi")}})
	if !errors.Is(err, errors.ErrUnsupported) || !strings.Contains(err.Error(), "no client serves this call") {
		t.Errorf("Sample: %v", err)
	}
	_, err = client.Elicit(ctx, &client.ElicitRequest{Message: "?"})
	if !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Elicit: %v", err)
	}
	if client.Logger(ctx).Handler().Enabled(ctx, slog.LevelError) {
		t.Error("the logger of a call no client serves is enabled")
	}
	if _, ok := client.FromContext(nil); ok { //nolint:staticcheck // a nil context has no client
		t.Error("a nil context has a client")
	}
}

// fakeClient records what a tool asks and answers with fixed values.
type fakeClient struct {
	sampled *client.SampleRequest
	asked   *client.ElicitRequest
	logs    []string
}

func (c *fakeClient) Sample(_ context.Context, req *client.SampleRequest) (*client.SampleResult, error) {
	c.sampled = req
	return &client.SampleResult{Role: runtime.RoleAssistant, Content: runtime.TextContent("blue")}, nil
}

func (c *fakeClient) Elicit(_ context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
	c.asked = req
	return &client.ElicitResult{Action: client.ElicitAccept, Content: json.RawMessage(`{"ok":true}`)}, nil
}

func (c *fakeClient) LogHandler(context.Context) slog.Handler { return (*recordHandler)(c) }

type recordHandler fakeClient

func (h *recordHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *recordHandler) Handle(_ context.Context, r slog.Record) error {
	h.logs = append(h.logs, r.Message)
	return nil
}
func (h *recordHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *recordHandler) WithGroup(string) slog.Handler      { return h }

// TestNewContext: an application serves a tool's requests with a Client of its
// own, through Toolset.Call; requests that cannot be sent fail before reaching it.
func TestNewContext(t *testing.T) {
	ts, err := runtime.NewTool(runtime.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
			s, err := client.Sample(ctx, &client.SampleRequest{Messages: []client.SampleMessage{client.UserMessage("colour?")}})
			if err != nil {
				return nil, err
			}
			e, err := client.Elicit(ctx, &client.ElicitRequest{Message: "sure?"})
			if err != nil {
				return nil, err
			}
			client.Logger(ctx).Info("asked")
			return runtime.TextResult(s.Text() + " " + string(e.Action) + " " + string(e.Content)), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	c := &fakeClient{}
	res := ts.Call(client.NewContext(context.Background(), c), "ask", []byte(`{}`))
	if res.IsError || res.Text() != `blue accept {"ok":true}` {
		t.Fatalf("result %q (%v)", res.Text(), res.Err)
	}
	if c.sampled == nil || c.asked == nil || c.asked.Message != "sure?" || len(c.logs) != 1 || c.logs[0] != "asked" {
		t.Errorf("the client saw %+v", c)
	}
	if _, err := client.Sample(client.NewContext(context.Background(), c), &client.SampleRequest{}); err == nil {
		t.Error("a sampling request with no message was sent")
	}
	if _, err := client.Elicit(client.NewContext(context.Background(), c), &client.ElicitRequest{Schema: json.RawMessage(`{`)}); err == nil {
		t.Error("a form with a broken schema was sent")
	}
}

// TestElicitSchemaIsAnObject: a schema that is JSON but not an object (null, an
// array, a string) is no form: it fails before the client is asked, rather than asking
// for content checked against nothing.
func TestElicitSchemaIsAnObject(t *testing.T) {
	for _, schema := range []string{`null`, `[]`, `"form"`, `1`} {
		c := &fakeClient{}
		_, err := client.Elicit(client.NewContext(context.Background(), c), &client.ElicitRequest{Message: "?", Schema: json.RawMessage(schema)})
		if err == nil || !strings.Contains(err.Error(), "not a JSON object") || c.asked != nil {
			t.Errorf("schema %s: err %v, asked %v", schema, err, c.asked != nil)
		}
	}
	c := &fakeClient{}
	if _, err := client.Elicit(client.NewContext(context.Background(), c), &client.ElicitRequest{Schema: json.RawMessage(` {"type":"object"} `)}); err != nil || c.asked == nil {
		t.Errorf("an object schema: %v", err)
	}
}

// TestInputRequiredOutcome: a tool that returns the error of a request whose answer
// comes with the call sent again (ErrInputRequired, wrapped as a safe error or not)
// ends with OutcomeInputRequired, which is no failure for the slog observer.
func TestInputRequiredOutcome(t *testing.T) {
	for name, err := range map[string]error{
		"plain":      client.ErrInputRequired,
		"wrapped":    errors.Join(errors.New("elicitation"), client.ErrInputRequired),
		"tool error": runtime.ToolErrorf("could not ask: %w", client.ErrInputRequired),
	} {
		var logged strings.Builder
		ts, terr := runtime.NewTool(runtime.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, json.RawMessage) (*runtime.Result, error) { return nil, err })
		if terr != nil {
			t.Fatal(terr)
		}
		ts = ts.WithObserver(runtime.SlogObserver(slog.New(slog.NewTextHandler(&logged, nil))))
		res := ts.Call(context.Background(), "ask", []byte(`{}`))
		if res.Outcome != runtime.OutcomeInputRequired || !res.IsError || res.Text() != "ask waits for the client's input" {
			t.Errorf("%s: outcome %s, %q", name, res.Outcome, res.Text())
		}
		if !strings.Contains(logged.String(), "level=INFO") || !strings.Contains(logged.String(), "outcome=input_required") {
			t.Errorf("%s: logged %s", name, logged.String())
		}
	}
}

// awaitingClient is a Client whose call's round always ends asking (InputAwaiter).
type awaitingClient struct{ fakeClient }

func (*awaitingClient) AwaitsInput() bool { return true }

// TestInputAwaiter: when the call's Client says the round ended asking, the call is
// one that waits for input, whatever its tool returned.
func TestInputAwaiter(t *testing.T) {
	ts, err := runtime.NewTool(runtime.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, json.RawMessage) (*runtime.Result, error) {
			return runtime.TextResult("went on"), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	res := ts.Call(client.NewContext(context.Background(), &awaitingClient{}), "ask", []byte(`{}`))
	if res.Outcome != runtime.OutcomeInputRequired || !errors.Is(res.Err, client.ErrInputRequired) {
		t.Errorf("outcome %s, err %v", res.Outcome, res.Err)
	}
	if res := ts.Call(client.NewContext(context.Background(), &fakeClient{}), "ask", []byte(`{}`)); res.Outcome != runtime.OutcomeOK {
		t.Errorf("a Client that is no InputAwaiter: outcome %s", res.Outcome)
	}
}

// TestApproverAwaitingInput: an approver that denies a call while its Client says the
// round ends asking for input (toolmcp's ElicitApprover asking the user under MCP
// 2026-07-28) leaves a call waiting for that input, not a denied one: observers see
// input_required, with the approver's reason; the tool does not run. The same denial
// with a Client that awaits nothing is a denial.
func TestApproverAwaitingInput(t *testing.T) {
	var ran atomic.Int32
	ts, err := runtime.NewTool(runtime.Tool{Name: "wipe", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, json.RawMessage) (*runtime.Result, error) {
			ran.Add(1)
			return runtime.TextResult("wiped"), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	var events []runtime.Event
	ts = ts.WithApprover(func(context.Context, runtime.ApprovalRequest) runtime.Decision {
		return runtime.Deny("waiting for the user's approval")
	}).WithObserver(func(_ context.Context, e runtime.Event) { events = append(events, e) })
	for _, c := range []struct {
		client client.Client
		want   runtime.Outcome
	}{
		{&awaitingClient{}, runtime.OutcomeInputRequired},
		{&fakeClient{}, runtime.OutcomeDenied},
	} {
		events = nil
		res := ts.Call(client.NewContext(context.Background(), c.client), "wipe", []byte(`{}`))
		if res.Outcome != c.want || len(events) != 1 || events[0].Outcome != c.want || events[0].Reason != "waiting for the user's approval" {
			t.Errorf("%T: outcome %s, events %+v", c.client, res.Outcome, events)
		}
		if c.want == runtime.OutcomeInputRequired && !errors.Is(res.Err, client.ErrInputRequired) {
			t.Errorf("%T: err %v", c.client, res.Err)
		}
	}
	if ran.Load() != 0 {
		t.Errorf("the tool ran %d times", ran.Load())
	}
}
