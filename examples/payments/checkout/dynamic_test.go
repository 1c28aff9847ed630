package checkout

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgen/toolgen/internal/difftest"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// The differential test of the union example: pay_invoice, whose method is a tagged
// union, through ShopTools and as runtime.NewTool builds it from
// toolschema/pay_invoice.json, over internal/difftest's structural cases, its matrix
// of values for every property and the union's own cases (the tag anywhere, missing,
// of no variant, not a string, repeated; each variant's violations). The two must
// agree on every verdict, message and path, and on the value decoded.

const validPay = `{"invoice":"inv-1","method":{"type":"card","number":"4111111111111111","expiry":"12/29"}}`

var unionCases = []difftest.Case{
	{Name: "tag last", Args: `{"invoice":"inv-1","method":{"number":"4111111111111111","expiry":"12/29","type":"card"}}`},
	{Name: "bank", Args: `{"invoice":"inv-2","method":{"iban":"DE89370400440532013000","type":"bank_transfer","reference":"r"}}`},
	{Name: "tag missing", Args: `{"invoice":"inv-1","method":{"number":"4111111111111111","expiry":"12/29"}}`},
	{Name: "tag of no variant", Args: `{"invoice":"inv-1","method":{"type":"cash"}}`},
	{Name: "tag not a string", Args: `{"invoice":"inv-1","method":{"type":["card"]}}`},
	{Name: "tag null", Args: `{"invoice":"inv-1","method":{"type":null,"iban":"x"}}`},
	{Name: "tag twice", Args: `{"invoice":"inv-1","method":{"type":"card","type":"bank_transfer","number":"4111111111111111","expiry":"12/29"}}`},
	{Name: "tag twice, same", Args: `{"invoice":"inv-1","method":{"type":"card","number":"4111111111111111","type":"card","expiry":"12/29"}}`},
	{Name: "another variant's property", Args: `{"invoice":"inv-1","method":{"type":"card","number":"4111111111111111","expiry":"12/29","iban":"DE89370400440532013000"}}`},
	{Name: "sensitive number", Args: `{"invoice":"inv-1","method":{"type":"card","number":"1234","expiry":"13/29"}}`},
	{Name: "bank missing iban", Args: `{"invoice":"inv-1","method":{"type":"bank_transfer","reference":"a reference longer than thirty-five characters"}}`},
	{Name: "method as a string", Args: `{"invoice":"inv-1","method":"{\"type\":\"bank_transfer\",\"iban\":\"DE89370400440532013000\"}"}`},
	{Name: "tag in a nested object only", Args: `{"invoice":"inv-1","method":{"holder":{"type":"card"}}}`},
	{Name: "malformed after the tag", Args: `{"invoice":"inv-1","method":{"type":"card","number":}}`},
	{Name: "malformed before the tag", Args: `{"invoice":"inv-1","method":{"number":,"type":"card"}}`},
	{Name: "everything wrong", Args: `{"invoice":"x","method":{"type":"bank_transfer","iban":1,"number":"1"},"y":1}`},
}

func payTwin(t testing.TB) difftest.Twin {
	b, err := os.ReadFile(filepath.Join("toolschema", "pay_invoice.json"))
	if err != nil {
		t.Fatal(err)
	}
	return difftest.Twin{
		Tools: ShopTools(New()), Tool: "pay_invoice", Schema: difftest.InputSchemaOf(t, b),
		Value: func(args []byte) (json.RawMessage, error) {
			d := toolimpl.NewDecoder(args, toolimpl.Limits{})
			var v toolgenArgsPayInvoice
			toolgenDecodeArgsPayInvoice(d, &v)
			if !d.Finish() {
				return nil, fmt.Errorf("the generated decoder refuses what its Toolset accepted: %v", d.Violations())
			}
			return json.Marshal(map[string]any{"invoice": v.invoice, "method": v.method})
		},
	}
}

func TestDynamicDifferential(t *testing.T) {
	s := payTwin(t)
	cases := difftest.Structural(validPay, "invoice", `"inv-1"`)
	cases = append(cases, difftest.Matrix(validPay, append(difftest.PropertyNames(t, s.Schema), "unknown"))...)
	cases = append(cases, unionCases...)
	for _, v := range difftest.Values {
		cases = append(cases, difftest.Case{Name: "number=" + v, Args: `{"invoice":"inv-1","method":{"type":"card","number":` + v + `,"expiry":"12/29"}}`})
	}
	difftest.RunPair(t, difftest.NewPair(t, s), cases)
}

// FuzzDynamic checks the differential property, and the dynamic decoding's cost, on
// pay_invoice.
func FuzzDynamic(f *testing.F) {
	s := payTwin(f)
	f.Add([]byte(validPay))
	for _, c := range unionCases {
		f.Add([]byte(c.Args))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		difftest.CachedPair(t, s).Check(t, args)
	})
}

// BenchmarkUnion measures pay_invoice's arguments read by the generated decoder and by
// its dynamic twin (the interpreter of the same schema), the tag first and last, through
// Toolset.Call (the generated tool's run finds the invoice paid after the first call
// and answers an error; the dynamic twin's echoes the arguments: both cheap).
func BenchmarkUnion(b *testing.B) {
	s := payTwin(b)
	p := difftest.NewPair(b, s)
	for _, c := range []struct{ name, args string }{
		{"tag=first", validPay},
		{"tag=last", `{"invoice":"inv-1","method":{"number":"4111111111111111","expiry":"12/29","holder":"Ada Lovelace","type":"card"}}`},
	} {
		args := []byte(c.args)
		for _, e := range []struct {
			name string
			ts   *runtime.Toolset
		}{{"generated", s.Tools}, {"dynamic", p.Dynamic()}} {
			b.Run(c.name+"/"+e.name, func(b *testing.B) {
				b.SetBytes(int64(len(args)))
				b.ReportAllocs()
				for b.Loop() {
					if r := e.ts.Call(context.Background(), "pay_invoice", args); r.Outcome == runtime.OutcomeInvalidArguments {
						b.Fatal(r.Text())
					}
				}
			})
		}
	}
}
