package tooltest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/toolgen/toolgen/runtime/loop"
)

// ErrScript is wrapped by the errors for conversations the script cannot play: a
// question it was not written for, a call its tools do not allow.
var ErrScript = errors.New("the script cannot answer this request")

// Script is what the scripted model does in a conversation.
type Script struct {
	// Question is the user's question the script answers; the first user message of a
	// request must say it. Empty accepts any question.
	Question string
	// Turns are the model's turns of tool calls, in order. A request whose conversation
	// holds k of them already gets turn k+1, or the final answer when there is none or
	// it makes no call.
	Turns []Turn
	// Answer composes the final answer from the results of every call, in the order
	// of the calls, as the model found them in the request. Nil quotes each result.
	Answer func(results []Result) string
}

// Turn is one turn of tool calls.
type Turn struct {
	// Say is text the model writes before its calls ("Let me check."); may be empty.
	Say string
	// Calls are the turn's calls, made at once.
	Calls []Call
	// Plan, when set, makes the calls instead of Calls, from the results of the turn
	// before, as the model found them in the request: a model that reads what its
	// tools said. Returning no call ends the tool calls.
	Plan func(last []Result) []Call
}

// Quote is the default Answer: one line per result, quoting it.
func Quote(results []Result) string {
	if len(results) == 0 {
		return "I did not need any tool to answer that."
	}
	var b strings.Builder
	b.WriteString("Here is what the tools said:")
	for _, r := range results {
		status := ""
		if r.IsError {
			status = " (error)"
		}
		fmt.Fprintf(&b, "\n- %s %s%s: %s", r.Call.Name, r.Call.Args, status, r.Text)
	}
	return b.String()
}

// format is one wire format: its name, by which Read reads its requests, and how to
// write the model's reply as a response body.
type format struct {
	name Format
	// write returns the response body for a reply to a request.
	write func(ex *Request, r *reply) ([]byte, error)
	// callID returns the id the format gives call j of turn t (both from 0).
	callID func(seed string, t, j int) string
	// mark, when set, returns what turn t must carry back besides its calls: the
	// id of a Responses reasoning item, a Gemini thought signature.
	mark func(seed string, t int) string
	// markName names what mark returns, for messages.
	markName string
}

// reply is what the model says: calls, with what it says before them, or an answer.
type reply struct {
	turn  int // the turn's number, from 0, when calls is not empty
	say   string
	calls []Call
	text  string
	seed  string
}

// Send returns the scripted model speaking a wire format, for loop.Loop's Send: it
// reads each request as Read does and answers with the response body the API would
// send. A request the API would reject is an error wrapping ErrRejected; one the
// script cannot answer, an error wrapping ErrScript. An unknown format is an error.
func Send(f Format, s *Script) (loop.SendFunc, error) {
	w, err := f.wire()
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, request []byte) ([]byte, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return play(w, s, request)
	}, nil
}

// wire returns the format's writer, or an error naming the formats.
func (f Format) wire() (format, error) {
	w, ok := formats[f]
	if !ok {
		names := make([]string, len(Formats()))
		for i, f := range Formats() {
			names[i] = string(f)
		}
		return format{}, fmt.Errorf("tooltest: unknown wire format %q (want one of %s)", f, strings.Join(names, ", "))
	}
	return w, nil
}

// play answers one request.
func play(f format, s *Script, request []byte) ([]byte, error) {
	ex, err := Read(f.name, request)
	if errors.Is(err, ErrUnsupported) {
		err = fmt.Errorf("%w: %w", ErrScript, err)
	}
	if err != nil {
		return nil, fmt.Errorf("tooltest %s: %w", f.name, err)
	}
	return answer(f, s, ex)
}

// answer returns the body of the script's answer to a request Read found valid.
func answer(f format, s *Script, ex *Request) ([]byte, error) {
	err := playable(ex)
	var r *reply
	if err == nil {
		r, err = s.next(f, ex)
	}
	if err != nil {
		return nil, fmt.Errorf("tooltest %s: %w", f.name, err)
	}
	return f.write(ex, r)
}

// playable returns an error wrapping ErrScript for a valid request the model cannot
// play: one that continues a stored conversation, or ends with a model turn.
func playable(ex *Request) error {
	switch {
	case ex.Stored:
		return fmt.Errorf("%w: the scripted model stores no responses: send the whole conversation in input", ErrScript)
	case ex.Prefill && ex.Format == GenerateContent:
		return fmt.Errorf("%w: the conversation ends with a model turn", ErrScript)
	case ex.Prefill:
		return fmt.Errorf("%w: the conversation ends with an assistant message (a prefill)", ErrScript)
	}
	return nil
}

