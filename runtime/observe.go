package runtime

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/toolgen/toolgen/runtime/internal/clientctx"
	"github.com/toolgen/toolgen/runtime/invalid"
)

// Outcome classifies how a call ended.
type Outcome string

// The outcomes of a call.
const (
	OutcomeOK               Outcome = "ok"
	OutcomeInvalidArguments Outcome = "invalid_arguments" // the model's arguments broke the schema
	OutcomeToolError        Outcome = "tool_error"        // the tool returned a safe error (ToolErrorf)
	OutcomeInternalError    Outcome = "internal_error"    // any other error, or a panic: masked from the model
	OutcomeDenied           Outcome = "denied"            // the approver or the policy refused the call
	OutcomeTimeout          Outcome = "timeout"
	OutcomeCanceled         Outcome = "canceled"
	OutcomeUnknownTool      Outcome = "unknown_tool"
	// OutcomeInputRequired is a call that ended to wait for its client's input: a
	// request of the tool's to the client (client.Elicit, client.Sample) is answered with the call
	// sent again (MCP 2026-07-28), and the tool runs again then (client.ErrInputRequired).
	OutcomeInputRequired Outcome = "input_required"
)

// CallInfo identifies a call for the tool, the approver and observers. RunCalls and
// the provider adapters put it in the call's context; tools read it with
// CallFromContext.
type CallInfo struct {
	// ID is the provider's call id, "" when there is none (a direct Call).
	ID string
	// Provider names the provider the call came from ("openai", "mcp", ...), or "".
	Provider string
}

// callInfoKey is the context key of a call's CallInfo; toolimpl.CallValue answers it
// for a context type of a caller's own.
type callInfoKey = clientctx.InfoKey

// ContextWithCall returns ctx carrying info.
func ContextWithCall(ctx context.Context, info CallInfo) context.Context {
	return context.WithValue(ctx, callInfoKey{}, info)
}

// CallFromContext returns the CallInfo ctx carries.
func CallFromContext(ctx context.Context) (CallInfo, bool) {
	info, ok := ctx.Value(callInfoKey{}).(CallInfo)
	return info, ok
}

// Event describes one call, for an Observer. It never holds argument values unless the
// Toolset was told to log them (WithArgumentLogging), and then only with the values of
// sensitive properties redacted.
type Event struct {
	Tool     string
	CallID   string
	Provider string
	Groups   []string
	Start    time.Time
	Duration time.Duration
	Outcome  Outcome
	// Err is the whole error behind a tool_error, internal_error, timeout or canceled
	// outcome, for the log: internal errors reach the model only as a generic message,
	// and here in full.
	Err error
	// Violations are the violations of invalid_arguments, without the values got.
	Violations []invalid.Violation
	// OmittedViolations counts the violations past the decoder's budget, which
	// Violations does not list.
	OmittedViolations int
	// Reason is why a denied call was denied, or, for an input_required call its
	// approver answered so (toolmcp's ElicitApprover under MCP 2026-07-28), what it
	// waits for.
	Reason string
	// Arguments are the call's arguments with sensitive values redacted, when the
	// Toolset logs arguments; nil otherwise.
	Arguments json.RawMessage
	// ResultBytes is the result's model-facing bytes as the call made it, before the
	// result budget cut it: len(Result.Text()) for a result of text alone (see
	// Toolset.WithResultBudget for what counts).
	ResultBytes int
	// Truncated reports that the result budget cut what the model got.
	Truncated bool
}

// Observer is told about every call once it has ended. It must be safe for concurrent
// use: calls of one turn run in parallel.
type Observer func(ctx context.Context, e Event)

// SlogObserver returns an Observer that logs each call to logger: at Info when it went
// well, at Warn when the model or the approver can act on what went wrong, at Error for
// internal errors.
func SlogObserver(logger *slog.Logger) Observer {
	return func(ctx context.Context, e Event) {
		attrs := []slog.Attr{
			slog.String("tool", e.Tool),
			slog.String("outcome", string(e.Outcome)),
			slog.Duration("duration", e.Duration),
		}
		if e.CallID != "" {
			attrs = append(attrs, slog.String("call_id", e.CallID))
		}
		if e.Provider != "" {
			attrs = append(attrs, slog.String("provider", e.Provider))
		}
		if len(e.Groups) > 0 {
			attrs = append(attrs, slog.Any("groups", e.Groups))
		}
		if e.Err != nil {
			attrs = append(attrs, slog.String("error", e.Err.Error()))
		}
		if e.Reason != "" {
			attrs = append(attrs, slog.String("reason", e.Reason))
		}
		if len(e.Violations) > 0 {
			v := make([]string, len(e.Violations))
			for i, x := range e.Violations {
				v[i] = x.String()
			}
			attrs = append(attrs, slog.Any("violations", v))
		}
		if e.OmittedViolations > 0 {
			attrs = append(attrs, slog.Int("omitted_violations", e.OmittedViolations))
		}
		if e.Arguments != nil {
			attrs = append(attrs, slog.String("arguments", string(e.Arguments)))
		}
		attrs = append(attrs, slog.Int("result_bytes", e.ResultBytes))
		if e.Truncated {
			attrs = append(attrs, slog.Bool("truncated", true))
		}
		level := slog.LevelInfo
		switch e.Outcome {
		case OutcomeOK, OutcomeInputRequired:
		case OutcomeInternalError:
			level = slog.LevelError
		default:
			level = slog.LevelWarn
		}
		logger.LogAttrs(ctx, level, "tool call", attrs...)
	}
}

// withoutValues returns the violations with the values got removed, for observers.
func withoutValues(vs []invalid.Violation) []invalid.Violation {
	out := make([]invalid.Violation, len(vs))
	for i, v := range vs {
		v.Got = ""
		out[i] = v
	}
	return out
}
