// Package conformance holds tools that exercise every type, tag keyword, function shape
// and output kind of toolgen's contract (docs/DESIGN.md). Its generated code is checked in
// like any user's, and its tests call the tools through the generated Toolset.
//
// Most tools echo their decoded arguments, so the tests see exactly what the generated
// decoder produced.
package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"net/netip"
	"time"

	"github.com/toolgen/toolgen/internal/conformance/other"
	"github.com/toolgen/toolgen/runtime"
)

//go:generate go tool toolgen generate

// Color is a primary color.
type Color string

// The colors.
const (
	// Red is the color of fire.
	Red Color = "red"
	// Green is the color of grass.
	Green Color = "green"
	// Blue is the color of the sky.
	Blue Color = "blue"
)

// Base holds fields promoted into Kinds, as encoding/json flattens embedded structs.
type Base struct {
	// ID identifies the request.
	ID string `json:"id"`
	// Shadowed is hidden by Kinds' own field of the same name.
	Shadowed string `json:"shadowed"`
}

// Extra is embedded through a pointer.
type Extra struct {
	// Note is a free comment.
	Note string `json:"note,omitempty"`
}

// Node is a tree, to check recursive types.
type Node struct {
	// Name names the node.
	Name string `json:"name"`
	// Children are the node's subtrees.
	Children []Node `json:"children,omitempty"`
}

// Kinds has a property of every kind of type toolgen maps.
type Kinds struct {
	Base
	*Extra
	Shadowed int               `json:"shadowed"`
	Str      string            `json:"str"`
	Bool     bool              `json:"bool"`
	Int      int               `json:"int"`
	Int8     int8              `json:"int8"`
	Int16    int16             `json:"int16,omitempty"`
	Int32    int32             `json:"int32,omitempty"`
	Int64    int64             `json:"int64,omitempty"`
	Uint     uint              `json:"uint,omitempty"`
	Uint8    uint8             `json:"uint8,omitempty"`
	Uint16   uint16            `json:"uint16,omitempty"`
	Uint32   uint32            `json:"uint32,omitempty"`
	Uint64   uint64            `json:"uint64,omitempty"`
	Float32  float32           `json:"float32,omitempty"`
	Float64  float64           `json:"float64,omitempty"`
	Time     time.Time         `json:"time,omitzero"`
	Duration time.Duration     `json:"duration,omitempty"`
	Bytes    []byte            `json:"bytes,omitempty"`
	List     []string          `json:"list,omitempty"`
	Pair     [2]int            `json:"pair,omitzero"`
	Counts   map[string]int    `json:"counts,omitempty"`
	ByColor  map[Color]float64 `json:"byColor,omitempty"`
	Ptr      *string           `json:"ptr"`
	Nested   *Node             `json:"nested,omitempty"`
	Tree     Node              `json:"tree,omitzero"`
	Color    Color             `json:"color,omitempty"`
	Level    other.Level       `json:"level,omitempty"`
	Tags     []other.Tag       `json:"tags,omitempty"`
	Addr     netip.Addr        `json:"addr,omitzero"`
	Any      any               `json:"any,omitempty"`
	Raw      json.RawMessage   `json:"raw,omitempty"`
	Matrix   [][]int           `json:"matrix,omitempty"`
	Inline   struct {
		// X is a coordinate.
		X int `json:"x"`
	} `json:"inline,omitzero"`
	Secret  string `json:"-"`
	private string
}

// EchoKinds returns its arguments as decoded.
//
//toolgen:tool readonly
func EchoKinds(k Kinds) (Kinds, error) {
	if k.Secret != "" || k.private != "" {
		return k, errors.New("a hidden field was set")
	}
	return k, nil
}

