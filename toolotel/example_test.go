package toolotel_test

import (
	"context"
	"fmt"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/toolotel"
)

func ExampleObserver() {
	// The application's providers, with its exporters and readers.
	tp := sdktrace.NewTracerProvider()
	mp := sdkmetric.NewMeterProvider()
	defer tp.Shutdown(context.Background())
	defer mp.Shutdown(context.Background())

	tools := forecast.Tools()
	tools = tools.WithObserver(toolotel.Observer(
		toolotel.WithTracerProvider(tp), // default: otel.GetTracerProvider()
		toolotel.WithMeterProvider(mp),  // default: otel.GetMeterProvider()
		toolotel.WithDescriptions(tools),
	))

	ctx, turn := tp.Tracer("app").Start(context.Background(), "turn")
	defer turn.End()
	// One span, "execute_tool hello_world", a child of "turn", and one measurement.
	res := tools.Call(ctx, "hello_world", []byte(`{"name":"Ada"}`))
	fmt.Println(res.Outcome, res.Text())
	// Output: ok Hello, Ada!
}
