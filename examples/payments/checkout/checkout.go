// Package checkout is the payments example's tools: a shop's open invoices, paid with a
// payment method that is a card or a bank transfer. The method is a tagged union, a
// sealed interface whose variants are the package's struct types that implement it:
// the model says which one it sends with the "type" property, anywhere in the object,
// and the tool gets the concrete Go value.
package checkout

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen/toolgen/runtime"
)

//go:generate go tool toolgen generate

// PaymentMethod is how an invoice is paid: by card or by bank transfer.
type PaymentMethod interface{ isPaymentMethod() }

// Card is a payment card.
type Card struct {
	// Number is the card number, 12 to 19 digits.
	Number string `json:"number" tool:"pattern=^[0-9]{12\\,19}$,sensitive"`
	// Expiry is the month the card expires, as MM/YY.
	Expiry string `json:"expiry" tool:"pattern=^(0[1-9]|1[0-2])/[0-9]{2}$"`
	// Holder is the name on the card, when it differs from the customer's.
	Holder string `json:"holder,omitempty" tool:"maxLength=80"`
}

func (Card) isPaymentMethod() {}

// BankTransfer is a transfer from the customer's bank account.
type BankTransfer struct {
	// IBAN is the account to debit, without spaces.
	IBAN string `json:"iban" tool:"pattern=^[A-Z]{2}[0-9]{2}[A-Z0-9]{10\\,30}$"`
	// Reference is the text on the customer's statement.
	Reference string `json:"reference,omitempty" tool:"maxLength=35"`
}

func (BankTransfer) isPaymentMethod() {}

// Invoice is an invoice of the shop.
type Invoice struct {
	// ID identifies the invoice.
	ID string `json:"id"`
	// Customer is who owes it.
	Customer string `json:"customer"`
	// AmountCents is what is owed, in euro cents.
	AmountCents int `json:"amountCents"`
	// Paid reports that the invoice is paid.
	Paid bool `json:"paid"`
}

// Receipt says how an invoice was paid.
type Receipt struct {
	// Invoice is the invoice paid.
	Invoice string `json:"invoice"`
	// AmountCents is what was paid, in euro cents.
	AmountCents int `json:"amountCents"`
	// Method is how it was paid, with a card's number masked.
	Method PaymentMethod `json:"method"`
}

// Shop holds the invoices and the payments made.
type Shop struct {
	mu       sync.Mutex
	invoices []Invoice
	receipts []Receipt
}

// New returns a shop with three open invoices.
func New() *Shop {
	return &Shop{invoices: []Invoice{
		{ID: "inv-1", Customer: "Ada", AmountCents: 4200},
		{ID: "inv-2", Customer: "Grace", AmountCents: 15000},
		{ID: "inv-3", Customer: "Linus", AmountCents: 999},
	}}
}

// Receipts returns the payments made so far, in order.
func (s *Shop) Receipts() []Receipt {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.receipts)
}

// ListInvoices lists the shop's open invoices.
//
//toolgen:tool readonly
func (s *Shop) ListInvoices() []Invoice {
	s.mu.Lock()
	defer s.mu.Unlock()
	var open []Invoice
	for _, inv := range s.invoices {
		if !inv.Paid {
			open = append(open, inv)
		}
	}
	return open
}

// PayInvoice pays an open invoice in full with a card or a bank transfer.
//
// Give the method's "type": "card" with the card's number and expiry, or
// "bank_transfer" with the IBAN to debit.
//
//toolgen:tool destructive
//toolgen:param invoice desc="The invoice to pay, such as inv-1." pattern=^inv-[0-9]+$
//toolgen:param method desc="How to pay."
func (s *Shop) PayInvoice(ctx context.Context, invoice string, method PaymentMethod) (Receipt, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.invoices, func(inv Invoice) bool { return inv.ID == invoice })
	if i < 0 {
		return Receipt{}, runtime.ToolErrorf("there is no invoice %s: list the invoices to see their ids", invoice)
	}
	if s.invoices[i].Paid {
		return Receipt{}, runtime.ToolErrorf("invoice %s is paid already", invoice)
	}
	switch m := method.(type) {
	case Card:
		m.Number = mask(m.Number)
		method = m
	case BankTransfer:
		if m.Reference == "" {
			m.Reference = invoice
		}
		method = m
	default:
		return Receipt{}, fmt.Errorf("checkout: unknown payment method %T", method)
	}
	s.invoices[i].Paid = true
	r := Receipt{Invoice: invoice, AmountCents: s.invoices[i].AmountCents, Method: method}
	s.receipts = append(s.receipts, r)
	return r, nil
}

// mask keeps a card number's last four digits.
func mask(number string) string {
	if len(number) <= 4 {
		return number
	}
	return strings.Repeat("*", len(number)-4) + number[len(number)-4:]
}
