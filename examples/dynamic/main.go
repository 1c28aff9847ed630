// Command dynamic loads tools from a JSON file at start-up and offers them beside
// generated ones: the tools of tools.json, built with runtime.NewTool, joined with the
// weather tools of examples/weather/forecast. A dynamic tool's arguments are validated
// as a generated tool's are, from its JSON Schema, with the same messages.
//
// By default it lists the tools and makes a few calls, valid and not, printing what a
// model would read:
//
//	go run ./examples/dynamic
//	go run ./examples/dynamic -tools my-tools.json
//
// With -mcp it serves every tool over MCP on stdio instead, as a client such as
// Claude Desktop starts it:
//
//	go run ./examples/dynamic -mcp
//
// A tool of the file answers with its "reply", a text/template executed on the
// validated arguments (defaults filled in), and a "converted" amount for the demo's
// currency tool. A schema NewTool refuses (a reference to a document outside it, a
// keyword whose value is malformed, ...) stops the program at start-up, naming the
// keyword and where it is.
package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"text/template"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/toolmcp"
)

//go:embed tools.json
var defaultTools []byte

// fileTool is one tool of the file: a runtime.Tool's canonical fields and a reply.
type fileTool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations struct {
		ReadOnly    *bool `json:"readOnly"`
		Destructive *bool `json:"destructive"`
		Idempotent  *bool `json:"idempotent"`
		OpenWorld   *bool `json:"openWorld"`
	} `json:"annotations"`
	Reply string `json:"reply"`
}

// rates are the demo's exchange rates, in euros.
var rates = map[string]float64{"EUR": 1, "USD": 0.92, "JPY": 0.0062}

// Load builds the tools a file describes, each with runtime.NewTool, and joins them.
func Load(file []byte) (*runtime.Toolset, error) {
	var f struct {
		Tools []fileTool `json:"tools"`
	}
	if err := json.Unmarshal(file, &f); err != nil {
		return nil, fmt.Errorf("read the tools file: %w", err)
	}
	var sets []*runtime.Toolset
	seen := map[string]bool{}
	for _, ft := range f.Tools {
		// runtime.Join panics on two tools of one name, a programming error; in a file
		// it is the file's error.
		if seen[ft.Name] {
			return nil, fmt.Errorf("the tools file names the tool %q twice", ft.Name)
		}
		seen[ft.Name] = true
		reply, err := template.New(ft.Name).Option("missingkey=zero").Parse(ft.Reply)
		if err != nil {
			return nil, fmt.Errorf("tool %s: reply: %w", ft.Name, err)
		}
		def := runtime.Tool{
			Name: ft.Name, Title: ft.Title, Description: ft.Description, InputSchema: ft.InputSchema,
			Annotations: runtime.Annotations{ReadOnly: ft.Annotations.ReadOnly, Destructive: ft.Annotations.Destructive,
				Idempotent: ft.Annotations.Idempotent, OpenWorld: ft.Annotations.OpenWorld},
		}
		ts, err := runtime.NewTool(def, func(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
			// The arguments are valid here: run never sees what the schema refuses.
			var v map[string]any
			if err := json.Unmarshal(args, &v); err != nil {
				return nil, fmt.Errorf("arguments: %w", err)
			}
			if amount, ok := v["amount"].(float64); ok {
				from, _ := v["from"].(string)
				to, _ := v["to"].(string)
				v["converted"] = strconv.FormatFloat(amount*rates[from]/rates[to], 'f', 2, 64)
			}
			var b bytes.Buffer
			if err := reply.Execute(&b, v); err != nil {
				return nil, fmt.Errorf("reply: %w", err)
			}
			return runtime.TextResult(b.String()), nil
		})
		if err != nil {
			return nil, err
		}
		sets = append(sets, ts)
	}
	return runtime.Join(sets...), nil
}

// Tools returns the tools of the file joined with the generated weather tools.
func Tools(file []byte) (*runtime.Toolset, error) {
	dynamic, err := Load(file)
	if err != nil {
		return nil, err
	}
	generated := forecast.Tools()
	for _, t := range dynamic.Tools() {
		if _, ok := generated.Lookup(t.Name); ok {
			return nil, fmt.Errorf("the tools file names the tool %q, a generated tool", t.Name)
		}
	}
	return runtime.Join(generated, dynamic), nil
}

// calls are the demo's calls: valid ones, and the mistakes a model makes.
var calls = []struct{ name, args string }{
	{"convert_currency", `{"amount":12.5,"from":"USD"}`},
	{"convert_currency", `{"amount":-3,"from":"GBP","to":"EUR","fee":1}`},
	{"open_ticket", `{"title":"Card declined","tags":["billing","card"],"account_pin":"1234","due":null}`},
	{"open_ticket", `"{\"tags\":[\"a\",\"a\"],\"title\":\"Help\",\"account_pin\":\"12\"}"`},
	{"get_weather", `{"city":"Paris","days":2}`},
	{"hello_world", `{"name":"Ada","times":0}`},
}

// Demo lists the tools and makes the demo's calls, writing what a model would read.
func Demo(ctx context.Context, w io.Writer, ts *runtime.Toolset) {
	for _, t := range ts.Tools() {
		fmt.Fprintf(w, "tool %s: %s\n", t.Name, t.Description)
	}
	for _, c := range calls {
		res := ts.Call(ctx, c.name, []byte(c.args))
		fmt.Fprintf(w, "\n%s %s\n  -> %s: %s\n", c.name, c.args, res.Outcome, res.Text())
	}
}

func main() {
	path := flag.String("tools", "", "the JSON file of the dynamic tools (default: the example's tools.json)")
	serve := flag.Bool("mcp", false, "serve the tools over MCP on stdio instead of running the demo")
	flag.Parse()
	file := defaultTools
	if *path != "" {
		b, err := os.ReadFile(*path)
		if err != nil {
			log.Fatal(err)
		}
		file = b
	}
	ts, err := Tools(file)
	if err != nil {
		log.Fatal(err)
	}
	if !*serve {
		Demo(context.Background(), os.Stdout, ts)
		return
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "toolgen-dynamic", Version: "v0.1.0"}, nil)
	toolmcp.Register(s, ts)
	if err := s.Run(context.Background(), toolmcp.StdioTransport()); err != nil && !errors.Is(err, context.Canceled) {
		log.Fatal(err)
	}
}
