package interop_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	bank "github.com/toolgen/toolgen/examples/bank/banking"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/tooltest"
)

// apiKey is the dummy key every SDK client sends; the fake APIs (tooltest.NewRoundServer)
// insist on it.
const apiKey = tooltest.APIKey

// plannedCall is one call the fake model makes, and what its answer must say.
type plannedCall struct {
	name string
	args string // the arguments, a JSON object
	want string // a piece of the answer's text
	// fails says the answer must be an error.
	fails bool
}

// scenario is a conversation the fake model holds: a prompt, one turn of parallel
// calls, and a final text once they are answered.
type scenario struct {
	prompt string
	calls  []plannedCall
	final  string
}

// weather is the scenario of the SDK loops, over examples/weather's tools: two calls
// to get_weather, the second with a days argument out of bounds, and a call to a tool
// that does not exist.
var weather = scenario{
	prompt: "What is the weather in Paris and in Oslo?",
	calls: []plannedCall{
		{name: "get_weather", args: `{"city":"Paris","days":2}`, want: `"city":"Paris"`},
		{name: "get_weather", args: `{"city":"Oslo","days":30}`, want: "invalid arguments for get_weather: /days: must be at most 14 (got 30)", fails: true},
		{name: "get_stock_price", args: `{"symbol":"ACME"}`, want: `unknown tool "get_stock_price"`, fails: true},
	},
	final: "Paris will be mild; I could not get Oslo's forecast for 30 days.",
}

// payments is a scenario over examples/payments' tools, whose pay_invoice takes a tagged
// union (a card or a bank transfer): a card with its type last, a transfer without a
// type, refused with the variants named, and a method of an unknown type.
var payments = scenario{
	prompt: "Pay inv-1 by card and inv-2 by transfer.",
	calls: []plannedCall{
		{name: "pay_invoice", args: `{"invoice":"inv-1","method":{"number":"4242424242424242","expiry":"12/29","type":"card"}}`, want: `"type":"card"`}, // the result's method with its tag (Gemini's SDK sorts the keys)
		{name: "pay_invoice", args: `{"invoice":"inv-2","method":{"iban":"DE89370400440532013000"}}`, want: `invalid arguments for pay_invoice: /method/type: missing required property: it says which kind of object this is, one of "card", "bank_transfer"`, fails: true},
		{name: "pay_invoice", args: `{"invoice":"inv-2","method":{"type":"cash"}}`, want: `/method/type: must be one of "card", "bank_transfer" (got "cash")`, fails: true},
	},
	final: "inv-1 is paid by card; inv-2 needs a valid method.",
}

// banking is the scenario of the Loop runs, over examples/bank's tools, whose user
// comes from the context: a valid get_transactions, a close_account whose arguments
// break two rules, and an unknown tool.
var banking = scenario{
	prompt: "What did I spend in March? And close my account.",
	calls: []plannedCall{
		{name: "get_transactions", args: `{"startDate":"2026-03-01T00:00:00Z","endDate":"2026-04-01T00:00:00Z"}`, want: "Corner bakery"},
		{name: "close_account", args: `{"reason":"no","confirm":false}`, want: `invalid arguments for close_account: /reason: must be at least 3 characters long (got "no"); /confirm: must be true (got false)`, fails: true},
		{name: "transfer_money", args: `{"to":"mallory","amountCents":100000}`, want: `unknown tool "transfer_money"`, fails: true},
	},
	final: "You spent 4.20 at the Corner bakery in March. Your account stays open.",
}

// callID is the id of a scenario's i-th call, in a provider's style ("call_01").
func callID(prefix string, i int) string { return fmt.Sprintf("%s%02d", prefix, i+1) }

