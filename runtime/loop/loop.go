// Package loop runs a conversation with a model that calls tools: it sends a request,
// runs the tool calls of the response on a runtime.Toolset, sends their results back,
// and goes on until the model answers without calling tools, within a bound on the
// rounds (ErrMaxRounds past it). A Provider is one API's wire format over raw JSON
// bodies (runtime/openai, runtime/anthropic, runtime/gemini implement it); a SendFunc,
// or a StreamFunc for streamed responses, is the user's HTTP client or SDK. A Loop
// that defers approvals stops at calls that need one and returns a Pending to store
// and Resume later, in this process or another.
//
//	l := loop.Loop{Provider: openai.Chat{}, Tools: weather.Tools(), Send: send}
//	response, conversation, err := l.Run(ctx, request)
package loop

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/invalid"
)

// Choice says whether the model may, must or must not call tools in a request.
type Choice string

// The tool choices every provider supports.
const (
	ChoiceAuto     Choice = "auto"     // the model decides
	ChoiceRequired Choice = "required" // the model must call a tool
	ChoiceNone     Choice = "none"     // the model must answer without tools
)

// Provider is one provider's wire format, as the provider-neutral Loop needs it. The
// provider packages (runtime/openai, runtime/anthropic, runtime/gemini) implement it
// over raw JSON request and response bodies, keeping every field they do not own.
type Provider interface {
	// Name names the provider in events ("openai", "anthropic", ...).
	Name() string
	// Prepare returns request with the tools of ts offered and the tool choice set.
	Prepare(request []byte, ts *runtime.Toolset, choice Choice) ([]byte, error)
	// Calls returns the tool calls of a response body, in order; none when the model
	// answered without tools.
	Calls(response []byte) ([]runtime.ToolCall, error)
	// Continue returns request extended with the response's model turn and the
	// answers to its calls, ready to send back.
	Continue(request, response []byte, results []runtime.CallResult) ([]byte, error)
}

// Pauser is a Provider whose API may pause a turn in which it runs tools of its own
// (Anthropic's stop_reason "pause_turn"), for the client to send the turn back as it is
// so that the API goes on with it. A Loop does so, as a round of its own, with
// Continue and no results.
type Pauser interface {
	// Paused reports whether response is a paused turn.
	Paused(response []byte) bool
}

// SendFunc sends a request body to the provider's API and returns the response body.
// Users supply it: their HTTP client, an official SDK, or a scripted model in tests.
type SendFunc func(ctx context.Context, request []byte) ([]byte, error)

// DefaultMaxRounds is how many rounds of tool calls a Loop runs by default before it asks
// for a final answer.
const DefaultMaxRounds = 8

// DefaultMaxInvalidCalls is how many calls of one tool in a row a Loop answers with
// their invalid arguments alone, by default, before it tells the model to stop calling
// the tool.
const DefaultMaxInvalidCalls = 3

// Loop runs a conversation: request, tool calls, results, again, until the model answers
// without calling tools or MaxRounds rounds of calls have run; then it asks for a final
// answer with tools switched off. A model that calls tools even then is not answered:
// Run returns its response with an error wrapping ErrMaxRounds.
//
// A Loop with a Stream function streams: each round's request is prepared with the
// StreamProvider's PrepareStream, its events go to a Stream of the provider as they
// come, and OnText is told the text the model writes while it writes it. The calls of
// a round run once its stream is complete, every call answered once, in order, as
// without streaming; a stream cut off, or holding half a call, is an error of Run, and
// no call of it runs.
//
// The Loop bounds a model's self-correction: it counts, for each tool, the calls in a
// row, across the rounds of one Run and in each turn's call order, whose outcome is
// invalid_arguments; a call of the tool with any other outcome sets the count back to
// zero, and calls of other tools leave it alone. While the count is at most
// MaxInvalidCalls, an invalid call is answered with its violations, so the model can
// correct it. Past that, each invalid call of the tool is answered with an error that
// tells the model to stop calling it and answer without it, followed by the violations:
// "get_weather: invalid arguments 4 times in a row; stop calling get_weather and answer
// without it. This call: invalid arguments for get_weather: ...". A valid call of the
// tool still runs, and sets the count back to zero. The tool stays among the offered
// tools: taking it away would change the request's prefix, which providers cache, and
// leave earlier calls of it in the conversation naming a tool the request does not
// offer. Round.InvalidCalls has the counts.
type Loop struct {
	// Provider is the wire format; a StreamProvider when Stream is set.
	Provider Provider
	// Tools runs the calls.
	Tools *runtime.Toolset
	// Send sends a request and returns the whole response; unused when Stream is set.
	Send SendFunc
	// Stream, when set, sends each request asking for a streamed response and passes
	// on its events (see StreamFunc); the Loop then needs a StreamProvider.
	Stream StreamFunc
	// OnText, when set on a Loop that streams, is told each piece of text the model
	// writes, in order, as the events bring it: the pieces of one round together are
	// the text of its Stream, and the rounds follow each other.
	OnText func(delta string)
	// MaxRounds bounds the rounds of tool calls (DefaultMaxRounds when zero).
	MaxRounds int
	// MaxParallel bounds the calls of one round that run at once (see runtime.Toolset.RunCalls).
	MaxParallel int
	// MaxInvalidCalls bounds the calls of one tool in a row with invalid arguments
	// that are answered with their violations alone (DefaultMaxInvalidCalls when zero
	// or less); past it, each is answered with an error telling the model to stop
	// calling the tool. A count Run cannot reach, such as math.MaxInt, turns it off.
	MaxInvalidCalls int
	// OnRound, when set, is told about each round of calls once they have run.
	OnRound func(Round)
	// DeferApprovals stops Run at a turn with any call that needs approval (a call of
	// a destructive tool, with valid arguments) instead of consulting the Toolset's
	// Approver: none of the turn's calls runs, and Run returns a *Pending as its error
	// (errors.Is(err, ErrPending) holds) to store and pass to Resume with decisions,
	// later, in this process or another. Resume then runs the whole turn.
	DeferApprovals bool
}

