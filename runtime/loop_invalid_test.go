package runtime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/invalid"
)

// turnProvider is a wire format for the tests of the bound on invalid calls: a response
// body "turn" followed by lines "<tool> <arguments>" makes those calls, in order; any
// other body is an answer. Continue records the text of each answer it sends back, so a
// test sees what the model would read. Its Stream reads events "call" (data
// "<tool> <arguments>") and "end".
type turnProvider struct{ answered *[][]string }

func (turnProvider) Name() string { return "turns" }

func (turnProvider) Prepare(request []byte, ts *Toolset, choice Choice) ([]byte, error) {
	return fmt.Appendf(bytes.Clone(request), " choice=%s", choice), nil
}

func (p turnProvider) PrepareStream(request []byte, ts *Toolset, choice Choice) ([]byte, error) {
	req, err := p.Prepare(request, ts, choice)
	return append(req, " stream"...), err
}

func (turnProvider) Calls(response []byte) ([]ToolCall, error) {
	lines, ok := strings.CutPrefix(string(response), "turn\n")
	if !ok {
		return nil, nil
	}
	var calls []ToolCall
	for i, line := range strings.Split(lines, "\n") {
		name, args, _ := strings.Cut(line, " ")
		calls = append(calls, ToolCall{ID: "call_" + strconv.Itoa(i), Name: name, Arguments: []byte(args)})
	}
	return calls, nil
}

func (p turnProvider) Continue(request, response []byte, results []CallResult) ([]byte, error) {
	var texts []string
	for _, r := range results {
		texts = append(texts, r.Result.Text())
	}
	*p.answered = append(*p.answered, texts)
	return fmt.Appendf(bytes.Clone(request), " answered=%d", len(results)), nil
}

func (turnProvider) Stream() Stream { return &turnStream{} }

// turnStream is the Stream of turnProvider.
type turnStream struct {
	lines []string
	done  bool
}

func (s *turnStream) Add(event, data []byte) error {
	switch string(event) {
	case "call":
		s.lines = append(s.lines, string(data))
	case "end":
		s.done = true
	default:
		return fmt.Errorf("unknown event %q", event)
	}
	return nil
}

func (s *turnStream) Text() string { return "" }
func (s *turnStream) Done() bool   { return s.done }

func (s *turnStream) Response() ([]byte, error) {
	switch {
	case !s.done:
		return nil, errors.New("the stream ended before its end event")
	case len(s.lines) == 0:
		return []byte("answer"), nil
	}
	return []byte("turn\n" + strings.Join(s.lines, "\n")), nil
}

func (s *turnStream) Calls() ([]ToolCall, error) {
	body, err := s.Response()
	if err != nil {
		return nil, err
	}
	return turnProvider{}.Calls(body)
}

// The arguments of the tests' calls: a tool's name alone calls it with valid
// arguments, with "!" after it with invalid ones.
var (
	turnArguments = map[string]string{
		"echo": `{"text":"hi"}`, "echo!": `{}`,
		"nothing": `{}`, "nothing!": `{"a":1}`,
		"ech!": `{}`, // an unknown tool
	}
	turnAnswers = map[string]string{
		"echo": "hi", "echo!": "invalid arguments for echo: /text: missing required property",
		"nothing": "ok", "nothing!": "invalid arguments for nothing: /a: unknown property: this object takes no properties",
		"ech!": `unknown tool "ech"; did you mean "echo"?; available tools: echo, fail_internal, fail_safe, hang, list, nothing, panic`,
	}
)

// invalidTurn is one turn of a model and what the Loop should make of it.
type invalidTurn struct {
	// calls are the turn's calls, as keys of turnArguments, separated by spaces.
	calls string
	// answers has a word per call: "ok" for the call's own answer, a number n for an
	// invalid call that is the tool's nth in a row, answered with the stop when n is
	// past the bound.
	answers string
	// counts is Round.InvalidCalls: "tool=count", with "!" when Stopped.
	counts string
}

