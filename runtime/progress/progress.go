// Package progress lets a running tool report how far it has got, and the caller that
// runs it listen: a tool calls Report with its context; a runtime.Toolset with an
// Observer (Toolset.WithProgress) hears every call's reports, and a caller that serves
// one call (toolmcp, for an MCP request with a progress token) listens to that call
// alone with NewContext.
//
//	for i, f := range files {
//		progress.Report(ctx, float64(i), float64(len(files)), "copying "+f)
//		...
//	}
package progress

import (
	"context"

	"github.com/toolgen/toolgen/runtime/internal/progressctx"
)

// Event is one report of a running call's progress, for an Observer: the call's Tool,
// CallID and Provider; Done, the progress so far, in whatever unit the tool counts
// (items, bytes, steps), which should grow with every report; Total, what Done
// reaches at the end, 0 when the tool does not know; Message, what the tool is doing
// ("" when it says nothing); and Time, when the tool reported.
type Event = progressctx.Event

// Observer is told about each progress report of a call while it runs. It is called on
// the tool's goroutine, one report of a call at a time, and must return quickly (hand
// slow work, such as a network write, to a goroutine of its own); it must be safe for
// concurrent use, since calls run in parallel. It must not report progress itself.
type Observer = progressctx.Observer

// NewContext returns ctx with o listening to the progress of the call run with it,
// beside the Toolset's own observer (runtime.Toolset.WithProgress): a caller that
// serves one call, such as toolmcp for an MCP request with a progress token, listens
// to that call alone. The calls that call's tool makes in turn, with its context, do not reach o.
func NewContext(ctx context.Context, o Observer) context.Context {
	return progressctx.WithListener(ctx, o)
}

// Report reports the progress of the call whose context ctx is (or derives from): done
// so far, of total (0 when unknown), with an optional message. A tool calls
// it as often as it likes; it is safe for concurrent use. It is a no-op when nothing
// listens, outside a call, after the call ended (the tool timed out, or a goroutine it
// started outlives it), and for a done that is not a finite number. A total that is
// negative or not finite counts as unknown. It never waits for more than the
// observers take, which must be little.
//
// Progress should grow with each report: MCP clients drop a report whose done is not
// more than the one before (toolmcp does not send it); an observer of the Toolset gets
// every report.
func Report(ctx context.Context, done, total float64, message string) {
	progressctx.Report(ctx, done, total, message)
}
