package openai

import (
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/internal/wire"
	"github.com/toolgen/toolgen/runtime/loop"
)

var (
	_ loop.StreamProvider = Chat{}
	_ loop.StreamProvider = Responses{}
)

// PrepareStream returns request prepared as Prepare does, with "stream": true.
func (c Chat) PrepareStream(request []byte, ts *runtime.Toolset, choice loop.Choice) ([]byte, error) {
	req, err := c.Prepare(request, ts, choice)
	if err != nil {
		return nil, err
	}
	return wire.WithStream(req)
}

// Stream returns an empty ChatStream, with the Chat's Limits, as a loop.Stream: its
// Add takes the data of each event (the event name is ignored), Response is the
// ChatStream's Completion and Done reports a finish_reason without an error.
func (c Chat) Stream() loop.Stream { return &chatStream{ChatStream{Limits: c.Limits}} }

// PrepareStream returns request prepared as Prepare does, with "stream": true.
func (r Responses) PrepareStream(request []byte, ts *runtime.Toolset, choice loop.Choice) ([]byte, error) {
	req, err := r.Prepare(request, ts, choice)
	if err != nil {
		return nil, err
	}
	return wire.WithStream(req)
}

// Stream returns an empty ResponsesStream, with the Responses' Limits, as a
// loop.Stream: its Add takes the data of each event (the type in the data names
// the event), and Done reports response.completed without an error.
func (r Responses) Stream() loop.Stream {
	return &responsesStream{ResponsesStream{Limits: r.Limits}}
}

// chatStream is a ChatStream as a loop.Stream.
type chatStream struct{ s ChatStream }

// Add adds the data of one event; a Chat Completions stream names no events.
func (c *chatStream) Add(_, data []byte) error { return c.s.Add(data) }

// Text returns the message text so far.
func (c *chatStream) Text() string { return c.s.Text() }

// Calls returns the calls of the finished stream (see ChatStream.Calls).
func (c *chatStream) Calls() ([]runtime.ToolCall, error) { return c.s.Calls() }

// Response returns the finished stream as a chat completion (see ChatStream.Completion).
func (c *chatStream) Response() ([]byte, error) { return c.s.Completion() }

// Done reports whether a finish_reason came, and no error.
func (c *chatStream) Done() bool { return c.s.err == nil && c.s.finish != "" }

// responsesStream is a ResponsesStream as a loop.Stream.
type responsesStream struct{ s ResponsesStream }

// Add adds the data of one event, whose "type" names it.
func (r *responsesStream) Add(_, data []byte) error { return r.s.Add(data) }

// Text returns the output text so far.
func (r *responsesStream) Text() string { return r.s.Text() }

// Calls returns the calls of the completed stream (see ResponsesStream.Calls).
func (r *responsesStream) Calls() ([]runtime.ToolCall, error) { return r.s.Calls() }

// Response returns the response of response.completed (see ResponsesStream.Response).
func (r *responsesStream) Response() ([]byte, error) { return r.s.Response() }

// Done reports whether response.completed came, and no error.
func (r *responsesStream) Done() bool { return r.s.err == nil && r.s.completed }
