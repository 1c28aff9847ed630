package tablekinds

import (
	"testing"
	"unsafe"

	"github.com/toolgen/toolgen/internal/difftest"
	"github.com/toolgen/toolgen/runtime/invalid"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// The differential test of the two decoding modes on every kind of value: the
// specialised decoders of toolgen.gen.go and the tables of toolgen_table_test.go
// (generator.TableTwin) must agree on every value, verdict, message and path.

func tableDecode(t testing.TB, tool string, args []byte, v unsafe.Pointer) ([]invalid.Violation, bool) {
	i, ok := toolgenTwinIndex[tool]
	if !ok {
		t.Fatalf("toolgen_table_test.go has no table for %s", tool)
	}
	d := toolimpl.NewDecoder(args, toolimpl.Limits{})
	toolimpl.Decode(d, &toolgenTwinTables, i, v)
	ok = d.Finish()
	return d.Violations(), ok
}

func kindsModes(t testing.TB) difftest.Modes[Args] {
	return difftest.Modes[Args]{
		Specialised: difftest.Subject[Args]{Tool: "kinds", Decode: func(args []byte) (Args, []invalid.Violation, bool) {
			d := toolimpl.NewDecoder(args, toolimpl.Limits{})
			var v Args
			toolgenDecodeArgs(d, &v)
			ok := d.Finish()
			return v, d.Violations(), ok
		}},
		Table: difftest.Subject[Args]{Tool: "kinds", Decode: func(args []byte) (Args, []invalid.Violation, bool) {
			var v Args
			viols, ok := tableDecode(t, "kinds", args, unsafe.Pointer(&v))
			return v, viols, ok
		}},
	}
}

// paramsArgs is toolgenArgsParams with exported fields, for comparing.
type paramsArgs struct {
	Name  string
	Times int
	Unit  *string
}

func paramsModes(t testing.TB) difftest.Modes[paramsArgs] {
	return difftest.Modes[paramsArgs]{
		Specialised: difftest.Subject[paramsArgs]{Tool: "params", Decode: func(args []byte) (paramsArgs, []invalid.Violation, bool) {
			d := toolimpl.NewDecoder(args, toolimpl.Limits{})
			var v toolgenArgsParams
			toolgenDecodeArgsParams(d, &v)
			ok := d.Finish()
			return paramsArgs{v.name, v.times, v.unit}, d.Violations(), ok
		}},
		Table: difftest.Subject[paramsArgs]{Tool: "params", Decode: func(args []byte) (paramsArgs, []invalid.Violation, bool) {
			var v toolgenArgsParams
			viols, ok := tableDecode(t, "params", args, unsafe.Pointer(&v))
			return paramsArgs{v.name, v.times, v.unit}, viols, ok
		}},
	}
}

const valid = `{"id":"123e4567-e89b-12d3-a456-426614174000","email":"a@b.co","yes":true,"must":1}`

// with returns valid with more properties.
func with(more string) string { return valid[:len(valid)-1] + "," + more + "}" }

// kindsCases are valid and invalid arguments for every property of Args.
var kindsCases = []string{
	valid,
	`{}`, ``, `null`, `[]`, `"{}"`, `{"id":1}`, `{"must":null}`,
	`"` + `{\"id\":\"123e4567-e89b-12d3-a456-426614174000\",\"email\":\"a@b.co\",\"yes\":true,\"must\":1}` + `"`,
	with(`"id":"x"`), with(`"email":"nope"`), with(`"email":null`),
	with(`"word":"foobar"`), with(`"word":"baz"`), with(`"word":"foo bar"`),
	with(`"color":"red"`), with(`"color":"green"`), with(`"color":null`), with(`"color":1`),
	with(`"mode":"fast"`), with(`"mode":"FAST"`),
	with(`"level":3`), with(`"level":2`), with(`"level":1.0`), with(`"level":"1"`),
	with(`"small":95`), with(`"small":100`), with(`"small":7`), with(`"small":-128`), with(`"small":-129`), with(`"small":128`),
	with(`"big":11`), with(`"big":10`), with(`"big":-1`), with(`"big":18446744073709551615`), with(`"big":18446744073709551616`),
	with(`"ratio":1.5`), with(`"ratio":1.6`), with(`"ratio":-1.5`), with(`"ratio":-2`), with(`"ratio":1e400`),
	with(`"factor":0.3`), with(`"factor":1e39`), with(`"factor":null`),
	with(`"pick":2.5`), with(`"pick":3`), with(`"pick":1.0`),
	with(`"yes":false`), with(`"yes":"true"`), with(`"flag":false`), with(`"flag":null`),
	with(`"wait":"2h"`), with(`"wait":"soon"`), with(`"wait":5`), with(`"step":"1m"`), with(`"step":"60s"`), with(`"step":"2s"`),
	with(`"at":"2024-01-01T00:00:00Z"`), with(`"at":"2024-01-01"`), with(`"at":null`),
	with(`"day":"2024-02-29"`), with(`"day":"2023-02-29"`), with(`"day":"2024-01-01T00:00:00Z"`),
	with(`"clock":"13:45"`), with(`"clock":"25:00"`),
	with(`"note":"hey"`), with(`"note":"toolong"`), with(`"note":null`),
	with(`"must":-1`), with(`"must":"1"`),
	with(`"tags":["a","b"]`), with(`"tags":[]`), with(`"tags":["a","a"]`), with(`"tags":["a","b","c","d","e"]`), with(`"tags":["123456789"]`), with(`"tags":[1,"a",null]`), with(`"tags":"[\"a\"]"`),
	with(`"items":[{"sku":"ABC-1234","qty":2,"price":1.25}]`), with(`"items":[{"sku":"abc","qty":0,"price":0,"x":1},{"qty":501},{}]`),
	with(`"items":[{"sku":"ABC-1234","qty":1,"price":0.015}]`), with(`"items":[1,2,3,4,5,6]`), with(`"items":["{\"sku\":\"ABC-1234\",\"qty\":3}"]`),
	with(`"counts":{"a":1,"b":2}`), with(`"counts":{"a":-1}`), with(`"counts":{"a":1,"a":2}`), with(`"counts":{"a":1,"b":2,"c":3,"d":4}`), with(`"counts":[]`),
	with(`"paint":{"red":"x","blue":"y"}`), with(`"paint":{"green":"x"}`), with(`"paint":{"red":1}`),
	with(`"grid":[[1,2],[3]]`), with(`"grid":[[1],[2],[3]]`), with(`"grid":[[2147483648]]`),
	with(`"data":"aGk="`), with(`"data":"!!"`), with(`"free":{"a":[1,null]}`), with(`"raw":[1, 2]`),
	with(`"tree":{"name":"a","children":[{"name":"b"},null,{"name":"01234567890"}]}`),
	with(`"tree":{"name":"a","children":[{"name":"b","children":[{"name":"c","children":[{},{},{},{}]}]}]}`),
	with(`"shape":{"kind":"circle","r":1}`), with(`"shape":{"r":-1,"kind":"circle"}`), with(`"shape":{"kind":"square","side":0}`), with(`"shape":{"kind":"hexagon"}`), with(`"shape":{}`),
	with(`"secret":"abc"`), with(`"secret":"abcd"`),
	with(`"unknown":1`), with(`"Email":"a@b.co"`), with(`"id":"x","id":"y"`),
	with(`"color":"red","mode":"x","level":2,"small":3,"tags":[1],"items":[{}],"counts":{"a":-1},"tree":{"name":1}`),
}

var paramsCases = []string{
	`{"name":"a"}`, `{"name":"a","times":5,"unit":"b"}`, `{"name":""}`, `{"times":0}`, `{"name":"a","times":6}`,
	`{"name":"a","unit":"c"}`, `{"name":"a","unit":null}`, `{"name":"a","times":null}`, `{"name":"a","x":1}`, `{}`, `null`,
}

func TestModes(t *testing.T) {
	km, pm := kindsModes(t), paramsModes(t)
	accepted := 0
	for _, c := range kindsCases {
		if difftest.Same(t, km, []byte(c)) {
			accepted++
		}
	}
	for _, c := range paramsCases {
		difftest.Same(t, pm, []byte(c))
	}
	if accepted < 20 {
		t.Errorf("only %d of %d cases accepted: the corpus does not reach the values", accepted, len(kindsCases))
	}
}

func FuzzModesKinds(f *testing.F) {
	m := kindsModes(f)
	for _, c := range kindsCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, args []byte) { difftest.Same(t, m, args) })
}

