package dialectfiles_test

import (
	"testing"

	"github.com/toolgen/toolgen/examples/bank/banking"
	"github.com/toolgen/toolgen/examples/npc/world"
	"github.com/toolgen/toolgen/examples/weather/forecast"
	"github.com/toolgen/toolgen/internal/conformance"
	"github.com/toolgen/toolgen/internal/dialectfiles"
	"github.com/toolgen/toolgen/internal/hostile"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/dialect"
)

// Every checked-in toolschema dialect file of the examples and of the conformance and
// hostile packages is what the adapters send for the same tools. (The generator's
// golden files are checked the same way by generator's TestSchemaGoldenAdapters.)
func TestCheckedInFiles(t *testing.T) {
	for _, c := range []struct {
		dir string
		ts  *runtime.Toolset
	}{
		{"../../examples/bank/banking/toolschema", banking.ServiceTools(&banking.Service{})},
		{"../../examples/npc/world/toolschema", world.WorldTools(&world.World{})},
		{"../../examples/weather/forecast/toolschema", forecast.Tools()},
		{"../conformance/toolschema", runtime.Join(conformance.Tools(), conformance.StoreTools(&conformance.Store{}))},
		{"../hostile/toolschema", hostile.VaultTools(&hostile.Vault{})},
	} {
		if c.ts.Len() == 0 {
			t.Errorf("%s: no tools", c.dir)
		}
		dialectfiles.Check(t, c.ts, c.dir)
	}
}

// BenchmarkLower measures the one-off cost of lowering a tool's input schema for the
// three providers, as the adapters do the first time they list it: per tool of the
// conformance package (its schemas are larger than most).
func BenchmarkLower(b *testing.B) {
	tools := runtime.Join(conformance.Tools(), conformance.StoreTools(&conformance.Store{})).Tools()
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range tools {
			dialect.OpenAI(t.InputSchema, t.Strict)
			dialect.Anthropic(t.InputSchema, t.Strict)
			dialect.Gemini(t.InputSchema)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(tools)), "ns/tool")
}
