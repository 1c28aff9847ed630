// Command catalog shows deferred loading: a shop's ten back-office tools, of which a
// conversation is offered two up front (search_products and get_order), the others
// deferred (runtime.Toolset.WithDefer). The model finds the tool it needs by searching:
//
//   - over Anthropic Messages and the OpenAI Responses API, with the API's own search
//     (Anthropic's tool search tool, Responses' tool_search, with a namespace per
//     group): every tool is sent, the deferred ones marked defer_loading, and the API
//     loads what its search finds; the search comes back in the response, and goes back
//     in the next request, as the API requires;
//   - over OpenAI Chat Completions and Gemini, which have no such feature, with the
//     Loop's own search tool (search_tools, built on Toolset.Search): only the kept
//     tools and search_tools are sent, and the tools a search found are offered from
//     the next round on.
//
// The model is a scripted replay of the provider's API (no network, no API key), which
// checks every request as the real API would:
//
//	go run ./examples/catalog                          # OpenAI Chat Completions
//	go run ./examples/catalog -provider anthropic      # or openai-responses, gemini
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolgen/toolgen/examples/catalog/shop"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/anthropic"
	"github.com/toolgen/toolgen/runtime/gemini"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/runtime/openai"
	"github.com/toolgen/toolgen/runtime/searchtool"
	"github.com/toolgen/toolgen/tooltest"
)

// Question is what the user asks.
const Question = "Order A1001 came with a broken mug. Please refund the mug."

// Kept are the tools offered up front; the others are deferred.
var Kept = runtime.Defer{Keep: []string{"search_products", "get_order"}}

// providers are the adapters, by name, and the request that starts the conversation.
var providers = map[string]struct {
	provider loop.Provider
	request  map[string]any
}{
	"openai": {openai.Chat{}, map[string]any{"model": "gpt-5.4", "messages": []any{map[string]any{"role": "user", "content": Question}}}},
	"openai-responses": {openai.Responses{Namespaces: true}, map[string]any{"model": "gpt-5.4", "store": false,
		"input": []any{map[string]any{"role": "user", "content": Question}}}},
	"anthropic": {anthropic.Messages{}, map[string]any{"model": "claude-sonnet-4-5", "max_tokens": 1024,
		"messages": []any{map[string]any{"role": "user", "content": Question}}}},
	"gemini": {gemini.GenerateContent{}, map[string]any{"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": Question}}}}}},
}

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command: it returns the exit code, 2 for bad usage.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("catalog", flag.ContinueOnError)
	flags.SetOutput(stderr)
	provider := flags.String("provider", "openai", "the API's wire format: "+formatNames())
	if err := flags.Parse(args); err != nil {
		return 2
	}
	if _, ok := providers[*provider]; !ok || flags.NArg() > 0 {
		fmt.Fprintf(stderr, "catalog: want -provider one of %s, and no arguments\n", formatNames())
		return 2
	}
	send, err := tooltest.Send(tooltest.Format(*provider), Script(*provider))
	if err == nil {
		_, err = Converse(ctx, stdout, *provider, send)
	}
	if err != nil {
		fmt.Fprintln(stderr, "catalog:", err)
		return 1
	}
	return 0
}

// Converse runs the conversation over the named provider's format with send, printing
// the tools each request offers and each round's calls, and returns the model's answer.
func Converse(ctx context.Context, out io.Writer, provider string, send loop.SendFunc) (string, error) {
	p := providers[provider]
	request, err := json.Marshal(p.request)
	if err != nil {
		return "", err
	}
	tools := shop.StoreTools(shop.NewStore()).WithDefer(Kept)
	fmt.Fprintf(out, "%d tools, kept up front: %s\n", tools.Len(), strings.Join(Kept.Keep, ", "))
	chat := loop.Loop{
		Provider: p.provider, Tools: tools,
		Send: func(ctx context.Context, req []byte) ([]byte, error) {
			fmt.Fprintf(out, "request offers: %s\n", offered(req))
			return send(ctx, req)
		},
		OnRound: func(r loop.Round) {
			for _, c := range r.Calls {
				fmt.Fprintf(out, "  %s %s -> %s\n", c.Call.Name, c.Call.Arguments, firstLine(c.Result.Text()))
			}
		},
	}
	resp, _, err := chat.Run(ctx, request)
	if err != nil {
		return "", err
	}
	answer, err := tooltest.Format(provider).Text(resp)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(out, "answer: %s\n", answer)
	return answer, nil
}

// offered names the tools a request body offers, the deferred ones marked with a star.
func offered(req []byte) string {
	var body struct {
		Tools []struct {
			Type         string `json:"type"`
			Name         string `json:"name"`
			DeferLoading bool   `json:"defer_loading"`
			Function     struct {
				Name string `json:"name"`
			} `json:"function"`
			Tools []struct {
				Name         string `json:"name"`
				DeferLoading bool   `json:"defer_loading"`
			} `json:"tools"`
			FunctionDeclarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(req, &body)
	var names []string
	mark := func(name string, deferred bool) {
		if deferred {
			name += "*"
		}
		names = append(names, name)
	}
	for _, t := range body.Tools {
		switch {
		case t.Function.Name != "":
			mark(t.Function.Name, false)
		case len(t.FunctionDeclarations) > 0:
			for _, d := range t.FunctionDeclarations {
				mark(d.Name, false)
			}
		case t.Type == "namespace":
			for _, f := range t.Tools {
				mark(t.Name+"."+f.Name, f.DeferLoading)
			}
		case t.Name != "":
			mark(t.Name, t.DeferLoading)
		default:
			mark(t.Type, false)
		}
	}
	return strings.Join(names, " ")
}

func firstLine(s string) string {
	line, _, cut := strings.Cut(s, "\n")
	if cut {
		line += " …"
	}
	return line
}

// refund is the model's refund of the mug.
var refund = tooltest.Call{Name: "refund_order", Args: `{"orderId":"A1001","amountCents":1200,"reason":"The mug arrived broken."}`}

// Script is the scripted model: it reads the order, then refunds the mug, which it
// must find first. Over the APIs with a search of their own, it calls refund_order
// directly (the replayed API's search loads it, as the real one does); over the
// others, it calls search_tools and calls the tool the search found.
func Script(provider string) *tooltest.Script {
	s := &tooltest.Script{
		Question: Question,
		Turns:    []tooltest.Turn{{Say: "Let me look at the order.", Calls: []tooltest.Call{{Name: "get_order", Args: `{"id":"A1001"}`}}}},
		Answer: func(results []tooltest.Result) string {
			last := results[len(results)-1]
			return "Done: " + last.Text
		},
	}
	if provider == "anthropic" || provider == "openai-responses" {
		s.Turns = append(s.Turns, tooltest.Turn{Calls: []tooltest.Call{refund}})
		return s
	}
	s.Turns = append(s.Turns,
		tooltest.Turn{Calls: []tooltest.Call{{Name: searchtool.Name, Args: `{"query":"refund an order"}`}}},
		tooltest.Turn{Plan: func(last []tooltest.Result) []tooltest.Call {
			if len(last) == 1 && strings.Contains(last[0].Text, `"name":"refund_order"`) {
				return []tooltest.Call{refund}
			}
			return nil
		}},
	)
	return s
}

// formatNames lists the wire formats -provider takes.
func formatNames() string {
	names := make([]string, len(tooltest.Formats()))
	for i, f := range tooltest.Formats() {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}
