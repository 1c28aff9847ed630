package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v6 "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen/toolgen/bench/shapes"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// The payloads of issue 12, on the tools of bench/shapes: types written without
// looking at what the generated decoders are fast at, each with its floor, a
// hand-written single-pass decode and validation of the same contract
// (shapes/floor.go).

// shapeApproaches returns the ways the benchmarks decode the arguments of a tool of
// bench/shapes into T: the generated decoder, the floor, the validator (which is also
// the corpus's oracle), and the type-only peers.
func shapeApproaches[T any](tool string, decode func(*toolimpl.Decoder, *T), floor func([]byte, *T) error, defaults func(*T)) []approach[T] {
	t, ok := shapes.Tools().Lookup(tool)
	if !ok {
		panic("no tool " + tool)
	}
	return []approach[T]{
		{"generated", true, generated(tool, decode)},
		{"floor", true, floorApproach(floor)},
		{"encoding_json", false, encodingJSON[T]},
		{"jsonschema_v6", true, jsonschemaV6(t.InputSchema, defaults)},
		{"easyjson", false, easyJSON[T]},
		{"goccy", false, goccy[T]},
		{"sonic", false, sonicDefault[T]},
		{"sonic_std", false, sonicStd[T]},
	}
}

// floorApproach runs a floor decoder of bench/shapes into a new value.
func floorApproach[T any](floor func([]byte, *T) error) func([]byte) (T, error) {
	return func(args []byte) (T, error) {
		var in T
		err := floor(args, &in)
		return in, err
	}
}

var alarmPayload = payload[shapes.AlarmArgs]{
	name:       "alarm",
	tool:       "set_alarm",
	valid:      alarmValid,
	invalid:    alarmInvalid,
	approaches: shapeApproaches("set_alarm", shapes.GeneratedAlarmArgs, shapes.FloorAlarmArgs, func(a *shapes.AlarmArgs) { a.Volume = 5 }),
	tools:      shapes.Tools,
	schemaFile: "shapes/toolschema/set_alarm.json",
}

var logsPayload = payload[shapes.LogQuery]{
	name:       "logs",
	tool:       "search_logs",
	valid:      logsValid,
	invalid:    logsInvalid,
	approaches: shapeApproaches("search_logs", shapes.GeneratedLogQuery, shapes.FloorLogQuery, func(q *shapes.LogQuery) { q.Order, q.Limit = shapes.Desc, 100 }),
	tools:      shapes.Tools,
	schemaFile: "shapes/toolschema/search_logs.json",
}

var contactsPayload = payload[shapes.ContactList]{
	name:       "contacts",
	tool:       "import_contacts",
	valid:      contactsValid,
	invalid:    contactsInvalid,
	approaches: shapeApproaches("import_contacts", shapes.GeneratedContactList, shapes.FloorContactList, nil),
	tools:      shapes.Tools,
	schemaFile: "shapes/toolschema/import_contacts.json",
}

// The corpora: the first valid entry is the benchmark's payload. Each invalid entry
// breaks one rule of an otherwise valid argument set.

var alarmValid = []string{
	`{"hour":17,"minute":30,"volume":10,"tone":"birdsong"}`, // 53 bytes
	`{"hour":0,"minute":0,"tone":"chime"}`,
	`{"tone":"buzzer","minute":59,"hour":23,"volume":1}`,
	" \n{\t\"hour\" : 6 ,\r\n \"minute\":5,\"volume\":5,\"tone\":\"radio\"}\n",
	`{"hour":12,"minute":1,"tone":"\u0063hime"}`,
	`{"ho\u0075r":8,"minute":15,"tone":"chime"}`,
	`{"hour":-0,"minute":0,"tone":"radio"}`,
}

