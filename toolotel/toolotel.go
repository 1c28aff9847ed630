package toolotel

import (
	"context"
	"errors"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolgen/toolgen/runtime"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/toolgen/toolgen/toolotel"

// MetricName is the name of the duration histogram.
const MetricName = "gen_ai.execute_tool.duration"

// The attribute keys, from the GenAI conventions and toolgen's own namespace.
const (
	keyOperationName   = attribute.Key("gen_ai.operation.name")
	keyToolName        = attribute.Key("gen_ai.tool.name")
	keyToolType        = attribute.Key("gen_ai.tool.type")
	keyToolCallID      = attribute.Key("gen_ai.tool.call.id")
	keyToolDescription = attribute.Key("gen_ai.tool.description")
	keyToolArguments   = attribute.Key("gen_ai.tool.call.arguments")
	keyProviderName    = attribute.Key("gen_ai.provider.name")
	keyErrorType       = attribute.Key("error.type")
	keyOutcome         = attribute.Key("toolgen.outcome")
	keyProvider        = attribute.Key("toolgen.provider")
	keyGroups          = attribute.Key("toolgen.groups")
	keyResultBytes     = attribute.Key("toolgen.result.bytes")
	keyResultTruncated = attribute.Key("toolgen.result.truncated")
)

const (
	operationExecuteTool = "execute_tool"
	toolTypeFunction     = "function"
	other                = "_OTHER" // the conventions' value for what has no other
)

// buckets are the boundaries the conventions give gen_ai.execute_tool.duration.
var buckets = []float64{0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92}

// providerNames maps the runtime's provider names to gen_ai.provider.name values.
var providerNames = map[string]string{
	"openai":           "openai",
	"openai-responses": "openai",
	"anthropic":        "anthropic",
	"gemini":           "gcp.gen_ai",
}

type config struct {
	tp    trace.TracerProvider
	mp    metric.MeterProvider
	tools *runtime.Toolset
}

// Option configures Observer.
type Option func(*config)

// WithTracerProvider makes the observer start its spans with tp instead of the global
// TracerProvider (otel.GetTracerProvider).
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tp = tp }
}

// WithMeterProvider makes the observer record its histogram with mp instead of the
// global MeterProvider (otel.GetMeterProvider).
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) { c.mp = mp }
}

// WithDescriptions gives each span the attribute gen_ai.tool.description, the
// description of the tool of that name in ts (usually the Toolset observed). The
// runtime's events do not carry descriptions, and without this option spans have none.
func WithDescriptions(ts *runtime.Toolset) Option {
	return func(c *config) { c.tools = ts }
}

// Observer returns a runtime.Observer that records each call as a span and in the
// gen_ai.execute_tool.duration histogram, as the package documentation says. Give it
// to runtime.Toolset.WithObserver. It is safe for concurrent use.
func Observer(opts ...Option) runtime.Observer {
	var c config
	for _, o := range opts {
		o(&c)
	}
	if c.tp == nil {
		c.tp = otel.GetTracerProvider()
	}
	if c.mp == nil {
		c.mp = otel.GetMeterProvider()
	}
	tracer := c.tp.Tracer(ScopeName)
	hist, err := c.mp.Meter(ScopeName).Float64Histogram(MetricName,
		metric.WithUnit("s"),
		metric.WithDescription("The duration of a single tool execution."),
		metric.WithExplicitBucketBoundaries(buckets...),
	)
	if err != nil {
		otel.Handle(err)
		if hist == nil {
			hist = noop.Float64Histogram{}
		}
	}
	o := &observer{tracer: tracer, hist: hist, tools: c.tools}
	return o.observe
}

type observer struct {
	tracer trace.Tracer
	hist   metric.Float64Histogram
	tools  *runtime.Toolset
}