// Round describes one round of tool calls.
type Round struct {
	// Number counts rounds from 1.
	Number   int
	Provider string
	// Calls holds the calls and their results, in the order the model made them.
	Calls []runtime.CallResult
	// Duration is how long the round's calls took, all together.
	Duration time.Duration
	// InvalidCalls holds, in the order of the tools' names, each tool whose latest
	// calls, up to and including this round's, had invalid arguments: how many in a
	// row. A tool whose count is back to zero, or was never above it, is not listed.
	InvalidCalls []InvalidCount
}

// InvalidCount is how many calls of one tool in a row had invalid arguments.
type InvalidCount struct {
	Tool  string
	Count int
	// Stopped reports that Count is past the Loop's MaxInvalidCalls: the tool's
	// latest invalid call was answered with an error telling the model to stop
	// calling it.
	Stopped bool
}

// ErrMaxRounds is wrapped by the error Run returns, together with the last response,
// when MaxRounds rounds of calls have run and the model still calls tools in its answer
// to the request with tools switched off. Those calls are left unanswered: the
// conversation has no final answer. It is runtime.ErrMaxRounds, the same value.
var ErrMaxRounds = runtime.ErrMaxRounds

// ErrNoProvider is returned by Run when the Loop lacks a Provider, Tools or Send.
var ErrNoProvider = errors.New("runtime: Loop needs a Provider, Tools and Send")

// Run runs the conversation that request starts and returns the model's final response
// body, and the request that produced it (the whole conversation). When the model still
// calls tools after MaxRounds rounds, Run returns that response, its request and an error
// for which errors.Is(err, ErrMaxRounds) holds.
func (l *Loop) Run(ctx context.Context, request []byte) (response, conversation []byte, err error) {
	if err := l.check(); err != nil {
		return nil, nil, err
	}
	return l.run(ctx, request, 1, map[string]int{}, nil)
}

// check reports a Loop that cannot run.
func (l *Loop) check() error {
	if l.Provider == nil || l.Tools == nil || (l.Send == nil && l.Stream == nil) {
		return ErrNoProvider
	}
	if l.Stream != nil {
		if _, ok := l.Provider.(StreamProvider); !ok {
			return fmt.Errorf("%w: the Loop streams, but the %s provider is no StreamProvider", ErrNoProvider, l.Provider.Name())
		}
	}
	return nil
}

