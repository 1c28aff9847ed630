//go:build ignore

// gen writes cases.go: one tool per validate rule (or rule set) that toolgen maps, each
// with a single property v, and the table the differential test reads. Run it with
// go generate (doc.go), then toolgen generate.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"log"
	"os"
	"strings"
)

// A field is one tool: its struct's name, the type of v, its json tag's options, its
// validate tag and the corpus of JSON values the test sends (see validator_test.go).
type field struct {
	name, typ, json, validate, corpus string
}

var fields = []field{
	// Strings: presence, lengths, values.
	{"StrRequired", "string", "", "required", "string"},
	{"StrOptRequired", "string", ",omitempty", "required", "string"},
	{"StrOptMin", "string", ",omitempty", "min=2", "string"},
	{"StrOptGte", "string", ",omitempty", "gte=2", "string"},
	{"StrOptMax", "string", ",omitempty", "max=3", "string"},
	{"StrOptLen", "string", ",omitempty", "len=3", "string"},
	{"StrOptLenZero", "string", ",omitempty", "len=0", "string"},
	{"StrOptGt", "string", ",omitempty", "gt=0", "string"},
	{"StrOptLt", "string", ",omitempty", "lt=3", "string"},
	{"StrOptUUID", "string", ",omitempty", "uuid", "string"},
	{"StrOptIPv4", "string", ",omitempty", "ipv4", "string"},
	{"StrOptDate", "string", ",omitempty", "datetime=2006-01-02", "string"},
	{"StrLateOmit", "string", ",omitempty", "min=2,omitempty", "string"},
	{"StrOmitMin", "string", ",omitempty", "omitempty,min=2", "string"},
	{"StrOmitzeroMin", "string", ",omitzero", "omitzero,min=2", "string"},
	{"StrMinMax", "string", "", "min=2,max=4", "string"},
	{"StrLen", "string", "", "len=3", "string"},
	{"StrGtLt", "string", "", "gt=2,lt=5", "string"},
	{"StrGteLte", "string", "", "gte=2,lte=4", "string"},
	{"StrRequiredMin", "string", "", "required,min=3", "string"},
	{"StrOneof", "string", "", "oneof=red green 'sky blue'", "string"},
	{"StrOptOneof", "string", ",omitempty", "oneof=a b", "string"},
	{"StrOptOneofEmpty", "string", ",omitempty", "oneof='' a", "string"},
	// Strings: formats.
	{"StrEmail", "string", "", "email", "string"},
	{"StrOmitEmail", "string", ",omitempty", "omitempty,email", "string"},
	{"StrOptEmail", "string", ",omitempty", "email", "string"},
	{"StrURL", "string", "", "url", "string"},
	{"StrURI", "string", "", "uri", "string"},
	{"StrUUID", "string", "", "uuid", "string"},
	{"StrIPv4", "string", "", "ipv4", "string"},
	{"StrIPv6", "string", "", "ipv6", "string"},
	{"StrIP", "string", "", "ip", "string"},
	{"StrHostname", "string", "", "hostname", "string"},
	{"StrHostnameRFC1123", "string", "", "hostname_rfc1123", "string"},
	{"StrDateTime", "string", "", "datetime=2006-01-02T15:04:05Z07:00", "string"},
	{"StrDate", "string", "", "datetime=2006-01-02", "string"},
	{"StrClock", "string", "", "datetime=15:04:05Z07:00", "string"},
	// Pointers to strings.
	{"PtrMin", "*string", "", "min=2", "string"},
	{"PtrOptMin", "*string", ",omitempty", "min=2", "string"},
	{"PtrOmitMin", "*string", "", "omitempty,min=2", "string"},
	{"PtrOmitnilMin", "*string", "", "omitnil,min=2", "string"},
	{"PtrRequired", "*string", "", "required", "string"},
	{"PtrMax", "*string", ",omitempty", "max=3", "string"},
	// Integers.
	{"IntRange", "int", "", "gte=0,lte=130", "int"},
	{"IntGtLt", "int", "", "gt=0,lt=10", "int"},
	{"IntMinMax", "int", "", "min=1,max=5", "int"},
	{"IntLen", "int", "", "len=3", "int"},
	{"IntRequired", "int", "", "required", "int"},
	{"IntRequiredMin", "int", "", "required,min=1", "int"},
	{"IntOneof", "int", "", "oneof=200 404", "int"},
	{"IntOptGte", "int", ",omitempty", "gte=2", "int"},
	{"IntOptLte", "int", ",omitempty", "lte=5", "int"},
	{"IntOmitGte", "int", ",omitempty", "omitempty,gte=2", "int"},
	{"IntOptLenZero", "int", ",omitempty", "len=0", "int"},
	{"IntOptLen", "int", ",omitempty", "len=3", "int"},
	{"IntOptGtNeg", "int", ",omitempty", "gt=-1", "int"},
	{"IntOptGtZero", "int", ",omitempty", "gt=0", "int"},
	{"IntOptLtZero", "int", ",omitempty", "lt=0", "int"},
	{"IntOptMaxNeg", "int", ",omitempty", "max=-1", "int"},
	{"IntOptOneofZero", "int", ",omitempty", "oneof=0 1", "int"},
	{"IntOptOneof", "int", ",omitempty", "oneof=1 2", "int"},
	{"Int8Min", "int8", "", "min=-5", "int"},
	{"PtrIntGte", "*int", "", "gte=2", "int"},
	{"PtrIntOmitGte", "*int", "", "omitempty,gte=2", "int"},
	{"UintRequired", "uint", "", "required", "int"},
	{"UintOptMax", "uint", ",omitempty", "max=5", "int"},
	{"UintOptRequired", "uint", ",omitempty", "required", "int"},
	// Floats.
	{"FloatGtLt", "float64", "", "gt=0,lt=1.5", "float"},
	{"FloatMin", "float64", "", "min=0.5", "float"},
	{"FloatOptMin", "float64", ",omitempty", "min=0.5", "float"},
	{"FloatOptMaxNeg", "float64", ",omitempty", "max=-0.5", "float"},
	{"FloatOptGtNeg", "float64", ",omitempty", "gt=-0.5", "float"},
	{"FloatRequired", "float64", "", "required", "float"},
	// Booleans.
	{"BoolRequired", "bool", "", "required", "bool"},
	{"BoolOptRequired", "bool", ",omitempty", "required", "bool"},
	// Times and durations.
	{"TimeRequired", "time.Time", "", "required", "time"},
	{"TimeOptRequired", "time.Time", ",omitzero", "required", "time"},
	{"PtrTimeRequired", "*time.Time", "", "required", "time"},
	{"DurationOmit", "time.Duration", ",omitempty", "omitempty", "duration"},
	{"DurationRequired", "time.Duration", "", "required", "duration"},
	// Slices.
	{"SliceRequired", "[]string", "", "required", "strings"},
	{"SliceMinMax", "[]string", "", "min=1,max=3", "strings"},
	{"SliceLen", "[]string", "", "len=2", "strings"},
	{"SliceUnique", "[]string", "", "unique", "strings"},
	{"SliceDiveMin", "[]string", "", "dive,min=2", "strings"},
	{"SliceOptDiveMin", "[]string", ",omitempty", "dive,min=1", "strings"},
	{"SliceOmitDiveMin", "[]string", ",omitempty", "omitempty,dive,min=1", "strings"},
	{"SliceOptMin", "[]string", ",omitempty", "min=1", "strings"},
	{"SliceOptMax", "[]string", ",omitempty", "max=2", "strings"},
	{"SliceOptLenZero", "[]string", ",omitempty", "len=0", "strings"},
	{"SliceOptLen", "[]string", ",omitempty", "len=2", "strings"},
	{"SliceOptUnique", "[]string", ",omitempty", "unique", "strings"},
	{"SliceOptGt", "[]string", ",omitempty", "gt=0", "strings"},
	{"SliceOmitnilMin", "[]string", "", "omitnil,min=1", "strings"},
	{"SliceDiveEmail", "[]string", "", "max=2,dive,email", "strings"},
	{"SliceDiveOneof", "[]string", "", "dive,oneof=a b", "strings"},
	{"SliceDiveRequired", "[]string", "", "dive,required", "strings"},
	{"SliceOptUniqueDive", "[]string", ",omitempty", "omitempty,max=5,unique,dive,min=1,max=20", "strings"},
	{"IntsUnique", "[]int", "", "unique", "ints"},
	{"IntsDiveGte", "[]int", "", "dive,gte=1", "ints"},
	{"IntsDiveRequired", "[]int", "", "dive,required", "ints"},
	{"TimesDiveRequired", "[]time.Time", "", "dive,required", "times"},
	{"PtrSliceDiveMin", "*[]string", "", "dive,min=1", "strings"},
	// Maps.
	{"MapMaxDive", "map[string]int", "", "max=2,dive,gte=1", "mapint"},
	{"MapUnique", "map[string]int", "", "unique", "mapint"},
	{"MapRequired", "map[string]int", "", "required", "mapint"},
	{"MapOptMin", "map[string]int", ",omitempty", "min=1", "mapint"},
	{"MapOptMax", "map[string]int", ",omitempty", "max=1", "mapint"},
	{"PtrMapMax", "*map[string]int", ",omitempty", "max=1", "mapint"},
	{"MapStrUnique", "map[string]string", "", "unique", "mapstr"},
}