func FuzzModesParams(f *testing.F) {
	m := paramsModes(f)
	for _, c := range paramsCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, args []byte) { difftest.Same(t, m, args) })
}

// BenchmarkModes decodes the same valid arguments with each mode (the cost of tables
// over specialised code; packages of fewer than generator.TableMinTools tools keep the
// specialised code).
//
//	go test -run '^$' -bench BenchmarkModes -count 6 ./internal/tablekinds
func BenchmarkModes(b *testing.B) {
	payloads := map[string]string{
		"small": with(`"color":"red","level":3,"ratio":0.25`),
		"lists": with(`"tags":["a","b","c"],"items":[{"sku":"ABC-1234","qty":2,"price":1.25},{"sku":"XYZ-0001","qty":1}],"counts":{"a":1,"b":2},"tree":{"name":"a","children":[{"name":"b"}]}`),
	}
	m := kindsModes(b)
	for _, name := range []string{"small", "lists"} {
		args := []byte(payloads[name])
		if _, _, ok := m.Specialised.Decode(args); !ok {
			b.Fatalf("%s: refused", name)
		}
		for _, mode := range []string{"specialised", "table"} {
			s := m.Specialised
			if mode == "table" {
				s = m.Table
			}
			b.Run("payload="+name+"/mode="+mode, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					s.Decode(args)
				}
			})
		}
	}
}
