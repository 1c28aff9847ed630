package openai

import (
	"strings"
	"testing"
)

// TestResponsesClientItemsRefused checks that a response holding an item the client
// must answer, which a Toolset cannot, is refused instead of echoed unanswered, unless
// its answer is in the same output.
func TestResponsesClientItemsRefused(t *testing.T) {
	call := `{"type":"function_call","id":"fc_1","call_id":"c1","name":"ping","arguments":"{}"}`
	for _, tc := range []struct {
		name, items, err string
	}{
		{"computer call", `{"type":"computer_call","id":"cu_1","call_id":"cc1","action":{"type":"click"}}`, "computer_call (cc1)"},
		{"local shell call", `{"type":"local_shell_call","id":"ls_1","call_id":"ls1","action":{}}`, "local_shell_call_output"},
		{"shell call", `{"type":"shell_call","id":"sh_1","call_id":"sh1"}`, "shell_call_output"},
		{"apply patch call", `{"type":"apply_patch_call","id":"ap_1","call_id":"ap1"}`, "apply_patch_call_output"},
		{"mcp approval request", `{"type":"mcp_approval_request","id":"mcpr_1","name":"x","server_label":"s","arguments":"{}"}`, "mcp_approval_request (mcpr_1)"},
		{"answered in the output", `{"type":"shell_call","id":"sh_1","call_id":"sh1"},{"type":"shell_call_output","call_id":"sh1","output":[]}`, ""},
		{"hosted on OpenAI's side", `{"type":"web_search_call","id":"ws_1","status":"completed"}`, ""},
	} {
		body := `{"id":"resp_1","object":"response","status":"completed","output":[` + tc.items + `,` + call + `]}`
		calls, err := ResponsesCalls([]byte(body))
		switch {
		case tc.err == "" && (err != nil || len(calls) != 1):
			t.Errorf("%s: %d calls, %v", tc.name, len(calls), err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "a Toolset cannot")):
			t.Errorf("%s: error %v, want one naming %q", tc.name, err, tc.err)
		}
	}
}