var alarmInvalid = []string{
	`{"minute":30,"tone":"chime"}`,
	`{"hour":7,"tone":"chime"}`,
	`{"hour":7,"minute":30}`,
	`{"hour":24,"minute":30,"tone":"chime"}`,
	`{"hour":-1,"minute":30,"tone":"chime"}`,
	`{"hour":7,"minute":60,"tone":"chime"}`,
	`{"hour":7,"minute":-5,"tone":"chime"}`,
	`{"hour":7,"minute":30,"volume":0,"tone":"chime"}`,
	`{"hour":7,"minute":30,"volume":11,"tone":"chime"}`,
	`{"hour":7,"minute":30,"volume":-1,"tone":"chime"}`,
	`{"hour":7,"minute":30,"volume":300,"tone":"chime"}`,
	`{"hour":7,"minute":30,"volume":2.5,"tone":"chime"}`,
	`{"hour":7.5,"minute":30,"tone":"chime"}`,
	`{"hour":100000000000000000000,"minute":30,"tone":"chime"}`,
	`{"hour":"7","minute":30,"tone":"chime"}`,
	`{"hour":true,"minute":30,"tone":"chime"}`,
	`{"hour":null,"minute":30,"tone":"chime"}`,
	`{"hour":7,"minute":30,"tone":"gong"}`,
	`{"hour":7,"minute":30,"tone":"Chime"}`,
	`{"hour":7,"minute":30,"tone":3}`,
	`{"hour":7,"minute":30,"tone":"chime","snooze":5}`,
	`{"hour":07,"minute":30,"tone":"chime"}`,
	`{"hour":7,"minute":30,"tone":"chime",}`,
	`{"hour":7,"minute":30,"tone":"chime"`,
	`{"hour":7,"minute":30,"tone":"chime"} {}`,
	`{"hour":7 "minute":30,"tone":"chime"}`,
	`[]`,
	`7`,
	``,
	`null`,
}

var logsValid = []string{
	`{"service":"checkout-api","since":"2026-11-30T08:00:00Z","until":"2026-11-30T20:15:30.250+01:00","level":"warn","order":"asc","filter":{"host":"web-07.eu-west","status":503,"minLatencyMs":250},"tags":["payments","beta"],"limit":200}`, // 232 bytes
	`{"service":"ab","since":"2026-01-01T00:00:00Z","level":"info"}`,
	`{"level":"fatal","since":"2024-02-29t23:59:59.999999999z","until":"2024-03-01T05:30:00-05:30","service":"a1","order":"desc","filter":{"host":"h"},"tags":[],"limit":1000}`,
	`{"service":"billing-v2","since":"2016-12-31T23:59:60Z","until":"2017-01-01T00:59:60+01:00","level":"debug","filter":null,"tags":["a","b","c","d","e"],"limit":1}`,
	`{"service":"x-0","since":"2026-11-30T08:00:00+00:00","level":"error","filter":{"minLatencyMs":0,"host":"Zürich-01 ` + strings.Repeat("é", 53) + `","status":100},"tags":["\u00e9t\u00e9",""]}`,
}

// logsWith returns the second valid entry of logs with its properties and those of
// extra, which replace them.
func logsWith(extra string) string {
	return `{"service":"ab","since":"2026-01-01T00:00:00Z","level":"info",` + extra + `}`
}

