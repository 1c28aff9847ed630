// Package clientctx carries the client of a tool call in its context, for package
// runtime, which asks whether a call has a client and whether it awaits input, and
// package runtime/client, which defines the Client and its requests. It keeps the
// context key and the input-required error in one place that both import, so that
// runtime does not import runtime/client, which imports runtime; and the key of a
// call's CallInfo.
package clientctx

import (
	"context"
	"errors"
)

// ErrInputRequired is runtime/client.ErrInputRequired, the same value.
var ErrInputRequired = errors.New("runtime: the call waits for the client's input")

// Key is the context key of a call's client.
type Key struct{}

// InfoKey is the context key of a call's runtime.CallInfo (runtime.ContextWithCall).
// It is here, beside Key, so that runtime/toolimpl can answer both for a context of a
// caller's own (toolimpl.CallValue).
type InfoKey struct{}

// With returns ctx carrying c as the client of the calls run with it.
func With(ctx context.Context, c any) context.Context {
	return context.WithValue(ctx, Key{}, c)
}

// From returns the client ctx carries, or nil.
func From(ctx context.Context) any {
	if ctx == nil {
		return nil
	}
	return ctx.Value(Key{})
}

// AwaitsInput reports whether the client ctx carries says the call's round ended
// asking it for input: it has an AwaitsInput method that reports true.
func AwaitsInput(ctx context.Context) bool {
	a, ok := From(ctx).(interface{ AwaitsInput() bool })
	return ok && a.AwaitsInput()
}