// runTurns runs a Loop, sending or streaming, through the turns and a final answer,
// and checks each answer the model gets and each round's counts.
func runTurns(t *testing.T, l Loop, stream bool, bound int, turns []invalidTurn) {
	t.Helper()
	var answered [][]string
	var rounds []Round
	l.Provider = turnProvider{answered: &answered}
	l.Tools = newTestSet()
	l.MaxRounds = max(l.MaxRounds, len(turns))
	l.OnRound = func(r Round) { rounds = append(rounds, r) }
	var sent []string
	if stream {
		var streams [][]event
		for _, turn := range turns {
			var evs []event
			for _, c := range strings.Fields(turn.calls) {
				evs = append(evs, event{"call", strings.TrimSuffix(c, "!") + " " + turnArguments[c]})
			}
			streams = append(streams, append(evs, event{"end", ""}))
		}
		l.Stream = scriptedStream(&sent, append(streams, []event{{"end", ""}})...)
	} else {
		var bodies []string
		for _, turn := range turns {
			var lines []string
			for _, c := range strings.Fields(turn.calls) {
				lines = append(lines, strings.TrimSuffix(c, "!")+" "+turnArguments[c])
			}
			bodies = append(bodies, "turn\n"+strings.Join(lines, "\n"))
		}
		l.Send = scriptedSend(&sent, append(bodies, "answer")...)
	}
	resp, _, err := l.Run(context.Background(), []byte("ask"))
	if err != nil {
		t.Fatal(err)
	}
	if string(resp) != "answer" || len(rounds) != len(turns) || len(answered) != len(turns) {
		t.Fatalf("response %q after %d rounds, %d continued; want %d", resp, len(rounds), len(answered), len(turns))
	}
	for i, turn := range turns {
		calls, answers := strings.Fields(turn.calls), strings.Fields(turn.answers)
		r := rounds[i]
		if len(r.Calls) != len(calls) || len(answers) != len(calls) {
			t.Fatalf("round %d: %d results for %d calls, %d answers", i+1, len(r.Calls), len(calls), len(answers))
		}
		for j, c := range calls {
			want := turnAnswers[c]
			if n, err := strconv.Atoi(answers[j]); err == nil && n > bound {
				tool := strings.TrimSuffix(c, "!")
				want = fmt.Sprintf("%s: invalid arguments %d times in a row; stop calling %s and answer without it. This call: %s", tool, n, tool, want)
			}
			res := r.Calls[j].Result
			if res.Text() != want || answered[i][j] != want {
				t.Errorf("round %d, call %d (%s, %s): the round has %q, the model gets %q; want %q", i+1, j, c, answers[j], res.Text(), answered[i][j], want)
			}
			if strings.HasSuffix(c, "!") != res.IsError {
				t.Errorf("round %d, call %d (%s): IsError = %v", i+1, j, c, res.IsError)
			}
			if strings.HasSuffix(c, "!") && c != "ech!" && res.Outcome != OutcomeInvalidArguments {
				t.Errorf("round %d, call %d (%s): Outcome = %s", i+1, j, c, res.Outcome)
			}
		}
		var counts []string
		for _, ic := range r.InvalidCalls {
			s := ic.Tool + "=" + strconv.Itoa(ic.Count)
			if ic.Stopped {
				s += "!"
			}
			counts = append(counts, s)
		}
		if got := strings.Join(counts, " "); got != turn.counts {
			t.Errorf("round %d: InvalidCalls = %q, want %q", i+1, got, turn.counts)
		}
	}
}

// TestLoopInvalidCallsBound: invalid calls of a tool in a row, up to the bound, are
// answered with their violations; the one past it, and each after it, with the stop;
// zero or less is the default bound.
func TestLoopInvalidCallsBound(t *testing.T) {
	for _, tc := range []struct {
		name       string
		max, bound int
	}{
		{"default", 0, DefaultMaxInvalidCalls},
		{"negative", -1, DefaultMaxInvalidCalls},
		{"one", 1, 1},
		{"two", 2, 2},
		{"five", 5, 5},
	} {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stream=%v", tc.name, stream), func(t *testing.T) {
				var turns []invalidTurn
				for n := 1; n <= tc.bound+2; n++ { // at the bound, one past it, and two
					counts := "echo=" + strconv.Itoa(n)
					if n > tc.bound {
						counts += "!"
					}
					turns = append(turns, invalidTurn{"echo!", strconv.Itoa(n), counts})
				}
				runTurns(t, Loop{MaxInvalidCalls: tc.max}, stream, tc.bound, turns)
			})
		}
	}
}

// TestLoopInvalidCallsOff: a bound Run cannot reach never stops a tool.
func TestLoopInvalidCallsOff(t *testing.T) {
	runTurns(t, Loop{MaxInvalidCalls: math.MaxInt}, false, math.MaxInt, []invalidTurn{
		{"echo! echo! echo! echo! echo!", "1 2 3 4 5", "echo=5"},
	})
}

