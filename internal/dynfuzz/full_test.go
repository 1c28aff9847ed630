package dynfuzz

import (
	"context"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen/toolgen/internal/difftest"
	"github.com/toolgen/toolgen/runtime"
)

// peer compiles schema with santhosh-tekuri/jsonschema, draft 2020-12, formats
// asserted, or returns nil when it refuses the schema.
func peer(schema string) *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		return nil
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if c.AddResource("dynfuzz:///full.json", doc) != nil {
		return nil
	}
	sch, err := c.Compile("dynfuzz:///full.json")
	if err != nil {
		return nil
	}
	return sch
}

// FuzzFullDifferential generates a schema of every keyword of draft 2020-12 the
// general engine reads, and arguments of any shape, and checks that the dynamic tool
// accepts exactly the arguments santhosh-tekuri/jsonschema holds valid, but where a
// leniency may apply (Lenient). NewTool must accept every schema the peer does.
func FuzzFullDifferential(f *testing.F) {
	for _, seed := range [][]byte{
		{}, []byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a"), []byte("schema and arguments"),
		[]byte("\x02\x05\x17\x03\x00\x09\x01\x0b\x18\x02\x00\x04\x01\x02\x03\x05\x07"),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fs, rest := GenerateFull(data)
		schema := fs.JSON()
		sch := peer(schema)
		if sch == nil {
			return // not a schema the peer takes (a keyword's value out of its range)
		}
		ts, err := runtime.NewTool(runtime.Tool{Name: "f", InputSchema: []byte(schema)}, echo)
		if err != nil {
			if strings.Contains(err.Error(), "reference cycle") {
				return // a schema that applies itself without end: refused by design
			}
			t.Fatalf("NewTool refuses a schema santhosh-tekuri takes: %v\n%s", err, schema)
		}
		for i := 0; i < 4; i++ {
			args := FullArgs(rest[min(i*len(rest)/4, len(rest)):])
			if Lenient(args) {
				continue
			}
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(args))
			if err != nil {
				t.Fatal(err)
			}
			verr := sch.Validate(doc)
			res := ts.Call(context.Background(), "f", []byte(args))
			if got := res.Outcome == runtime.OutcomeOK; got != (verr == nil) {
				why := "valid"
				if verr != nil {
					why = strings.Join(strings.Fields(verr.Error()), " ")
				}
				t.Fatalf("schema %s\nargs %s\nNewTool: %s\nsanthosh-tekuri: %s", schema, args, res.Text(), why)
			}
		}
	})
}

// FuzzFullCost holds compiling a schema of the general engine's grammar and calling
// the tool to difftest.CheckCost's bounds.
func FuzzFullCost(f *testing.F) {
	f.Add([]byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a"), []byte(`{"v":[1,2,3]}`))
	f.Add([]byte("\x02\x05\x17\x03\x00\x09\x01\x0b\x18\x02\x00\x04\x01\x02\x03\x05\x07"), []byte(`{"v":"{\"a\":\"x\"}"}`))
	f.Fuzz(func(t *testing.T, data, raw []byte) {
		fs, rest := GenerateFull(data)
		schema := []byte(fs.JSON())
		var ts *runtime.Toolset
		var err error
		difftest.CheckCost(t, "compile", schema, func() {
			ts, err = runtime.NewTool(runtime.Tool{Name: "f", InputSchema: schema}, echo)
		})
		if err != nil {
			return
		}
		for _, args := range [][]byte{raw, []byte(FullArgs(rest))} {
			difftest.CheckCost(t, "call", args, func() { ts.Call(context.Background(), "f", args) })
		}
	})
}
