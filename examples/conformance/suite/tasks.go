package suite

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/client"
	"github.com/toolgen/toolgen/runtime/progress"
)

// The tools of the tasks scenarios (tasks-*, MCP's tasks extension): greet answers at
// once, the others run as tasks for a client that negotiated the extension
// (toolmcp.WithStore).

// Greet greets someone by name, at once: it is not a task.
//
//toolgen:tool name=greet readonly idempotent openworld=false
//toolgen:param name desc="Who to greet."
func Greet(name string) string {
	return "Hello, " + name + "!"
}

// SlowComputeArgs are slow_compute's arguments.
type SlowComputeArgs struct {
	// Seconds is how long the computation takes.
	Seconds int `json:"seconds" tool:"minimum=0,maximum=3600"`
	// Label names the computation in its result.
	Label string `json:"label,omitempty" tool:"maxLength=200"`
}

// SlowCompute computes for the given number of seconds, then says it is done. It
// runs as a task, and ends cancelled when the task is.
//
//toolgen:tool name=slow_compute readonly idempotent openworld=false task=optional
func SlowCompute(ctx context.Context, a SlowComputeArgs) (string, error) {
	for i := range a.Seconds {
		progress.Report(ctx, float64(i), float64(a.Seconds), "computing")
		if err := pause(ctx, time.Second); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("Computed %q in %d seconds.", a.Label, a.Seconds), nil
}

// FailingJob runs for a second as a task, then fails with a tool error.
//
//toolgen:tool name=failing_job readonly openworld=false task=required
func FailingJob(ctx context.Context) error {
	if err := pause(ctx, time.Second); err != nil {
		return err
	}
	return runtime.ToolErrorf("the job failed, as it always does")
}

// ProtocolErrorJob runs as a task and panics: its task fails with a JSON-RPC error.
//
//toolgen:tool name=protocol_error_job readonly openworld=false task=optional
func ProtocolErrorJob() error {
	panic("protocol_error_job always panics")
}

// ConfirmDeleteArgs are confirm_delete's arguments.
type ConfirmDeleteArgs struct {
	// Filename is the file to delete.
	Filename string `json:"filename" tool:"maxLength=200"`
}

// ConfirmDelete asks the user, in its task, to confirm deleting a file, and says
// what the user answered (it deletes nothing).
//
//toolgen:tool name=confirm_delete readonly openworld task=optional
func ConfirmDelete(ctx context.Context, a ConfirmDeleteArgs) (string, error) {
	res, err := ask(ctx, "Delete "+a.Filename+"?",
		`{"type":"object","properties":{"confirm":{"type":"boolean","description":"Delete the file"}}}`)
	if err != nil {
		return "", err
	}
	return "confirm_delete: " + completed(res), nil
}

// MultiInput asks the user two questions at once, in its task, and says what the
// user answered to each.
//
//toolgen:tool name=multi_input readonly openworld task=optional
func MultiInput(ctx context.Context) (string, error) {
	const form = `{"type":"object","properties":{"name":{"type":"string","description":"A name"},` +
		`"confirm":{"type":"boolean","description":"Go on"}}}`
	type answer struct {
		res *client.ElicitResult
		err error
	}
	first, second := make(chan answer, 1), make(chan answer, 1)
	for _, ch := range []chan answer{first, second} {
		go func() {
			res, err := ask(ctx, "Your answer?", form)
			ch <- answer{res, err}
		}()
	}
	a, b := <-first, <-second
	if err := errors.Join(a.err, b.err); err != nil {
		return "", err
	}
	return "multi_input: " + contentOf(a.res) + " and " + contentOf(b.res), nil
}
