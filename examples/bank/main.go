// Command bank shows tools that are methods: the Service's state is injected through the
// receiver, and the signed-in user through the call's context, so the model can neither
// see nor choose whose account it reads.
package main

import (
	"context"
	"fmt"
	"time"

	"github.com/toolgen/toolgen/examples/bank/banking"
)

func main() {
	day := func(d int) time.Time { return time.Date(2026, time.November, d, 12, 0, 0, 0, time.UTC) }
	svc := banking.NewService(map[string][]banking.Transaction{
		"ada": {
			{ID: "t1", Time: day(3), Description: "Bakery", AmountCents: -450},
			{ID: "t2", Time: day(10), Description: "Salary", AmountCents: 320000},
			{ID: "t3", Time: day(21), Description: "Rent", AmountCents: -95000},
		},
	})
	tools := banking.ServiceTools(svc)
	ctx := banking.WithUser(context.Background(), "ada")

	for _, call := range []struct{ name, args string }{
		{"get_transactions", `{"startDate":"2026-11-01T00:00:00Z","endDate":"2026-11-15T00:00:00Z"}`},
		{"get_transactions", `{"startDate":"2026-11-30T00:00:00Z","endDate":"2026-11-01T00:00:00Z"}`},
		{"get_transactions", `{"startDate":"last month","userId":"bob"}`},
		{"close_account", `{"reason":"moving abroad","confirm":false}`},
	} {
		res := tools.Call(ctx, call.name, []byte(call.args))
		status := "ok"
		if res.IsError {
			status = "error"
		}
		fmt.Printf("> %s %s\n< [%s] %s\n\n", call.name, call.args, status, res.Text())
	}
}
