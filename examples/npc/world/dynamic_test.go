package world

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgen/toolgen/internal/difftest"
	"github.com/toolgen/toolgen/runtime/invalid"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// The differential test of dynamic tools: each tool of the package, through
// WorldTools and as runtime.NewTool builds it from toolschema/<tool>.json, over
// internal/difftest's structural cases and a matrix of values for every property (see
// internal/difftest). The package has no corpus of its own.

func inputSchema(t testing.TB, tool string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("toolschema", tool+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return difftest.InputSchemaOf(t, b)
}

// decoded returns the Value of a tool whose arguments are the struct T.
func decoded[T any](decode func(d *toolimpl.Decoder, v *T)) func([]byte) (json.RawMessage, error) {
	return difftest.FromSubject(difftest.Subject[T]{Decode: func(args []byte) (T, []invalid.Violation, bool) {
		d := toolimpl.NewDecoder(args, toolimpl.Limits{})
		var v T
		decode(d, &v)
		ok := d.Finish()
		return v, d.Violations(), ok
	}})
}

var npcValid = map[string]struct{ valid, key, value string }{
	"get_npc_health": {`{"npc":"borin"}`, "npc", `"borin"`},
	"give_quest":     {`{"npc":"mira","quest":"lost_ring","reward":50,"note":"mind the wolves"}`, "quest", `"lost_ring"`},
	"open_door":      {`{"door":"cellar"}`, "door", `"cellar"`},
}

func TestDynamicDifferential(t *testing.T) {
	tools := WorldTools(New())
	values := map[string]func([]byte) (json.RawMessage, error){
		"get_npc_health": decoded(toolgenDecodeHealthQuery),
		"give_quest":     decoded(toolgenDecodeQuestOffer),
		"open_door":      decoded(toolgenDecodeDoorRequest),
	}
	for _, tool := range tools.Tools() {
		t.Run(tool.Name, func(t *testing.T) {
			v := npcValid[tool.Name]
			s := difftest.Twin{Tools: tools, Tool: tool.Name, Schema: inputSchema(t, tool.Name), Value: values[tool.Name]}
			cases := difftest.Structural(v.valid, v.key, v.value)
			cases = append(cases, difftest.Matrix(v.valid, append(difftest.PropertyNames(t, s.Schema), "unknown"))...)
			cases = append(cases,
				difftest.Case{Name: "reward 500", Args: `{"npc":"mira","quest":"lost_ring","reward":500}`},
				difftest.Case{Name: "reward 501", Args: `{"npc":"mira","quest":"lost_ring","reward":501}`},
				difftest.Case{Name: "reward -1", Args: `{"npc":"mira","quest":"lost_ring","reward":-1}`},
				difftest.Case{Name: "everything wrong", Args: `{"npc":"bob","quest":1,"reward":1e30,"note":null,"x":2}`},
			)
			difftest.RunPair(t, difftest.NewPair(t, s), cases)
		})
	}
}
