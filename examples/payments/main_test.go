package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/examples/payments/checkout"
	"github.com/toolgen/toolgen/toolmcp"
	"github.com/toolgen/toolgen/tooltest"
)

// TestConverse plays the conversation with every provider's replay: the card is paid
// with its "type" last, the transfer without a "type" is refused with an error that
// names the variants, and paid once the model adds it; the function got the concrete
// variants, and the receipts the model read carry their "type".
func TestConverse(t *testing.T) {
	for _, f := range tooltest.Formats() {
		provider := string(f)
		t.Run(provider, func(t *testing.T) {
			send, err := tooltest.Send(tooltest.Format(provider), Script())
			if err != nil {
				t.Fatal(err)
			}
			shop := checkout.New()
			var out bytes.Buffer
			answer, rounds, err := Converse(context.Background(), &out, provider, send, shop)
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			for _, want := range []string{
				"inv-1 is paid: 42.00 EUR by card ************4242.",
				"inv-2 is paid: 150.00 EUR by bank transfer from DE89370400440532013000 (reference inv-2).",
			} {
				if !strings.Contains(answer, want) {
					t.Errorf("the answer does not say %q:\n%s", want, answer)
				}
			}
			if len(rounds) != 3 {
				t.Fatalf("%d rounds, want 3:\n%s", len(rounds), out.String())
			}
			refused := rounds[1].Calls[1].Result
			if want := `invalid arguments for pay_invoice: /method/type: missing required property: it says which kind of object this is, one of "card", "bank_transfer"`; !refused.IsError || refused.Text() != want {
				t.Errorf("the call without a type: %s", refused.Text())
			}
			receipts := shop.Receipts()
			if len(receipts) != 2 {
				t.Fatalf("%d receipts, want 2", len(receipts))
			}
			if c, ok := receipts[0].Method.(checkout.Card); !ok || c.Number != "************4242" || c.Expiry != "12/29" {
				t.Errorf("first receipt: %#v", receipts[0].Method)
			}
			if b, ok := receipts[1].Method.(checkout.BankTransfer); !ok || b.IBAN != "DE89370400440532013000" {
				t.Errorf("second receipt: %#v", receipts[1].Method)
			}
			if strings.Contains(out.String(), "4242424242424242") {
				t.Errorf("the card number is printed:\n%s", out.String())
			}
		})
	}
}

// TestRun runs the command's conversations, one per provider.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if n := strings.Count(out.String(), "inv-2 is paid"); n != len(tooltest.Formats()) {
		t.Errorf("%d conversations paid inv-2, want %d:\n%s", n, len(tooltest.Formats()), out.String())
	}
}

// TestMCP serves the tools over MCP and calls them with the official Go SDK's client:
// tools/list gives the canonical oneOf, a call with the "type" in the middle of the
// method is paid, one with an unknown "type" is an error naming the variants, and the
// structured result holds the method's "type".
func TestMCP(t *testing.T) {
	ctx := context.Background()
	shop := checkout.New()
	s := mcp.NewServer(&mcp.Implementation{Name: "payments", Version: "v0"}, nil)
	toolmcp.Register(s, checkout.ShopTools(shop))
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var schema string
	for _, tool := range list.Tools {
		if tool.Name == "pay_invoice" {
			b, _ := json.Marshal(tool.InputSchema)
			schema = string(b)
		}
	}
	if !strings.Contains(schema, `"oneOf":[`) || !strings.Contains(schema, `"const":"bank_transfer"`) {
		t.Errorf("pay_invoice's input schema: %s", schema)
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "pay_invoice", Arguments: json.RawMessage(
		`{"method":{"iban":"FR7630006000011234567890189","type":"bank_transfer","reference":"March"},"invoice":"inv-3"}`)})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res.StructuredContent)
	if want := `{"amountCents":999,"invoice":"inv-3","method":{"iban":"FR7630006000011234567890189","reference":"March","type":"bank_transfer"}}`; res.IsError || string(got) != want {
		t.Errorf("paid: error=%v %s, want %s", res.IsError, got, want)
	}

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "pay_invoice", Arguments: json.RawMessage(
		`{"invoice":"inv-1","method":{"type":"cash","amount":42}}`)})
	if err != nil {
		t.Fatal(err)
	}
	text := ""
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
	}
	if want := `invalid arguments for pay_invoice: /method/type: must be one of "card", "bank_transfer" (got "cash")`; !res.IsError || text != want {
		t.Errorf("an unknown type: error=%v %q, want %q", res.IsError, text, want)
	}
	if n := len(shop.Receipts()); n != 1 {
		t.Errorf("%d receipts, want 1", n)
	}
}
