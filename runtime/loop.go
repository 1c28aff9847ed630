package runtime

import (
	"context"
	"errors"
	"fmt"
	"time"
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
	Prepare(request []byte, ts *Toolset, choice Choice) ([]byte, error)
	// Calls returns the tool calls of a response body, in order; none when the model
	// answered without tools.
	Calls(response []byte) ([]ToolCall, error)
	// Continue returns request extended with the response's model turn and the
	// answers to its calls, ready to send back.
	Continue(request, response []byte, results []CallResult) ([]byte, error)
}

// SendFunc sends a request body to the provider's API and returns the response body.
// Users supply it: their HTTP client, an official SDK, or a scripted model in tests.
type SendFunc func(ctx context.Context, request []byte) ([]byte, error)

// DefaultMaxRounds is how many rounds of tool calls a Loop runs by default before it asks
// for a final answer.
const DefaultMaxRounds = 8

// Loop runs a conversation: request, tool calls, results, again, until the model answers
// without calling tools or MaxRounds rounds of calls have run; then it asks for a final
// answer with tools switched off. A model that calls tools even then is not answered:
// Run returns its response with an error wrapping ErrMaxRounds.
type Loop struct {
	Provider Provider
	Tools    *Toolset
	Send     SendFunc
	// MaxRounds bounds the rounds of tool calls (DefaultMaxRounds when zero).
	MaxRounds int
	// MaxParallel bounds the calls of one round that run at once (see RunCalls).
	MaxParallel int
	// OnRound, when set, is told about each round of calls once they have run.
	OnRound func(Round)
}

// Round describes one round of tool calls.
type Round struct {
	// Number counts rounds from 1.
	Number   int
	Provider string
	// Calls holds the calls and their results, in the order the model made them.
	Calls []CallResult
	// Duration is how long the round's calls took, all together.
	Duration time.Duration
}

// ErrMaxRounds is wrapped by the error Run returns, together with the last response, when
// MaxRounds rounds of calls have run and the model still calls tools in its answer to the
// request with tools switched off. Those calls are left unanswered: the conversation has
// no final answer.
var ErrMaxRounds = errors.New("runtime: the model still calls tools after the round limit")

// ErrNoProvider is returned by Run when the Loop lacks a Provider, Tools or Send.
var ErrNoProvider = errors.New("runtime: Loop needs a Provider, Tools and Send")

// Run runs the conversation that request starts and returns the model's final response
// body, and the request that produced it (the whole conversation). When the model still
// calls tools after MaxRounds rounds, Run returns that response, its request and an error
// for which errors.Is(err, ErrMaxRounds) holds.
func (l *Loop) Run(ctx context.Context, request []byte) (response, conversation []byte, err error) {
	if l.Provider == nil || l.Tools == nil || l.Send == nil {
		return nil, nil, ErrNoProvider
	}
	maxRounds := l.MaxRounds
	if maxRounds <= 0 {
		maxRounds = DefaultMaxRounds
	}
	name := l.Provider.Name()
	ctx = ContextWithCall(ctx, CallInfo{Provider: name})
	for round := 1; ; round++ {
		choice := ChoiceAuto
		if round > maxRounds {
			choice = ChoiceNone // enough: answer with what you have
		}
		req, err := l.Provider.Prepare(request, l.Tools, choice)
		if err != nil {
			return nil, request, fmt.Errorf("%s: prepare round %d: %w", name, round, err)
		}
		resp, err := l.Send(ctx, req)
		if err != nil {
			return nil, req, fmt.Errorf("%s: send round %d: %w", name, round, err)
		}
		calls, err := l.Provider.Calls(resp)
		if err != nil {
			return resp, req, fmt.Errorf("%s: read the response of round %d: %w", name, round, err)
		}
		if len(calls) == 0 {
			return resp, req, nil
		}
		if choice == ChoiceNone {
			what := "calls"
			if len(calls) == 1 {
				what = "call"
			}
			return resp, req, fmt.Errorf("%s: %w: %d rounds of calls ran, and the final response has %d %s left unanswered",
				name, ErrMaxRounds, maxRounds, len(calls), what)
		}
		start := time.Now()
		results := l.Tools.RunCalls(ctx, calls, l.MaxParallel)
		if l.OnRound != nil {
			l.OnRound(Round{Number: round, Provider: name, Calls: results, Duration: time.Since(start)})
		}
		request, err = l.Provider.Continue(req, resp, results)
		if err != nil {
			return resp, req, fmt.Errorf("%s: continue after round %d: %w", name, round, err)
		}
	}
}
