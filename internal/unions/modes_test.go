package unions

import (
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/toolgen/toolgen/internal/difftest"
	"github.com/toolgen/toolgen/runtime/invalid"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// The union decoders through table-driven decoding: the tables leave a union to its
// specialised decoder (a KFunc value), around which they read the rest; both modes must
// agree on every value, verdict, message and path.

func measureModes(t testing.TB) difftest.Modes[Measure] {
	return difftest.Modes[Measure]{
		Specialised: difftest.Subject[Measure]{Tool: "echo_shape", Decode: func(args []byte) (Measure, []invalid.Violation, bool) {
			d := toolimpl.NewDecoder(args, toolimpl.Limits{})
			var v Measure
			toolgenDecodeMeasure(d, &v)
			ok := d.Finish()
			return v, d.Violations(), ok
		}},
		Table: difftest.Subject[Measure]{Tool: "echo_shape", Decode: func(args []byte) (Measure, []invalid.Violation, bool) {
			i, ok := toolgenTwinIndex["echo_shape"]
			if !ok {
				t.Fatal("toolgen_table_test.go has no table for echo_shape")
			}
			d := toolimpl.NewDecoder(args, toolimpl.Limits{})
			var v Measure
			toolimpl.Decode(d, &toolgenTwinTables, i, unsafe.Pointer(&v))
			ok = d.Finish()
			return v, d.Violations(), ok
		}},
	}
}

var measureCases = []string{
	`{"shape":{"type":"circle","radius":1}}`,
	`{"shape":{"radius":1,"type":"circle"}}`,
	`{"shape":{"width":1,"height":2,"type":"rectangle","unit":"cm"}}`,
	`{"shape":{"type":"group","name":"g","parts":[{"radius":2,"type":"circle"},{"parts":[],"name":"h","type":"group"}]}}`,
	`{"shape":{"type":"circle","radius":1},"named":{"a":{"radius":1,"type":"circle"}},"spare":{"type":"rectangle","width":0,"height":0}}`,
	`{"shape":{"type":"circle","radius":1},"named":{"a":{"type":"hexagon"}},"spare":null,"x":1}`,
	`{"shape":{"type":"square"}}`, `{"shape":{"type":3}}`, `{"shape":{"radius":1}}`, `{}`, `null`, `[]`,
	`{"shape":"{\"type\":\"circle\",\"radius\":1}"}`,
	`{"shape":{"type":"circle","radius":1,"type":"circle"}}`,
	`{"shape":{"typ\u0065":"circle","radius":1}}`,
	`{"shape":{"parts":[{"parts":[{"parts":[],"name":"c","type":"group"}],"name":"b","type":"group"}],"name":"a","type":"group"}}`,
}

func TestModes(t *testing.T) {
	m := measureModes(t)
	for _, c := range measureCases {
		difftest.Same(t, m, []byte(c))
	}
	// And the corpus of FuzzUnionDecoder.
	seeds, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzUnionDecoder", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range seeds {
		args, err := difftest.ReadSeed(path)
		if err != nil {
			t.Fatal(err)
		}
		difftest.Same(t, m, args)
	}
	t.Logf("%d cases and %d seeds decoded the same by both modes", len(measureCases), len(seeds))
}

func FuzzModesMeasure(f *testing.F) {
	m := measureModes(f)
	for _, c := range measureCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, args []byte) { difftest.Same(t, m, args) })
}
