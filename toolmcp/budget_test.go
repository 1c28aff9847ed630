package toolmcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// TestResultBudget checks that an MCP client gets the text content cut to the result
// budget and no structuredContent, and that the observer sees the original size.
func TestResultBudget(t *testing.T) {
	items := make([]string, 2000)
	for i := range items {
		items[i] = "€ item"
	}
	res, err := runtime.StructuredResult(items, true)
	if err != nil {
		t.Fatal(err)
	}
	whole := string(res.Structured)
	tools := []runtime.Tool{{
		Name:           "long",
		InputSchema:    json.RawMessage(emptyObject),
		OutputSchema:   json.RawMessage(`{"type":"object","properties":{"result":{"type":"array","items":{"type":"string"}}},"required":["result"]}`),
		MaxResultBytes: 2000,
	}}
	var events []runtime.Event
	ts := runtime.NewToolset(tools, toolimpl.Direct(func(i int, d *toolimpl.Decoder) toolimpl.Invocation {
		d.EmptyObject()
		if !d.Finish() {
			return nil
		}
		return func(context.Context) (*runtime.Result, error) { return res, nil }
	})).WithObserver(func(_ context.Context, e runtime.Event) { events = append(events, e) })
	got := call(t, serve(t, ts), "long", map[string]any{})
	if got.IsError {
		t.Fatalf("error result: %s", text(got))
	}
	sent := text(got)
	i := strings.Index(sent, "…\n[truncated: ")
	if len(sent) > 2000 || i < 0 || !strings.HasPrefix(whole, sent[:i]) || !strings.Contains(sent, " bytes of JSON cut ") {
		t.Errorf("text content: %d bytes, ending %q", len(sent), sent[max(len(sent)-150, 0):])
	}
	// The cut value would not conform to the output schema, and the model may read
	// structuredContent rather than the text: a cut result has none.
	if got.StructuredContent != nil {
		t.Errorf("structuredContent of a cut result: %.100s", jsonOf(t, got.StructuredContent))
	}
	if len(events) != 1 || events[0].ResultBytes != len(whole) || !events[0].Truncated || events[0].Provider != "mcp" {
		t.Errorf("events = %+v", events)
	}
}

// modelFacing measures what a client passes on to its model of an MCP result, as the
// SDK's client got it: the blocks with no audience or the assistant's, each counting
// its strings and data (the text, the data's bytes, the URI, name and MIME type), a
// byte for each after the first, and structuredContent when no such text block holds
// its JSON. The JSON around them is not counted.
func modelFacing(t *testing.T, res *mcp.CallToolResult) int {
	t.Helper()
	n, blocks := 0, 0
	var texts []string
	for _, c := range res.Content {
		var ann *mcp.Annotations
		size := 0
		switch b := c.(type) {
		case *mcp.TextContent:
			ann, size = b.Annotations, len(b.Text)
			texts = append(texts, b.Text)
		case *mcp.ImageContent:
			ann, size = b.Annotations, len(b.Data)+len(b.MIMEType)
		case *mcp.AudioContent:
			ann, size = b.Annotations, len(b.Data)+len(b.MIMEType)
		case *mcp.ResourceLink:
			ann, size = b.Annotations, len(b.URI)+len(b.Name)+len(b.MIMEType)+len(b.Title)+len(b.Description)
		case *mcp.EmbeddedResource:
			ann = b.Annotations
			size = len(b.Resource.URI) + len(b.Resource.MIMEType) + len(b.Resource.Text) + len(b.Resource.Blob)
		default:
			t.Fatalf("a block of type %T", c)
		}
		if ann != nil {
			if len(ann.Audience) > 2 || slices.ContainsFunc(ann.Audience, func(r mcp.Role) bool { return r != "user" && r != "assistant" }) {
				t.Fatalf("audience %q: not MCP's roles, each once", ann.Audience)
			}
			if len(ann.Audience) > 0 && !slices.Contains(ann.Audience, "assistant") {
				continue // the user's alone
			}
		}
		if blocks > 0 {
			n++
		}
		blocks++
		n += size
	}
	if res.StructuredContent != nil {
		s := jsonOf(t, res.StructuredContent)
		if !slices.ContainsFunc(texts, func(x string) bool {
			return json.Valid([]byte(x)) && canonical(t, []byte(x)) == canonical(t, []byte(s))
		}) {
			n += len(s)
		}
	}
	return n
}

