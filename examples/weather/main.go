// Command weather shows toolgen's generated tools at work. It prints the tool catalog,
// dispatches a valid and an invalid call the way a model would send them, then runs a
// whole conversation with loop.Loop: a question, the model's tool calls (two in one
// turn), their results and the model's final answer.
//
// By default the model is a scripted replay of the provider's API (no network, no API
// key), which checks every request as the real API would. With -live it is the real
// API, over net/http, with the key from the environment:
//
//	go run ./examples/weather                                # OpenAI Chat Completions, replayed
//	go run ./examples/weather -provider anthropic            # or openai-responses, gemini
//	go run ./examples/weather -stream                        # the model's text as it writes it
//	OPENAI_API_KEY=... go run ./examples/weather -live       # the real thing
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/loop"
	"github.com/toolgen/toolgen/tooltest"
)

// Question is what the user asks.
const Question = "What's the weather in Paris and Tokyo for the next 2 days, in fahrenheit?"

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

// run is the command: it returns the exit code, 2 for bad usage.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	flags := flag.NewFlagSet("weather", flag.ContinueOnError)
	flags.SetOutput(stderr)
	provider := flags.String("provider", "openai", "the API's wire format: "+providerNames())
	live := flags.Bool("live", false, "talk to the real API, with the key from "+strings.Join(keyVars(), ", "))
	model := flags.String("model", "", "the model (default: "+defaultModels()+")")
	baseURL := flags.String("base-url", "", "the API's base URL, for -live (default: the provider's)")
	wire := flags.Bool("wire", false, "print every request and response body")
	stream := flags.Bool("stream", false, "stream the responses, printing the model's text as it writes it (replayed API only)")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(stderr, "weather: unexpected arguments: %s\n", strings.Join(flags.Args(), " "))
		return 2
	}
	api, ok := apis[tooltest.Format(*provider)]
	if !ok {
		fmt.Fprintf(stderr, "weather: unknown -provider %q: want one of %s\n", *provider, providerNames())
		return 2
	}
	if *model == "" {
		*model = api.model
	}
	if *stream && *live {
		fmt.Fprintf(stderr, "weather: -stream works with the replayed API only, not with -live\n")
		return 2
	}
	var send loop.SendFunc
	if *live {
		key := getenv(api.keyVar)
		if key == "" {
			fmt.Fprintf(stderr, "weather: -live -provider %s needs the API key in %s; without -live the conversation is replayed, no key needed\n", *provider, api.keyVar)
			return 2
		}
		send = Live(tooltest.Format(*provider), *model, key, *baseURL, nil)
	} else {
		var err error
		if send, err = tooltest.Send(tooltest.Format(*provider), Script()); err != nil {
			fmt.Fprintf(stderr, "weather: %v\n", err)
			return 2
		}
	}
	if *wire {
		send = printWire(stdout, send)
	}
	var streamFn loop.StreamFunc
	if *stream {
		var err error
		if streamFn, err = tooltest.Stream(tooltest.Format(*provider), Script()); err != nil {
			fmt.Fprintf(stderr, "weather: %v\n", err)
			return 2
		}
		if *wire {
			streamFn = printWireStream(stdout, streamFn)
		}
	}

	tools := forecast.Tools()
	printCatalog(stdout, tools)
	directCalls(ctx, stdout, tools)

	who := "a scripted replay of the API (-live for the real one)"
	if *live {
		who = "the real API"
	}
	fmt.Fprintf(stdout, "\nA conversation with %s, model %s, through %s:\n\n", *provider, *model, who)
	converse := func() (string, error) { return Converse(ctx, stdout, tooltest.Format(*provider), *model, send) }
	if streamFn != nil {
		converse = func() (string, error) {
			return ConverseStream(ctx, stdout, tooltest.Format(*provider), *model, streamFn)
		}
	}
	if _, err := converse(); err != nil {
		fmt.Fprintf(stderr, "weather: %v\n", err)
		return 1
	}
	return 0
}

// printCatalog lists each tool with its effective annotations and the first line of its
// description.
func printCatalog(w io.Writer, tools *runtime.Toolset) {
	fmt.Fprintf(w, "%d tools:\n", tools.Len())
	for _, t := range tools.Tools() {
		e := t.Annotations.Effective()
		var hints []string
		if e.ReadOnly {
			hints = append(hints, "read-only")
		}
		if e.Destructive {
			hints = append(hints, "destructive")
		}
		if e.Idempotent {
			hints = append(hints, "idempotent")
		}
		if e.OpenWorld {
			hints = append(hints, "open-world")
		}
		first, _, _ := strings.Cut(t.Description, "\n")
		fmt.Fprintf(w, "  %-12s [%s] %s\n", t.Name, strings.Join(hints, ", "), first)
	}
}

// directCalls dispatches a valid and an invalid call, as a model would send them, and
// prints what the model would read back.
func directCalls(ctx context.Context, w io.Writer, tools *runtime.Toolset) {
	fmt.Fprintf(w, "\nTwo calls by hand, as a model would send them:\n")
	for _, call := range []struct{ name, args string }{
		{"get_weather", `{"city":"Paris","days":2}`},
		{"get_weather", `{"city":"Paris","unit":"kelvin","days":30,"country":"FR"}`},
	} {
		res := tools.Call(ctx, call.name, []byte(call.args))
		fmt.Fprintf(w, "\n> %s %s\n< [%s] %s\n", call.name, call.args, status(res), res.Text())
	}
}

// Converse runs the conversation that Question starts with a provider's API (send),
// printing the question, each round of tool calls and the final answer, which it
// returns.
func Converse(ctx context.Context, w io.Writer, provider tooltest.Format, model string, send loop.SendFunc) (string, error) {
	return converse(ctx, w, provider, model, send, nil)
}

