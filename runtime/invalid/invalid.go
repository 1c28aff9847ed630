// Package invalid says what is wrong with a tool call's arguments: the ArgumentError a
// call's Result carries when its arguments break the tool's input schema, its
// Violations, and the Code of the rule each one broke, for a program to compare:
//
//	var ae *invalid.ArgumentError
//	if errors.As(res.Err, &ae) {
//		for _, v := range ae.Violations {
//			if v.Code == invalid.Required { ... }
//		}
//	}
//
// Generated decoders and dynamic tools (runtime.NewTool) report the same codes.
package invalid

import (
	"strconv"
	"strings"
)

// Code names the rule a violation broke. Most are JSON Schema keyword names.
type Code string

// The violation codes.
const (
	Syntax           Code = "syntax"           // the arguments are not well-formed JSON
	TooLarge         Code = "too_large"        // the arguments exceed the size limit
	TooDeep          Code = "too_deep"         // the arguments nest deeper than the limit
	Type             Code = "type"             // a value of the wrong JSON type
	Required         Code = "required"         // a required property is missing
	UnknownProperty  Code = "unknown_property" // a property the tool does not have
	Duplicate        Code = "duplicate"        // a property given twice
	Enum             Code = "enum"             // not one of the allowed values
	Const            Code = "const"            // not the one allowed value
	Minimum          Code = "minimum"
	Maximum          Code = "maximum"
	ExclusiveMinimum Code = "exclusiveMinimum"
	ExclusiveMaximum Code = "exclusiveMaximum"
	MultipleOf       Code = "multipleOf"
	MinLength        Code = "minLength"
	MaxLength        Code = "maxLength"
	Pattern          Code = "pattern"
	Format           Code = "format"
	MinItems         Code = "minItems"
	MaxItems         Code = "maxItems"
	UniqueItems      Code = "uniqueItems"
	MinProperties    Code = "minProperties"
	MaxProperties    Code = "maxProperties"
	Range            Code = "range"    // a number the Go type cannot hold
	NotZero          Code = "notZero"  // the zero value, which validate's required refuses
	AnyOf            Code = "anyOf"    // no schema of an anyOf matches (dynamic tools)
	OneOf            Code = "oneOf"    // not exactly one schema of a oneOf matches (dynamic tools)
	Not              Code = "not"      // a value a not, or a false schema, refuses (dynamic tools)
	Contains         Code = "contains" // too few or too many items match contains (dynamic tools)
)

// Violation is one thing wrong with a call's arguments.
type Violation struct {
	// Path is the JSON Pointer of the offending value ("" for the arguments as a whole,
	// "/days", "/items/2/name"), as shown: a long name is cut, and a name's characters
	// that are not printable (a newline, a terminal escape, U+2028) are written as
	// their Go escapes, so that a violation stays on its line.
	Path string
	// Code names the rule broken.
	Code Code
	// Message says what the value must be, for the model ("must be at most 14").
	Message string
	// Got shows the offending value briefly, as JSON; empty for sensitive values and
	// for violations with no single value.
	Got string
}

// String renders the violation as the model reads it:
// `/days: must be at most 14 (got 30)`.
func (v Violation) String() string {
	var b strings.Builder
	if v.Path != "" {
		b.WriteString(v.Path)
		b.WriteString(": ")
	}
	b.WriteString(v.Message)
	if v.Got != "" {
		b.WriteString(" (got ")
		b.WriteString(v.Got)
		b.WriteString(")")
	}
	return b.String()
}

// ArgumentError reports every violation found in a call's arguments. Its text always
// reaches the model in full, so the model can correct its call.
type ArgumentError struct {
	Tool       string
	Violations []Violation
	// Omitted counts the violations found past the decoder's budget
	// (Limits.MaxViolations, Limits.MaxViolationBytes): counted, not listed.
	Omitted int
}

// Error renders the violations on one line, for example
// `invalid arguments for get_weather: /unit: must be one of "celsius", "fahrenheit" (got "kelvin"); /days: must be at most 14 (got 30)`.
func (e *ArgumentError) Error() string {
	var b strings.Builder
	b.WriteString("invalid arguments for ")
	b.WriteString(e.Tool)
	b.WriteString(": ")
	for i, v := range e.Violations {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(v.String())
	}
	if e.Omitted > 0 {
		b.WriteString("; and ")
		b.WriteString(strconv.Itoa(e.Omitted))
		if e.Omitted == 1 {
			b.WriteString(" more violation")
		} else {
			b.WriteString(" more violations")
		}
		b.WriteString(" not listed")
	}
	return b.String()
}