// TestResultBudgetEveryBlock: what the client passes on to its model of a result is
// within the budget, whatever blocks the result holds: a text resource of 204,805
// bytes and a block of a type MCP does not know (sent as text) of 204,800 passed a
// 1 KiB budget whole, as did images, audio, blobs, resource links and a structured
// value that no text block holds; an audience of a million roles went as written; text
// of bytes that are not UTF-8, counted as they were, reached the client as U+FFFD,
// three bytes each.
func TestResultBudgetEveryBlock(t *testing.T) {
	big := strings.Repeat("x", 204_800)
	roles := make([]runtime.Role, 1_000_000)
	for i := range roles {
		roles[i] = runtime.RoleAssistant
	}
	for _, tc := range []struct {
		name string
		r    *runtime.Result
	}{
		{"text resource", &runtime.Result{Content: []runtime.Content{runtime.TextResource("file:///a", "text/plain", big+"€12")}}},
		{"unknown type", &runtime.Result{Content: []runtime.Content{{Type: "markdown", Text: big}}}},
		{"image", &runtime.Result{Content: []runtime.Content{runtime.TextContent("see"), runtime.ImageContent([]byte(big), "image/png")}}},
		{"audio", &runtime.Result{Content: []runtime.Content{runtime.AudioContent([]byte(big), "audio/wav")}}},
		{"blob", &runtime.Result{Content: []runtime.Content{runtime.BlobResource("file:///b", "application/octet-stream", []byte(big))}}},
		{"resource link", &runtime.Result{Content: []runtime.Content{{Type: runtime.ContentResourceLink, URI: "file:///" + big, Name: "n"}}}},
		{"structured apart", &runtime.Result{Content: []runtime.Content{runtime.TextContent(`{"a":1}`)}, Structured: json.RawMessage(`{"a":"` + big + `"}`)}},
		{"audience", &runtime.Result{Content: []runtime.Content{{Type: runtime.ContentText, Text: "hi", Audience: roles}}}},
		{"invalid UTF-8", &runtime.Result{Content: []runtime.Content{runtime.TextContent(strings.Repeat("\xffa", 600))}}},
		{"unknown roles", &runtime.Result{Content: []runtime.Content{{Type: runtime.ContentText, Text: big, Audience: []runtime.Role{"robot"}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, budgetServer(t, tc.r, 1024), "r", map[string]any{})
			if n := modelFacing(t, res); n > 1024 {
				t.Errorf("%d model-facing bytes under a budget of 1,024", n)
			}
			if tc.name == "unknown roles" {
				// Not the model's: the user's alone, and not counted.
				if a := res.Content[0].(*mcp.TextContent).Annotations; a == nil || !slices.Equal(a.Audience, []mcp.Role{"user"}) {
					t.Errorf("annotations %s, want the audience [user]", jsonOf(t, a))
				}
				return
			}
			// The JSON around what counts: the SDK's _meta, each block's keys.
			if b, err := json.Marshal(res); err != nil || len(b) > 1024+300 {
				t.Errorf("the result is %d bytes (%v): %.200s", len(b), err, b)
			}
		})
	}
}

// budgetServer serves a tool r whose every call returns res, under budget.
func budgetServer(t *testing.T, res *runtime.Result, budget int) *mcp.ClientSession {
	t.Helper()
	ts, err := runtime.NewTool(runtime.Tool{Name: "r", InputSchema: json.RawMessage(emptyObject), MaxResultBytes: budget},
		func(context.Context, json.RawMessage) (*runtime.Result, error) { return res, nil })
	if err != nil {
		t.Fatal(err)
	}
	return serve(t, ts)
}

// TestResultBudgetProperty: over random results of every kind of block and audience,
// with structured values a text block holds or not, what the client passes on to its
// model is within the budget, with no overhead: the marker is inside it.
func TestResultBudgetProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var current *runtime.Result
	budget := 512
	ts, err := runtime.NewTool(runtime.Tool{Name: "r", InputSchema: json.RawMessage(emptyObject), MaxResultBytes: budget},
		func(context.Context, json.RawMessage) (*runtime.Result, error) { return current, nil })
	if err != nil {
		t.Fatal(err)
	}
	cs := serve(t, ts)
	runes := []string{"a", "é", "€", "𝄞", "\n", "\"", "\xff", "\xffa"}
	for i := range 300 {
		r := &runtime.Result{}
		for range rng.IntN(6) {
			s := strings.Repeat(runes[rng.IntN(len(runes))], rng.IntN(300))
			var c runtime.Content
			switch rng.IntN(9) {
			case 0, 1:
				c = runtime.TextContent(s)
			case 2:
				c = runtime.ImageContent([]byte(s), "image/png")
			case 3:
				c = runtime.AudioContent([]byte(s), "audio/wav")
			case 4:
				c = runtime.TextResource("file:///t", "text/plain", s)
			case 5:
				c = runtime.BlobResource("file:///b", "", []byte(s))
			case 6:
				c = runtime.Content{Type: runtime.ContentResourceLink, URI: "file:///" + s, Name: "link"}
			case 7:
				c = runtime.Content{Type: "markdown", Text: s}
			case 8:
				j := fmt.Sprintf(`{"s":%q}`, strings.Repeat("j", len(s)))
				r.Structured = json.RawMessage(j)
				if rng.IntN(2) == 0 {
					continue // a structured value apart from the text
				}
				c = runtime.TextContent(j)
			}
			c.Audience = [][]runtime.Role{nil, {runtime.RoleUser}, {runtime.RoleAssistant}, {runtime.RoleUser, runtime.RoleAssistant}, {"robot"}}[rng.IntN(5)]
			r.Content = append(r.Content, c)
		}
		current = r
		res := call(t, cs, "r", map[string]any{})
		if n := modelFacing(t, res); n > budget {
			t.Fatalf("result %d: %d model-facing bytes under a budget of %d: %.300s", i, n, budget, jsonOf(t, res))
		}
	}
}
