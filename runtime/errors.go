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

// SafeMessage returns the message of the first *ToolError in err's chain, and whether
// there is one.
func SafeMessage(err error) (string, bool) {
	var te *ToolError
	if errors.As(err, &te) {
		return te.Message, true
	}
	return "", false
}