// next checks the conversation of ex against the script and returns the model's reply.
func (s *Script) next(f format, ex *Request) (*reply, error) {
	if s.Question != "" && strings.TrimSpace(ex.Question) != strings.TrimSpace(s.Question) {
		return nil, fmt.Errorf("%w: it answers %q, but the user asked %q", ErrScript, s.Question, ex.Question)
	}
	seed := s.Question
	if seed == "" {
		seed = ex.Question
	}
	var all, last []Result
	for t, past := range ex.Turns {
		want, err := s.calls(t, last)
		if err != nil {
			return nil, err
		}
		if len(want) != len(past.Calls) {
			return nil, fmt.Errorf("%w: the model's turn %d made %d calls, but the request holds %d: send the model's turns back as they came", ErrRejected, t+1, len(want), len(past.Calls))
		}
		for j, c := range past.Calls {
			id := f.callID(seed, t, j)
			if c.ID != id || c.Name != want[j].Name || !sameJSON([]byte(c.Args), []byte(want[j].Args)) {
				return nil, fmt.Errorf("%w: call %d of the model's turn %d was %s %s (id %s), but the request holds %s %s (id %s): send the model's turns back as they came", ErrRejected, j+1, t+1, want[j].Name, want[j].Args, id, c.Name, c.Args, c.ID)
			}
		}
		if f.mark != nil && !slices.Contains(past.Marks, f.mark(seed, t)) {
			return nil, fmt.Errorf("%w: the model's turn %d came back without its %s %s: send the model's turns back as they came", ErrRejected, t+1, f.markName, f.mark(seed, t))
		}
		last = past.Results
		all = append(all, past.Results...)
	}
	answer := func() *reply {
		text := Quote(all)
		if s.Answer != nil {
			text = s.Answer(all)
		}
		return &reply{text: text, seed: seed}
	}
	if ex.Choice == ChoiceNone {
		return answer(), nil // told to answer with what it has
	}
	t := len(ex.Turns)
	calls, err := s.calls(t, last)
	if err != nil {
		return nil, err
	}
	if len(calls) == 0 {
		if ex.Choice == ChoiceRequired {
			return nil, fmt.Errorf("%w: the request requires a tool call, but the script has none left after %d turns", ErrScript, t)
		}
		return answer(), nil
	}
	if ex.Single && len(calls) > 1 {
		return nil, fmt.Errorf("%w: the request allows one call per turn, but turn %d makes %d", ErrScript, t+1, len(calls))
	}
	for j := range calls {
		c := &calls[j]
		if !slices.Contains(ex.Tools, c.Name) {
			return nil, fmt.Errorf("%w: turn %d calls %s, but the request offers no such tool (it offers %s)", ErrScript, t+1, c.Name, list(ex.Tools))
		}
		if ex.Only != nil && !slices.Contains(ex.Only, c.Name) {
			return nil, fmt.Errorf("%w: turn %d calls %s, but the request's tool choice allows only %s", ErrScript, t+1, c.Name, list(ex.Only))
		}
		c.ID = f.callID(seed, t, j)
	}
	var say string
	if t < len(s.Turns) {
		say = s.Turns[t].Say
	}
	return &reply{turn: t, say: say, calls: calls, seed: seed}, nil
}

// calls returns the calls of turn t (from 0), given the results of the turn before,
// with their arguments compacted.
func (s *Script) calls(t int, last []Result) ([]Call, error) {
	if t >= len(s.Turns) {
		return nil, nil
	}
	turn := s.Turns[t]
	calls := turn.Calls
	if turn.Plan != nil {
		calls = turn.Plan(slices.Clone(last))
	}
	out := make([]Call, len(calls))
	for j, c := range calls {
		args := strings.TrimSpace(c.Args)
		if args == "" {
			args = "{}"
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, []byte(args)); err != nil || args[0] != '{' {
			return nil, fmt.Errorf("%w: the arguments of call %d of turn %d, %s, are not a JSON object", ErrScript, j+1, t+1, c.Args)
		}
		out[j] = Call{Name: c.Name, Args: buf.String()}
	}
	return out, nil
}

// list quotes names for messages.
func list(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// token returns n characters of base62 derived from parts: stable ids that look like
// the providers' random ones.
func token(n int, parts ...any) string {
	const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	sum := sha256.Sum256(fmt.Appendf(nil, "%#v", parts))
	v := new(big.Int).SetBytes(sum[:])
	base := big.NewInt(int64(len(digits)))
	out := make([]byte, n)
	for i := range out {
		var d big.Int
		v.DivMod(v, base, &d)
		out[i] = digits[d.Int64()]
	}
	return string(out)
}

// tokens estimates a token count from a length in bytes, for usage fields.
func tokens(n int) int { return max(1, n/4) }
