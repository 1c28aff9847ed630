package forecast

import (
	"testing"

	"github.com/toolgen/toolgen/internal/difftest"
)

// The differential test of dynamic tools: each tool of the package, through Tools()
// and as runtime.NewTool builds it from toolschema/<tool>.json, over the package's
// differential corpus (see internal/difftest).

func dynamicSubjects(t testing.TB) []difftest.Twin {
	return []difftest.Twin{
		{Tools: Tools(), Tool: "get_weather", Schema: inputSchema(t, "get_weather"), Value: difftest.FromSubject(getWeatherSubject(t))},
		{Tools: Tools(), Tool: "hello_world", Schema: inputSchema(t, "hello_world"), Value: difftest.FromSubject(helloWorldSubject(t))},
	}
}

func dynamicCases(tool string) []difftest.Case {
	if tool == "get_weather" {
		return getWeatherCases()
	}
	return helloWorldCases()
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
	f.Fuzz(func(t *testing.T, hello bool, args []byte) {
		s := subjects[0]
		if hello {
			s = subjects[1]
		}
		difftest.CachedPair(t, s).Check(t, args)
	})
}
