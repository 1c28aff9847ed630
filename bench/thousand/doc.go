// Package thousand is a generated package of 1,000 tools, each with its own small
// argument struct, for bench's BenchmarkToolset1000: how long a large generated package
// takes to get its Toolset ready. Its sources come from bench/internal/synth, its
// toolgen.gen.go and toolschema/ from toolgen.
//
// Only this file is committed: the rest (7 MB) is generated on demand, in the bench
// module, by
//
//	go generate ./thousand
//
// which bench/run.sh and .ci/run run first. Until then, Generated is nil and the tests
// and benchmarks that need the package skip.
package thousand

import "github.com/toolgen/toolgen/runtime"

//go:generate go run ../internal/synth/gensynth -n 1000 -pkg thousand -compact -o .
//go:generate go tool toolgen generate
//go:generate go run ../internal/synth/gensynth -register -pkg thousand -o .

// Generated is the generated Tools function of the package once it is generated (the
// generated register.go sets it), nil before. It is a variable, not a call of Tools,
// so that the package builds, empty, before it is generated.
var Generated func() *runtime.Toolset