var logsInvalid = []string{
	`{"since":"2026-01-01T00:00:00Z","level":"info"}`,
	`{"service":"ab","level":"info"}`,
	`{"service":"ab","since":"2026-01-01T00:00:00Z"}`,
	`{"service":"Checkout","since":"2026-01-01T00:00:00Z","level":"info"}`,
	`{"service":"a","since":"2026-01-01T00:00:00Z","level":"info"}`,
	`{"service":"checkout-","since":"2026-01-01T00:00:00Z","level":"info"}`,
	`{"service":"9lives","since":"2026-01-01T00:00:00Z","level":"info"}`,
	`{"service":"check out","since":"2026-01-01T00:00:00Z","level":"info"}`,
	`{"service":42,"since":"2026-01-01T00:00:00Z","level":"info"}`,
	`{"service":"ab","since":"2026-11-30","level":"info"}`,
	`{"service":"ab","since":"2026-11-30T25:00:00Z","level":"info"}`,
	`{"service":"ab","since":"2026-11-30T08:60:00Z","level":"info"}`,
	`{"service":"ab","since":"2026-02-30T10:00:00Z","level":"info"}`,
	`{"service":"ab","since":"2025-02-29T10:00:00Z","level":"info"}`,
	`{"service":"ab","since":"2026-13-01T10:00:00Z","level":"info"}`,
	`{"service":"ab","since":"2026-11-30T08:00:00","level":"info"}`,
	`{"service":"ab","since":"2026-11-30 08:00:00Z","level":"info"}`,
	`{"service":"ab","since":"2026-11-30T08:00:00.Z","level":"info"}`,
	`{"service":"ab","since":"2026-11-30T08:00:00+1:00","level":"info"}`,
	`{"service":"ab","since":"2026-11-30T08:00:00+24:00","level":"info"}`,
	`{"service":"ab","since":"2026-11-30T12:00:60Z","level":"info"}`,
	`{"service":"ab","since":"yesterday","level":"info"}`,
	`{"service":"ab","since":20261130,"level":"info"}`,
	logsWith(`"until":"2026-11-31T00:00:00Z"`),
	logsWith(`"until":""`),
	`{"service":"ab","since":"2026-01-01T00:00:00Z","level":"trace"}`,
	`{"service":"ab","since":"2026-01-01T00:00:00Z","level":null}`,
	`{"service":"ab","since":"2026-01-01T00:00:00Z","level":["info"]}`,
	logsWith(`"order":"random"`),
	logsWith(`"filter":{}`),
	logsWith(`"filter":{"host":""}`),
	logsWith(`"filter":{"host":"` + strings.Repeat("h", 65) + `"}`),
	logsWith(`"filter":{"host":"` + strings.Repeat("é", 65) + `"}`),
	logsWith(`"filter":{"host":"h","status":99}`),
	logsWith(`"filter":{"host":"h","status":600}`),
	logsWith(`"filter":{"host":"h","minLatencyMs":-1}`),
	logsWith(`"filter":{"host":"h","minLatencyMs":60001}`),
	logsWith(`"filter":{"host":"h","path":"/"}`),
	logsWith(`"filter":{"host":null}`),
	logsWith(`"filter":"web-07"`),
	logsWith(`"filter":[]`),
	logsWith(`"tags":["a","b","c","d","e","f"]`),
	logsWith(`"tags":[1]`),
	logsWith(`"tags":[null]`),
	logsWith(`"tags":"payments"`),
	logsWith(`"tags":{"a":"b"}`),
	logsWith(`"limit":0`),
	logsWith(`"limit":1001`),
	logsWith(`"limit":10.5`),
	logsWith(`"limit":"10"`),
	logsWith(`"query":"error"`),
	logsWith(`"tags":["a",]`),
}

var contactsValid = []string{
	contactsArgs(100, nil),
	contactsArgs(1, nil),
	contactsArgs(250, nil),
	`{"contacts":[{"name":"Zoë Ångström","city":"","age":0,"score":0},{"score":100,"age":150,"city":"` + strings.Repeat("ü", 60) + `","name":"` + strings.Repeat("é", 100) + `"},{"name":"x","city":"Lima","age":10,"score":1E1},{"name":"\"q\"\\","city":"\ud83d\ude00","age":30,"score":-0}]}`,
}