// Constrained has a property per tool tag keyword.
type Constrained struct {
	Enum        string    `json:"enum,omitempty" tool:"enum=a|b|c d"`
	IntEnum     int       `json:"intEnum,omitempty" tool:"enum=1|2|3"`
	Const       string    `json:"const,omitempty" tool:"const=fixed"`
	Default     string    `json:"default,omitempty" tool:"default=dflt"`
	DefaultInt  int       `json:"defaultInt,omitempty" tool:"default=7"`
	DefaultPtr  *bool     `json:"defaultPtr,omitempty" tool:"default=true"`
	DefaultEnum Color     `json:"defaultEnum,omitempty" tool:"default=green"`
	Min         int       `json:"min,omitempty" tool:"minimum=-5"`
	Max         int       `json:"max,omitempty" tool:"maximum=5"`
	ExclMin     float64   `json:"exclMin,omitempty" tool:"exclusiveMinimum=0"`
	ExclMax     float64   `json:"exclMax,omitempty" tool:"exclusiveMaximum=1"`
	MultInt     int       `json:"multInt,omitempty" tool:"multipleOf=5"`
	MultFloat   float64   `json:"multFloat,omitempty" tool:"multipleOf=0.1"`
	MinLen      string    `json:"minLen,omitempty" tool:"minLength=2"`
	MaxLen      string    `json:"maxLen,omitempty" tool:"maxLength=3"`
	Pattern     string    `json:"pattern,omitempty" tool:"pattern=^[A-Z]{2}\\d$"`
	Comma       string    `json:"comma,omitempty" tool:"pattern=^a\\,b$"`
	DateTime    string    `json:"dateTime,omitempty" tool:"format=date-time"`
	Date        string    `json:"date,omitempty" tool:"format=date"`
	TimeOfDay   string    `json:"timeOfDay,omitempty" tool:"format=time"`
	ISODuration string    `json:"isoDuration,omitempty" tool:"format=duration"`
	Email       string    `json:"email,omitempty" tool:"format=email"`
	Hostname    string    `json:"hostname,omitempty" tool:"format=hostname"`
	IPv4        string    `json:"ipv4,omitempty" tool:"format=ipv4"`
	IPv6        string    `json:"ipv6,omitempty" tool:"format=ipv6"`
	URI         string    `json:"uri,omitempty" tool:"format=uri"`
	UUID        string    `json:"uuid,omitempty" tool:"format=uuid"`
	MinItems    []int     `json:"minItems,omitempty" tool:"minItems=2"`
	MaxItems    []int     `json:"maxItems,omitempty" tool:"maxItems=2"`
	Unique      []string  `json:"unique,omitempty" tool:"uniqueItems"`
	ItemBounds  []int     `json:"itemBounds,omitempty" tool:"minimum=0,maximum=9,maxItems=3"`
	ColorList   []Color   `json:"colorList,omitempty" tool:"enum=red|blue"`
	Secret      string    `json:"secret,omitempty" tool:"sensitive,minLength=8"`
	Titled      string    `json:"titled,omitempty" tool:"title=A title,deprecated"`
	MustHave    *int      `json:"mustHave" tool:"required"`
	MayOmit     string    `json:"mayOmit" tool:"optional"`
	Small       int8      `json:"small,omitempty" tool:"maximum=100"`
	Stamp       time.Time `json:"stamp,omitzero"`
}

// EchoConstrained returns its arguments as decoded.
//
//toolgen:tool readonly
func EchoConstrained(c Constrained) (Constrained, error) { return c, nil }

// Schedule has a property per form a time.Time can be written in besides RFC 3339: a
// Go layout (the tutorial's "2024-08-01 00:00:00" among them) and a date.
type Schedule struct {
	// At is when, in the tutorial's form.
	At time.Time `json:"at" tool:"layout=2006-01-02 15:04:05"`
	// Until is when it ends, with a zone.
	Until *time.Time `json:"until,omitempty" tool:"layout=02 Jan 06 15:04 -0700"`
	// Day is a date.
	Day time.Time `json:"day,omitzero" tool:"format=date"`
	// Clocks are times of day.
	Clocks []time.Time `json:"clocks,omitempty" tool:"layout=3:04PM,maxItems=3"`
}

// EchoSchedule returns its arguments as decoded, in RFC 3339.
//
//toolgen:tool readonly
func EchoSchedule(s Schedule) (string, error) {
	b, err := json.Marshal(s)
	return string(b), err
}

// Greet greets someone, with parameters described by //toolgen:param lines.
//
//toolgen:tool readonly timeout=50ms
//toolgen:param name desc="Who to greet." minLength=1 maxLength=20
//toolgen:param times desc="How often." minimum=1 maximum=3 default=1
//toolgen:param loud desc="Shout." optional
//toolgen:param color desc="Ink color."
func Greet(ctx context.Context, name string, times int, loud *bool, color Color) (string, error) {
	s := ""
	for range times {
		s += "hi " + name + " "
	}
	if loud != nil && *loud {
		s += "!"
	}
	return s + string(color), ctx.Err()
}

// NoArgs takes nothing and returns nothing.
//
//toolgen:tool idempotent destructive=false
func NoArgs() {}

// List returns a nil slice, which must reach the model as [].
//
//toolgen:tool readonly
func List() ([]other.Tag, error) { return nil, nil }

// Counts returns a nil map, which must reach the model as {}.
//
//toolgen:tool readonly
func Counts() map[string]int { return nil }

// Number returns a scalar, wrapped as {"result": ...}.
//
//toolgen:tool readonly
func Number() float64 { return 1.5 }

// Rich returns a runtime.Result with a block for the user only.
//
//toolgen:tool readonly
func Rich() runtime.Result {
	return runtime.Result{Content: []runtime.Content{
		runtime.TextContent("for the model"),
		runtime.UserText("for the user"),
	}}
}

// Fail fails in the ways a tool can: how=safe returns a safe tool error, how=internal an
// internal one, how=panic panics, how=slow outlives its timeout.
//
//toolgen:tool readonly timeout=20ms
//toolgen:param how desc="How to fail." enum=safe|internal|panic|slow
func Fail(ctx context.Context, how string) error {
	switch how {
	case "safe":
		return runtime.ToolErrorf("the order %d does not exist", 7)
	case "internal":
		return errors.New("connect to db at 10.0.0.1: password authentication failed")
	case "panic":
		var m map[string]int
		m["boom"]++
	case "slow":
		<-ctx.Done()
		return ctx.Err()
	}
	return nil
}

// Store is a receiver whose methods are tools.
type Store struct {
	prefix string
}

// Lookup finds a key, reading the store through the receiver.
//
//toolgen:tool readonly group=store,read name=store_lookup
//toolgen:param key desc="The key." pattern=^[a-z]+$
func (s *Store) Lookup(key string) string { return s.prefix + key }

// Put stores a value.
//
//toolgen:tool destructive group=store
func (s Store) Put(ctx context.Context, t other.Tag) error { return nil }
