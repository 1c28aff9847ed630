package dynfuzz

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen/toolgen/internal/difftest"
	"github.com/toolgen/toolgen/runtime"
)

func echo(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
	return runtime.TextResult(string(args)), nil
}

// validator compiles schema with santhosh-tekuri/jsonschema, draft 2020-12, formats
// asserted.
func validator(t *testing.T, schema string) *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		t.Fatalf("the generated schema is not JSON: %v\n%s", err, schema)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("dynfuzz:///s.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("dynfuzz:///s.json")
	if err != nil {
		t.Fatalf("santhosh-tekuri/jsonschema refuses the generated schema: %v\n%s", err, schema)
	}
	return sch
}

// FuzzDifferential generates a schema and arguments from the fuzz input, and checks
// that whenever NewTool accepts the schema, the dynamic tool accepts exactly the
// arguments that santhosh-tekuri/jsonschema holds valid (Normalized: the leniencies
// and the Go range of integers modeled).
func FuzzDifferential(f *testing.F) {
	for _, seed := range [][]byte{
		{}, []byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a"), []byte("schema and arguments"),
		[]byte("\x00\x04\x01\x00\x00\x00\x00\x00\x03\x02\x00\x01\x00\x02\x01"),
		// Schemas with tagged unions of two variants or more.
		[]byte("\xc5!?q\xeb$\xceF\xb0\xd3npMp\xde\"\xa9c\xfb+"),
		[]byte("\x98\x1a\xea\xc4\x18\x8b\x86\x96\x06\t{W\xbb1lc\x9e\xc6DlH\xce"),
		[]byte("\xf5)\x8bq<0#\xdaq\xa2\xaes"),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		root, defs, rest := Generate(data)
		schema := root.JSON(defs)
		ts, err := runtime.NewTool(runtime.Tool{Name: "f", InputSchema: json.RawMessage(schema)}, echo)
		if err != nil {
			return // a schema NewTool refuses is not compared
		}
		sch := validator(t, schema)
		for i := 0; i < 4; i++ {
			v := Args(root, defs, rest[min(i*len(rest)/4, len(rest)):])
			args := v.JSON()
			norm, inRange := Normalized(root, defs, v)
			if norm == nil {
				norm = map[string]any{} // null arguments are {}
			}
			// Through JSON, so that the validator sees what it would parse.
			b, _ := json.Marshal(norm)
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			verr := sch.Validate(doc)
			// The Go range and float64 rounding are the toolgen engine's: the general
			// engine, which reads a schema with a keyword beside no type, compares
			// numbers exactly at any size.
			want := verr == nil && (inRange || UsesGeneral(root, defs))
			res := ts.Call(context.Background(), "f", []byte(args))
			if got := res.Outcome == runtime.OutcomeOK; got != want {
				why := "valid"
				if verr != nil {
					why = strings.Join(strings.Fields(verr.Error()), " ")
				} else if !inRange {
					why = "an integer past its Go range"
				}
				t.Fatalf("verdicts differ\nschema: %s\nargs:   %s\nnormalized: %s\njsonschema: %s\ndynamic: %s", schema, args, b, why, res.Text())
			}
			if res.Outcome != runtime.OutcomeOK && res.Outcome != runtime.OutcomeInvalidArguments {
				t.Fatalf("outcome %s: %s", res.Outcome, res.Text())
			}
		}
	})
}

// FuzzSchemaCost generates a schema and arguments from the fuzz input and holds both
// compiling the schema and calling the tool to difftest.CheckCost's bounds: the
// schema's bytes for compiling, the arguments' for a call.
func FuzzSchemaCost(f *testing.F) {
	f.Add([]byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a"), []byte(`{"a":[1,2,3]}`))
	f.Add([]byte("\x00\x04\x01\x00\x00\x00\x00\x00\x03\x02\x00\x01\x00\x02\x01"), []byte(`"{\"a\":\"x\"}"`))
	f.Fuzz(func(t *testing.T, data, raw []byte) {
		root, defs, rest := Generate(data)
		schema := []byte(root.JSON(defs))
		var ts *runtime.Toolset
		var err error
		difftest.CheckCost(t, "compile", schema, func() {
			ts, err = runtime.NewTool(runtime.Tool{Name: "f", InputSchema: schema}, echo)
		})
		if err != nil {
			return
		}
		for _, args := range [][]byte{raw, []byte(Args(root, defs, rest).JSON())} {
			difftest.CheckCost(t, "call", args, func() { ts.Call(context.Background(), "f", args) })
		}
	})
}