// TestLoopInvalidCallsReset: a valid call of a tool sets its count back to zero, also
// once the tool was told to stop, and a valid call past the bound runs.
func TestLoopInvalidCallsReset(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			runTurns(t, Loop{}, stream, 3, []invalidTurn{
				{"echo!", "1", "echo=1"},
				{"echo!", "2", "echo=2"},
				{"echo!", "3", "echo=3"},
				{"echo", "ok", ""}, // at the bound, then right
				{"echo!", "1", "echo=1"},
				{"echo!", "2", "echo=2"},
				{"echo!", "3", "echo=3"},
				{"echo!", "4", "echo=4!"},
				{"echo", "ok", ""}, // told to stop, then right: it runs
				{"echo!", "1", "echo=1"},
			})
		})
	}
}

// TestLoopInvalidCallsPerTool: each tool has its own count: another tool's calls, valid
// or not, leave it alone; the counts are in the order of the tools' names.
func TestLoopInvalidCallsPerTool(t *testing.T) {
	runTurns(t, Loop{MaxInvalidCalls: 2}, false, 2, []invalidTurn{
		{"nothing! echo!", "1 1", "echo=1 nothing=1"},
		{"nothing echo!", "ok 2", "echo=2"},
		{"nothing! echo!", "1 3", "echo=3! nothing=1"},
		{"nothing!", "2", "echo=3! nothing=2"},
		{"nothing! echo", "3 ok", "nothing=3!"},
		{"echo! nothing", "1 ok", "echo=1"},
	})
}

// TestLoopInvalidCallsOneTurn: the calls of one turn, which run in parallel, count in
// the turn's call order.
func TestLoopInvalidCallsOneTurn(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			runTurns(t, Loop{}, stream, 3, []invalidTurn{
				{"echo! echo! echo! echo! echo", "1 2 3 4 ok", ""},
				{"echo! echo! nothing! echo! echo! echo!", "1 2 1 3 4 5", "echo=5! nothing=1"},
				{"echo! echo echo! echo! echo! echo!", "6 ok 1 2 3 4", "echo=4! nothing=1"},
			})
		})
	}
}

// TestLoopInvalidCallsUnknownTool: calls of a tool the Toolset does not have are
// answered as unknown every time and counted nowhere.
func TestLoopInvalidCallsUnknownTool(t *testing.T) {
	runTurns(t, Loop{MaxInvalidCalls: 1}, false, 1, []invalidTurn{
		{"ech! ech! ech!", "ok ok ok", ""},
		{"ech! echo! ech!", "ok 1 ok", "echo=1"},
	})
}

// TestLoopInvalidCallsBudget: the stop comes first, and the violations after it are cut
// to the tool's result budget, so the model reads the stop whatever the budget.
func TestLoopInvalidCallsBudget(t *testing.T) {
	var args strings.Builder
	args.WriteString(`{`)
	for i := range 40 {
		fmt.Fprintf(&args, `"unknown_property_%d":1,`, i)
	}
	args.WriteString(`"text":"hi"}`)
	var sent []string
	var last Round
	l := Loop{Provider: argsProvider{fakeProvider{}, args.String()}, Tools: newTestSet().WithResultBudget(MinResultBytes),
		MaxInvalidCalls: 1, Send: scriptedSend(&sent, "calls:1", "calls:1", "Done."), OnRound: func(r Round) { last = r }}
	if _, _, err := l.Run(context.Background(), []byte("ask")); err != nil {
		t.Fatal(err)
	}
	res := last.Calls[0].Result
	if n, cut := res.Truncated(); !cut || n <= MinResultBytes || len(res.Text()) > MinResultBytes {
		t.Errorf("Truncated() = %d, %v; text of %d bytes: %q", n, cut, len(res.Text()), res.Text())
	}
	if want := "echo: invalid arguments 2 times in a row; stop calling echo and answer without it. This call: invalid arguments for echo: /unknown_property_0: unknown property"; !strings.HasPrefix(res.Text(), want) {
		t.Errorf("text = %q, want it to start with %q", res.Text(), want)
	}
	if !strings.Contains(res.Text(), "[truncated: ") || strings.Count(res.Text(), "[truncated: ") != 1 {
		t.Errorf("text = %q, want one truncation marker", res.Text())
	}
	var ae *invalid.ArgumentError
	if !errors.As(res.Err, &ae) || res.Outcome != OutcomeInvalidArguments {
		t.Errorf("Err = %v, Outcome = %s; want the ArgumentError, invalid_arguments", res.Err, res.Outcome)
	}
}

// argsProvider is fakeProvider with the given arguments for each call of echo.
type argsProvider struct {
	fakeProvider
	args string
}

func (p argsProvider) Calls(response []byte) ([]ToolCall, error) {
	calls, err := p.fakeProvider.Calls(response)
	for i := range calls {
		calls[i].Arguments = []byte(p.args)
	}
	return calls, err
}
