package unions

import (
	"testing"

	"github.com/toolgen/toolgen/internal/difftest"
)

// unionValues are values of the package's unions (Shape, told by "type"; Expr, by
// "op"; Secret, by "kind"): each variant, the tag anywhere, missing, of no variant, not
// a string, repeated; unions nested in unions and lists; sensitive variants.
var unionValues = []string{
	`{"type":"circle","radius":1}`, `{"radius":1,"type":"circle"}`, `{"radius":0,"type":"circle"}`,
	`{"type":"rectangle","width":1,"height":2,"unit":"cm","label":"door"}`, `{"width":-1,"height":"h","type":"rectangle","unit":"km","label":"too long a label"}`,
	`{"type":"group","name":"g","parts":[{"type":"circle","radius":1},{"type":"rectangle","width":1,"height":-1},{"type":"x"},{"radius":2}]}`,
	`{"type":"group","parts":[{"type":"group","name":"in","parts":[{"type":"circle"}]}]}`,
	`{"type":"nope"}`, `{"type":1}`, `{"type":null,"radius":1}`, `{"radius":1}`, `{}`,
	`{"type":"circle","type":"rectangle","radius":1}`, `{"type":"circle","radius":1,"width":2}`,
	`"{\"type\":\"circle\",\"radius\":1}"`, `[{"type":"circle","radius":1}]`, `[{"type":"circle","radius":-1},{"op":"num"}]`,
	`{"op":"add","left":{"op":"num","value":1},"right":{"value":2,"op":"num"}}`, `{"op":"add","left":{"op":"num"},"right":{"op":"sub"}}`,
	`{"op":"add","left":{"op":"add","left":{"op":"num","value":1.5},"right":{"op":"num","value":1}},"right":{"op":"num","value":"x"}}`,
	`{"op":"num","value":1,"extra":true}`, `{"value":1}`,
	`{"kind":"pin","code":"1234"}`, `{"kind":"pin","code":"12"}`, `{"code":"12"}`, `{"kind":"pin","code":12,"x":1}`, `{"kind":"card"}`,
	`{"a":{"type":"circle","radius":1},"b":{"type":"nope"}}`, `null`, `1`, `"circle"`,
}

// unionBases are valid arguments of each tool, for the matrix of values.
var unionBases = map[string]string{
	"echo_shape": `{"shape":{"type":"circle","radius":1}}`,
	"eval":       `{"e":{"op":"num","value":1}}`,
	"rect_area":  `{"width":1,"height":2}`,
	"shapes":     `{"shapes":[]}`,
	"unlock":     `{"secret":{"kind":"pin","code":"1234"}}`,
}

// TestDynamicDifferential: every tool of the package, through Tools() and as
// runtime.NewTool builds it from its input schema, agrees on every verdict, message
// and path, over a matrix of values for each property and each union's values.
func TestDynamicDifferential(t *testing.T) {
	ts := Tools()
	for _, tool := range ts.Tools() {
		t.Run(tool.Name, func(t *testing.T) {
			s := difftest.Twin{Tools: ts, Tool: tool.Name}
			props := difftest.PropertyNames(t, tool.InputSchema)
			base := unionBases[tool.Name]
			if base == "" {
				t.Fatalf("no valid arguments for %s", tool.Name)
			}
			cases := []difftest.Case{{Name: "base", Args: base}}
			cases = append(cases, difftest.Matrix(base, append(props, "unknown"))...)
			for _, p := range props {
				for _, v := range unionValues {
					cases = append(cases, difftest.Case{Name: p + "=" + v, Args: `{"` + p + `":` + v + `}`})
				}
			}
			difftest.RunPair(t, difftest.NewPair(t, s), cases)
		})
	}
}
