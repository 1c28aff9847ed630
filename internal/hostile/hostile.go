// Package hostile is a small vault and payments service, written from toolgen's contract
// alone (docs/DESIGN.md, the README with docs/ and go doc), as a careful user would write it, to be
// attacked by hostile tests: its arguments carry secrets of several types, its amounts
// use multipleOf, and some of its tools misbehave on purpose (one panics, one calls
// runtime.Goexit as testing's t.FailNow does, one returns an internal error that quotes a
// secret, one hangs ignoring its context).
package hostile

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

//go:generate go tool toolgen generate

// CardNumber is a payment card number: 12 to 19 digits, spaces allowed between groups.
type CardNumber string

// UnmarshalText parses a card number. Its error quotes the input, as many parsers'
// errors do: the runtime must never show it for a sensitive field.
func (c *CardNumber) UnmarshalText(b []byte) error {
	digits := strings.ReplaceAll(string(b), " ", "")
	if len(digits) < 12 || len(digits) > 19 {
		return fmt.Errorf("bad card %q", b)
	}
	for _, r := range digits {
		if r < '0' || r > '9' {
			return fmt.Errorf("bad card %q", b)
		}
	}
	*c = CardNumber(digits)
	return nil
}

// MarshalText writes the card number's digits.
func (c CardNumber) MarshalText() ([]byte, error) { return []byte(c), nil }

// Last4 returns the card number's last four digits.
func (c CardNumber) Last4() string {
	if len(c) < 4 {
		return string(c)
	}
	return string(c[len(c)-4:])
}

// Credentials are the login of the service a secret belongs to.
type Credentials struct {
	// Username is the account's user name.
	Username string `json:"username" tool:"minLength=1,maxLength=64"`
	// Password is the account's password.
	Password string `json:"password" tool:"minLength=8,maxLength=128"`
	// OTP is the current one-time code.
	OTP int `json:"otp,omitempty" tool:"minimum=0,maximum=999999"`
	// Server is the address of the service's server.
	Server netip.Addr `json:"server,omitzero"`
}

// StoreRequest asks to store a secret in the vault.
type StoreRequest struct {
	// Name names the secret: lower-case letters, digits, dashes and underscores.
	Name string `json:"name" tool:"pattern=^[a-z0-9_-]+$,minLength=1,maxLength=64"`
	// Secret is the secret itself.
	Secret string `json:"secret" tool:"sensitive,minLength=4,maxLength=256"`
	// ClientIP is the address the user connects from.
	ClientIP netip.Addr `json:"clientIp" tool:"sensitive"`
	// Card is a card number kept with the secret.
	Card CardNumber `json:"card,omitempty" tool:"sensitive"`
	// Login is the login of the service the secret belongs to.
	Login Credentials `json:"login" tool:"sensitive"`
	// RecoveryCodes are the service's one-time recovery codes.
	RecoveryCodes []string `json:"recoveryCodes,omitempty" tool:"sensitive,minLength=6,maxItems=10"`
	// Headers are HTTP headers to send with the secret, such as an API key.
	Headers map[string]string `json:"headers,omitempty" tool:"sensitive,maxLength=200"`
	// ExpiresAt is when the secret expires.
	ExpiresAt time.Time `json:"expiresAt"`
	// Version is the secret's version, counting from 1.
	Version int `json:"version,omitempty" tool:"minimum=1,maximum=1000,default=1"`
}

// Entry is one entry of a tree of access codes: each holds a pin and a lock, and may
// hold entries below it, one, several in a list, or several by name.
type Entry struct {
	// Name names the entry.
	Name string `json:"name" tool:"maxLength=64"`
	// Pin is the entry's access code.
	Pin string `json:"pin,omitempty" tool:"sensitive,minLength=4"`
	// Child is the entry below this one, if any.
	Child *Entry `json:"child,omitempty"`
	// Kids are more entries below this one.
	Kids []Entry `json:"kids,omitempty"`
	// ByName are more entries below this one, by name.
	ByName map[string]*Entry `json:"byName,omitempty"`
	Lock
}

// Lock guards an entry: a code, and maybe another lock behind it.
type Lock struct {
	// Code opens the lock.
	Code string `json:"code,omitempty" tool:"sensitive"`
	// Behind is the lock behind this one, if any.
	Behind *Lock `json:"behind,omitempty"`
}