// checkTurn checks the follow-up req of scenario s, whose calls had ids in the style
// of idPrefix: one turn of calls, as they came, each answer saying what it must and,
// when the dialect marks errors (flagged), with the right mark. tooltest.Read has
// checked the rules of the API: every call answered exactly once, nothing else
// answered, in the API's order and form.
func (s scenario) checkTurn(req *tooltest.Request, idPrefix string, flagged bool) error {
	if len(req.Turns) != 1 || len(req.Turns[0].Calls) != len(s.calls) {
		return fmt.Errorf("the conversation holds turns %+v, want one turn of %d calls", req.Turns, len(s.calls))
	}
	turn := req.Turns[0]
	for i, want := range s.calls {
		c, r := turn.Calls[i], turn.Results[i]
		switch {
		case c.ID != callID(idPrefix, i) || c.Name != want.name || !jsonEqual([]byte(c.Args), []byte(want.args)):
			return fmt.Errorf("call %d is %s %s(%s), want %s %s(%s)", i, c.ID, c.Name, c.Args, callID(idPrefix, i), want.name, want.args)
		case !strings.Contains(r.Text, want.want):
			return fmt.Errorf("the answer to %q (%s) says %q, want it to contain %q", c.ID, want.name, r.Text, want.want)
		case flagged && r.IsError != want.fails:
			return fmt.Errorf("the answer to %q (%s) has error flag %v, want %v", c.ID, want.name, r.IsError, want.fails)
		}
	}
	return nil
}

// roundTrip converts v into the SDK type *into by a JSON round trip, as a user hands
// the adapter's output to an SDK.
func roundTrip(t *testing.T, v, into any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, into); err != nil {
		t.Fatalf("the SDK type %T does not take %s: %v", into, b, err)
	}
}

// mustJSON marshals v, for the fake APIs' replies.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// jsonEqual reports whether a and b are the same JSON value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && equalValues(x, y)
}

func equalValues(x, y any) bool {
	xb, err1 := json.Marshal(x) // maps marshal with sorted keys: a canonical form
	yb, err2 := json.Marshal(y)
	return err1 == nil && err2 == nil && bytes.Equal(xb, yb)
}

// asText returns a JSON value as the model would read it: a string as itself, anything
// else as its JSON text.
func asText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

// contentText returns the text of a message or result content: a string, or text
// parts (of any provider).
func contentText(content json.RawMessage) string {
	var parts []struct{ Type, Text string }
	if json.Unmarshal(content, &parts) != nil {
		return asText(content)
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// toolCalls returns the scenario's calls as the adapter must read them, with ids in a
// provider's style.
func (s scenario) toolCalls(idPrefix string) []runtime.ToolCall {
	calls := make([]runtime.ToolCall, len(s.calls))
	for i, c := range s.calls {
		calls[i] = runtime.ToolCall{ID: callID(idPrefix, i), Name: c.name, Arguments: []byte(c.args)}
	}
	return calls
}

// sameCalls fails t unless got and want are the same calls, in order, arguments
// compared as JSON values.
func sameCalls(t *testing.T, what string, got, want []runtime.ToolCall) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d calls, want %d: %q", what, len(got), len(want), got)
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.ID != w.ID || g.Name != w.Name || !jsonEqual(g.Arguments, w.Arguments) {
			t.Errorf("%s: call %d is %s %s(%s), want %s %s(%s)", what, i, g.ID, g.Name, g.Arguments, w.ID, w.Name, w.Arguments)
		}
	}
}

// bankTools returns examples/bank's tools over a service where alice has two
// transactions, one of them in March 2026.
func bankTools() *runtime.Toolset {
	return bank.ServiceTools(bank.NewService(map[string][]bank.Transaction{
		"alice": {
			{ID: "t1", Time: time.Date(2026, time.February, 27, 9, 0, 0, 0, time.UTC), Description: "Rent", AmountCents: -90000},
			{ID: "t2", Time: time.Date(2026, time.March, 3, 8, 30, 0, 0, time.UTC), Description: "Corner bakery", AmountCents: -420},
		},
	}))
}

// runLoop runs a loop.Loop over the bank's tools for the signed-in user alice, whose
// calls must be the banking scenario's, in one round, and returns the final response.
func runLoop(t *testing.T, p loop.Provider, send loop.SendFunc, request string) []byte {
	t.Helper()
	var rounds []loop.Round
	lp := loop.Loop{Provider: p, Tools: bankTools(), Send: send,
		OnRound: func(r loop.Round) { rounds = append(rounds, r) }}
	final, _, err := lp.Run(bank.WithUser(t.Context(), "alice"), []byte(request))
	if err != nil {
		t.Fatalf("Loop.Run: %v", err)
	}
	if len(rounds) != 1 || len(rounds[0].Calls) != len(banking.calls) {
		t.Fatalf("the lp ran %d rounds (%+v), want one of %d calls", len(rounds), rounds, len(banking.calls))
	}
	return final
}