var contactsInvalid = []string{
	`{}`,
	`{"contacts":[]}`,
	`{"contacts":null}`,
	`{"contacts":{}}`,
	`{"contacts":[{"name":"Ada","city":"London","age":36,"score":97.5}],"source":"crm"}`,
	contactsArgs(100, map[int]string{99: `{"city":"London","age":36,"score":97.5}`}),
	contactsArgs(100, map[int]string{50: `{"name":"Ada","age":36,"score":97.5}`}),
	contactsArgs(100, map[int]string{10: `{"name":"Ada","city":"London","score":97.5}`}),
	contactsArgs(100, map[int]string{0: `{"name":"Ada","city":"London","age":36}`}),
	contactsArgs(100, map[int]string{3: `{"name":"","city":"London","age":36,"score":97.5}`}),
	contactsArgs(100, map[int]string{3: `{"name":"` + strings.Repeat("n", 101) + `","city":"London","age":36,"score":97.5}`}),
	contactsArgs(100, map[int]string{3: `{"name":"` + strings.Repeat("é", 101) + `","city":"London","age":36,"score":97.5}`}),
	contactsArgs(100, map[int]string{3: `{"name":"Ada","city":"` + strings.Repeat("c", 61) + `","age":36,"score":97.5}`}),
	contactsArgs(100, map[int]string{60: `{"name":"Ada","city":"London","age":-1,"score":97.5}`}),
	contactsArgs(100, map[int]string{60: `{"name":"Ada","city":"London","age":151,"score":97.5}`}),
	contactsArgs(100, map[int]string{60: `{"name":"Ada","city":"London","age":36.5,"score":97.5}`}),
	contactsArgs(100, map[int]string{60: `{"name":"Ada","city":"London","age":"36","score":97.5}`}),
	contactsArgs(100, map[int]string{70: `{"name":"Ada","city":"London","age":36,"score":-0.5}`}),
	contactsArgs(100, map[int]string{70: `{"name":"Ada","city":"London","age":36,"score":100.5}`}),
	contactsArgs(100, map[int]string{70: `{"name":"Ada","city":"London","age":36,"score":1e400}`}),
	contactsArgs(100, map[int]string{70: `{"name":"Ada","city":"London","age":36,"score":"high"}`}),
	contactsArgs(100, map[int]string{80: `{"name":"Ada","city":"London","age":36,"score":97.5,"email":"ada@example.com"}`}),
	contactsArgs(100, map[int]string{80: `{"name":null,"city":"London","age":36,"score":97.5}`}),
	contactsArgs(100, map[int]string{90: `"Ada"`}),
	contactsArgs(100, map[int]string{90: `null`}),
	contactsArgs(100, map[int]string{90: `[]`}),
	contactsArgs(100, map[int]string{90: `{"name":"Ada","city":"London","age":36,"score":97.5`}),
}

