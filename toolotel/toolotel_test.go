package toolotel_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/client"
	"github.com/toolgen/toolgen/toolotel"
)

var yes = true

// tools returns a Toolset with a tool for each outcome.
func tools(t *testing.T) *runtime.Toolset {
	t.Helper()
	readonly := runtime.Annotations{ReadOnly: &yes}
	schema := json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"password":{"type":"string","x-toolgen-sensitive":true}},"required":["city"],"additionalProperties":false}`)
	mk := func(def runtime.Tool, run func(ctx context.Context, args json.RawMessage) (*runtime.Result, error)) *runtime.Toolset {
		if def.InputSchema == nil {
			def.InputSchema = schema
		}
		ts, err := runtime.NewTool(def, run)
		if err != nil {
			t.Fatal(err)
		}
		return ts
	}
	return runtime.Join(
		mk(runtime.Tool{Name: "echo", Description: "Echoes the city.", Groups: []string{"weather"}, Annotations: readonly},
			func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
				return runtime.TextResult(string(args)), nil
			}),
		mk(runtime.Tool{Name: "fail", Annotations: readonly},
			func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
				return nil, runtime.ToolErrorf("no forecast for that city")
			}),
		mk(runtime.Tool{Name: "boom", Annotations: readonly},
			func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
				return nil, errors.New("database password hunter2 rejected")
			}),
		mk(runtime.Tool{Name: "slow", Annotations: readonly, Timeout: 20 * time.Millisecond},
			func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			}),
		mk(runtime.Tool{Name: "ask", Annotations: readonly},
			func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
				return nil, fmt.Errorf("elicitation: %w", client.ErrInputRequired)
			}),
		mk(runtime.Tool{Name: "delete"}, // unannotated: destructive, so denied below
			func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
				return runtime.TextResult("deleted"), nil
			}),
	).WithPolicy(runtime.DenyDestructive)
}

type harness struct {
	spans  *tracetest.InMemoryExporter
	reader *sdkmetric.ManualReader
	tp     *sdktrace.TracerProvider
	obs    runtime.Observer
}

func newHarness(t *testing.T, opts ...toolotel.Option) *harness {
	h := &harness{spans: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader()}
	h.tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(h.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(h.reader))
	t.Cleanup(func() {
		_ = h.tp.Shutdown(context.Background())
		_ = mp.Shutdown(context.Background())
	})
	h.obs = toolotel.Observer(append([]toolotel.Option{toolotel.WithTracerProvider(h.tp), toolotel.WithMeterProvider(mp)}, opts...)...)
	return h
}

// only returns the one span named name, failing otherwise.
func (h *harness) only(t *testing.T, name string) tracetest.SpanStub {
	t.Helper()
	var found []tracetest.SpanStub
	for _, s := range h.spans.GetSpans() {
		if s.Name == name {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d spans named %q, want 1 (all: %v)", len(found), name, names(h.spans.GetSpans()))
	}
	return found[0]
}

func names(spans tracetest.SpanStubs) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name)
	}
	return out
}

func attrs(s tracetest.SpanStub) map[attribute.Key]attribute.Value {
	m := make(map[attribute.Key]attribute.Value)
	for _, kv := range s.Attributes {
		m[kv.Key] = kv.Value
	}
	return m
}

func TestSpan(t *testing.T) {
	h := newHarness(t, toolotel.WithDescriptions(tools(t)))
	ts := tools(t).WithObserver(h.obs)

	ctx, parent := h.tp.Tracer("test").Start(context.Background(), "turn")
	ctx = runtime.ContextWithCall(ctx, runtime.CallInfo{ID: "call_1", Provider: "openai-responses"})
	before := time.Now()
	res := ts.Call(ctx, "echo", []byte(`{"city":"Paris","password":"hunter2"}`))
	after := time.Now()
	parent.End()
	if res.Outcome != runtime.OutcomeOK {
		t.Fatalf("outcome %s: %s", res.Outcome, res.Text())
	}

	s := h.only(t, "execute_tool echo")
	if s.SpanKind != trace.SpanKindInternal {
		t.Errorf("kind %v, want internal", s.SpanKind)
	}
	if s.Parent.SpanID() != parent.SpanContext().SpanID() || s.SpanContext.TraceID() != parent.SpanContext().TraceID() {
		t.Errorf("parent %v, want the span in the call's context %v", s.Parent.SpanID(), parent.SpanContext().SpanID())
	}
	if s.StartTime.Before(before) || s.EndTime.After(after) || s.EndTime.Before(s.StartTime) {
		t.Errorf("span from %v to %v, not within the call (%v to %v)", s.StartTime, s.EndTime, before, after)
	}
	if s.Status.Code != codes.Unset {
		t.Errorf("status %v, want unset for ok", s.Status)
	}
	a := attrs(s)
	want := map[attribute.Key]string{
		"gen_ai.operation.name":   "execute_tool",
		"gen_ai.tool.name":        "echo",
		"gen_ai.tool.type":        "function",
		"gen_ai.tool.call.id":     "call_1",
		"gen_ai.tool.description": "Echoes the city.",
		"gen_ai.provider.name":    "openai",
		"toolgen.provider":        "openai-responses",
		"toolgen.outcome":         "ok",
	}
	for k, v := range want {
		if got := a[k].Emit(); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	for _, k := range []attribute.Key{"error.type", "gen_ai.tool.call.arguments", "toolgen.result.truncated"} {
		if _, ok := a[k]; ok {
			t.Errorf("%s set: %v", k, a[k].Emit())
		}
	}
	if g := a["toolgen.groups"].AsStringSlice(); len(g) != 1 || g[0] != "weather" {
		t.Errorf("toolgen.groups = %v", g)
	}
	if n := a["toolgen.result.bytes"].AsInt64(); n != int64(len(res.Text())) {
		t.Errorf("toolgen.result.bytes = %d, want %d", n, len(res.Text()))
	}
	for _, kv := range s.Attributes {
		if strings.Contains(kv.Value.Emit(), "hunter2") || strings.Contains(kv.Value.Emit(), "Paris") {
			t.Errorf("%s holds an argument value without argument logging: %s", kv.Key, kv.Value.Emit())
		}
	}
}

func TestArgumentsOnlyWithLogging(t *testing.T) {
	h := newHarness(t)
	ts := tools(t).WithObserver(h.obs).WithArgumentLogging(true)
	ts.Call(context.Background(), "echo", []byte(`{"city":"Paris","password":"hunter2"}`))
	a := attrs(h.only(t, "execute_tool echo"))
	args, ok := a["gen_ai.tool.call.arguments"]
	if !ok {
		t.Fatal("no gen_ai.tool.call.arguments with argument logging on")
	}
	var got map[string]string
	if err := json.Unmarshal([]byte(args.AsString()), &got); err != nil {
		t.Fatalf("arguments %q: %v", args.AsString(), err)
	}
	if got["city"] != "Paris" || got["password"] != runtime.Redacted {
		t.Errorf("arguments %q: want the city and the password %s", args.AsString(), runtime.Redacted)
	}
	if strings.Contains(args.AsString(), "hunter2") {
		t.Errorf("arguments %q hold the sensitive value", args.AsString())
	}

	// Rejected arguments of a tool with sensitive properties: the runtime's placeholder.
	ts.Call(context.Background(), "fail", []byte(`{"city":1,"pasword":"hunter2"}`))
	a = attrs(h.only(t, "execute_tool fail"))
	if s := a["gen_ai.tool.call.arguments"].AsString(); strings.Contains(s, "hunter2") || s == "" {
		t.Errorf("rejected arguments recorded as %q", s)
	}
}

func TestOutcomes(t *testing.T) {
	h := newHarness(t)
	ts := tools(t).WithObserver(h.obs)
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		tool, args string
		ctx        context.Context
		span       string
		outcome    runtime.Outcome
		desc       string // in the status description
		notDesc    string // never in any attribute or the description
	}{
		{"echo", `{"city":"Paris","password":"hunter2","days":3}`, nil, "execute_tool echo", runtime.OutcomeInvalidArguments, "/days", "hunter2"},
		{"fail", `{"city":"Paris"}`, nil, "execute_tool fail", runtime.OutcomeToolError, "no forecast for that city", "Paris"},
		{"boom", `{"city":"Paris"}`, nil, "execute_tool boom", runtime.OutcomeInternalError, "internal error", "hunter2"},
		{"delete", `{"city":"Paris"}`, nil, "execute_tool delete", runtime.OutcomeDenied, "destructive tools need an approval", "Paris"},
		{"slow", `{"city":"Paris"}`, nil, "execute_tool slow", runtime.OutcomeTimeout, "deadline exceeded", "Paris"},
		{"get_wether", `{"city":"Paris"}`, nil, "execute_tool", runtime.OutcomeUnknownTool, "unknown tool", "Paris"},
	}
	for _, tc := range cases {
		ctx := tc.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		if res := ts.Call(ctx, tc.tool, []byte(tc.args)); res.Outcome != tc.outcome {
			t.Fatalf("%s: outcome %s, want %s", tc.tool, res.Outcome, tc.outcome)
		}
		s := h.only(t, tc.span)
		a := attrs(s)
		if got := a["error.type"].Emit(); got != string(tc.outcome) {
			t.Errorf("%s: error.type %q, want %q", tc.tool, got, tc.outcome)
		}
		if got := a["toolgen.outcome"].Emit(); got != string(tc.outcome) {
			t.Errorf("%s: toolgen.outcome %q, want %q", tc.tool, got, tc.outcome)
		}
		if got := a["gen_ai.tool.name"].Emit(); got != tc.tool {
			t.Errorf("%s: gen_ai.tool.name %q", tc.tool, got)
		}
		if s.Status.Code != codes.Error || !strings.Contains(s.Status.Description, tc.desc) {
			t.Errorf("%s: status %v %q, want Error with %q", tc.tool, s.Status.Code, s.Status.Description, tc.desc)
		}
		for _, kv := range s.Attributes {
			if strings.Contains(kv.Value.Emit(), tc.notDesc) {
				t.Errorf("%s: %s holds %q: %s", tc.tool, kv.Key, tc.notDesc, kv.Value.Emit())
			}
		}
		if strings.Contains(s.Status.Description, tc.notDesc) {
			t.Errorf("%s: status description %q holds %q", tc.tool, s.Status.Description, tc.notDesc)
		}
		h.spans.Reset()
	}

	// A call that waits for its client's input did not fail: no error.type, no error
	// status.
	if res := ts.Call(context.Background(), "ask", []byte(`{"city":"Paris"}`)); res.Outcome != runtime.OutcomeInputRequired {
		t.Fatalf("ask: outcome %s", res.Outcome)
	}
	s := h.only(t, "execute_tool ask")
	if a := attrs(s); a["toolgen.outcome"].Emit() != "input_required" || a["error.type"].Emit() != "" || s.Status.Code == codes.Error {
		t.Errorf("ask: outcome %q, error.type %q, status %v", a["toolgen.outcome"].Emit(), a["error.type"].Emit(), s.Status)
	}
	h.spans.Reset()

	// A context canceled before the call.
	if res := ts.Call(canceled, "slow", []byte(`{"city":"Paris"}`)); res.Outcome != runtime.OutcomeCanceled {
		t.Fatalf("canceled call: outcome %s", res.Outcome)
	}
	s = h.only(t, "execute_tool slow")
	if got := attrs(s)["error.type"].Emit(); got != "canceled" || s.Status.Code != codes.Error {
		t.Errorf("canceled call: error.type %q, status %v", got, s.Status)
	}
}

func TestHistogram(t *testing.T) {
	h := newHarness(t)
	ts := tools(t).WithObserver(h.obs)
	ctx := context.Background()
	ts.Call(ctx, "echo", []byte(`{"city":"Paris"}`))
	ts.Call(ctx, "echo", []byte(`{"city":"Rome"}`))
	ts.Call(ctx, "fail", []byte(`{"city":"Paris"}`))
	ts.Call(ctx, "echo", []byte(`{}`))
	ts.Call(ctx, "no_such_tool", nil)
	ts.Call(ctx, "another_made_up_tool", nil)

	var rm metricdata.ResourceMetrics
	if err := h.reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	if len(rm.ScopeMetrics) != 1 || rm.ScopeMetrics[0].Scope.Name != toolotel.ScopeName || len(rm.ScopeMetrics[0].Metrics) != 1 {
		t.Fatalf("metrics: %+v", rm.ScopeMetrics)
	}
	m := rm.ScopeMetrics[0].Metrics[0]
	if m.Name != "gen_ai.execute_tool.duration" || m.Unit != "s" {
		t.Errorf("metric %q in %q, want gen_ai.execute_tool.duration in s", m.Name, m.Unit)
	}
	hist, ok := m.Data.(metricdata.Histogram[float64])
	if !ok {
		t.Fatalf("data %T, want a float64 histogram", m.Data)
	}
	type key struct{ tool, outcome, errType string }
	got := make(map[key]uint64)
	for _, dp := range hist.DataPoints {
		tool, _ := dp.Attributes.Value("gen_ai.tool.name")
		outcome, _ := dp.Attributes.Value("toolgen.outcome")
		errType, _ := dp.Attributes.Value("error.type")
		if typ, _ := dp.Attributes.Value("gen_ai.tool.type"); typ.AsString() != "function" {
			t.Errorf("data point %v: gen_ai.tool.type %q", dp.Attributes, typ.Emit())
		}
		if dp.Attributes.Len() != 3 && dp.Attributes.Len() != 4 {
			t.Errorf("data point attributes %v", dp.Attributes.ToSlice())
		}
		got[key{tool.AsString(), outcome.AsString(), errType.AsString()}] += dp.Count
		if dp.Sum < 0 || len(dp.Bounds) != 14 || dp.Bounds[0] != 0.01 || dp.Bounds[13] != 81.92 {
			t.Errorf("data point sum %v bounds %v", dp.Sum, dp.Bounds)
		}
	}
	want := map[key]uint64{
		{"echo", "ok", ""}:                                 2,
		{"fail", "tool_error", "tool_error"}:               1,
		{"echo", "invalid_arguments", "invalid_arguments"}: 1,
		{"_OTHER", "unknown_tool", "unknown_tool"}:         2,
	}
	if len(got) != len(want) {
		t.Errorf("data points %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%v: count %d, want %d (all: %v)", k, got[k], n, got)
		}
	}
}

func TestProviders(t *testing.T) {
	for provider, want := range map[string]string{
		"openai":           "openai",
		"openai-responses": "openai",
		"anthropic":        "anthropic",
		"gemini":           "gcp.gen_ai",
		"mcp":              "",
		"":                 "",
	} {
		h := newHarness(t)
		ts := tools(t).WithObserver(h.obs)
		ts.Call(runtime.ContextWithCall(context.Background(), runtime.CallInfo{Provider: provider}), "echo", []byte(`{"city":"Paris"}`))
		a := attrs(h.only(t, "execute_tool echo"))
		if got, ok := a["gen_ai.provider.name"]; got.Emit() != want || ok != (want != "") {
			t.Errorf("provider %q: gen_ai.provider.name %q (set %v), want %q", provider, got.Emit(), ok, want)
		}
		if got := a["toolgen.provider"].Emit(); got != provider {
			t.Errorf("provider %q: toolgen.provider %q", provider, got)
		}
		if _, ok := a["gen_ai.tool.call.id"]; ok {
			t.Errorf("provider %q: gen_ai.tool.call.id set without a call id", provider)
		}
	}
}

// TestGlobalProviders checks that Observer works with the global providers, which
// are no-ops until the application sets them.
func TestGlobalProviders(t *testing.T) {
	ts := tools(t).WithObserver(toolotel.Observer())
	if res := ts.Call(context.Background(), "echo", []byte(`{"city":"Paris"}`)); res.Outcome != runtime.OutcomeOK {
		t.Fatalf("outcome %s", res.Outcome)
	}
}

// TestArgumentsRedactedAtEveryDepth: gen_ai.tool.call.arguments shows no pin of an
// entry nested in itself by $ref, at any depth, in a list or by name.
func TestArgumentsRedactedAtEveryDepth(t *testing.T) {
	h := newHarness(t)
	ts, err := runtime.NewTool(runtime.Tool{Name: "put_tree", Annotations: runtime.Annotations{ReadOnly: &yes},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"root":{"$ref":"#/$defs/Entry"}},"$defs":{"Entry":{"type":"object","properties":{
			"pin":{"type":"string","x-toolgen-sensitive":true},"child":{"$ref":"#/$defs/Entry"},
			"kids":{"type":"array","items":{"$ref":"#/$defs/Entry"}},"byName":{"type":"object","additionalProperties":{"$ref":"#/$defs/Entry"}}}}}}`)},
		func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
			return runtime.TextResult("stored"), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	args := `{"root":{"pin":"PIN-1","child":{"pin":"PIN-2","kids":[{"child":{"pin":"PIN-3"}},{"byName":{"x":{"pin":"PIN-4","child":"{\"pin\":\"PIN-5\"}"}}}]}}}`
	if r := ts.WithObserver(h.obs).WithArgumentLogging(true).Call(context.Background(), "put_tree", []byte(args)); r.IsError {
		t.Fatal(r.Text())
	}
	got := attrs(h.only(t, "execute_tool put_tree"))["gen_ai.tool.call.arguments"].AsString()
	if !strings.Contains(got, runtime.Redacted) || strings.Contains(got, "PIN-") {
		t.Errorf("gen_ai.tool.call.arguments = %s", got)
	}
}
