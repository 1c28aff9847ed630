package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgen/toolgen/internal/conformance/other"
	"github.com/toolgen/toolgen/internal/difftest"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// The differential test of dynamic tools: every conformance tool, called through the
// generated Toolset and as runtime.NewTool builds it from toolschema/<tool>.json, on
// the conformance tests' inputs, the cost tests' adversarial families, the structural
// cases of internal/difftest and a matrix of values of every JSON type for every
// property. See internal/difftest for what may differ and why.

// dynamicSubjects returns a subject per tool of the package.
func dynamicSubjects(t testing.TB) []difftest.Twin {
	tools := runtime.Join(Tools(), StoreTools(&Store{prefix: "v:"}))
	schema := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("toolschema", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		return difftest.InputSchemaOf(t, b)
	}
	value := func(decode func(d *toolimpl.Decoder) any) func([]byte) (json.RawMessage, error) {
		return func(args []byte) (json.RawMessage, error) {
			d := toolimpl.NewDecoder(args, toolimpl.Limits{})
			v := decode(d)
			if !d.Finish() {
				return nil, fmt.Errorf("the generated decoder refuses what its Toolset accepted")
			}
			return json.Marshal(v)
		}
	}
	var out []difftest.Twin
	for _, tool := range tools.Tools() {
		s := difftest.Twin{Tools: tools, Tool: tool.Name, Schema: schema(tool.Name)}
		switch tool.Name {
		case "echo_kinds":
			s.Echo = true
			s.GoTyped = map[string]string{
				"/float32": "a float32",
				"/addr":    "a netip.Addr, which parses itself",
				"/pair":    "a [2]int: items past 2 are skipped",
				"/raw":     "a json.RawMessage: no duplicate check inside, numbers as written",
			}
		case "echo_constrained":
			s.Echo = true
			s.GoTyped = map[string]string{"/dateTime": "a string with format date-time, read as a time.Time by a dynamic tool"}
		case "echo_schedule":
			s.Value = value(func(d *toolimpl.Decoder) any {
				var v Schedule
				toolgenDecodeSchedule(d, &v)
				return v
			})
			const layout = "a time.Time with a Go layout: its schema's pattern says the form, time.Parse reads the value (a month 13, or a one-digit hour, differ) and says what it wants"
			s.GoTyped = map[string]string{"/at": layout, "/until": layout, "/clocks/*": layout}
		case "greet":
			s.Value = value(func(d *toolimpl.Decoder) any {
				var v toolgenArgsGreet
				toolgenDecodeArgsGreet(d, &v)
				return map[string]any{"name": v.name, "times": v.times, "loud": v.loud, "color": v.color}
			})
		case "fail":
			s.Value = value(func(d *toolimpl.Decoder) any {
				var v toolgenArgsFail
				toolgenDecodeArgsFail(d, &v)
				return map[string]any{"how": v.how}
			})
		case "store_lookup":
			s.Value = value(func(d *toolimpl.Decoder) any {
				var v toolgenArgsStoreLookup
				toolgenDecodeArgsStoreLookup(d, &v)
				return map[string]any{"key": v.key}
			})
		case "put":
			s.Value = value(func(d *toolimpl.Decoder) any {
				var v other.Tag
				toolgenDecodeTag(d, &v)
				return v
			})
		}
		out = append(out, s)
	}
	return out
}

