// Package tablekinds holds tools whose arguments take every kind of value that
// table-driven decoding describes, and some it leaves to specialised code (a union),
// for the differential test of the two decoding modes (modes_test.go): its
// toolgen.gen.go holds the specialised decoders, toolgen_table_test.go their tables.
package tablekinds

import (
	"context"
	"encoding/json"
	"time"
)

//go:generate go run ../../cmd/toolgen generate

// Level is how loud a message is.
type Level int

// The levels.
const (
	// Quiet says little.
	Quiet Level = 1
	// Loud says much.
	Loud Level = 3
)

// Color is a named string with constants.
type Color string

// The colors.
const (
	// Red is red.
	Red Color = "red"
	// Blue is blue.
	Blue Color = "blue"
)

// Item is a nested named struct.
type Item struct {
	// SKU identifies it.
	SKU string `json:"sku" tool:"pattern=^[A-Z]{3}-[0-9]{4}$"`
	// Qty is how many.
	Qty uint16 `json:"qty" tool:"minimum=1,maximum=500"`
	// Price is what one costs.
	Price float32 `json:"price,omitempty" tool:"exclusiveMinimum=0,multipleOf=0.01"`
}

// Tree is a recursive type.
type Tree struct {
	// Name names the node.
	Name string `json:"name" tool:"maxLength=10"`
	// Children are below it.
	Children []*Tree `json:"children,omitempty" tool:"maxItems=3"`
}

// Base is embedded in Args.
type Base struct {
	// ID identifies the request.
	ID string `json:"id" tool:"format=uuid"`
}

// Shape is a union.
//
//toolgen:union kind
type Shape interface{ isShape() }

// Circle is a round shape.
type Circle struct {
	// R is its radius.
	R float64 `json:"r" tool:"minimum=0"`
}

func (Circle) isShape() {}

// Square is a square shape.
type Square struct {
	// Side is its side.
	Side int `json:"side" tool:"exclusiveMinimum=0"`
}

func (Square) isShape() {}

// Args holds every kind.
type Args struct {
	Base
	// Email is an address.
	Email string `json:"email" tool:"format=email"`
	// Word matches a pattern toolgen does not turn into Go.
	Word string `json:"word,omitempty" tool:"pattern=^(foo|bar)+\\b"`
	// Color is an enum from constants.
	Color Color `json:"color,omitempty" tool:"default=blue"`
	// Mode is an enum of the tag.
	Mode string `json:"mode,omitempty" tool:"enum=fast|slow"`
	// Level is an integer enum from constants.
	Level Level `json:"level,omitempty" tool:"default=1"`
	// Small is narrow.
	Small int8 `json:"small,omitempty" tool:"exclusiveMaximum=100,multipleOf=5"`
	// Big is unsigned.
	Big uint64 `json:"big,omitempty" tool:"exclusiveMinimum=10"`
	// Ratio is a float.
	Ratio float64 `json:"ratio,omitempty" tool:"minimum=-1.5,maximum=1.5,default=0.5"`
	// Factor is a float32 with a default.
	Factor float32 `json:"factor,omitempty" tool:"default=0.1"`
	// Pick is a float enum.
	Pick float64 `json:"pick,omitempty" tool:"enum=0.5|1|2.5"`
	// Yes must be true.
	Yes bool `json:"yes" tool:"const=true"`
	// Flag is a plain bool.
	Flag bool `json:"flag,omitempty" tool:"default=true"`
	// Wait is a duration.
	Wait time.Duration `json:"wait,omitempty" tool:"default=1m30s"`
	// Step is a duration enum.
	Step time.Duration `json:"step,omitempty" tool:"enum=1s|1m"`
	// At is a date-time.
	At *time.Time `json:"at,omitempty"`
	// Day is a date.
	Day time.Time `json:"day,omitempty" tool:"format=date"`
	// Clock has a layout.
	Clock time.Time `json:"clock,omitempty" tool:"layout=15:04"`
	// Note is an optional pointer with a default.
	Note *string `json:"note,omitempty" tool:"maxLength=5,default=hi"`
	// Must is a required pointer.
	Must *int `json:"must" tool:"required,minimum=0"`
	// Tags are unique.
	Tags []string `json:"tags,omitempty" tool:"minItems=1,maxItems=4,uniqueItems,maxLength=8"`
	// Items are nested structs.
	Items []Item `json:"items,omitempty" tool:"maxItems=5"`
	// Counts are bounded.
	Counts map[string]int `json:"counts,omitempty" tool:"maxItems=3,minimum=0"`
	// Paint is keyed by color.
	Paint map[Color]string `json:"paint,omitempty"`
	// Grid is a list of lists.
	Grid [][]int32 `json:"grid,omitempty" tool:"maxItems=2"`
	// Data is base64.
	Data []byte `json:"data,omitempty"`
	// Free is anything.
	Free any `json:"free,omitempty"`
	// Raw is kept as it came.
	Raw json.RawMessage `json:"raw,omitempty"`
	// Tree is recursive.
	Tree *Tree `json:"tree,omitempty"`
	// Shape is a union, left to specialised code.
	Shape Shape `json:"shape,omitempty"`
	// Secret is never echoed.
	Secret string `json:"secret,omitempty" tool:"sensitive,minLength=4"`
}

// Kinds takes every kind of argument.
//
//toolgen:tool name=kinds readonly
func Kinds(ctx context.Context, a Args) (string, error) { return "", nil }

// Params is an ordinary function.
//
//toolgen:tool name=params readonly
//toolgen:param name desc="Who." minLength=1
//toolgen:param times desc="How often." minimum=1 maximum=5 default=2
//toolgen:param unit desc="The unit." enum=a|b
func Params(name string, times int, unit *string) string { return name }
