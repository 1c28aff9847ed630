// Package thousand is a generated package of 1,000 tools, each with its own small
// argument struct, for bench's BenchmarkToolset1000: how long a large generated package
// takes to get its Toolset ready. Its sources come from bench/internal/synth, its
// toolgen.gen.go and toolschema/ from toolgen.
package thousand

//go:generate go run ../internal/synth/gensynth -n 1000 -pkg thousand -compact -o .
//go:generate go run github.com/toolgen/toolgen/cmd/toolgen generate