// SecretInfo describes a stored secret without its value.
type SecretInfo struct {
	// Name names the secret.
	Name string `json:"name"`
	// ExpiresAt is when the secret expires.
	ExpiresAt time.Time `json:"expiresAt"`
	// Version is the secret's version.
	Version int `json:"version"`
}

// PaymentRequest asks to pay an amount with a card.
type PaymentRequest struct {
	// Amount is the amount to pay, in euros, to the cent.
	Amount float64 `json:"amount" tool:"exclusiveMinimum=0,maximum=1000000,multipleOf=0.01"`
	// Rate is the yearly interest rate of an instalment plan, in percent, in quarter
	// points.
	Rate float64 `json:"rate,omitempty" tool:"minimum=0,maximum=30,multipleOf=0.25"`
	// Installments is how many monthly instalments to pay in.
	Installments int `json:"installments,omitempty" tool:"minimum=1,maximum=48,default=1"`
	// Priority is the payment's priority, 0 to 255.
	Priority uint8 `json:"priority,omitempty"`
	// Sequence is the client's sequence number of the payment.
	Sequence int64 `json:"sequence,omitempty"`
	// Splits share the amount between accounts, each to the cent.
	Splits []float64 `json:"splits,omitempty" tool:"multipleOf=0.01,maxItems=20"`
	// At is when the payment is to be made.
	At time.Time `json:"at"`
	// Card is the card to pay with.
	Card CardNumber `json:"card" tool:"sensitive"`
	// Memo is a note for the payee.
	Memo string `json:"memo,omitempty" tool:"maxLength=140"`
}

// Receipt confirms a payment.
type Receipt struct {
	// ID identifies the payment.
	ID string `json:"id"`
	// Amount is the amount paid.
	Amount float64 `json:"amount"`
	// Rate is the interest rate.
	Rate float64 `json:"rate"`
	// Installments is the number of instalments.
	Installments int `json:"installments"`
	// Priority is the payment's priority.
	Priority uint8 `json:"priority"`
	// Sequence is the client's sequence number.
	Sequence int64 `json:"sequence"`
	// Splits are the shares of the amount.
	Splits []float64 `json:"splits"`
	// At is when the payment is made.
	At time.Time `json:"at"`
	// CardLast4 are the last four digits of the card.
	CardLast4 string `json:"cardLast4"`
}

// Vault is the vault and payments back end as the assistant sees it.
type Vault struct {
	mu      sync.Mutex
	secrets map[string]StoreRequest
	trees   []Entry
	paid    int
	release chan struct{}
	once    sync.Once
}

// NewVault returns an empty vault.
func NewVault() *Vault {
	return &Vault{secrets: map[string]StoreRequest{}, release: make(chan struct{})}
}

// Trees returns the trees stored, in order.
func (v *Vault) Trees() []Entry {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Clone(v.trees)
}

// Release lets every call of Hang that is still waiting return.
func (v *Vault) Release() { v.once.Do(func() { close(v.release) }) }

// Stored returns the stored request of the secret name.
func (v *Vault) Stored(name string) (StoreRequest, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	r, ok := v.secrets[name]
	return r, ok
}

// PutSecret stores a secret in the vault, replacing any secret of the same name.
//
// Use it when the user gives you a password, an API key or recovery codes to keep.
//
//toolgen:tool destructive idempotent openworld=false group=vault
func (v *Vault) PutSecret(ctx context.Context, req StoreRequest) (string, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.secrets[req.Name] = req
	return fmt.Sprintf("stored %s (version %d)", req.Name, req.Version), nil
}

// PutTree stores a tree of access codes.
//
//toolgen:tool destructive idempotent openworld=false group=vault
//toolgen:param label desc="What the tree is for." maxLength=64
//toolgen:param root desc="The tree's root entry."
func (v *Vault) PutTree(ctx context.Context, label string, root Entry) (string, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.trees = append(v.trees, root)
	return "stored the tree " + label, nil
}

