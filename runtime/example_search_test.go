package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolgen/toolgen/runtime"
)

// Search finds the tools of a large catalog that fit what the user asked, best first.
func ExampleToolset_Search() {
	run := func(context.Context, json.RawMessage) (*runtime.Result, error) { return nil, nil }
	var sets []*runtime.Toolset
	for _, def := range []runtime.Tool{
		{Name: "list_orders", Description: "Lists the customer's orders, newest first."},
		{Name: "cancel_order", Description: "Cancels an order that has not shipped yet."},
		{Name: "track_shipment", Description: "Tells where a shipped parcel is.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"trackingNumber":{"type":"string"}}}`)},
	} {
		ts, err := runtime.NewTool(def, run)
		if err != nil {
			panic(err)
		}
		sets = append(sets, ts)
	}
	tools := runtime.Join(sets...)
	for _, t := range tools.Search("where is my parcel? I have its tracking number", 2) {
		fmt.Println(t.Name)
	}
	for _, t := range tools.Search("I want to cancel an order", 0) {
		fmt.Println(t.Name)
	}
	// Output:
	// track_shipment
	// cancel_order
	// list_orders
}