// ConverseStream runs the conversation as Converse does, with a provider's API
// streaming (stream): the model's text is printed as it comes, then each round of
// calls once its stream is complete.
func ConverseStream(ctx context.Context, w io.Writer, provider tooltest.Format, model string, stream loop.StreamFunc) (string, error) {
	return converse(ctx, w, provider, model, nil, stream)
}

// converse runs the conversation with send, or streaming with stream when it is set.
func converse(ctx context.Context, w io.Writer, provider tooltest.Format, model string, send loop.SendFunc, stream loop.StreamFunc) (string, error) {
	p, err := provider.Provider()
	if err != nil {
		return "", err
	}
	req, err := provider.NewRequest(model, Question)
	if err != nil {
		return "", err
	}
	writing := false // a line of streamed text is open
	endText := func() {
		if writing {
			fmt.Fprint(w, "\n\n")
			writing = false
		}
	}
	chat := loop.Loop{
		Provider: p,
		Tools:    forecast.Tools(),
		Send:     send,
		Stream:   stream,
		OnText: func(delta string) {
			if !writing {
				fmt.Fprint(w, "assistant (streamed): ")
				writing = true
			}
			fmt.Fprint(w, delta)
		},
		OnRound: func(r loop.Round) { endText(); printRound(w, r) },
	}
	fmt.Fprintf(w, "user: %s\n\n", Question)
	final, _, err := chat.Run(ctx, req)
	endText()
	if err != nil {
		return "", err
	}
	answer, err := provider.Text(final)
	if err != nil {
		return "", err
	}
	if stream == nil {
		fmt.Fprintf(w, "assistant: %s\n", answer)
	}
	return answer, nil
}

// printRound prints one round of tool calls: each call's tool, id, duration, status,
// arguments, result (what the model reads) and the blocks for the user alone (the
// weather card), which an application shows the user and the model never gets.
func printRound(w io.Writer, r loop.Round) {
	fmt.Fprintf(w, "round %d: the model made %d call(s) in one turn; they ran in %s\n", r.Number, len(r.Calls), r.Duration.Round(time.Microsecond))
	for _, c := range r.Calls {
		fmt.Fprintf(w, "  %s  id=%s  %s  %s\n", c.Call.Name, c.Call.ID, c.Duration.Round(time.Microsecond), status(c.Result))
		fmt.Fprintf(w, "    arguments: %s\n    result:    %s\n", c.Call.Arguments, c.Result.Text())
		for _, b := range c.Result.Content {
			if b.Type == runtime.ContentText && !b.ForModel() {
				fmt.Fprintf(w, "    for the user:\n      %s\n", strings.ReplaceAll(b.Text, "\n", "\n      "))
			}
		}
	}
	fmt.Fprintln(w)
}

func status(r *runtime.Result) string {
	if r.IsError {
		return "error"
	}
	return "ok"
}

// Script is the replayed model's side of the conversation: it asks for both cities'
// forecasts in one turn, then answers from the results it reads in the request.
func Script() *tooltest.Script {
	args := func(city string) string {
		return fmt.Sprintf(`{"city":%q,"days":2,"unit":"fahrenheit"}`, city)
	}
	return &tooltest.Script{
		Question: Question,
		Turns: []tooltest.Turn{{
			Say:   "I'll look up both cities.",
			Calls: []tooltest.Call{{Name: "get_weather", Args: args("Paris")}, {Name: "get_weather", Args: args("Tokyo")}},
		}},
		Answer: answer,
	}
}

// answer writes the forecasts it finds in the results, one line per city.
func answer(results []tooltest.Result) string {
	var b strings.Builder
	b.WriteString("Here is the forecast for the next 2 days:")
	for _, r := range results {
		var rep forecast.Report
		if err := json.Unmarshal([]byte(r.Text), &rep); err != nil || r.IsError || rep.City == "" {
			fmt.Fprintf(&b, "\n- I could not get %s: %s", r.Call.Args, r.Text)
			continue
		}
		deg := "°F"
		if rep.Unit == forecast.Celsius {
			deg = "°C"
		}
		var days []string
		for _, d := range rep.Days {
			date, _ := time.Parse(time.DateOnly, d.Date)
			days = append(days, fmt.Sprintf("%s %s, %g to %g%s", date.Format("Jan 2"), d.Summary, d.Low, d.High, deg))
		}
		fmt.Fprintf(&b, "\n- %s: %s.", rep.City, strings.Join(days, "; "))
	}
	return b.String()
}

// printWire wraps send to print every request and response body.
func printWire(w io.Writer, send loop.SendFunc) loop.SendFunc {
	return func(ctx context.Context, request []byte) ([]byte, error) {
		fmt.Fprintf(w, "--> %s\n", request)
		resp, err := send(ctx, request)
		if err != nil {
			fmt.Fprintf(w, "<-- error: %v\n", err)
		} else {
			fmt.Fprintf(w, "<-- %s\n", resp)
		}
		return resp, err
	}
}

// printWireStream wraps stream to print every request body and every event.
func printWireStream(w io.Writer, stream loop.StreamFunc) loop.StreamFunc {
	return func(ctx context.Context, request []byte, events func(event, data []byte) error) error {
		fmt.Fprintf(w, "--> %s\n", request)
		err := stream(ctx, request, func(event, data []byte) error {
			fmt.Fprintf(w, "<-- event %q: %s\n", event, data)
			return events(event, data)
		})
		if err != nil {
			fmt.Fprintf(w, "<-- error: %v\n", err)
		}
		return err
	}
}
