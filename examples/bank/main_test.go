package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/examples/bank/banking"
	"github.com/toolgen/toolgen/runtime"
)

func TestDestructiveCallsAreDenied(t *testing.T) {
	var asked []string
	deny := func(_ context.Context, req runtime.ApprovalRequest) runtime.Decision {
		asked = append(asked, req.Tool.Name)
		return runtime.Deny("tests never close accounts")
	}
	var out bytes.Buffer
	svc := run(context.Background(), &out, deny)
	// Only the valid close_account call reaches the approver: invalid arguments are
	// refused first, and get_transactions is read-only.
	if strings.Join(asked, ",") != "close_account" {
		t.Errorf("approver asked for %v", asked)
	}
	// The user comes from the context: an argument cannot choose another one.
	if !strings.Contains(out.String(), `/userId: unknown property; expected one of "startDate", "endDate"`) {
		t.Errorf("a userId argument was not refused:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "< [denied] close_account was denied: tests never close accounts") {
		t.Errorf("output:\n%s", out.String())
	}
	// The account is still open: its transactions can be read.
	ctx := banking.WithUser(context.Background(), "ada")
	r := banking.ServiceTools(svc).Call(ctx, "get_transactions", []byte(`{"startDate":"2026-11-01T00:00:00Z","endDate":"2026-12-01T00:00:00Z"}`))
	if r.IsError || !strings.Contains(r.Text(), `"t3"`) {
		t.Errorf("after the denial: %s", r.Text())
	}
}

func TestTerminalApprover(t *testing.T) {
	for _, tc := range []struct {
		input   string
		allowed bool
	}{{"y\n", true}, {"YES\n", true}, {"n\n", false}, {"\n", false}, {"", false}} {
		var out bytes.Buffer
		a := terminalApprover(strings.NewReader(tc.input), &out)
		tool := &runtime.Tool{Name: "close_account", Sensitive: []string{"/reason"}}
		d := a(context.Background(), runtime.ApprovalRequest{Tool: tool, Arguments: []byte(`{"reason":"private","confirm":true}`)})
		if d.Allow != tc.allowed {
			t.Errorf("answer %q: allowed = %v", tc.input, d.Allow)
		}
		if strings.Contains(out.String(), "private") || !strings.Contains(out.String(), `"reason":"[redacted]"`) {
			t.Errorf("the prompt shows a sensitive value: %q", out.String())
		}
	}
}
