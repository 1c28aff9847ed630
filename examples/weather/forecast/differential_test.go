package forecast

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/toolgen/toolgen/internal/difftest"
	"github.com/toolgen/toolgen/runtime/invalid"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// The differential tests of the generated decoders: every argument text is decoded by
// the generated decoder and judged by internal/difftest's oracle (the leniencies, then
// the canonical input schema in toolschema/, encoding/json and the limits), and the
// two must agree on accept/reject and, when accepting, on the value.

var writeSeeds = flag.Bool("difftest.seeds", false, "write the differential corpus to testdata/fuzz as seed files")

// inputSchema returns the inputSchema of toolschema/<tool>.json, the canonical contract,
// after checking that the runtime's copy says the same.
func inputSchema(t testing.TB, tool string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("toolschema", tool+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	rt, ok := Tools().Lookup(tool)
	if !ok {
		t.Fatalf("Tools() has no %s", tool)
	}
	var a, c any
	if err := json.Unmarshal(file.InputSchema, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(rt.InputSchema, &c); err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(a, c) {
		t.Fatalf("%s: the runtime's InputSchema differs from toolschema/%s.json", tool, tool)
	}
	return file.InputSchema
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func getWeatherSubject(t testing.TB) difftest.Subject[Query] {
	return difftest.Subject[Query]{
		Tool:        "get_weather",
		InputSchema: inputSchema(t, "get_weather"),
		Decode: func(args []byte) (Query, []invalid.Violation, bool) {
			d := toolimpl.NewDecoder(args, toolimpl.Limits{})
			var v Query
			toolgenDecodeQuery(d, &v)
			ok := d.Finish()
			return v, d.Violations(), ok
		},
	}
}

// helloWorldArgs is toolgenArgsHelloWorld as encoding/json sees it.
type helloWorldArgs struct {
	Name  string `json:"name"`
	Times int    `json:"times"`
}

func helloWorldSubject(t testing.TB) difftest.Subject[helloWorldArgs] {
	return difftest.Subject[helloWorldArgs]{
		Tool:        "hello_world",
		InputSchema: inputSchema(t, "hello_world"),
		Decode: func(args []byte) (helloWorldArgs, []invalid.Violation, bool) {
			d := toolimpl.NewDecoder(args, toolimpl.Limits{})
			var v toolgenArgsHelloWorld
			toolgenDecodeArgsHelloWorld(d, &v)
			ok := d.Finish()
			return helloWorldArgs{Name: v.name, Times: v.times}, d.Violations(), ok
		},
	}
}

// tableDecode decodes args into v with the tool's table of toolgen_table_test.go
// (generator.TableTwin), as a package of many tools does.
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

func getWeatherModes(t testing.TB) difftest.Modes[Query] {
	table := getWeatherSubject(t)
	table.Decode = func(args []byte) (Query, []invalid.Violation, bool) {
		var v Query
		viols, ok := tableDecode(t, "get_weather", args, unsafe.Pointer(&v))
		return v, viols, ok
	}
	return difftest.Modes[Query]{Specialised: getWeatherSubject(t), Table: table}
}

func helloWorldModes(t testing.TB) difftest.Modes[helloWorldArgs] {
	table := helloWorldSubject(t)
	table.Decode = func(args []byte) (helloWorldArgs, []invalid.Violation, bool) {
		var v toolgenArgsHelloWorld
		viols, ok := tableDecode(t, "hello_world", args, unsafe.Pointer(&v))
		return helloWorldArgs{Name: v.name, Times: v.times}, viols, ok
	}
	return difftest.Modes[helloWorldArgs]{Specialised: helloWorldSubject(t), Table: table}
}

// str returns a JSON string of n copies of s (s written as JSON string contents).
func str(s string, n int) string { return `"` + strings.Repeat(s, n) + `"` }

func getWeatherCases() []difftest.Case {
	A, R := difftest.A, difftest.R
	cases := difftest.Structural(`{"city":"Paris","days":3}`, "city", `"Paris"`)
	return append(cases,
		A("city only", `{"city":"Paris"}`),
		A("all properties", `{"city":"Paris","days":3,"unit":"fahrenheit"}`),
		A("other order", `{"unit":"celsius","days":14,"city":"Tokyo"}`),
		A("white space between tokens", "{ \"city\" :\n\"Oslo\" ,\t\"days\" : 2 }"),
		// city: minLength 1, maxLength 80, counted in characters.
		R("city empty", `{"city":""}`),
		A("city one character", `{"city":"P"}`),
		A("city 80 ASCII", `{"city":`+str("a", 80)+`}`),
		R("city 81 ASCII", `{"city":`+str("a", 81)+`}`),
		A("city 80 two-byte characters", `{"city":`+str("é", 80)+`}`),
		R("city 81 two-byte characters", `{"city":`+str("é", 81)+`}`),
		A("city 80 four-byte characters", `{"city":`+str("😀", 80)+`}`),
		R("city 81 four-byte characters", `{"city":`+str("😀", 81)+`}`),
		A("city 80 escaped characters", `{"city":`+str(`\u00e9`, 80)+`}`),
		R("city 81 escaped characters", `{"city":`+str(`\u00e9`, 81)+`}`),
		A("city 80 surrogate pairs", `{"city":`+str(`\ud83d\ude00`, 80)+`}`),
		R("city 81 surrogate pairs", `{"city":`+str(`\ud83d\ude00`, 81)+`}`),
		A("city 80 combining sequences", `{"city":`+str("e\u0301", 40)+`}`),
		R("city 81 combining characters", `{"city":"x`+strings.Repeat("e\u0301", 40)+`"}`),
		A("city lone high surrogate", `{"city":"\ud83d"}`),
		A("city lone low surrogate", `{"city":"\ude00"}`),
		A("city two high surrogates", `{"city":"\ud83d\ud83d"}`),
		A("city reversed surrogates", `{"city":"\ude00\ud83d"}`),
		A("city high surrogate then escape", `{"city":"\ud83d\n"}`),
		A("city high surrogate at end of text", `{"city":"x\ud83d"}`),
		A("city invalid UTF-8", "{\"city\":\"\xff\xfe\"}"),
		A("city truncated UTF-8", "{\"city\":\"\xe2\x82\"}"),
		A("city encoded surrogate", "{\"city\":\"\xed\xa0\x80\"}"),
		A("city overlong encoding", "{\"city\":\"\xc0\xaf\"}"),
		A("city 80 invalid bytes", `{"city":"`+strings.Repeat("\xff", 80)+`"}`),
		R("city 81 invalid bytes", `{"city":"`+strings.Repeat("\xff", 81)+`"}`),
		A("city escapes", `{"city":"\"\\\/\b\f\n\r\t\u0000\u001f"}`),
		A("city holding JSON stays a string", `{"city":"{\"a\":1}"}`),
		R("city raw tab", "{\"city\":\"a\tb\"}"),
		R("city raw newline", "{\"city\":\"a\nb\"}"),
		R("city bad escape", `{"city":"\x41"}`),
		R("city short unicode escape", `{"city":"\u12"}`),
		R("city upper U escape", `{"city":"\U0041"}`),
		R("city unterminated", `{"city":"Paris}`),
		R("city number", `{"city":75}`),
		R("city true", `{"city":true}`),
		R("city object", `{"city":{"name":"Paris"}}`),
		// days: integer, 1..14, default 1, optional.
		A("days null means default", `{"city":"Paris","days":null}`),
		A("days 1", `{"city":"Paris","days":1}`),
		A("days 14", `{"city":"Paris","days":14}`),
		R("days 0", `{"city":"Paris","days":0}`),
		R("days 15", `{"city":"Paris","days":15}`),
		R("days -1", `{"city":"Paris","days":-1}`),
		R("days negative zero", `{"city":"Paris","days":-0}`),
		A("days 1.0", `{"city":"Paris","days":1.0}`),
		A("days 3.0", `{"city":"Paris","days":3.0}`),
		A("days 1e0", `{"city":"Paris","days":1e0}`),
		A("days 1E1", `{"city":"Paris","days":1E1}`),
		R("days 2.5", `{"city":"Paris","days":2.5}`),
		R("days 15.0", `{"city":"Paris","days":15.0}`),
		R("days 1.5e1", `{"city":"Paris","days":1.5e1}`),
		A("days 140e-1", `{"city":"Paris","days":140e-1}`),
		R("days 1e-999999", `{"city":"Paris","days":1e-999999}`),
		R("days 1e400", `{"city":"Paris","days":1e400}`),
		R("days max int64", `{"city":"Paris","days":9223372036854775807}`),
		R("days max int64 + 1", `{"city":"Paris","days":9223372036854775808}`),
		R("days min int64", `{"city":"Paris","days":-9223372036854775808}`),
		R("days min int64 - 1", `{"city":"Paris","days":-9223372036854775809}`),
		R("days max uint64 + 1", `{"city":"Paris","days":18446744073709551616}`),
		R("days huge", `{"city":"Paris","days":`+strings.Repeat("9", 400)+`}`),
		R("days leading zero", `{"city":"Paris","days":01}`),
		R("days plus sign", `{"city":"Paris","days":+1}`),
		R("days string", `{"city":"Paris","days":"3"}`),
		R("days bool", `{"city":"Paris","days":true}`),
		R("days array", `{"city":"Paris","days":[3]}`),
		R("days NaN", `{"city":"Paris","days":NaN}`),
		R("days dot", `{"city":"Paris","days":1.}`),
		R("days minus", `{"city":"Paris","days":-}`),
		R("days truncated null", `{"city":"Paris","days":nul}`),
		// unit: enum from constants, default celsius, optional.
		A("unit null means default", `{"city":"Paris","unit":null}`),
		A("unit celsius", `{"city":"Paris","unit":"celsius"}`),
		A("unit escaped", `{"city":"Paris","unit":"f\u0061hrenheit"}`),
		R("unit kelvin", `{"city":"Paris","unit":"kelvin"}`),
		R("unit capitalized", `{"city":"Paris","unit":"Celsius"}`),
		R("unit with space", `{"city":"Paris","unit":"celsius "}`),
		R("unit with NUL", `{"city":"Paris","unit":"celsius\u0000"}`),
		R("unit empty", `{"city":"Paris","unit":""}`),
		R("unit number", `{"city":"Paris","unit":1}`),
		R("unit array", `{"city":"Paris","unit":["celsius"]}`),
		R("unit double-encoded string", `{"city":"Paris","unit":"\"celsius\""}`),
		// Several at once.
		R("every property wrong", `{"city":"","days":30,"unit":"kelvin","country":"FR"}`),
		R("unknown properties only", `{"town":"Paris","Days":3}`),
		R("unknown property City", `{"City":"Paris"}`),
		// Duplicates, with and without null.
		R("duplicate city", `{"city":"a","city":"b"}`),
		R("duplicate days", `{"city":"a","days":2,"days":3}`),
		R("duplicate unit", `{"city":"a","unit":"celsius","unit":"celsius"}`),
		R("duplicate days, null first", `{"city":"a","days":null,"days":3}`),
		R("duplicate days, null last", `{"city":"a","days":3,"days":null}`),
		R("duplicate days, both null", `{"city":"a","days":null,"days":null}`),
		R("duplicate unit, null first", `{"city":"a","unit":null,"unit":"fahrenheit"}`),
		R("duplicate in double-encoded", `"{\"city\":\"a\",\"city\":\"b\"}"`),
		A("double-encoded with nulls", `"{\"city\":\"a\",\"days\":null,\"unit\":null}"`),
		A("double-encoded with escapes", `"{\"city\":\"\\u00e9\\ud83d\\ude00\"}"`),
		R("double-encoded, bad inner", `"{\"city\":\"a\",\"days\":0}"`),
	)
}

func helloWorldCases() []difftest.Case {
	A, R := difftest.A, difftest.R
	cases := difftest.Structural(`{"name":"Ada","times":2}`, "name", `"Ada"`)
	return append(cases,
		A("name only", `{"name":"Ada"}`),
		A("times first", `{"times":5,"name":"Ada"}`),
		A("name one character", `{"name":"A"}`),
		A("name one non-ASCII character", `{"name":"é"}`),
		A("name one emoji", `{"name":"😀"}`),
		A("name one escaped surrogate pair", `{"name":"\ud83d\ude00"}`),
		A("name lone surrogate", `{"name":"\udfff"}`),
		A("name one invalid byte", "{\"name\":\"\x80\"}"),
		A("name NUL", `{"name":"\u0000"}`),
		A("name space", `{"name":" "}`),
		A("name long", `{"name":`+str("Ada ", 2000)+`}`),
		R("name empty", `{"name":""}`),
		R("name null", `{"name":null}`),
		R("name number", `{"name":1}`),
		R("name false", `{"name":false}`),
		R("name array", `{"name":["Ada"]}`),
		R("name missing", `{"times":2}`),
		A("times null means default", `{"name":"Ada","times":null}`),
		A("times 1", `{"name":"Ada","times":1}`),
		A("times 5", `{"name":"Ada","times":5}`),
		R("times 0", `{"name":"Ada","times":0}`),
		R("times 6", `{"name":"Ada","times":6}`),
		R("times -1", `{"name":"Ada","times":-1}`),
		R("times negative zero", `{"name":"Ada","times":-0}`),
		A("times 1.0", `{"name":"Ada","times":1.0}`),
		A("times 2e0", `{"name":"Ada","times":2e0}`),
		A("times 0.2e1", `{"name":"Ada","times":0.2e1}`),
		A("times 20e-1", `{"name":"Ada","times":20e-1}`),
		R("times 1.5", `{"name":"Ada","times":1.5}`),
		R("times huge", `{"name":"Ada","times":1e308}`),
		R("times beyond float64", `{"name":"Ada","times":1e309}`),
		R("times tiny", `{"name":"Ada","times":1e-400}`),
		R("times max int64 + 1", `{"name":"Ada","times":9223372036854775808}`),
		R("times string", `{"name":"Ada","times":"2"}`),
		R("times object", `{"name":"Ada","times":{}}`),
		R("times bool", `{"name":"Ada","times":true}`),
		R("duplicate name", `{"name":"Ada","name":"Bob"}`),
		R("duplicate times", `{"name":"Ada","times":1,"times":2}`),
		R("duplicate times, null first", `{"name":"Ada","times":null,"times":2}`),
		R("duplicate times, null last", `{"name":"Ada","times":2,"times":null}`),
		R("unknown property Name", `{"Name":"Ada"}`),
		R("unknown property time", `{"name":"Ada","time":2}`),
		R("both wrong", `{"name":"","times":9}`),
		A("double-encoded, times null", `"{\"name\":\"Ada\",\"times\":null}"`),
		R("double-encoded, name missing", `"{\"times\":2}"`),
	)
}

func TestDifferential(t *testing.T) {
	if *writeSeeds {
		must(t, difftest.WriteSeeds("testdata/fuzz", "FuzzDecodeGetWeather", getWeatherCases()))
		must(t, difftest.WriteSeeds("testdata/fuzz", "FuzzDecodeHelloWorld", helloWorldCases()))
	}
	t.Run("get_weather", func(t *testing.T) {
		difftest.RunCorpus(t, getWeatherSubject(t), getWeatherCases())
	})
	t.Run("hello_world", func(t *testing.T) {
		difftest.RunCorpus(t, helloWorldSubject(t), helloWorldCases())
	})
}

// TestModes decodes the corpora, and the fuzz seeds, with the specialised decoders and
// the table-driven ones: they must agree on every value, verdict, message and path.
func TestModes(t *testing.T) {
	t.Run("get_weather", func(t *testing.T) {
		difftest.RunModes(t, getWeatherModes(t), getWeatherCases(), "FuzzDecodeGetWeather")
	})
	t.Run("hello_world", func(t *testing.T) {
		difftest.RunModes(t, helloWorldModes(t), helloWorldCases(), "FuzzDecodeHelloWorld")
	})
}

func FuzzModesGetWeather(f *testing.F) {
	m := getWeatherModes(f)
	for _, c := range getWeatherCases() {
		if !c.Big() {
			f.Add([]byte(c.Args))
		}
	}
	f.Fuzz(func(t *testing.T, args []byte) { difftest.Same(t, m, args) })
}

func FuzzModesHelloWorld(f *testing.F) {
	m := helloWorldModes(f)
	for _, c := range helloWorldCases() {
		if !c.Big() {
			f.Add([]byte(c.Args))
		}
	}
	f.Fuzz(func(t *testing.T, args []byte) { difftest.Same(t, m, args) })
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func FuzzDecodeGetWeather(f *testing.F) {
	s := getWeatherSubject(f)
	for _, c := range getWeatherCases() {
		if !c.Big() {
			f.Add([]byte(c.Args))
		}
	}
	f.Fuzz(func(t *testing.T, args []byte) { difftest.Check(t, s, args) })
}

func FuzzDecodeHelloWorld(f *testing.F) {
	s := helloWorldSubject(f)
	for _, c := range helloWorldCases() {
		if !c.Big() {
			f.Add([]byte(c.Args))
		}
	}
	f.Fuzz(func(t *testing.T, args []byte) { difftest.Check(t, s, args) })
}
