package loop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// fakeProvider is a wire format for the Loop's tests: a response body "calls:N" makes
// N calls of echo, any other body is an answer. Prepare appends the tool choice to the
// request, Continue the number of answers, so a test can read what the Loop sent.
type fakeProvider struct{}

func (fakeProvider) Name() string { return "fake" }

func (fakeProvider) Prepare(request []byte, ts *runtime.Toolset, choice Choice) ([]byte, error) {
	return fmt.Appendf(bytes.Clone(request), " choice=%s", choice), nil
}

func (fakeProvider) Calls(response []byte) ([]runtime.ToolCall, error) {
	n, ok := strings.CutPrefix(string(response), "calls:")
	if !ok {
		return nil, nil
	}
	count, err := strconv.Atoi(n)
	if err != nil {
		return nil, err
	}
	calls := make([]runtime.ToolCall, count)
	for i := range calls {
		calls[i] = runtime.ToolCall{ID: "call_" + strconv.Itoa(i), Name: "echo", Arguments: []byte(`{"text":"hi"}`)}
	}
	return calls, nil
}

func (fakeProvider) Continue(request, response []byte, results []runtime.CallResult) ([]byte, error) {
	return fmt.Appendf(bytes.Clone(request), " answered=%d", len(results)), nil
}

// scriptedSend answers the requests with the responses in order, repeating the last one,
// and records the requests.
func scriptedSend(sent *[]string, responses ...string) SendFunc {
	return func(ctx context.Context, request []byte) ([]byte, error) {
		*sent = append(*sent, string(request))
		i := min(len(*sent), len(responses)) - 1
		return []byte(responses[i]), nil
	}
}

// TestLoopMaxRounds: a model that still calls tools once they are switched off gets no
// answers, and Run says so with runtime.ErrMaxRounds and the last response.
func TestLoopMaxRounds(t *testing.T) {
	for _, tc := range []struct {
		name      string
		maxRounds int
		rounds    int // rounds of calls that ran
		calls     string
		left      string
	}{
		{"two calls", 3, 3, "calls:2", "2 calls left unanswered"},
		{"one call", 1, 1, "calls:1", "1 call left unanswered"},
		{"default", 0, DefaultMaxRounds, "calls:2", "2 calls left unanswered"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sent []string
			rounds := 0
			l := Loop{Provider: fakeProvider{}, Tools: newTestSet(), Send: scriptedSend(&sent, tc.calls),
				MaxRounds: tc.maxRounds, OnRound: func(Round) { rounds++ }}
			resp, conv, err := l.Run(context.Background(), []byte("ask"))
			if !errors.Is(err, runtime.ErrMaxRounds) {
				t.Fatalf("err = %v, want ErrMaxRounds", err)
			}
			for _, want := range []string{"fake: ", strconv.Itoa(tc.rounds) + " rounds", tc.left} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if string(resp) != tc.calls {
				t.Errorf("response = %q, want the last one, %q", resp, tc.calls)
			}
			if rounds != tc.rounds || len(sent) != tc.rounds+1 {
				t.Errorf("%d rounds ran, %d requests sent; want %d and %d", rounds, len(sent), tc.rounds, tc.rounds+1)
			}
			if last := sent[len(sent)-1]; string(conv) != last || !strings.HasSuffix(last, " choice=none") {
				t.Errorf("conversation = %q, last request %q", conv, last)
			}
		})
	}
}

// TestLoopMaxRoundsAnswered: a model that stops calling tools when told to, or at the
// last round of calls, ends the conversation without error.
func TestLoopMaxRoundsAnswered(t *testing.T) {
	for _, tc := range []struct {
		name      string
		responses []string
		rounds    int
		choice    string
	}{
		{"answers with tools off", []string{"calls:1", "calls:2", "Done."}, 2, "none"},
		{"answers at the last round", []string{"calls:1", "Done."}, 1, "auto"},
		{"answers at once", []string{"Done."}, 0, "auto"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sent []string
			rounds := 0
			l := Loop{Provider: fakeProvider{}, Tools: newTestSet(), Send: scriptedSend(&sent, tc.responses...),
				MaxRounds: 2, OnRound: func(Round) { rounds++ }}
			resp, conv, err := l.Run(context.Background(), []byte("ask"))
			if err != nil {
				t.Fatal(err)
			}
			if string(resp) != "Done." || rounds != tc.rounds || !strings.HasSuffix(string(conv), " choice="+tc.choice) {
				t.Errorf("response %q after %d rounds, conversation %q", resp, rounds, conv)
			}
		})
	}
}

// newTestSet is a stand-in for a generated package's tools: echo (a required text,
// echoed), tools that succeed with nothing, fail safely or internally, panic, hang and
// return a structured value, each of them taking no other arguments.
func newTestSet() *runtime.Toolset {
	closed := `{"type":"object","additionalProperties":false}`
	tools := []struct {
		name, schema string
		timeout      time.Duration
		run          func(ctx context.Context, args json.RawMessage) (*runtime.Result, error)
	}{
		{"echo", `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`, 0,
			func(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
				var in struct{ Text string }
				err := json.Unmarshal(args, &in)
				return runtime.TextResult(in.Text), err
			}},
		{"fail_internal", closed, 0, func(context.Context, json.RawMessage) (*runtime.Result, error) {
			return nil, errors.New("database password=hunter2 rejected")
		}},
		{"fail_safe", closed, 0, func(context.Context, json.RawMessage) (*runtime.Result, error) {
			return nil, runtime.ToolErrorf("order %d not found", 42)
		}},
		{"hang", closed, 20 * time.Millisecond, func(context.Context, json.RawMessage) (*runtime.Result, error) {
			time.Sleep(time.Second) // ignores its context
			return runtime.TextResult("late"), nil
		}},
		{"list", closed, 0, func(context.Context, json.RawMessage) (*runtime.Result, error) {
			return runtime.StructuredResult([]string{}, true)
		}},
		{"nothing", closed, 0, func(context.Context, json.RawMessage) (*runtime.Result, error) { return nil, nil }},
		{"panic", closed, 0, func(context.Context, json.RawMessage) (*runtime.Result, error) { panic("secret internal state") }},
	}
	var sets []*runtime.Toolset
	for _, tool := range tools {
		ts, err := runtime.NewTool(runtime.Tool{Name: tool.name, Timeout: tool.timeout, InputSchema: json.RawMessage(tool.schema)}, tool.run)
		if err != nil {
			panic(err) // the schemas above are fixed
		}
		sets = append(sets, ts)
	}
	return runtime.Join(sets...)
}
