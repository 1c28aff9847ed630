// Package banking is toolgen's dependency-injection example: the tools are methods of a
// Service, whose fields carry the application's state, and the signed-in user comes from
// the call's context, never from the model's arguments.
package banking

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

//go:generate go tool toolgen generate

// Transaction is one movement of money on the user's account.
type Transaction struct {
	// ID identifies the transaction.
	ID string `json:"id"`
	// Time is when the transaction was booked.
	Time time.Time `json:"time"`
	// Description is the counterparty or the purpose.
	Description string `json:"description"`
	// AmountCents is the amount in cents: negative for payments, positive for income.
	AmountCents int64 `json:"amountCents"`
}

// Service is the bank's back end as the assistant sees it.
type Service struct {
	mu       sync.Mutex
	accounts map[string]*account
}

type account struct {
	closed       bool
	transactions []Transaction
}

// NewService returns a service holding the given users' transactions.
func NewService(transactions map[string][]Transaction) *Service {
	s := &Service{accounts: map[string]*account{}}
	for user, txs := range transactions {
		s.accounts[user] = &account{transactions: slices.Clone(txs)}
	}
	return s
}

type userKey struct{}

// WithUser returns a context for calls made on behalf of the signed-in user.
func WithUser(ctx context.Context, userID string) context.Context {
	return context.WithValue(ctx, userKey{}, userID)
}

// errNoUser is an internal error: the application forgot to say who is signed in.
var errNoUser = errors.New("bank: no signed-in user in the context")

func (s *Service) account(ctx context.Context) (*account, error) {
	user, ok := ctx.Value(userKey{}).(string)
	if !ok {
		return nil, errNoUser
	}
	a, ok := s.accounts[user]
	if !ok || a.closed {
		return nil, runtime.ToolErrorf("the user has no open account")
	}
	return a, nil
}

// GetTransactions lists the signed-in user's transactions booked in a period, oldest
// first.
//
// Use it whenever the user asks about their spending, payments or income.
//
//toolgen:tool readonly idempotent openworld=false group=finance
//toolgen:param startDate desc="Start of the period, inclusive, as an RFC 3339 date-time."
//toolgen:param endDate desc="End of the period, exclusive, as an RFC 3339 date-time."
func (s *Service) GetTransactions(ctx context.Context, startDate, endDate time.Time) ([]Transaction, error) {
	if !startDate.Before(endDate) {
		return nil, runtime.ToolErrorf("startDate (%s) must be before endDate (%s)",
			startDate.Format(time.RFC3339), endDate.Format(time.RFC3339))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a, err := s.account(ctx)
	if err != nil {
		return nil, err
	}
	var out []Transaction
	for _, t := range a.transactions {
		if !t.Time.Before(startDate) && t.Time.Before(endDate) {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b Transaction) int { return a.Time.Compare(b.Time) })
	return out, nil
}

// CloseRequest asks to close the signed-in user's account.
type CloseRequest struct {
	// Reason is why the user wants to close the account, in their words.
	Reason string `json:"reason" tool:"minLength=3,maxLength=500"`
	// Confirm must be true: the user has confirmed, in this conversation, that they
	// want the account closed.
	Confirm bool `json:"confirm" tool:"const=true"`
	// ClosedBy is filled in by the application; the model can neither see nor set it.
	ClosedBy string `json:"-"`
}

// CloseAccount closes the signed-in user's account for good. Its balance is paid out
// and its history deleted.
//
// Use it only when the user has asked, unambiguously, to close their account.
//
//toolgen:tool destructive idempotent=false openworld=false group=account
func (s *Service) CloseAccount(ctx context.Context, req CloseRequest) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, err := s.account(ctx)
	if err != nil {
		return "", err
	}
	a.closed = true
	a.transactions = nil
	return "The account is closed. Its balance will be paid out within three business days.", nil
}
