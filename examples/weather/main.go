// Command weather shows toolgen's generated tools at work without a model: it prints the
// tool catalog, then dispatches a valid and an invalid call the way a model would send
// them, and prints what the model would read back.
package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
)

func main() {
	tools := forecast.Tools()
	printCatalog(os.Stdout, tools)

	ctx := context.Background()
	for _, call := range []struct{ name, args string }{
		{"get_weather", `{"city":"Paris","days":2}`},
		{"get_weather", `{"city":"Paris","unit":"kelvin","days":30,"country":"FR"}`},
		{"hello_world", `{"name":"Ada","times":2}`},
	} {
		res := tools.Call(ctx, call.name, []byte(call.args))
		status := "ok"
		if res.IsError {
			status = "error"
		}
		fmt.Printf("\n> %s %s\n< [%s] %s\n", call.name, call.args, status, res.Text())
	}
}

// printCatalog lists each tool with its effective annotations and the first line of its
// description.
func printCatalog(w *os.File, tools *runtime.Toolset) {
	fmt.Fprintf(w, "%d tools:\n", tools.Len())
	for _, t := range tools.Tools() {
		e := t.Annotations.Effective()
		var hints []string
		if e.ReadOnly {
			hints = append(hints, "read-only")
		}
		if e.Destructive {
			hints = append(hints, "destructive")
		}
		if e.Idempotent {
			hints = append(hints, "idempotent")
		}
		if e.OpenWorld {
			hints = append(hints, "open-world")
		}
		first, _, _ := strings.Cut(t.Description, "\n")
		fmt.Fprintf(w, "  %-12s [%s] %s\n", t.Name, strings.Join(hints, ", "), first)
	}
}
