package bad

import (
	"context"
	"encoding/json"
	"unsafe"
)

// want +4 `unknown option "redonly" \(did you mean "readonly"\?\)` `option "name" needs a value \(name=\.\.\.\)`

// Unknown has an unknown option.
//
//toolgen:tool redonly name
func Unknown() {}

// want +4 `option "readonly" must be bare, readonly=true or readonly=false \(got "yes"\)` `invalid timeout "abc": want a Go duration such as 30s or 2m` `option "strict" must be bare, strict=true or strict=false \(got "maybe"\)` `option "sequential" must be bare, sequential=true or sequential=false \(got "1"\)` `option "title" needs a value \(title=\.\.\.\)` `duplicate group "a"` `empty group name in group=a,,b!,a` `invalid group name "b!": must match \^\[a-zA-Z0-9_\.-\]\+\$`

// BadValues has bad values.
//
//toolgen:tool readonly=yes timeout=abc strict=maybe sequential=1 title= group=a,,b!,a
func BadValues() {}

// want +4 `repeated option "readonly" \(first at \S*\.go:\d+:\d+\)` `readonly and destructive contradict each other: a read-only tool does not modify anything` `invalid tool name "bad!name": must match \^\[a-zA-Z0-9_-\]\{1,64\}\$` `invalid timeout "-1s": must be positive`

// Repeated repeats an option and contradicts itself.
//
//toolgen:tool readonly idempotent readonly=false destructive name=bad!name timeout=-1s
func Repeated() {}

// want +4 `malformed quoted value "bad\\q"` `malformed quoted value "unterminated: missing closing quote`

// Quoted has a malformed quoted value.
//
//toolgen:tool title="bad\q" name="unterminated
func Quoted() {}

// First is named dup.
//
//toolgen:tool name=dup
func First() {}

// want +5 `duplicate tool name "dup" \(first used by First at \S*\.go:\d+:\d+\)`
// want +5 `repeated //toolgen:tool directive \(first at \S*\.go:\d+:\d+\)`

// Second is named dup too.
//
//toolgen:tool name=dup
//toolgen:tool
func Second() {}

// Third gets the default name first, which is taken.
//
//toolgen:tool
func Third() {}

// third is the same name again.
//
//toolgen:tool
func third() {} // want `duplicate tool name "third" \(first used by Third at \S*\.go:\d+:\d+\)`

// want +4 `//toolgen:tool must be in the doc comment of a func declaration`

// NotAFunc is a type.
//
//toolgen:tool
type NotAFunc struct{}

// want +4 `tool name "größe" derived from Größe is invalid \(must match \^\[a-zA-Z0-9_-\]\{1,64\}\$\); set name=`

// Größe has no valid default name.
//
//toolgen:tool
func Größe() {}

// want +4 `unknown directive "//toolgen:tools" \(did you mean "//toolgen:tool"\?\)`

// Typo has an unknown directive and a stray param line.
//
//toolgen:tools
func Typo() {}

// want +4 `//toolgen:param without //toolgen:tool`

// Stray has a param line but no tool line.
//
//toolgen:param x
func Stray(x int) {}

// Shapes returns too much.
//
//toolgen:tool
func Shapes(ctx context.Context, _ int, more ...string) (int, string, error) { // want `parameter _ of Shapes needs a name: it is the property name the model sees` `variadic parameter more is not supported` `the second of three results must be \[\]runtime\.Content, the blocks added to the result \(results: R, error, \(R, error\) or \(R, \[\]runtime\.Content, error\)\); got string`
	return 0, "", nil
}

// Unnamed has unnamed parameters.
//
//toolgen:tool
func Unnamed(int, string) {} // want `parameter of type int of Unnamed needs a name: it is the property name the model sees` `parameter of type string of Unnamed needs a name: it is the property name the model sees`

// ErrFirst returns the error first.
//
//toolgen:tool
func ErrFirst(a int, ctx context.Context) (error, int) { return nil, 0 } // want `context\.Context must be the first parameter` `the second result of a tool must be error \(results: R, error, \(R, error\) or \(R, \[\]runtime\.Content, error\)\)`

// Generic is generic.
//
//toolgen:tool
func Generic[T any](v T) {} // want `generic function Generic cannot be a tool`

// Box is generic.
type Box[T any] struct{ V T }

// Get is a method of a generic type.
//
//toolgen:tool
func (b *Box[T]) Get() {} // want `method Get of generic type Box cannot be a tool`

// want +9 `//toolgen:param nmae names no parameter of Params \(did you mean "name"\?\)`
// want +9 `minLength "abc": want a non-negative integer` `unknown constraint "maxlength" \(did you mean "maxLength"\?\)`
// want +9 `repeated //toolgen:param for name \(first at \S*\.go:\d+:\d+\)`
// want +9 `//toolgen:param needs a parameter name first \(//toolgen:param NAME \[desc="\.\.\."\] \[constraints\]\)`
// want +9 `minLength applies to strings, not int8` `minimum "1\.5": must be an integer for int8`

// Params has bad //toolgen:param lines.
//
//toolgen:tool
//toolgen:param nmae desc="typo"
//toolgen:param name minLength=abc maxlength=3
//toolgen:param name
//toolgen:param desc="no name"
//toolgen:param count minLength=1 minimum=1.5 maximum=200
func Params(name string, count int8) {}