// conformanceInputs are the inputs of the conformance tests, by tool.
func conformanceInputs() map[string][]string {
	kinds := []string{
		`{` + kindsRequired + `,
		"note":"n","int16":-32768,"int32":2147483647,"int64":-9223372036854775808,
		"uint":0,"uint8":255,"uint16":65535,"uint32":4294967295,"uint64":18446744073709551615,
		"float32":3.5,"float64":-1e-300,"time":"2026-11-30T12:00:00+01:00","duration":"1h30m",
		"bytes":"aGk=","list":["a","b"],"pair":[1,2],"counts":{"a":1},"byColor":{"red":0.5},
		"ptr":"p","nested":{"name":"n","children":[{"name":"c"}]},"tree":{"name":"t"},
		"color":"blue","level":2,"tags":[{"key":"k","value":"v"}],"addr":"192.0.2.1",
		"any":{"x":[1,"y",null,true]},"raw":[1, 2],"matrix":[[1],[2,3]],"inline":{"x":4}}`,
		`{}`,
		`{` + kindsRequired + `,"int8":0}`,
		`{` + kindsRequired + `,"int16":40000,"uint":-1,"uint8":256,"float32":1e39,"int64":9223372036854775808}`,
		`{"id":"r","shadowed":"3","str":5,"bool":"true","int":1.5,"int8":1.0}`,
		`{` + kindsRequired + `,"time":"2026-11-30","duration":"90 minutes","bytes":"!!"}`,
		`{` + kindsRequired + `,"pair":[1],"byColor":{"pink":1},"addr":"x"}`,
		`{` + kindsRequired + `,"level":3,"color":"Red","tags":[{"key":""},{"value":"v"}]}`,
		`{` + kindsRequired + `,"nested":{"name":"a","children":[{"name":1}]},"inline":{},"matrix":[[1,"x"]]}`,
		`{` + kindsRequired + `,"Secret":"x","private":"y","Shadowed":1}`,
		`{` + kindsRequired + `,"ptr":null,"note":null,"nested":"{\"name\":\"n\"}","list":"[\"a\"]"}`,
		`{"id":"r1","shadowed":3,"str":"{\"a\":1}","bool":true,"int":-1,"int8":-128}`,
	}
	quoted, _ := json.Marshal(kinds[len(kinds)-2])
	kinds = append(kinds, string(quoted))
	constrained := []string{`{` + constrainedRequired + `}`, `{"mustHave":null,"default":null}`, `{}`}
	for _, a := range []string{
		`"enum":"c d"`, `"intEnum":3`, `"const":"fixed"`, `"default":"x"`, `"defaultPtr":false`,
		`"min":-5`, `"max":5`, `"exclMin":0.001`, `"exclMax":0.999`, `"multInt":-15`, `"multFloat":0.3`,
		`"minLen":"éé"`, `"maxLen":"ééé"`, `"pattern":"AB1"`, `"comma":"a,b"`,
		`"date":"2024-02-29"`,
		`"timeOfDay":"23:59:59.5-01:00"`, `"isoDuration":"P1W"`, `"email":"a.b@example.com"`,
		`"hostname":"a-b.example"`, `"ipv4":"10.0.0.1"`, `"ipv6":"::ffff:1.2.3.4"`, `"uri":"mailto:a@b.c"`,
		`"uuid":"123E4567-E89B-12D3-A456-426614174000"`, `"minItems":[1,1]`, `"maxItems":[]`,
		`"unique":["a","b"]`, `"itemBounds":[0,9]`, `"colorList":["red","blue"]`, `"secret":"12345678"`,
		`"titled":"t"`, `"mayOmit":""`, `"small":100`, `"stamp":"2026-01-01T00:00:00Z"`,
		`"enum":"d"`, `"intEnum":4`, `"const":"other"`, `"defaultEnum":"pink"`, `"min":-6`, `"max":6`,
		`"exclMin":0`, `"exclMax":1`, `"multInt":7`, `"multFloat":0.35`, `"minLen":"é"`, `"maxLen":"éééé"`,
		`"pattern":"ab1"`, `"comma":"a\\,b"`, `"date":"2023-02-29"`,
		`"timeOfDay":"25:00:00Z"`, `"isoDuration":"1h"`, `"email":"a@@b"`, `"hostname":"-a"`,
		`"ipv4":"1.2.3.256"`, `"ipv6":"1.2.3.4"`, `"uri":"/relative"`, `"uuid":"x"`, `"minItems":[1]`,
		`"maxItems":[1,2,3]`, `"unique":["a","b","a"]`, `"itemBounds":[-1,10,1,2]`,
		`"max":6,"unique":["a","b","a"]`, `"max":6,"unique":["a","b"]`, `"unique":["a",1,"b","a"]`,
		`"unique":[1,"a","a"]`, `"unique":["a","b",1]`, `"unique":["a",1,2,"a",3]`, `"maxItems":[1,"x",1,2]`,
		`"colorList":["red","green"]`, `"secret":"hunter2"`, `"small":101`, `"stamp":"noon"`,
		`"multFloat":0.30000000000000004,"multInt":1e1,"stamp":"2026-01-01t00:00:00z"`,
	} {
		constrained = append(constrained, `{`+constrainedRequired+`,`+a+`}`)
	}
	return map[string][]string{
		"echo_kinds":       kinds,
		"echo_constrained": constrained,
		"greet": {`{"name":"Ada","color":"red"}`, `{"name":"Ada","times":2,"loud":true,"color":"blue"}`,
			`{"name":"","times":4,"loud":"yes"}`, `{"name":"Ada","times":null,"loud":null,"color":"green"}`},
		"no_args":      {``, `{"x":1}`, `{}`, `null`, `[]`, `"{}"`},
		"list":         {`{}`},
		"counts":       {`{}`},
		"number":       {`null`},
		"rich":         {``},
		"fail":         {`{"how":"safe"}`, `{"how":"loud"}`, `{"how":1}`, `{}`},
		"store_lookup": {`{"key":"abc"}`, `{"key":"ABC"}`, `{"key":""}`},
		"echo_schedule": {`{"at":"2024-08-01 00:00:00"}`, `{"at":"2024-08-01 09:30:15","until":"01 Aug 24 18:00 +0200","day":"2024-02-29","clocks":["9:30AM","12:05PM"]}`,
			`{"at":"2024-08-01T00:00:00Z","day":"2024-02-30"}`, `{"at":"2024-13-01 00:00:00","day":"2024-12-31","clocks":["13:00PM","1:00PM","2:00PM","3:00PM"]}`,
			`{"at":"2024-08-01 00:00:00","day":20240801}`, `{"at":"2024-08-01 00:00:00","day":"0000-01-01"}`},
		"put": {`{"key":"k"}`, `{"key":""}`, `{"value":"v"}`, `{"key":"k","value":null}`},
	}
}