// ListSecrets lists the stored secrets whose name starts with a prefix, without their
// values.
//
//toolgen:tool readonly idempotent openworld=false group=vault
//toolgen:param prefix desc="Only secrets whose name starts with this prefix." maxLength=64
//toolgen:param limit desc="The most secrets to list." minimum=1 maximum=100
func (v *Vault) ListSecrets(ctx context.Context, prefix string, limit int) ([]SecretInfo, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	var out []SecretInfo
	for name, r := range v.secrets {
		if strings.HasPrefix(name, prefix) {
			out = append(out, SecretInfo{Name: name, ExpiresAt: r.ExpiresAt, Version: r.Version})
		}
	}
	slices.SortFunc(out, func(a, b SecretInfo) int { return strings.Compare(a.Name, b.Name) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// Pay pays an amount with a card and returns the receipt.
//
// Use it only when the user has asked to pay, and said how much.
//
//toolgen:tool name=pay destructive idempotent=false openworld group=payments
func (v *Vault) Pay(ctx context.Context, req PaymentRequest) (Receipt, error) {
	v.mu.Lock()
	v.paid++
	n := v.paid
	v.mu.Unlock()
	return Receipt{
		ID:           fmt.Sprintf("pay-%d", n),
		Amount:       req.Amount,
		Rate:         req.Rate,
		Installments: req.Installments,
		Priority:     req.Priority,
		Sequence:     req.Sequence,
		Splits:       req.Splits,
		At:           req.At,
		CardLast4:    req.Card.Last4(),
	}, nil
}

// PanicKind says how Explode panics.
type PanicKind string

// The ways Explode panics.
const (
	// PanicString panics with a string that quotes the token.
	PanicString PanicKind = "string"
	// PanicNil panics with nil.
	PanicNil PanicKind = "nil"
	// PanicError panics with an error that quotes the token.
	PanicError PanicKind = "error"
	// PanicIndex panics with a run-time error (an index out of range).
	PanicIndex PanicKind = "index"
)

// ExplodeRequest asks Explode to panic.
type ExplodeRequest struct {
	// Kind says how to panic.
	Kind PanicKind `json:"kind"`
	// Token is a secret the panic quotes.
	Token string `json:"token" tool:"sensitive"`
}

// Explode checks the vault's integrity. It panics: a bug in a tool.
//
//toolgen:tool readonly idempotent openworld=false group=broken
func (v *Vault) Explode(ctx context.Context, req ExplodeRequest) (string, error) {
	switch req.Kind {
	case PanicNil:
		panic(nil)
	case PanicError:
		panic(fmt.Errorf("vault corrupted near token %s", req.Token))
	case PanicIndex:
		var a []int
		_ = a[len(req.Token)]
	}
	panic("vault corrupted near token " + req.Token)
}

// failNow ends the goroutine that calls it, as testing's t.FailNow does.
func failNow() { goruntime.Goexit() }

// BailOut checks the vault's backups. It calls runtime.Goexit, as a test helper would.
//
//toolgen:tool readonly idempotent openworld=false group=broken
func (v *Vault) BailOut(ctx context.Context) (string, error) {
	failNow()
	return "unreachable", nil
}

// ConnectRequest asks to connect to a back end.
type ConnectRequest struct {
	// Backend names the back end.
	Backend string `json:"backend" tool:"enum=primary|replica"`
	// Password is the back end's password.
	Password string `json:"password" tool:"sensitive,minLength=1"`
}

// errUnreachable is the cause of ConnectBackend's errors.
var errUnreachable = errors.New("connection refused")

// ConnectBackend connects to a storage back end. It always fails with an internal error
// that quotes the password it was given, as careless code does.
//
//toolgen:tool readonly idempotent openworld group=broken
func (v *Vault) ConnectBackend(ctx context.Context, req ConnectRequest) (string, error) {
	return "", fmt.Errorf("dial %s with password %q: %w", req.Backend, req.Password, errUnreachable)
}

// Hang waits for the vault's lock server. It ignores its context and waits until the
// vault is released.
//
//toolgen:tool readonly idempotent openworld=false timeout=50ms group=broken
func (v *Vault) Hang(ctx context.Context) (string, error) {
	<-v.release
	return "released", nil
}

// Ping tells whether the vault is up, and who calls.
//
//toolgen:tool readonly idempotent openworld=false
func (v *Vault) Ping(ctx context.Context) (string, error) {
	info, _ := runtime.CallFromContext(ctx)
	return "pong " + info.ID, nil
}
