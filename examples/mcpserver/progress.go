package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/toolgen/toolgen/examples/bank/banking"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/progress"
)

// reportDayDelay stands for the time a slow back end takes to answer for one day.
const reportDayDelay = 10 * time.Millisecond

// novemberReport returns the tool november_report, defined at run time: it sums the
// demo user's transactions of November 2026 one day at a time, through the bank's
// GetTransactions, and reports its progress after each day (progress.Report),
// which an MCP client that sent a progress token gets as notifications/progress.
func novemberReport(bank *banking.Service) *runtime.Toolset {
	ts, err := runtime.NewTool(runtime.Tool{
		Name:        "november_report",
		Title:       "November report",
		Description: "Sums the signed-in user's spending and income of November 2026, day by day. It takes a moment and reports its progress.",
		Annotations: runtime.Annotations{ReadOnly: new(true), OpenWorld: new(false)},
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		// A client that negotiated MCP's tasks extension gets a task to poll.
		Task: runtime.TaskOptional,
	}, func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		const days = 30
		var spent, received int64
		for d := range days {
			start := time.Date(2026, time.November, d+1, 0, 0, 0, 0, time.UTC)
			txs, err := bank.GetTransactions(ctx, start, start.AddDate(0, 0, 1))
			if err != nil {
				return nil, err
			}
			for _, tx := range txs {
				if tx.AmountCents < 0 {
					spent -= tx.AmountCents
				} else {
					received += tx.AmountCents
				}
			}
			select {
			case <-time.After(reportDayDelay):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			progress.Report(ctx, float64(d+1), days, start.Format("Jan 2"))
		}
		return runtime.TextResult(fmt.Sprintf("November 2026: spent %d.%02d, received %d.%02d",
			spent/100, spent%100, received/100, received%100)), nil
	})
	if err != nil {
		panic(err) // a schema it cannot enforce: a programming error
	}
	return ts
}
