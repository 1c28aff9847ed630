package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// TestDemo runs the demo with the example's tools.json: the dynamic tools sit beside
// the generated ones, valid calls run with their defaults filled in, and invalid ones
// get the generated decoders' messages, with the sensitive PIN never echoed.
func TestDemo(t *testing.T) {
	ts, err := Tools(defaultTools)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	Demo(context.Background(), &out, ts)
	for _, want := range []string{
		"tool convert_currency: Converts an amount",
		"tool get_weather: ",
		"tool open_ticket: ",
		"-> ok: 12.5 USD is 11.50 EUR",
		`-> invalid_arguments: invalid arguments for convert_currency: /amount: must be greater than 0 (got -3); /from: must be one of "EUR", "USD", "JPY" (got "GBP"); /fee: unknown property; expected one of "amount", "from", "to"`,
		"-> ok: opened a normal ticket: Card declined",
		`-> invalid_arguments: invalid arguments for open_ticket: /tags: must not hold equal items (items 0 and 1 are equal); /title: must be at least 5 characters long (got "Help"); /account_pin: must match the pattern ^[0-9]{4}$` + "\n",
		`-> ok: {"city":"Paris"`,
		"-> invalid_arguments: invalid arguments for hello_world: /times: must be at least 1 (got 0)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the demo's output lacks %q:\n%s", want, out.String())
		}
	}
	tool, _ := ts.Lookup("open_ticket")
	if len(tool.Sensitive) != 1 || tool.Sensitive[0] != "/account_pin" {
		t.Errorf("open_ticket's Sensitive: %q", tool.Sensitive)
	}
	if got := string(runtime.Redact(tool, []byte(`{"title":"x","account_pin":"1234"}`))); strings.Contains(got, "1234") {
		t.Errorf("Redact: %s", got)
	}
}

// TestRefused checks that a tools file whose schema NewTool refuses (a reference that
// leaves the document) stops the start-up with an error naming the keyword and where
// it is.
func TestRefused(t *testing.T) {
	file := []byte(`{"tools":[{"name":"pick","reply":"ok","inputSchema":{"type":"object","properties":{"v":{"$ref":"https://example.com/v.json"}}}}]}`)
	_, err := Tools(file)
	if err == nil || !strings.Contains(err.Error(), `keyword "$ref" at /properties/v/$ref`) {
		t.Fatalf("err = %v", err)
	}
	if _, err := Tools([]byte(`{"tools":[{"name":"hello_world","inputSchema":{"type":"object"}}]}`)); err == nil {
		t.Error("a tool named as a generated one was accepted")
	}
	if _, err := Tools([]byte(`{"tools":[{"name":"a"},{"name":"a"}]}`)); err == nil {
		t.Error("two tools of one name were accepted")
	}
}
