package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/tooltest"
)

// TestDeferredApproval runs the example twice, as two processes would: the first run
// stops at close_account and saves the conversation, the second resumes it with a
// decision and finishes it, through each provider adapter (the scripted model rejects any
// request that leaves a call unanswered, or answers one twice).
func TestDeferredApproval(t *testing.T) {
	yes := func(context.Context, runtime.ApprovalRequest) runtime.Decision { return runtime.Allow() }
	no := func(context.Context, runtime.ApprovalRequest) runtime.Decision {
		return runtime.Deny("the user declined")
	}
	for _, provider := range tooltest.Formats() {
		for _, tc := range []struct {
			name    string
			approve runtime.Approver
			want    string
		}{
			{"yes", yes, `- close_account {"reason":"moving abroad","confirm":true}: The account is closed.`},
			{"no", no, `- close_account {"reason":"moving abroad","confirm":true}` + "%s: close_account was denied: the user declined"},
		} {
			t.Run(string(provider)+"/"+tc.name, func(t *testing.T) {
				file := filepath.Join(t.TempDir(), "pending.json")
				var out bytes.Buffer
				if err := deferRun(context.Background(), &out, string(provider), file); err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(out.String(), "? close_account ") || !strings.Contains(out.String(), "sha256:") {
					t.Errorf("first run:\n%s", out.String())
				}
				out.Reset()
				if err := resumeRun(context.Background(), &out, file, tc.approve); err != nil {
					t.Fatal(err)
				}
				want := tc.want
				if strings.Contains(want, "%s") { // OpenAI's formats have no error mark
					mark := " (error)"
					if strings.HasPrefix(string(provider), "openai") {
						mark = ""
					}
					want = fmt.Sprintf(want, mark)
				}
				if !strings.Contains(out.String(), "Bakery") || !strings.Contains(out.String(), want) {
					t.Errorf("second run:\n%s\nwant %s", out.String(), want)
				}
				// The saved turn was claimed: it cannot be resumed again.
				if err := resumeRun(context.Background(), &out, file, yes); !os.IsNotExist(err) {
					t.Errorf("third run: %v", err)
				}
			})
		}
	}
}
