// Package unions holds tools that take and return tagged unions (sealed interfaces
// whose variants are the package's struct types), so that tests exercise the decoder
// generated for them through the generated Toolset: the discriminator anywhere in the
// object, unions nested in unions, in lists and maps, optional and in results.
package unions

import "context"

//go:generate go tool toolgen generate

// Shape is a figure to measure.
type Shape interface{ isShape() }

// Circle is a round shape.
type Circle struct {
	// Radius is the circle's radius, in meters.
	Radius float64 `json:"radius" tool:"exclusiveMinimum=0"`
}

func (Circle) isShape() {}

// Rect is a rectangle.
//
//toolgen:variant rectangle
type Rect struct {
	// Width is the rectangle's width, in meters.
	Width float64 `json:"width" tool:"minimum=0"`
	// Height is the rectangle's height, in meters.
	Height float64 `json:"height" tool:"minimum=0"`
	// Label names the rectangle.
	Label string `json:"label,omitempty" tool:"maxLength=8"`
	// Unit is the unit of the sides.
	Unit string `json:"unit,omitempty" tool:"enum=m|cm,default=m"`
}

func (Rect) isShape() {}

// Group is a shape made of shapes.
type Group struct {
	// Name names the group.
	Name string `json:"name"`
	// Parts are the group's shapes.
	Parts []Shape `json:"parts"`
}

func (Group) isShape() {}

// Expr is an expression, told by its "op".
//
//toolgen:union op
type Expr interface{ isExpr() }

// Num is a number.
type Num struct {
	// Value is the number.
	Value int `json:"value"`
}

func (Num) isExpr() {}

// Add adds its operands.
type Add struct {
	// Left is the first operand.
	Left Expr `json:"left"`
	// Right is the second operand.
	Right Expr `json:"right"`
}

func (Add) isExpr() {}

// Secret holds a sensitive variant.
//
//toolgen:union kind
type Secret interface{ isSecret() }

// PIN is a personal number.
type PIN struct {
	// Code is the PIN.
	Code string `json:"code" tool:"pattern=^[0-9]{4}$,sensitive"`
}

func (PIN) isSecret() {}

// Measure is what measure takes.
type Measure struct {
	// Shape is the shape to measure.
	Shape Shape `json:"shape"`
	// Spare is another shape, optional.
	Spare Shape `json:"spare,omitempty"`
	// Named are shapes by name.
	Named map[string]Shape `json:"named,omitempty"`
	// Hidden is a shape never echoed in errors.
	Hidden Shape `json:"hidden,omitempty" tool:"sensitive"`
}

// Area is what measure returns.
type Area struct {
	// Shape is the shape measured.
	Shape Shape `json:"shape"`
	// Count is how many shapes were measured.
	Count int `json:"count"`
}

// EchoShape returns the shape it was given, decoded.
//
//toolgen:tool readonly
func EchoShape(in Measure) (Area, error) {
	n := 1 + len(in.Named)
	if in.Spare != nil {
		n++
	}
	return Area{Shape: in.Shape, Count: n}, nil
}

// Eval evaluates an expression.
//
//toolgen:tool readonly
//toolgen:param e desc="The expression."
func Eval(e Expr) int { return eval(e) }

func eval(e Expr) int {
	switch e := e.(type) {
	case Num:
		return e.Value
	case Add:
		return eval(e.Left) + eval(e.Right)
	}
	return 0
}

// Shapes returns the shapes it was given.
//
//toolgen:tool readonly
//toolgen:param shapes desc="The shapes."
func Shapes(ctx context.Context, shapes []Shape) ([]Shape, error) { return shapes, nil }

// Unlock checks a secret.
//
//toolgen:tool readonly
//toolgen:param secret desc="The secret."
func Unlock(secret Secret) string {
	if p, ok := secret.(PIN); ok && p.Code == "1234" {
		return "open"
	}
	return "closed"
}

// RectArea returns a rectangle's area: a variant taken as a plain struct, without its
// union, whose decoder the benchmarks compare with the union's.
//
//toolgen:tool readonly
func RectArea(rect Rect) float64 { return rect.Width * rect.Height }