func (o *observer) observe(ctx context.Context, e runtime.Event) {
	start, end := e.Start, e.Start.Add(e.Duration)
	if start.IsZero() {
		end = time.Now()
		start = end.Add(-e.Duration)
	}
	unknown := e.Outcome == runtime.OutcomeUnknownTool
	errType := errorType(e.Outcome)

	attrs := make([]attribute.KeyValue, 0, 14)
	attrs = append(attrs,
		keyOperationName.String(operationExecuteTool),
		keyToolName.String(e.Tool),
		keyToolType.String(toolTypeFunction),
		keyOutcome.String(string(e.Outcome)),
	)
	if e.CallID != "" {
		attrs = append(attrs, keyToolCallID.String(e.CallID))
	}
	if o.tools != nil && !unknown {
		if t, ok := o.tools.Lookup(e.Tool); ok && t.Description != "" {
			attrs = append(attrs, keyToolDescription.String(t.Description))
		}
	}
	if e.Provider != "" {
		if name, ok := providerNames[e.Provider]; ok {
			attrs = append(attrs, keyProviderName.String(name))
		}
		attrs = append(attrs, keyProvider.String(e.Provider))
	}
	if errType != "" {
		attrs = append(attrs, keyErrorType.String(errType))
	}
	if e.Arguments != nil {
		attrs = append(attrs, keyToolArguments.String(string(e.Arguments)))
	}
	if len(e.Groups) > 0 {
		attrs = append(attrs, keyGroups.StringSlice(e.Groups))
	}
	attrs = append(attrs, keyResultBytes.Int(e.ResultBytes))
	if e.Truncated {
		attrs = append(attrs, keyResultTruncated.Bool(true))
	}

	name := operationExecuteTool + " " + e.Tool
	if unknown {
		name = operationExecuteTool
	}
	ctx, span := o.tracer.Start(ctx, name,
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithTimestamp(start),
		trace.WithAttributes(attrs...),
	)
	if errType != "" {
		span.SetStatus(codes.Error, statusDescription(e))
	}
	span.End(trace.WithTimestamp(end))

	tool := e.Tool
	if unknown {
		tool = other
	}
	mattrs := []attribute.KeyValue{
		keyToolName.String(tool),
		keyToolType.String(toolTypeFunction),
		keyOutcome.String(string(e.Outcome)),
	}
	if errType != "" {
		mattrs = append(mattrs, keyErrorType.String(errType))
	}
	o.hist.Record(ctx, end.Sub(start).Seconds(), metric.WithAttributeSet(attribute.NewSet(mattrs...)))
}

// errorType returns the error.type of an outcome: "" for ok, the outcome otherwise.
func errorType(o runtime.Outcome) string {
	switch o {
	case runtime.OutcomeOK, runtime.OutcomeInputRequired:
		// A call that waits for its client's input did not fail: it runs again with
		// the answer.
		return ""
	case "":
		return other
	}
	return string(o)
}

// maxDescriptionBytes bounds a status description.
const maxDescriptionBytes = 1024

// statusDescription says what went wrong with a failed call, without argument values
// and without an internal error's text.
func statusDescription(e runtime.Event) string {
	var d string
	switch e.Outcome {
	case runtime.OutcomeInvalidArguments:
		v := make([]string, len(e.Violations)) // the runtime removed the values got
		for i, x := range e.Violations {
			v[i] = x.String()
		}
		d = strings.Join(v, "; ")
		if e.OmittedViolations > 0 {
			if d != "" {
				d += "; "
			}
			d += "and more violations not listed"
		}
	case runtime.OutcomeToolError:
		// The message a tool marked as safe for the model (runtime.ToolErrorf).
		if te := (*runtime.ToolError)(nil); errors.As(e.Err, &te) {
			d = te.Message
		}
	case runtime.OutcomeDenied:
		d = e.Reason
	case runtime.OutcomeTimeout, runtime.OutcomeCanceled:
		if e.Err != nil {
			d = e.Err.Error()
		}
	case runtime.OutcomeUnknownTool:
		d = "unknown tool"
	case runtime.OutcomeInternalError:
		d = "internal error"
	}
	if len(d) > maxDescriptionBytes {
		d = strings.ToValidUTF8(d[:maxDescriptionBytes], "") + "…"
	}
	return d
}
