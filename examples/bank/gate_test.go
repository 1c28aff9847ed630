package main

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen/toolgen/examples/bank/banking"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/tooltest"
)

// TestDeniedThroughEveryProvider runs a conversation through each provider adapter and
// loop.Loop in which the model closes the account and reads transactions in one
// turn. The approver denies the destructive call: it is still answered, in place, with
// the denial (the scripted model rejects any request that leaves a call id unanswered,
// as the APIs do), the read-only call runs, and the account stays open.
func TestDeniedThroughEveryProvider(t *testing.T) {
	for _, provider := range tooltest.Formats() {
		t.Run(string(provider), func(t *testing.T) {
			svc := banking.NewService(map[string][]banking.Transaction{"ada": {{ID: "t1", Time: time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC), Description: "Bakery", AmountCents: -450}}})
			var mu sync.Mutex
			var events []runtime.Event
			tools := banking.ServiceTools(svc).
				WithApprover(func(context.Context, runtime.ApprovalRequest) runtime.Decision {
					return runtime.Deny("the user must confirm in the app")
				}).
				WithObserver(func(_ context.Context, e runtime.Event) { mu.Lock(); events = append(events, e); mu.Unlock() })
			var seen []tooltest.Result
			send, err := tooltest.Send(provider, &tooltest.Script{
				Turns: []tooltest.Turn{{Calls: []tooltest.Call{
					{Name: "close_account", Args: `{"reason":"moving abroad","confirm":true}`},
					{Name: "get_transactions", Args: `{"startDate":"2000-01-01T00:00:00Z","endDate":"2100-01-01T00:00:00Z"}`},
				}}},
				Answer: func(results []tooltest.Result) string { seen = results; return tooltest.Quote(results) },
			})
			if err != nil {
				t.Fatal(err)
			}
			p, err := provider.Provider()
			if err != nil {
				t.Fatal(err)
			}
			req, err := provider.NewRequest("replay", "Close my account, and show my transactions.")
			if err != nil {
				t.Fatal(err)
			}
			chat := loop.Loop{Provider: p, Tools: tools, Send: send}
			if _, _, err := chat.Run(banking.WithUser(context.Background(), "ada"), req); err != nil {
				t.Fatal(err)
			}
			if len(seen) != 2 || seen[0].Text != "close_account was denied: the user must confirm in the app" || !strings.Contains(seen[1].Text, "Bakery") {
				t.Errorf("the model read %+v", seen)
			}
			// The calls ran in parallel: find each one's event.
			outcomes := map[string]runtime.Outcome{}
			for _, e := range events {
				outcomes[e.Tool] = e.Outcome
				if e.Provider != p.Name() || e.CallID == "" {
					t.Errorf("event without its provider or call id: %+v", e)
				}
			}
			if len(events) != 2 || outcomes["close_account"] != runtime.OutcomeDenied || outcomes["get_transactions"] != runtime.OutcomeOK {
				t.Errorf("events: %+v", events)
			}
			// The account is still open.
			r := banking.ServiceTools(svc).Call(banking.WithUser(context.Background(), "ada"), "get_transactions", []byte(`{"startDate":"2000-01-01T00:00:00Z","endDate":"2100-01-01T00:00:00Z"}`))
			if r.IsError {
				t.Errorf("after the denial: %s", r.Text())
			}
		})
	}
}
