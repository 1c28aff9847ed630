package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/toolgen/toolgen/examples/bank/banking"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/tooltest"
)

// The deferred conversation: the model reads the transactions, then closes the account.
const deferQuestion = "Show my transactions, then close my account."

// deferredLoop returns a Loop over a scripted model (tooltest) of the
// provider, which stops at calls that need approval, and the text of the model's
// final answer once it has one.
func deferredLoop(provider tooltest.Format) (*loop.Loop, *string, error) {
	svc := banking.NewService(map[string][]banking.Transaction{
		"ada": {{ID: "t1", Time: time.Date(2026, time.November, 3, 12, 0, 0, 0, time.UTC), Description: "Bakery", AmountCents: -450}},
	})
	answer := new(string)
	send, err := tooltest.Send(provider, &tooltest.Script{
		Question: deferQuestion,
		Turns: []tooltest.Turn{
			{Calls: []tooltest.Call{{Name: "get_transactions", Args: `{"startDate":"2026-11-01T00:00:00Z","endDate":"2026-12-01T00:00:00Z"}`}}},
			{Calls: []tooltest.Call{{Name: "close_account", Args: `{"reason":"moving abroad","confirm":true}`}}},
		},
		Answer: func(results []tooltest.Result) string { *answer = tooltest.Quote(results); return *answer },
	})
	if err != nil {
		return nil, nil, err
	}
	p, err := provider.Provider()
	if err != nil {
		return nil, nil, err
	}
	return &loop.Loop{Provider: p, Tools: banking.ServiceTools(svc), Send: send, DeferApprovals: true}, answer, nil
}

// deferRun starts the conversation and writes the turn that waits for approval to file.
func deferRun(ctx context.Context, out io.Writer, name, file string) error {
	provider := tooltest.Format(name)
	chat, _, err := deferredLoop(provider)
	if err != nil {
		return err
	}
	req, err := provider.NewRequest("replay", deferQuestion)
	if err != nil {
		return err
	}
	_, _, err = chat.Run(banking.WithUser(ctx, "ada"), req)
	var p *loop.Pending
	if !errors.As(err, &p) {
		return fmt.Errorf("the conversation did not stop for an approval: %v", err)
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(file, b, 0o600); err != nil {
		return err
	}
	for _, c := range p.Calls {
		if c.NeedsApproval {
			fmt.Fprintf(out, "? %s %s waits for approval (%s)\n", c.Tool, c.Redacted, c.Digest)
		}
	}
	fmt.Fprintf(out, "The conversation is saved in %s; resume it with -resume %s -approve ask|yes|no.\n", file, file)
	return nil
}

// resumeRun reads the turn that waits in file, removes the file, so that the turn is
// resumed once, asks approve for each call that waits, and finishes the conversation.
func resumeRun(ctx context.Context, out io.Writer, file string, approve runtime.Approver) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var p loop.Pending
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if err := os.Remove(file); err != nil {
		return err // another run may have claimed it
	}
	chat, answer, err := deferredLoop(tooltest.Format(p.Provider))
	if err != nil {
		return err
	}
	decisions := map[string]runtime.Decision{}
	for _, c := range p.Calls {
		if !c.NeedsApproval {
			continue
		}
		tool, ok := chat.Tools.Lookup(c.Tool)
		if !ok {
			continue // no decision: denied
		}
		d := approve(ctx, runtime.ApprovalRequest{Tool: tool, Call: runtime.CallInfo{ID: c.ID, Provider: p.Provider}, Arguments: c.Arguments})
		if d.Allow {
			d = loop.Approved(c.Digest) // exactly these arguments
		}
		decisions[c.Key] = d
	}
	if _, _, err := chat.Resume(banking.WithUser(ctx, "ada"), &p, decisions); err != nil {
		return err
	}
	fmt.Fprintln(out, *answer)
	return nil
}
