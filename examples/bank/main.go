// Command bank shows tools that are methods: the Service's state is injected through the
// receiver, and the signed-in user through the call's context, so the model can neither
// see nor choose whose account it reads. close_account is destructive: before it runs,
// the approver asks on the terminal (-approve ask, the default), or always allows or
// denies (-approve yes|no).
//
// With -defer file, a scripted model asks to close the account instead, and the run
// stops at that call: it saves the conversation, with the call waiting for approval, to
// file and exits. A second run, -resume file, asks -approve about the call, and
// finishes the conversation: the approval can come later, from another process.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/toolgen/toolgen/examples/bank/banking"
	"github.com/toolgen/toolgen/runtime"
)

func main() {
	approve := flag.String("approve", "ask", "how destructive calls are approved: ask (on the terminal), yes or no")
	deferTo := flag.String("defer", "", "run a conversation that stops at the call to approve, saving it to this file")
	resume := flag.String("resume", "", "resume the conversation saved by -defer in this file")
	provider := flag.String("provider", "openai", "the scripted model's wire format, with -defer: openai, openai-responses, anthropic or gemini")
	flag.Parse()
	var approver runtime.Approver
	switch *approve {
	case "ask":
		approver = terminalApprover(os.Stdin, os.Stdout)
	case "yes":
		approver = func(context.Context, runtime.ApprovalRequest) runtime.Decision { return runtime.Allow() }
	case "no":
		approver = func(context.Context, runtime.ApprovalRequest) runtime.Decision {
			return runtime.Deny("the user does not allow it")
		}
	default:
		fmt.Fprintf(os.Stderr, "bank: -approve must be ask, yes or no, not %q\n", *approve)
		os.Exit(2)
	}
	var err error
	switch {
	case *deferTo != "":
		err = deferRun(context.Background(), os.Stdout, *provider, *deferTo)
	case *resume != "":
		err = resumeRun(context.Background(), os.Stdout, *resume, approver)
	default:
		run(context.Background(), os.Stdout, approver)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bank:", err)
		os.Exit(1)
	}
}

// run makes the demo's calls on behalf of the user "ada", printing what the model would
// read back.
func run(ctx context.Context, out io.Writer, approver runtime.Approver) *banking.Service {
	day := func(d int) time.Time { return time.Date(2026, time.November, d, 12, 0, 0, 0, time.UTC) }
	svc := banking.NewService(map[string][]banking.Transaction{
		"ada": {
			{ID: "t1", Time: day(3), Description: "Bakery", AmountCents: -450},
			{ID: "t2", Time: day(10), Description: "Salary", AmountCents: 320000},
			{ID: "t3", Time: day(21), Description: "Rent", AmountCents: -95000},
		},
	})
	tools := banking.ServiceTools(svc).WithApprover(approver)
	ctx = banking.WithUser(ctx, "ada")

	for _, call := range []struct{ name, args string }{
		{"get_transactions", `{"startDate":"2026-11-01T00:00:00Z","endDate":"2026-11-15T00:00:00Z"}`},
		{"get_transactions", `{"startDate":"2026-11-30T00:00:00Z","endDate":"2026-11-01T00:00:00Z"}`},
		{"get_transactions", `{"startDate":"last month","userId":"bob"}`},
		{"close_account", `{"reason":"moving abroad","confirm":false}`},
		{"close_account", `{"reason":"moving abroad","confirm":true}`},
	} {
		fmt.Fprintf(out, "> %s %s\n", call.name, call.args)
		res := tools.Call(ctx, call.name, []byte(call.args))
		fmt.Fprintf(out, "< [%s] %s\n\n", res.Outcome, res.Text())
	}
	return svc
}

// terminalApprover asks on out, and reads the answer from in, whether each destructive
// call may run. Anything but "y" or "yes" denies it, and so does the end of the input,
// so a run without a terminal never closes an account.
func terminalApprover(in io.Reader, out io.Writer) runtime.Approver {
	var mu sync.Mutex // one question at a time
	lines := bufio.NewScanner(in)
	return func(ctx context.Context, req runtime.ApprovalRequest) runtime.Decision {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, "? The assistant wants to run %s with %s. Allow it? [y/N] ", req.Tool.Name, req.Redacted())
		if !lines.Scan() {
			fmt.Fprintln(out)
			return runtime.Deny("no one was there to approve it")
		}
		switch strings.ToLower(strings.TrimSpace(lines.Text())) {
		case "y", "yes":
			return runtime.Allow()
		}
		return runtime.Deny("the user declined")
	}
}
