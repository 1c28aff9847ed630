package toolmcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/progress"
	"github.com/toolgen/toolgen/toolmcp"
)

// A tool that takes a minute, served as a task (the README's "Long-running tools as
// tasks"): a client that negotiated the tasks extension gets a task id at once, and any
// client of the same identity polls it, on this replica or another sharing the store.
func ExampleWithStore() {
	report, err := runtime.NewTool(runtime.Tool{
		Name:        "monthly_report",
		Description: "Builds the month's report; it takes about a minute.",
		Annotations: runtime.Annotations{ReadOnly: new(true)},
		Task:        runtime.TaskOptional, // //toolgen:tool task=optional in generated code
	}, func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		for i := range 60 {
			progress.Report(ctx, float64(i), 60, "reading the ledger")
			select {
			case <-time.After(time.Second):
			case <-ctx.Done(): // tasks/cancel
				return nil, ctx.Err()
			}
		}
		return runtime.TextResult("the report"), nil
	})
	if err != nil {
		panic(err)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "reports", Version: "v1"}, nil)
	// toolpostgres.New(ctx, pool) for replicas; NewMemoryStore for one process.
	toolmcp.Register(s, report, toolmcp.WithStore(toolmcp.NewMemoryStore()))
	mux := http.NewServeMux()
	mux.Handle("/mcp", &toolmcp.HTTPScreen{Next: mcp.NewStreamableHTTPHandler(
		func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true})})
	_ = mux // http.ListenAndServe("127.0.0.1:8080", mux)
	fmt.Println("serving monthly_report as a task")
	// Output: serving monthly_report as a task
}
