// Command payments runs one conversation about a shop's invoices through every provider
// adapter in turn (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages,
// Gemini generateContent), each with a scripted replay of that API: no network, no API
// key, and every request checked as the real API would check it.
//
// pay_invoice takes a payment method that is a card or a bank transfer: a tagged
// union, a sealed Go interface whose variants are struct types, told apart by their
// "type". In the conversation the model lists the open invoices, pays one by card (the
// "type" last in the object, which is fine) and one by bank transfer but forgets the
// "type"; it reads the argument error, which names the variants, and pays again with
// "type":"bank_transfer". The receipts it reads carry the "type" of each method.
//
//	go run ./examples/payments
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolgen/toolgen/examples/payments/checkout"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/tooltest"
)

// Question is what the shop owner asks.
const Question = "Pay Ada's invoice with her card 4242 4242 4242 4242 (expires 12/29), and Grace's by transfer from DE89370400440532013000."

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "payments: %v\n", err)
		os.Exit(1)
	}
}

// run plays the conversation with every provider, one after the other, each with a
// shop of its own.
func run(ctx context.Context, w io.Writer) error {
	for _, f := range tooltest.Formats() {
		provider := string(f)
		fmt.Fprintf(w, "=== %s ===\n\n", provider)
		send, err := tooltest.Send(tooltest.Format(provider), Script())
		if err != nil {
			return err
		}
		if _, _, err := Converse(ctx, w, provider, send, checkout.New()); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}

// Converse runs the conversation that Question starts with a provider's API (send) and
// the tools of shop, printing each round and the final answer. It returns the answer
// and the rounds.
func Converse(ctx context.Context, w io.Writer, provider string, send loop.SendFunc, shop *checkout.Shop) (string, []loop.Round, error) {
	p, err := tooltest.Format(provider).Provider()
	if err != nil {
		return "", nil, err
	}
	req, err := tooltest.Format(provider).NewRequest("replay", Question)
	if err != nil {
		return "", nil, err
	}
	var rounds []loop.Round
	chat := loop.Loop{
		Provider: p,
		Tools:    checkout.ShopTools(shop),
		Send:     send,
		OnRound: func(r loop.Round) {
			rounds = append(rounds, r)
			fmt.Fprintf(w, "round %d: %d call(s)\n", r.Number, len(r.Calls))
			for _, c := range r.Calls {
				status := "ok"
				if c.Result.IsError {
					status = "error"
				}
				fmt.Fprintf(w, "  %s %s  %s\n    -> %s\n", c.Call.Name, redact(c.Call.Arguments), status, c.Result.Text())
			}
		},
	}
	fmt.Fprintf(w, "owner: %s\n\n", Question)
	final, _, err := chat.Run(ctx, req)
	if err != nil {
		return "", rounds, err
	}
	answer, err := tooltest.Format(provider).Text(final)
	if err != nil {
		return "", rounds, err
	}
	fmt.Fprintf(w, "\nassistant: %s\n", answer)
	return answer, rounds, nil
}

// redact hides a card number in printed arguments, as the tool's sensitive property
// asks of logs.
func redact(args []byte) string {
	var v struct {
		Method map[string]any `json:"method"`
	}
	if json.Unmarshal(args, &v) != nil || v.Method["number"] == nil {
		return string(args)
	}
	return strings.Replace(string(args), fmt.Sprint(v.Method["number"]), "[redacted]", 1)
}

// Script is the replayed model's side: it lists the invoices, pays two (the second
// without the method's type), then pays again what an argument error sent back.
func Script() *tooltest.Script {
	return &tooltest.Script{
		Question: Question,
		Turns: []tooltest.Turn{
			{Say: "Let me find the invoices.", Calls: []tooltest.Call{{Name: "list_invoices"}}},
			{Say: "Paying both.", Calls: []tooltest.Call{
				{Name: "pay_invoice", Args: `{"invoice":"inv-1","method":{"number":"4242424242424242","expiry":"12/29","type":"card"}}`},
				{Name: "pay_invoice", Args: `{"invoice":"inv-2","method":{"iban":"DE89370400440532013000"}}`},
			}},
			{Plan: func(last []tooltest.Result) []tooltest.Call {
				var calls []tooltest.Call
				for _, r := range last {
					if c, ok := Correct(r); ok {
						calls = append(calls, c)
					}
				}
				return calls
			}},
		},
		Answer: Answer,
	}
}

// Correct is what a model does with an argument error that says the method's "type" is
// missing and names the variants: it calls again with the variant whose properties its
// method has (an IBAN is a bank transfer).
func Correct(r tooltest.Result) (tooltest.Call, bool) {
	const missing = `/method/type: missing required property`
	if !r.IsError && !strings.Contains(r.Text, "invalid arguments") || !strings.Contains(r.Text, missing) {
		return tooltest.Call{}, false
	}
	var args map[string]map[string]any
	var raw map[string]json.RawMessage
	if json.Unmarshal([]byte(r.Call.Args), &raw) != nil || json.Unmarshal([]byte(`{"method":`+string(raw["method"])+`}`), &args) != nil {
		return tooltest.Call{}, false
	}
	kind := "card"
	if _, ok := args["method"]["iban"]; ok && strings.Contains(r.Text, `"bank_transfer"`) {
		kind = "bank_transfer"
	}
	m := args["method"]
	m["type"] = kind
	var fixed map[string]any
	_ = json.Unmarshal([]byte(r.Call.Args), &fixed)
	fixed["method"] = m
	b, _ := json.Marshal(fixed)
	return tooltest.Call{Name: r.Call.Name, Args: string(b)}, true
}

// Answer tells the owner what was paid, from the receipts the model read.
func Answer(results []tooltest.Result) string {
	var lines []string
	for _, r := range results {
		if r.Call.Name != "pay_invoice" || r.IsError {
			continue
		}
		var receipt struct {
			Invoice     string         `json:"invoice"`
			AmountCents int            `json:"amountCents"`
			Method      map[string]any `json:"method"`
		}
		if json.Unmarshal([]byte(r.Text), &receipt) != nil || receipt.Invoice == "" {
			continue
		}
		how := fmt.Sprint(receipt.Method["type"])
		switch how {
		case "card":
			how = fmt.Sprintf("by card %v", receipt.Method["number"])
		case "bank_transfer":
			how = fmt.Sprintf("by bank transfer from %v (reference %v)", receipt.Method["iban"], receipt.Method["reference"])
		}
		lines = append(lines, fmt.Sprintf("%s is paid: %d.%02d EUR %s.", receipt.Invoice, receipt.AmountCents/100, receipt.AmountCents%100, how))
	}
	if len(lines) == 0 {
		return "Nothing was paid."
	}
	return strings.Join(lines, " ")
}