func main() {
	var b bytes.Buffer
	b.WriteString("// Code generated by gen.go. DO NOT EDIT.\n\npackage validator\n\nimport \"time\"\n\n")
	for _, f := range fields {
		fmt.Fprintf(&b, "// %s is a property v of type %s, json tag options %q, rules %q.\n", f.name, f.typ, f.json, f.validate)
		fmt.Fprintf(&b, "type %s struct {\n\t// V is the value.\n\tV %s `json:\"v%s\" validate:\"%s\"`\n}\n\n", f.name, f.typ, f.json, f.validate)
		strict := "" // a map (free property names) cannot be strict
		if strings.HasPrefix(f.corpus, "map") {
			strict = " strict=false"
		}
		fmt.Fprintf(&b, "// %s records its arguments.\n//\n//toolgen:tool readonly idempotent openworld=false%s name=%s\n", f.name, strict, snake(f.name))
		fmt.Fprintf(&b, "func (r *Recorder) %s(a %s) error { r.Got = a; return nil }\n\n", f.name, f.name)
	}
	b.WriteString("// Cases returns one case per tool, in the order of gen.go's table.\nfunc Cases() []Case {\n\treturn []Case{\n")
	for _, f := range fields {
		fmt.Fprintf(&b, "\t\t{Tool: %q, Type: %q, GoType: %q, Options: %q, Rules: %q, Corpus: %q, New: func() any { return new(%s) }},\n", snake(f.name), f.name, f.typ, f.json, f.validate, f.corpus, f.name)
	}
	b.WriteString("\t}\n}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("cases.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// snake writes a Go name in snake case, an upper-case letter starting a word when a
// lower-case letter or a digit comes before it: StrIPv4 is str_ipv4.
func snake(name string) string {
	var b strings.Builder
	for i, c := range name {
		if 'A' <= c && c <= 'Z' {
			if i > 0 && ('a' <= name[i-1] && name[i-1] <= 'z' || '0' <= name[i-1] && name[i-1] <= '9') {
				b.WriteByte('_')
			}
			c += 'a' - 'A'
		}
		b.WriteRune(c)
	}
	return b.String()
}