// validArgs are arguments each tool accepts, for the structural cases and the matrix.
var validArgs = map[string]struct{ valid, key, value string }{
	"echo_kinds":       {`{` + kindsRequired + `}`, "id", `"r1"`},
	"echo_constrained": {`{"mustHave":1}`, "mustHave", `1`},
	"greet":            {`{"name":"Ada","color":"red"}`, "name", `"Ada"`},
	"fail":             {`{"how":"safe"}`, "how", `"safe"`},
	"store_lookup":     {`{"key":"abc"}`, "key", `"abc"`},
	"echo_schedule":    {`{"at":"2024-08-01 00:00:00"}`, "at", `"2024-08-01 00:00:00"`},
	"put":              {`{"key":"k"}`, "key", `"k"`},
}

// dynamicCorpus returns every case for a tool.
func dynamicCorpus(t testing.TB, s difftest.Twin) []difftest.Case {
	var cases []difftest.Case
	for i, a := range conformanceInputs()[s.Tool] {
		cases = append(cases, difftest.Case{Name: fmt.Sprint("conformance ", i), Args: a})
	}
	if v, ok := validArgs[s.Tool]; ok {
		cases = append(cases, difftest.Structural(v.valid, v.key, v.value)...)
		cases = append(cases, difftest.Matrix(v.valid, append(difftest.PropertyNames(t, s.Schema), "unknown"))...)
	} else {
		cases = append(cases, difftest.Case{Name: "unknown", Args: `{"a":1}`}, difftest.Case{Name: "double", Args: `"{\"a\":1}"`})
	}
	switch s.Tool {
	case "echo_kinds", "echo_constrained":
		which := 0
		if s.Tool == "echo_constrained" {
			which = 1
		}
		for _, a := range adversarials {
			if a.tool == which {
				cases = append(cases, difftest.Case{Name: a.name, Args: string(a.make(300))}, difftest.Case{Name: a.name + " 64K", Args: string(a.make(64 << 10))})
			}
		}
	}
	return cases
}

func TestDynamicDifferential(t *testing.T) {
	for _, s := range dynamicSubjects(t) {
		t.Run(s.Tool, func(t *testing.T) {
			p := difftest.NewPair(t, s)
			difftest.RunPair(t, p, dynamicCorpus(t, s))
		})
	}
}

// FuzzDynamic checks the differential property on every tool of the package, the tool
// chosen by the first byte, and the cost of the dynamic decoding (difftest.CheckCost).
func FuzzDynamic(f *testing.F) {
	subjects := dynamicSubjects(f)
	for i, s := range subjects {
		if s.Tool != "echo_kinds" && s.Tool != "echo_constrained" && s.Tool != "greet" && s.Tool != "put" {
			continue
		}
		for _, c := range dynamicCorpus(f, s) {
			if len(c.Args) < 4<<10 {
				f.Add(byte(i), []byte(c.Args))
			}
		}
	}
	f.Fuzz(func(t *testing.T, which byte, args []byte) {
		s := subjects[int(which)%len(subjects)]
		if s.Tool == "fail" {
			return // it sleeps, panics or fails on purpose
		}
		difftest.CachedPair(t, s).Check(t, args)
	})
}

// BenchmarkDynamic compares a call's cost through the generated decoder and through
// its dynamic twin, both through the Toolset, on invalid arguments (so that no tool
// runs and only decoding and the model's text are measured): violations of many kinds
// for echo_kinds and echo_constrained.
func BenchmarkDynamic(b *testing.B) {
	inputs := conformanceInputs()
	for _, bc := range []struct{ tool, args string }{
		{"echo_kinds", inputs["echo_kinds"][3]},
		{"echo_constrained", inputs["echo_constrained"][len(inputs["echo_constrained"])-2]},
	} {
		var s difftest.Twin
		for _, x := range dynamicSubjects(b) {
			if x.Tool == bc.tool {
				s = x
			}
		}
		p := difftest.NewPair(b, s)
		for _, way := range []struct {
			name string
			ts   *runtime.Toolset
		}{{"generated", s.Tools}, {"dynamic", p.Dynamic()}} {
			b.Run(bc.tool+"/"+way.name, func(b *testing.B) {
				ctx := context.Background()
				b.ReportAllocs()
				b.SetBytes(int64(len(bc.args)))
				for b.Loop() {
					way.ts.Call(ctx, bc.tool, []byte(bc.args))
				}
			})
		}
	}
}