// run runs the conversation from the given round on; first, when set, is a turn whose
// calls are to run before any request is sent.
func (l *Loop) run(ctx context.Context, request []byte, first int, invalid map[string]int, pending *resumed) (response, conversation []byte, err error) {
	sp, _ := l.Provider.(StreamProvider)
	if l.Stream == nil {
		sp = nil
	}
	maxRounds := l.maxRounds()
	maxInvalid := l.MaxInvalidCalls
	if maxInvalid <= 0 {
		maxInvalid = DefaultMaxInvalidCalls
	}
	name := l.Provider.Name()
	ctx = runtime.ContextWithCall(ctx, runtime.CallInfo{Provider: name})
	search, err := l.clientSearch(pending)
	if err != nil {
		return nil, request, err
	}
	for round := first; ; round++ {
		choice := ChoiceAuto
		if round > maxRounds {
			choice = ChoiceNone // enough: answer with what you have
		}
		var (
			req, resp []byte
			calls     []runtime.ToolCall
			tools     = search.offered(l.Tools)
		)
		switch {
		case pending != nil:
			req, resp, calls = pending.req, pending.resp, pending.calls
			tools = search.restrict(pending.tools, tools)
		case sp != nil:
			req, resp, calls, err = l.streamRound(ctx, sp, request, tools, choice, round)
		default:
			req, resp, calls, err = l.sendRound(ctx, request, tools, choice, round)
		}
		if err != nil {
			return resp, req, err
		}
		if len(calls) == 0 {
			if p, ok := l.Provider.(Pauser); !ok || !p.Paused(resp) {
				return resp, req, nil
			}
			// The API paused a turn of its own tools (a search of deferred tools, a
			// web search): send it back as it is, for the API to go on with it, as a
			// round, so that an API pausing again and again meets the round limit.
			if choice == ChoiceNone {
				return resp, req, fmt.Errorf("%s: %w: %d rounds ran, and the API paused the final turn", name, ErrMaxRounds, maxRounds)
			}
			if request, err = l.Provider.Continue(req, resp, nil); err != nil {
				return resp, req, fmt.Errorf("%s: continue the paused turn of round %d: %w", name, round, err)
			}
			continue
		}
		if choice == ChoiceNone && pending == nil {
			what := "calls"
			if len(calls) == 1 {
				what = "call"
			}
			return resp, req, fmt.Errorf("%s: %w: %d rounds of calls ran, and the final response has %d %s left unanswered",
				name, ErrMaxRounds, maxRounds, len(calls), what)
		}
		if l.DeferApprovals && pending == nil {
			if p := l.deferred(round, req, resp, calls, invalid); p != nil {
				p.Loaded = search.names()
				return resp, req, p
			}
		}
		start := time.Now()
		results := tools.RunCalls(ctx, calls, l.MaxParallel)
		if pending != nil {
			for i := range results {
				results[i].Call.ID = pending.ids[i] // answered under their own ids
			}
			pending = nil
		}
		l.countInvalid(results, invalid, maxInvalid)
		if l.OnRound != nil {
			l.OnRound(Round{Number: round, Provider: name, Calls: results, Duration: time.Since(start),
				InvalidCalls: invalidCounts(invalid, maxInvalid)})
		}
		request, err = l.Provider.Continue(req, resp, results)
		if err != nil {
			return resp, req, fmt.Errorf("%s: continue after round %d: %w", name, round, err)
		}
	}
}

// maxRounds is the Loop's bound on the rounds of calls: MaxRounds, DefaultMaxRounds
// when that is zero or less, and at most math.MaxInt-1, so that the round after the
// last, the final answer's, has a number.
func (l *Loop) maxRounds() int {
	if l.MaxRounds <= 0 {
		return DefaultMaxRounds
	}
	return min(l.MaxRounds, math.MaxInt-1)
}

// sendRound sends the request of one round and reads the calls of its response.
func (l *Loop) sendRound(ctx context.Context, request []byte, tools *runtime.Toolset, choice Choice, round int) (req, resp []byte, calls []runtime.ToolCall, err error) {
	name := l.Provider.Name()
	req, err = l.Provider.Prepare(request, tools, choice)
	if err != nil {
		return request, nil, nil, fmt.Errorf("%s: prepare round %d: %w", name, round, err)
	}
	resp, err = l.Send(ctx, req)
	if err != nil {
		return req, nil, nil, fmt.Errorf("%s: send round %d: %w", name, round, err)
	}
	calls, err = l.Provider.Calls(resp)
	if err != nil {
		return req, resp, nil, fmt.Errorf("%s: read the response of round %d: %w", name, round, err)
	}
	return req, resp, calls, nil
}

// streamRound sends the request of one round asking for a stream, feeds its events to
// a Stream, passing the text on to OnText as it grows, and returns the whole response
// the complete stream makes and its calls.
func (l *Loop) streamRound(ctx context.Context, sp StreamProvider, request []byte, tools *runtime.Toolset, choice Choice, round int) (req, resp []byte, calls []runtime.ToolCall, err error) {
	name := sp.Name()
	req, err = sp.PrepareStream(request, tools, choice)
	if err != nil {
		return request, nil, nil, fmt.Errorf("%s: prepare round %d: %w", name, round, err)
	}
	s := sp.Stream()
	if s == nil {
		return req, nil, nil, fmt.Errorf("%s: round %d: the provider gave no Stream", name, round)
	}
	var addErr error // the Stream's, as opposed to the StreamFunc's own
	told := 0        // the bytes of text OnText has been told
	err = l.Stream(ctx, req, func(event, data []byte) error {
		if err := s.Add(event, data); err != nil {
			addErr = err
			return err
		}
		if l.OnText != nil {
			if text := s.Text(); len(text) > told {
				delta := text[told:]
				told = len(text)
				l.OnText(delta)
			}
		}
		return nil
	})
	switch {
	case addErr != nil:
		return req, nil, nil, fmt.Errorf("%s: read the stream of round %d: %w", name, round, addErr)
	case err != nil:
		return req, nil, nil, fmt.Errorf("%s: stream round %d: %w", name, round, err)
	}
	if calls, err = s.Calls(); err != nil {
		return req, nil, nil, fmt.Errorf("%s: read the stream of round %d: %w", name, round, err)
	}
	if resp, err = s.Response(); err != nil {
		return req, nil, nil, fmt.Errorf("%s: read the stream of round %d: %w", name, round, err)
	}
	return req, resp, calls, nil
}

