package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/tooltest"
)

// TestConverse runs the conversation over every provider's replayed API, which checks
// each request as the real API would: the first request offers the kept tools and, over
// Chat Completions and Gemini, the Loop's search tool alone, over Anthropic and
// Responses every tool, the others deferred; the model refunds the mug with a tool it
// was not first offered.
func TestConverse(t *testing.T) {
	first := map[string]string{
		"openai":           "request offers: get_order search_products search_tools\n",
		"gemini":           "request offers: get_order search_products search_tools\n",
		"anthropic":        "request offers: tool_search_tool_bm25 cancel_order* change_shipping_address* get_customer* get_order list_orders* list_refunds* refund_order* search_products track_shipment* update_stock*\n",
		"openai-responses": "request offers: tool_search get_order search_products customers.get_customer* orders.cancel_order* orders.list_orders* products.update_stock* refunds.list_refunds* refunds.refund_order* shipping.change_shipping_address* shipping.track_shipment*\n",
	}
	for _, f := range tooltest.Formats() {
		provider := string(f)
		t.Run(provider, func(t *testing.T) {
			send, err := tooltest.Send(tooltest.Format(provider), Script(provider))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			answer, err := Converse(context.Background(), &out, provider, send)
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if answer != "Done: Refunded 1200 cents on order A1001." {
				t.Errorf("answer %q\n%s", answer, out.String())
			}
			lines := strings.SplitAfter(out.String(), "\n")
			if len(lines) < 2 || lines[1] != first[provider] {
				t.Errorf("first request: %q, want %q", lines[1], first[provider])
			}
			if !strings.Contains(out.String(), "refund_order {") {
				t.Errorf("refund_order did not run:\n%s", out.String())
			}
		})
	}
}

// TestRunUsage: an unknown provider is a usage error.
func TestRunUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"-provider", "cohere"}, &stdout, &stderr); code != 2 {
		t.Errorf("exit %d, want 2: %s", code, stderr.String())
	}
}