// want +5 `//toolgen:param on StructParams, whose input is a struct: use field comments and tool tags instead`

// StructParams has a param line on a struct-shaped function.
//
//toolgen:tool
//toolgen:param in
func StructParams(in Input) {}

// want +5 `//toolgen:param on NoArgs, which takes no arguments`

// NoArgs has a param line but no arguments.
//
//toolgen:tool
//toolgen:param x
func NoArgs(ctx context.Context) {}

// Input is full of bad fields.
type Input struct {
	hidden  string           `json:"hidden"`     // want `unexported field hidden has a json tag, but encoding/json ignores unexported fields`
	Str     int              `json:"str,string"` // want `field Str: the json tag option "string" is not supported`
	Ch      chan int         // want `field Ch: unsupported type chan int: channels have no JSON form`
	Fn      func()           // want `field Fn: unsupported type func\(\): functions have no JSON form`
	C       complex128       // want `field C: unsupported type complex128: complex numbers have no JSON form`
	P       unsafe.Pointer   // want `field P: unsupported type unsafe\.Pointer`
	U       uintptr          // want `field U: unsupported type uintptr: use an integer type`
	I       interface{ M() } // want `field I: unsupported type interface\{M\(\)\}: interface types other than any have no JSON form`
	G       Box[int]         // want `field G: unsupported type Box\[int\]: generic types are not supported`
	J       Custom           // want `field J: unsupported type Custom: it implements json\.Unmarshaler, so its JSON form cannot be known at generate time`
	M       map[int]string   // want `field M: map key type int is not a string type \(JSON object keys are strings\)`
	Both    *string          `tool:"required,optional"`                                          // want `required and optional contradict each other`
	Unknown string           `tool:"minLenght=1"`                                                // want `unknown constraint "minLenght" \(did you mean "minLength"\?\)`
	Pat     string           `tool:"pattern=a(b"`                                                // want "pattern \"a\\(b\" is not a valid RE2 expression: missing closing \\): `a\\(b`"
	Fmt     string           `tool:"format=url"`                                                 // want `unknown format "url" \(did you mean "uri"\?\)`
	Kinds   int              `tool:"minLength=1,pattern=x,minItems=2"`                           // want `minLength applies to strings, not int64` `pattern applies to strings, not int64` `minItems applies to slices, arrays and maps, not int64`
	Num     string           `tool:"minimum=1,multipleOf=2"`                                     // want `minimum applies to numbers, not string` `multipleOf applies to numbers, not string`
	Level   Level            `tool:"enum=low|extreme"`                                           // want `enum value "extreme": is not a constant of Level \(values: "low", "high"\)`
	Frac    int              `tool:"default=1.5,maximum=1e2"`                                    // want `default "1\.5": not an integer`
	Small   int8             `tool:"default=300"`                                                // want `default "300": out of range for int8 \(-128 to 127\)`
	Order   float64          `tool:"minimum=10,maximum=5,exclusiveMinimum=3,exclusiveMaximum=3"` // want `minimum 10 is not less than maximum 5` `exclusiveMinimum 3 is not less than exclusiveMaximum 3` `minimum 10 is not less than exclusiveMaximum 3`
	Lens    string           `tool:"minLength=5,maxLength=2"`                                    // want `minLength 5 is greater than maxLength 2`
	Items   []string         `tool:"minItems=3,maxItems=1,default=a"`                            // want `minItems 3 is greater than maxItems 1` `default is only supported on strings, booleans and numbers, not slice`
	Def     int              `tool:"default=20,maximum=14"`                                      // want `default 20 is greater than maximum 14`
	DefEnum string           `tool:"enum=a|b,default=c"`                                         // want `default "c" is not one of the enum values "a", "b"`
	DefPat  string           `tool:"pattern=^[a-z]+$,default=ABC,minLength=1"`                   // want `default "ABC" does not match pattern \^\[a-z\]\+\$`
	Mult    float32          `tool:"multipleOf=0,minimum=abc"`                                   // want `multipleOf "0": must be greater than 0` `minimum "abc": not a number`
	Rep     string           `tool:"title=a,title=b,,deprecated=maybe"`                          // want `repeated constraint "title" \(first at \S*\.go:\d+:\d+\)` `field Rep: empty item in tool tag` `constraint "deprecated" must be bare, deprecated=true or deprecated=false \(got "maybe"\)`
	Interp  string           "tool:\"minimum=1\""                                                // want `minimum applies to numbers, not string`
	Enum    []Level          `tool:"enum=low|high,const=mid"`                                    // want `const "mid": is not a constant of Level \(values: "low", "high"\)`
	Bool    bool             `tool:"enum=yes"`                                                   // want `enum value "yes": want true or false`
	Dur     int              `tool:"required,required"`                                          // want `repeated constraint "required" \(first at \S*\.go:\d+:\d+\)`
	NoVal   string           `tool:"enum,title"`                                                 // want `constraint "enum" needs a value \(enum=\.\.\.\)` `constraint "title" needs a value \(title=\.\.\.\)`
}

// Level is a level.
type Level string

// Levels.
const (
	Low  Level = "low"
	High Level = "high"
)

// Custom decodes itself.
type Custom struct{}

// UnmarshalJSON decodes a Custom.
func (c *Custom) UnmarshalJSON([]byte) error { return nil }

var _ = json.Valid
