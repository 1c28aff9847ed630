package runtime

import (
	"errors"
	"fmt"
)

// ToolError is an error whose message is safe for the model to read. Tools return one
// (see ToolErrorf) to tell the model what went wrong in terms it can act on; any other
// error a tool returns reaches the model only as a generic internal error.
type ToolError struct {
	// Message is what the model reads.
	Message string
	// Err is an optional cause, kept for logs and never shown to the model.
	Err error
}

// ToolErrorf returns a *ToolError whose message, formatted as fmt.Sprintf does, reaches
// the model. A %w verb wraps its operand as the cause: errors.Is and errors.As see it,
// and its text is part of the message.
func ToolErrorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &ToolError{Message: err.Error(), Err: errors.Unwrap(err)}
}

func (e *ToolError) Error() string { return e.Message }

// Unwrap returns the cause.
func (e *ToolError) Unwrap() error { return e.Err }

// safeMessage returns the message of the first *ToolError in err's chain, and whether
// there is one.
func safeMessage(err error) (string, bool) {
	var te *ToolError
	if errors.As(err, &te) {
		return te.Message, true
	}
	return "", false
}

// ErrMaxRounds is wrapped by the error loop.Loop's Run returns, together with the last
// response, when its rounds of calls have run and the model still calls tools in its
// answer to the request with tools switched off. Those calls are left unanswered: the
// conversation has no final answer. loop.ErrMaxRounds is the same value.
var ErrMaxRounds = errors.New("runtime: the model still calls tools after the round limit")
