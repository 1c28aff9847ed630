package generator

import (
	"path/filepath"
	"testing"

	"github.com/toolgen/toolgen/internal/dialectfiles"
	"github.com/toolgen/toolgen/runtime"
)

// TestSchemaGoldenAdapters checks that every golden dialect file is what the runtime's
// adapters send for the same tools, defined as the generated code defines them: the
// generator and the adapters lower with the same runtime/dialect.
func TestSchemaGoldenAdapters(t *testing.T) {
	for _, tc := range schemaCases() {
		t.Run(tc.name, func(t *testing.T) {
			set, err := buildSchemas(tc.pkg())
			if err != nil {
				t.Fatal(err)
			}
			var tools []runtime.Tool
			for _, ts := range set.tools {
				tools = append(tools, runtime.Tool{
					Name: ts.tool.Name, Description: ts.description(), // as the generated code writes it
					InputSchema: ts.inputJSON, OutputSchema: ts.outputJSON, Strict: ts.tool.Strict,
				})
			}
			dialectfiles.Check(t, runtime.NewToolset(tools, nil), filepath.Join(schemaGoldenDir, tc.name, SchemaDir))
		})
	}
}