// countInvalid counts the invalid calls in a row of each tool in results, in their
// order, and answers each invalid call past maxInvalid with the stop instead.
func (l *Loop) countInvalid(results []runtime.CallResult, invalid map[string]int, maxInvalid int) {
	for i := range results {
		r := &results[i]
		name := r.Call.Name
		if r.Result == nil || r.Result.Outcome != runtime.OutcomeInvalidArguments {
			delete(invalid, name) // a valid call, or no call of a known tool
			continue
		}
		if invalid[name] < math.MaxInt { // a count a Pending brought may be any
			invalid[name]++
		}
		if n := invalid[name]; n > maxInvalid {
			r.Result = l.stopCalling(r.Result, name, n)
		}
	}
}

// stopCalling returns the answer to the nth invalid call in a row of the named tool,
// past the Loop's bound: an error telling the model to stop calling the tool, followed
// by the violations of res, within the tool's result budget.
func (l *Loop) stopCalling(res *runtime.Result, name string, n int) *runtime.Result {
	text := res.Text()
	var ae *invalid.ArgumentError
	if _, cut := res.Truncated(); cut && errors.As(res.Err, &ae) {
		text = ae.Error() // the whole of it: cut below, after the stop
	}
	msg := name + ": invalid arguments " + strconv.Itoa(n) + " times in a row; stop calling " + name +
		" and answer without it. This call: " + text
	stop := &runtime.Result{IsError: true, Content: []runtime.Content{runtime.TextContent(msg)}, Err: res.Err,
		Outcome: runtime.OutcomeInvalidArguments}
	return l.Tools.Fit(name, stop)
}

// invalidCounts returns the counts of invalid, in the order of the tools' names.
func invalidCounts(invalid map[string]int, maxInvalid int) []InvalidCount {
	if len(invalid) == 0 {
		return nil
	}
	out := make([]InvalidCount, 0, len(invalid))
	for tool, n := range invalid {
		out = append(out, InvalidCount{Tool: tool, Count: n, Stopped: n > maxInvalid})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tool < out[j].Tool })
	return out
}

// Stream accumulates one streamed response, event by event, into what a whole
// response would have said. The provider packages give one per wire format through
// StreamProvider.Stream, all of this one shape; each keeps the bounds of its format
// (the arguments of one call, cut turns, duplicate call ids, malformed calls).
type Stream interface {
	// Add adds one server-sent event: its name (empty when it has none) and its data.
	// An event the format cannot take is an error, which the Stream keeps: later calls
	// of Add, Calls and Response return it again.
	Add(event, data []byte) error
	// Text returns the text the model has written so far. It only grows: the text of
	// a later call starts with that of an earlier one.
	Text() string
	// Calls returns the tool calls of the complete stream, in order. A stream cut
	// off, or one that holds half a call, is an error: Calls never returns half a call.
	Calls() ([]runtime.ToolCall, error)
	// Response returns the complete stream as the whole response body the API would
	// have answered without streaming, which the Provider's Calls and Continue read.
	// It fails as Calls does.
	Response() ([]byte, error)
	// Done reports whether the stream is complete and has no error.
	Done() bool
}

// StreamProvider is a Provider that can also read its responses streamed, for a Loop
// with a Stream function.
type StreamProvider interface {
	Provider
	// PrepareStream returns request prepared as Prepare does, and asking for a streamed
	// response: "stream": true in the body, for the formats that say it there. A format
	// that says it in the URL instead (Gemini's streamGenerateContent?alt=sse) leaves
	// the body as Prepare does: the URL is the StreamFunc's business.
	PrepareStream(request []byte, ts *runtime.Toolset, choice Choice) ([]byte, error)
	// Stream returns an empty Stream for one streamed response.
	Stream() Stream
}

// StreamFunc sends a request body to the provider's API, asking for a streamed
// response, and calls events with each server-sent event of the response, in order,
// as the provider packages' ReadSSE functions read them from the response body. It
// returns the first error of events, unchanged, or its own, and nil once the
// response has ended. Users supply it, as they supply a SendFunc.
type StreamFunc func(ctx context.Context, request []byte, events func(event, data []byte) error) error
