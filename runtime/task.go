package runtime

import "context"

// A TaskStarter is a Client that can go on with a call as a task (MCP's tasks
// extension): toolmcp's Client is one. StartTask reports whether the call now runs
// as one.
type TaskStarter interface {
	StartTask(ctx context.Context) bool
}

// StartTask ends the prelude of a call to a tool whose TaskPrelude is set: the
// client gets a task for the call at once, and the tool goes on in the background,
// its requests to the client from here on in the task's (tasks/get's inputRequests,
// answered with tasks/update). Before it, the call runs in its request, its requests
// answered in the call's rounds: a tool asks there what decides whether the task is
// worth starting, and the answers it needs to start it.
//
// StartTask reports whether the call runs as a task: false outside MCP, for a tool
// without a prelude, for a client that did not negotiate the extension (the call
// goes on in its request, and its result answers it), and when the task could not be
// stored (the call's context is then cancelled, and the client gets the error). A
// call that runs as a task already reports true again, and nothing changes.
func StartTask(ctx context.Context) bool {
	c, ok := ClientFrom(ctx)
	if !ok {
		return false
	}
	s, ok := c.(TaskStarter)
	return ok && s.StartTask(ctx)
}
