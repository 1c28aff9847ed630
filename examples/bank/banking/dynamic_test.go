package banking

import (
	"testing"

	"github.com/toolgen/toolgen/internal/difftest"
)

// The differential test of dynamic tools: each tool of the package, through
// ServiceTools and as runtime.NewTool builds it from toolschema/<tool>.json, over the
// package's differential corpus (see internal/difftest).

func dynamicSubjects(t testing.TB) []difftest.Twin {
	tools := ServiceTools(NewService(nil))
	return []difftest.Twin{
		{Tools: tools, Tool: "close_account", Schema: inputSchema(t, "close_account"), Value: difftest.FromSubject(closeAccountSubject(t))},
		{Tools: tools, Tool: "get_transactions", Schema: inputSchema(t, "get_transactions"), Value: difftest.FromSubject(getTransactionsSubject(t))},
	}
}

func dynamicCases(tool string) []difftest.Case {
	if tool == "close_account" {
		return closeAccountCases()
	}
	return getTransactionsCases()
}

func TestDynamicDifferential(t *testing.T) {
	for _, s := range dynamicSubjects(t) {
		t.Run(s.Tool, func(t *testing.T) { difftest.RunPair(t, difftest.NewPair(t, s), dynamicCases(s.Tool)) })
	}
}

// FuzzDynamic checks the differential property, and the dynamic decoding's cost, on
// both tools (the first argument chooses).
func FuzzDynamic(f *testing.F) {
	subjects := dynamicSubjects(f)
	for i, s := range subjects {
		for _, c := range dynamicCases(s.Tool) {
			if !c.Big() {
				f.Add(i == 1, []byte(c.Args))
			}
		}
	}
	f.Fuzz(func(t *testing.T, transactions bool, args []byte) {
		s := subjects[0]
		if transactions {
			s = subjects[1]
		}
		difftest.CachedPair(t, s).Check(t, args)
	})
}