// contactsArgs returns the arguments of import_contacts with n contacts, some
// replaced.
func contactsArgs(n int, replace map[int]string) string {
	first := []string{"Ada", "Alan", "Grace", "Linus", "Ken", "Rob", "Barbara", "Edsger", "Donald", "Margaret", "Tim", "Radia", "Frances", "John", "Niklaus", "Leslie"}
	last := "LTHTTPLDKHBPABWL"
	cities := []string{"London", "Paris", "Oslo", "Tokyo", "Zürich", "Lima", "São Paulo", "Berlin", "Nairobi", "Rome", "Sydney"}
	var b bytes.Buffer
	b.WriteString(`{"contacts":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if r, ok := replace[i]; ok {
			b.WriteString(r)
			continue
		}
		fmt.Fprintf(&b, `{"name":"%s %c.","city":"%s","age":%d,"score":%d`, first[i%16], last[i*7%16], cities[i*3%11], 18+i*13%70, i*37%100)
		if i%2 == 1 {
			b.WriteString(".5")
		}
		b.WriteByte('}')
	}
	b.WriteString(`]}`)
	return b.String()
}

// schemaOracle returns the verdict of a JSON Schema validator,
// santhosh-tekuri/jsonschema/v6 with formats asserted, on arguments: the inputSchema of
// the tool's canonical contract, the file toolgen wrote.
func schemaOracle(t *testing.T, file string) func(args string) error {
	t.Helper()
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var contract struct{ InputSchema json.RawMessage }
	if err := json.Unmarshal(text, &contract); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	doc, err := v6.UnmarshalJSON(bytes.NewReader(contract.InputSchema))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	c := v6.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("tool.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("tool.json")
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return func(args string) error {
		inst, err := v6.UnmarshalJSON(strings.NewReader(args))
		if err != nil {
			return err
		}
		return sch.Validate(inst)
	}
}

// TestShapeSizes checks that the benchmarks' payloads have the sizes issue 12 names.
func TestShapeSizes(t *testing.T) {
	for _, c := range []struct {
		args     string
		min, max int
	}{
		{alarmValid[0], 53, 53},
		{logsValid[0], 232, 232},
		{contactsValid[0], 5000, 6000},
	} {
		if n := len(c.args); n < c.min || n > c.max {
			t.Errorf("%.40s: %d bytes, want %d to %d", c.args, n, c.min, c.max)
		}
	}
}

// TestShapeKnownDifferences pins, on the tools of bench/shapes, the arguments the
// corpus leaves out because the validating approaches part ways on them (see
// TestKnownDifferences): the floor keeps the generated decoder's contract, leniencies
// included, where the validator and encoding/json do not.
func TestShapeKnownDifferences(t *testing.T) {
	both := []string{"generated", "floor"}
	check := func(t *testing.T, accepted func(args string) []string, args string, want []string) {
		t.Helper()
		if got := accepted(args); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: accepted by %v, want %v", args, got, want)
		}
	}
	alarm := func(args string) []string { return acceptedBy(alarmPayload.approaches, args) }
	logs := func(args string) []string { return acceptedBy(logsPayload.approaches, args) }
	contacts := func(args string) []string { return acceptedBy(contactsPayload.approaches, args) }
	// An integral number written with a fraction or an exponent is an integer.
	check(t, alarm, `{"hour":7.0,"minute":3e1,"tone":"chime","volume":1.0e1}`, both)
	// null for an optional property means absent, and its default applies.
	check(t, alarm, `{"hour":7,"minute":30,"tone":"chime","volume":null}`, both)
	check(t, logs, logsWith(`"until":null,"order":null,"tags":null,"limit":null`), both)
	// A duplicate key: the last one wins but in toolgen and the floor, which refuse it.
	check(t, alarm, `{"hour":7,"minute":30,"tone":"chime","hour":8}`, []string{"jsonschema_v6"})
	check(t, logs, logsWith(`"filter":{"host":"a","host":"b"}`), []string{"jsonschema_v6"})
	check(t, alarm, `{"hour":7,"minute":30,"tone":"chime","volume":null,"volume":3}`, []string{"jsonschema_v6"})
	// Arguments, an object or an array double-encoded as a JSON string.
	check(t, alarm, `"{\"hour\":7,\"minute\":30,\"tone\":\"chime\"}"`, both)
	check(t, logs, logsWith(`"filter":" {\"host\":\"web-07\"} ","tags":"[\"a\"]"`), both)
	check(t, contacts, `{"contacts":"[{\"name\":\"Ada\",\"city\":\"\",\"age\":36,\"score\":1}]"}`, both)
	check(t, contacts, `{"contacts":["{\"name\":\"Ada\",\"city\":\"\",\"age\":36,\"score\":1}"]}`, both)
	// Each approach decodes the leniencies alike.
	for _, args := range []string{
		`{"hour":7.0,"minute":3e1,"tone":"chime","volume":null}`,
		`"{\"hour\":7,\"minute\":30,\"tone\":\"chime\"}"`,
	} {
		sameValue(t, alarmPayload.approaches[:2], args)
	}
	sameValue(t, logsPayload.approaches[:2], logsWith(`"filter":" {\"host\":\"web-07\"} ","tags":"[\"a\"]","order":null`))
}

func acceptedBy[T any](as []approach[T], args string) []string {
	var got []string
	for _, a := range as {
		if _, err := a.decode([]byte(args)); a.validates && err == nil {
			got = append(got, a.name)
		}
	}
	return got
}

func sameValue[T any](t *testing.T, as []approach[T], args string) {
	t.Helper()
	want, err := as[0].decode([]byte(args))
	if err != nil {
		t.Errorf("%s: %s: %v", args, as[0].name, err)
		return
	}
	for _, a := range as[1:] {
		got, err := a.decode([]byte(args))
		if err != nil {
			t.Errorf("%s: %s: %v", args, a.name, err)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: %s decodes it otherwise than %s:\n%s", args, a.name, as[0].name, diff)
		}
	}
}

// TestFloorMutations checks that each floor keeps the generated decoder's contract
// beyond the corpus: on thousands of mutations of the corpus's entries (a byte
// deleted, doubled or replaced by one that matters to JSON), the floor and the
// generated decoder accept and refuse the same arguments, and decode the accepted ones
// to the same value.
func TestFloorMutations(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	t.Run("alarm", func(t *testing.T) { floorMutations(t, alarmPayload, n) })
	t.Run("logs", func(t *testing.T) { floorMutations(t, logsPayload, n) })
	t.Run("contacts", func(t *testing.T) { floorMutations(t, contactsPayload, n/10) })
}

// FuzzFloor is TestFloorMutations' check on any input, for each of the three tools:
//
//	go test -run '^$' -fuzz '^FuzzFloor$' -fuzztime 1m .   # in bench
func FuzzFloor(f *testing.F) {
	for _, p := range [][]string{alarmValid, alarmInvalid, logsValid, logsInvalid, contactsValid[1:], contactsInvalid[:5]} {
		for _, args := range p {
			f.Add([]byte(args))
		}
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		sameVerdict(t, alarmPayload.approaches[:2], args)
		sameVerdict(t, logsPayload.approaches[:2], args)
		sameVerdict(t, contactsPayload.approaches[:2], args)
	})
}

// mutationBytes are the bytes a mutation puts in: JSON's punctuation, the starts of
// its values, escapes and the bytes of numbers and date-times.
const mutationBytes = "{}[],:\" \\u0123456789-+.eEtTzZnul\x00\x7f\xc3\xa9\xff"

func floorMutations[T any](t *testing.T, p payload[T], n int) {
	as := p.approaches[:2] // generated, floor
	if as[0].name != "generated" || as[1].name != "floor" {
		t.Fatalf("approaches %s, %s", as[0].name, as[1].name)
	}
	rng := rand.New(rand.NewPCG(12, uint64(len(p.name))))
	corpus := append(append([]string(nil), p.valid...), p.invalid...)
	for range n {
		args := []byte(corpus[rng.IntN(len(corpus))])
		for range 1 + rng.IntN(2) {
			if len(args) == 0 {
				args = append(args, mutationBytes[rng.IntN(len(mutationBytes))])
				continue
			}
			i := rng.IntN(len(args))
			switch rng.IntN(3) {
			case 0:
				args = append(args[:i:i], args[i+1:]...)
			case 1:
				args = append(args[:i+1:i+1], args[i:]...)
			default:
				args[i] = mutationBytes[rng.IntN(len(mutationBytes))]
			}
		}
		sameVerdict(t, as, args)
	}
}

// sameVerdict checks that the generated decoder (as[0]) and the floor (as[1]) agree on
// args.
func sameVerdict[T any](t *testing.T, as []approach[T], args []byte) {
	t.Helper()
	want, errG := as[0].decode(args)
	got, errF := as[1].decode(args)
	switch {
	case (errG == nil) != (errF == nil):
		t.Errorf("%q: generated: %v; floor: %v", args, errG, errF)
	case errG == nil:
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q: the floor decodes it otherwise than the generated decoder:\n%s", args, diff)
		}
	}
}
