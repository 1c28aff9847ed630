package banking

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	rt, ok := ServiceTools(nil).Lookup(tool)
	if !ok {
		t.Fatalf("ServiceTools has no %s", tool)
	}
	var a, c any
	if err := json.Unmarshal(file.InputSchema, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(rt.InputSchema, &c); err != nil {
		t.Fatal(err)
	}
	if x, y := mustMarshal(t, a), mustMarshal(t, c); x != y {
		t.Fatalf("%s: the runtime's InputSchema differs from toolschema/%s.json", tool, tool)
	}
	return file.InputSchema
}

func mustMarshal(t testing.TB, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func closeAccountSubject(t testing.TB) difftest.Subject[CloseRequest] {
	return difftest.Subject[CloseRequest]{
		Tool:        "close_account",
		InputSchema: inputSchema(t, "close_account"),
		Decode: func(args []byte) (CloseRequest, []invalid.Violation, bool) {
			d := toolimpl.NewDecoder(args, toolimpl.Limits{})
			var v CloseRequest
			toolgenDecodeCloseRequest(d, &v)
			ok := d.Finish()
			return v, d.Violations(), ok
		},
		// json:"-" fields are invisible to the model and cannot be set by it.
		Invariant: func(v CloseRequest) error {
			if v.ClosedBy != "" {
				return errors.New("ClosedBy (json:\"-\") was set to " + v.ClosedBy)
			}
			return nil
		},
	}
}

// getTransactionsArgs is toolgenArgsGetTransactions as encoding/json sees it.
type getTransactionsArgs struct {
	StartDate time.Time `json:"startDate"`
	EndDate   time.Time `json:"endDate"`
}

func getTransactionsSubject(t testing.TB) difftest.Subject[getTransactionsArgs] {
	return difftest.Subject[getTransactionsArgs]{
		Tool:        "get_transactions",
		InputSchema: inputSchema(t, "get_transactions"),
		Decode: func(args []byte) (getTransactionsArgs, []invalid.Violation, bool) {
			d := toolimpl.NewDecoder(args, toolimpl.Limits{})
			var v toolgenArgsGetTransactions
			toolgenDecodeArgsGetTransactions(d, &v)
			ok := d.Finish()
			return getTransactionsArgs{StartDate: v.startDate, EndDate: v.endDate}, d.Violations(), ok
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

func closeAccountModes(t testing.TB) difftest.Modes[CloseRequest] {
	table := closeAccountSubject(t)
	table.Decode = func(args []byte) (CloseRequest, []invalid.Violation, bool) {
		var v CloseRequest
		viols, ok := tableDecode(t, "close_account", args, unsafe.Pointer(&v))
		return v, viols, ok
	}
	return difftest.Modes[CloseRequest]{Specialised: closeAccountSubject(t), Table: table}
}

func getTransactionsModes(t testing.TB) difftest.Modes[getTransactionsArgs] {
	table := getTransactionsSubject(t)
	table.Decode = func(args []byte) (getTransactionsArgs, []invalid.Violation, bool) {
		var v toolgenArgsGetTransactions
		viols, ok := tableDecode(t, "get_transactions", args, unsafe.Pointer(&v))
		return getTransactionsArgs{StartDate: v.startDate, EndDate: v.endDate}, viols, ok
	}
	return difftest.Modes[getTransactionsArgs]{Specialised: getTransactionsSubject(t), Table: table}
}

// str returns a JSON string of n copies of s (s written as JSON string contents).
func str(s string, n int) string { return `"` + strings.Repeat(s, n) + `"` }

func closeAccountCases() []difftest.Case {
	A, R := difftest.A, difftest.R
	cases := difftest.Structural(`{"reason":"moving abroad","confirm":true}`, "reason", `"moving abroad"`)
	reason := func(s string) string { return `{"reason":` + s + `,"confirm":true}` }
	return append(cases,
		A("confirm first", `{"confirm":true,"reason":"too many fees"}`),
		// reason: minLength 3, maxLength 500, counted in characters.
		A("reason 3 ASCII", reason(str("a", 3))),
		R("reason 2 ASCII", reason(str("a", 2))),
		R("reason empty", reason(`""`)),
		A("reason 3 emoji", reason(str("😀", 3))),
		R("reason 2 emoji (8 bytes)", reason(str("😀", 2))),
		R("reason 2 two-byte characters (4 bytes)", reason(str("é", 2))),
		A("reason 3 escaped surrogate pairs", reason(str(`\ud83d\ude00`, 3))),
		R("reason 2 escaped surrogate pairs (12 bytes of text)", reason(str(`\ud83d\ude00`, 2))),
		A("reason 3 lone surrogates", reason(str(`\ud800`, 3))),
		R("reason 2 lone surrogates", reason(str(`\ud800`, 2))),
		A("reason 3 invalid bytes", reason(str("\xff", 3))),
		R("reason 2 invalid bytes", reason(str("\xff", 2))),
		R("reason e and combining accent", reason(`"e\u0301"`)),
		A("reason 500 ASCII", reason(str("a", 500))),
		R("reason 501 ASCII", reason(str("a", 501))),
		A("reason 500 three-byte characters", reason(str("€", 500))),
		R("reason 501 three-byte characters", reason(str("€", 501))),
		A("reason 500 escaped", reason(str(`\u20ac`, 500))),
		R("reason 501 escaped", reason(str(`\u20ac`, 501))),
		A("reason 500 emoji", reason(str("😀", 500))),
		R("reason 501 emoji", reason(str("😀", 501))),
		A("reason escapes", reason(`"\"\\\/\b\f\n\r\t\u0000"`)),
		A("reason holding JSON", reason(`"{\"confirm\":false}"`)),
		R("reason raw newline", reason("\"a\nbc\"")),
		R("reason number", reason(`123`)),
		R("reason array", reason(`["abc"]`)),
		R("reason missing", `{"confirm":true}`),
		// confirm: boolean, const true, required.
		R("confirm false", `{"reason":"moving","confirm":false}`),
		R("confirm null", `{"reason":"moving","confirm":null}`),
		R("confirm missing", `{"reason":"moving"}`),
		R("confirm string", `{"reason":"moving","confirm":"true"}`),
		R("confirm 1", `{"reason":"moving","confirm":1}`),
		R("confirm True", `{"reason":"moving","confirm":True}`),
		R("confirm tru", `{"reason":"moving","confirm":tru}`),
		R("confirm truex", `{"reason":"moving","confirm":truex}`),
		R("confirm array", `{"reason":"moving","confirm":[true]}`),
		R("confirm double-encoded", `{"reason":"moving","confirm":"true"}`+"\n"),
		R("duplicate confirm", `{"reason":"moving","confirm":true,"confirm":false}`),
		R("duplicate confirm, same", `{"reason":"moving","confirm":true,"confirm":true}`),
		R("duplicate reason", `{"reason":"moving","reason":"moving","confirm":true}`),
		// ClosedBy is json:"-": never a property, never set.
		R("ClosedBy", `{"reason":"moving","confirm":true,"ClosedBy":"x"}`),
		R("closedBy", `{"reason":"moving","confirm":true,"closedBy":"x"}`),
		R("closed_by", `{"reason":"moving","confirm":true,"closed_by":"x"}`),
		R("dash", `{"reason":"moving","confirm":true,"-":"x"}`),
		R("ClosedBy null", `{"reason":"moving","confirm":true,"ClosedBy":null}`),
		R("ClosedBy only", `{"ClosedBy":"x"}`),
		R("ClosedBy double-encoded", `"{\"reason\":\"moving\",\"confirm\":true,\"ClosedBy\":\"x\"}"`),
		R("Reason capitalized", `{"Reason":"moving","confirm":true}`),
		R("everything wrong", `{"reason":"no","confirm":false,"ClosedBy":"x"}`),
		A("double-encoded with escapes", `"{\"reason\":\"d\\u00e9m\\u00e9nagement\",\"confirm\":true}"`),
	)
}

func getTransactionsCases() []difftest.Case {
	A, R := difftest.A, difftest.R
	const jan, feb = `"2024-01-01T00:00:00Z"`, `"2024-02-01T00:00:00Z"`
	cases := difftest.Structural(`{"startDate":`+jan+`,"endDate":`+feb+`}`, "startDate", jan)
	for _, c := range difftest.DateTimes(func(s string) string { return `{"startDate":"` + s + `","endDate":` + feb + `}` }) {
		c.Name = "startDate " + c.Name
		cases = append(cases, c)
	}
	for _, c := range difftest.DateTimes(func(s string) string { return `{"startDate":` + jan + `,"endDate":"` + s + `"}` }) {
		c.Name = "endDate " + c.Name
		cases = append(cases, c)
	}
	return append(cases,
		A("end before start (the tool decides)", `{"startDate":`+feb+`,"endDate":`+jan+`}`),
		A("same instant, different offsets", `{"startDate":"2024-01-01T01:00:00+01:00","endDate":"2024-01-01T00:00:00Z"}`),
		R("endDate missing", `{"startDate":`+jan+`}`),
		R("both missing", `{}`+" "),
		R("endDate null", `{"startDate":`+jan+`,"endDate":null}`),
		R("startDate number", `{"startDate":1704067200,"endDate":`+feb+`}`),
		R("startDate object", `{"startDate":{"$date":`+jan+`},"endDate":`+feb+`}`),
		R("startDate array", `{"startDate":[`+jan+`],"endDate":`+feb+`}`),
		R("startDate bool", `{"startDate":true,"endDate":`+feb+`}`),
		R("startDate double-encoded", `{"startDate":"\"2024-01-01T00:00:00Z\"","endDate":`+feb+`}`),
		R("duplicate endDate", `{"startDate":`+jan+`,"endDate":`+feb+`,"endDate":`+feb+`}`),
		R("duplicate endDate, null first", `{"startDate":`+jan+`,"endDate":null,"endDate":`+feb+`}`),
		R("start_date", `{"start_date":`+jan+`,"endDate":`+feb+`}`),
		R("StartDate", `{"StartDate":`+jan+`,"endDate":`+feb+`}`),
		R("both invalid", `{"startDate":"yesterday","endDate":"today"}`),
		A("double-encoded with offsets", `"{\"startDate\":\"2024-01-01T00:00:00+05:30\",\"endDate\":\"2024-02-01T00:00:00.25-08:00\"}"`),
		R("double-encoded, lax time", `"{\"startDate\":\"2024-01-01T0:00:00Z\",\"endDate\":\"2024-02-01T00:00:00Z\"}"`),
	)
}

func TestDifferential(t *testing.T) {
	if *writeSeeds {
		must(t, difftest.WriteSeeds("testdata/fuzz", "FuzzDecodeCloseAccount", closeAccountCases()))
		must(t, difftest.WriteSeeds("testdata/fuzz", "FuzzDecodeGetTransactions", getTransactionsCases()))
	}
	t.Run("close_account", func(t *testing.T) {
		difftest.RunCorpus(t, closeAccountSubject(t), closeAccountCases())
	})
	t.Run("get_transactions", func(t *testing.T) {
		difftest.RunCorpus(t, getTransactionsSubject(t), getTransactionsCases())
	})
}

// TestClosedByNeverSet checks, through the whole Toolset as a model's call goes, that
// the json:"-" field ClosedBy can be neither seen nor set.
func TestClosedByNeverSet(t *testing.T) {
	tool, _ := ServiceTools(nil).Lookup("close_account")
	if strings.Contains(strings.ToLower(string(tool.InputSchema)), "closedby") {
		t.Errorf("the input schema mentions ClosedBy: %s", tool.InputSchema)
	}
	for _, args := range []string{
		`{"reason":"moving","confirm":true,"ClosedBy":"x"}`,
		`{"reason":"moving","confirm":true,"closedBy":"x"}`,
		`{"reason":"moving","confirm":true,"-":"x"}`,
		`{"reason":"moving","confirm":true,"closedby":"x"}`,
		`{"reason":"moving","confirm":true,"Closed\u0042y":"x"}`,
	} {
		d := toolimpl.NewDecoder([]byte(args), toolimpl.Limits{})
		var v CloseRequest
		toolgenDecodeCloseRequest(d, &v)
		if d.Finish() {
			t.Errorf("%s: accepted", args)
		}
		if v.ClosedBy != "" {
			t.Errorf("%s: ClosedBy = %q", args, v.ClosedBy)
		}
		var unknown bool
		for _, viol := range d.Violations() {
			if viol.Code == invalid.UnknownProperty {
				unknown = true
			}
		}
		if !unknown {
			t.Errorf("%s: no unknown-property violation in %v", args, d.Violations())
		}
		s := NewService(nil)
		res := ServiceTools(s).Call(WithUser(t.Context(), "u"), "close_account", []byte(args))
		if !res.IsError || !strings.Contains(res.Text(), "unknown property") {
			t.Errorf("%s: Call = %q, want an unknown-property error", args, res.Text())
		}
	}
}

// TestModes decodes the corpora, and the fuzz seeds, with the specialised decoders and
// the table-driven ones: they must agree on every value, verdict, message and path.
func TestModes(t *testing.T) {
	t.Run("close_account", func(t *testing.T) {
		difftest.RunModes(t, closeAccountModes(t), closeAccountCases(), "FuzzDecodeCloseAccount")
	})
	t.Run("get_transactions", func(t *testing.T) {
		difftest.RunModes(t, getTransactionsModes(t), getTransactionsCases(), "FuzzDecodeGetTransactions")
	})
}

func FuzzModesCloseAccount(f *testing.F) {
	m := closeAccountModes(f)
	for _, c := range closeAccountCases() {
		if !c.Big() {
			f.Add([]byte(c.Args))
		}
	}
	f.Fuzz(func(t *testing.T, args []byte) { difftest.Same(t, m, args) })
}

func FuzzModesGetTransactions(f *testing.F) {
	m := getTransactionsModes(f)
	for _, c := range getTransactionsCases() {
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

func FuzzDecodeCloseAccount(f *testing.F) {
	s := closeAccountSubject(f)
	for _, c := range closeAccountCases() {
		if !c.Big() {
			f.Add([]byte(c.Args))
		}
	}
	f.Fuzz(func(t *testing.T, args []byte) { difftest.Check(t, s, args) })
}

func FuzzDecodeGetTransactions(f *testing.F) {
	s := getTransactionsSubject(f)
	for _, c := range getTransactionsCases() {
		if !c.Big() {
			f.Add([]byte(c.Args))
		}
	}
	f.Fuzz(func(t *testing.T, args []byte) { difftest.Check(t, s, args) })
}
