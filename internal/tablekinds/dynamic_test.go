package tablekinds

import (
	"os"
	"testing"

	"github.com/toolgen/toolgen/internal/difftest"
)

// TestDynamicDifferential runs kinds, every kind the tables describe, beside its dynamic
// twin (runtime.NewTool on toolschema/kinds.json): the same verdicts, violations and
// values. It holds the one Go duration with an enum among the schemas toolgen writes,
// which the dynamic engine compares as durations, as the generated decoder does.
func TestDynamicDifferential(t *testing.T) {
	schema, err := os.ReadFile("toolschema/kinds.json")
	if err != nil {
		t.Fatal(err)
	}
	s := difftest.Twin{
		Tools: Tools(), Tool: "kinds", Schema: difftest.InputSchemaOf(t, schema),
		Value: difftest.FromSubject(kindsModes(t).Specialised),
		GoTyped: map[string]string{
			"/big":    "a uint64: the schema has no maximum, the Go type's range is 2^64-1",
			"/small":  "an int8: its range is the Go type's, the schema says only the tag's bounds",
			"/factor": "a float32: the schema says number, the Go type's range is float32's",
			"/clock":  "a time.Time with layout=15:04: the schema has only its pattern",
		},
	}
	p := difftest.NewPair(t, s)
	var cases []difftest.Case
	for _, args := range kindsCases {
		cases = append(cases, difftest.Case{Args: args})
	}
	for _, step := range []string{`"1s"`, `"1m"`, `"60s"`, `"1000ms"`, `"2m"`, `"0s"`, `"x"`, `1`, `null`} {
		cases = append(cases, difftest.Case{Args: with(`"step":` + step)})
	}
	difftest.RunPair(t, p, cases)
}
